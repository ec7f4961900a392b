"""End to end in a real browser (Playwright driving Debian's Chromium): the game played by clicks alone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect

from ohhell import records
from server.serving import RunningServer
from server.tablepage import ALLOWED_BID, PLAYABLE_CARD, TablePage, number_where_you_deal_first

pytestmark = pytest.mark.browser


@pytest.fixture
def table(page: Page, server: RunningServer) -> TablePage:
    return TablePage(page, server.url)


def dealer_game(table: TablePage) -> None:
    """A short game in which you deal first and the hook forbids you a bid: the three computers bid before you."""
    number = number_where_you_deal_first()
    for _ in range(20):
        table.new_game("short", number=number)
        if table.page.locator(".bid-button.forbidden").count():
            return
        number = number_where_you_deal_first(start=number + 1)
    raise AssertionError("no deal number gave the dealer a forbidden bid")


def test_a_whole_short_game_is_played_to_the_final_score_sheet_by_clicks_alone(table: TablePage) -> None:
    table.new_game("short")
    table.play_until("over", limit=200)
    page = table.page
    expect(page.locator(".sheet tbody tr")).to_have_count(9)
    # "You win with 57 points." or, after a tie (it happens), "Shared win: You and Alice, 59 points each."
    expect(page.locator("#result")).to_have_text(re.compile(r"wins? with \d+ points?\.|^Shared win: .+ points? each\."))
    assert page.locator(".sheet tfoot .winner").count() >= 1
    expect(page.locator(".hand-over .panel-title")).to_have_text("Game over")
    expect(page.locator(".sheet tbody tr").first.locator("td").first).to_contain_text("/")


def test_the_dealers_forbidden_bid_is_disabled_with_its_label(table: TablePage) -> None:
    dealer_game(table)
    page = table.page
    forbidden = page.locator(".bid-button.forbidden")
    expect(forbidden).to_have_count(1)
    expect(forbidden).to_be_disabled()
    expect(forbidden).to_contain_text("Not allowed")
    style = forbidden.locator(".bid-number").evaluate("n => getComputedStyle(n).textDecorationLine")
    assert "line-through" in style
    expect(page.locator("#forbidden-reason")).to_contain_text("may not bid")
    expect(page.locator(".center-panel .panel-bar")).to_contain_text("bid for 5 tricks")
    expect(page.locator(".bids-so-far")).to_contain_text("Bids so far")
    buttons = page.locator(".center-panel .bid-button")
    expect(buttons).to_have_count(6)  # 0 to 5 in the 5-card hand


def test_hint_and_why_show_text(table: TablePage) -> None:
    dealer_game(table)
    page = table.page
    page.click("#hint-button")
    expect(page.locator("#notice")).to_contain_text("Hint: Bid")
    expect(page.locator(".bid-button.hinted")).to_have_count(1)
    page.click("#why-button")
    reasons = page.locator("#why-list li")
    expect(reasons).to_have_count(3)
    expect(reasons.first).to_contain_text("bid")
    assert all(len(text) > 30 for text in reasons.all_inner_texts())
    page.keyboard.press("Escape")
    expect(page.locator("#why-dialog")).not_to_be_visible()
    table.step()
    table.wait_ready()
    page.click("#hint-button")
    expect(page.locator("#notice")).to_contain_text("Hint: Play the")
    expect(page.locator(".hand-card.hinted")).to_have_count(1)


def test_show_all_hands_after_the_hand(table: TablePage) -> None:
    table.new_game("short")
    expect(table.page.locator("#hands-button")).to_be_disabled()
    table.play_until("next")
    page = table.page
    table.tool("#hands-button")
    dialog = page.locator("#hands-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".all-hand")).to_have_count(4)
    for section in dialog.locator(".mini-hand").all():
        expect(section.locator("img")).to_have_count(5)
    page.keyboard.press("Escape")
    page.click(".hand-over button:has-text('Show All Hands')")
    expect(dialog).to_be_visible()


def test_giving_up_asks_first_then_ends_the_game(table: TablePage) -> None:
    table.new_game("short")
    table.step()
    page = table.page
    table.tool("#resign-button")
    expect(page.locator("#resign-dialog")).to_be_visible()
    page.click("#resign-dialog button:has-text('Keep playing')")
    expect(page.locator("#resign-dialog")).to_be_hidden()
    assert table.wait_ready() in ("bid", "play")
    table.tool("#resign-button")
    page.click("#resign-confirm")
    expect(page.locator(".hand-over .panel-title")).to_have_text("Game over")
    expect(page.locator("#result")).to_contain_text("You gave up.")
    expect(page.locator("#resign-button")).to_be_disabled()
    page.reload()
    expect(page.locator("#result")).to_contain_text("You gave up.")
    expect(page.locator(".hand-over a.button.primary")).to_have_text("New game")


def test_the_last_trick_can_be_looked_at_again(table: TablePage) -> None:
    table.new_game("short")
    while table.page.locator("#last-trick-button").is_disabled():
        table.step()
    table.page.click("#last-trick-button")
    expect(table.page.locator("#last-trick-cards li")).to_have_count(4)
    expect(table.page.locator("#last-trick-note")).to_contain_text("the trick")


def test_an_illegal_card_says_why(table: TablePage) -> None:
    table.new_game("short")
    page = table.page
    for _ in range(200):
        kind = table.wait_ready()
        unplayable = page.locator(".hand.your-turn .hand-card.unplayable")
        if kind == "play" and unplayable.count():
            unplayable.first.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
            expect(page.locator("#notice")).to_contain_text("You must follow")
            return
        table.step()
    pytest.skip("no hand of this game needed a card that may not be played")


def test_reloading_mid_hand_resumes_the_same_state(table: TablePage) -> None:
    table.new_game("short")
    table.play_until("play")
    table.step()
    table.wait_ready()
    before = table.table_text()
    table.page.reload()
    table.wait_ready()
    assert table.table_text() == before


def test_the_seal_is_checked_at_the_end_and_play_these_cards_again_is_practice_with_the_same_cards(
    table: TablePage,
) -> None:
    table.new_game("short")
    page = table.page
    first_url, hand = page.url, table.hand()
    expect(page.locator("#deal-number")).to_have_text("sealed")
    expect(page.locator("#seal")).to_contain_text("A secret number fixed every hand")
    expect(page.locator("#replay-button")).to_be_disabled()  # its number would show every hand still to come
    table.play_until("over", limit=200)
    expect(page.locator("#seal-check")).to_have_attribute("data-match", "true")  # crypto.subtle, in the page
    number = page.inner_text("#deal-number")
    assert number.isdigit()
    expect(page.locator("#seal")).to_contain_text(f"ohhell-commit/1:{number}:")
    page.click(".hand-over .replay-deal")
    expect(page.locator("#replay-dialog")).to_contain_text("practice")
    page.click("#replay-confirm")
    page.wait_for_url(lambda url: url != first_url)
    table.wait_ready()
    expect(page.locator("#practice-badge")).to_be_visible()
    expect(page.locator("#seal")).to_contain_text("no XP")
    assert page.inner_text("#deal-number") == number  # the person who chose it sees it
    assert table.hand() == hand


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[RunningServer]:
    running = RunningServer(f"sqlite:///{tmp_path / 'restart.sqlite3'}", log_path=tmp_path / "server.log").start()
    yield running
    running.stop()


def test_a_server_restart_mid_game_resumes(page: Page, own_server: RunningServer) -> None:
    table = TablePage(page, own_server.url)
    table.new_game("short")
    table.play_until("play")
    table.step()
    table.wait_ready()
    before = table.table_text()
    own_server.stop()
    expect(page.locator("#connection")).to_be_visible()
    own_server.start()
    expect(page.locator("#connection")).to_be_hidden(timeout=20_000)
    table.wait_ready()
    assert table.table_text() == before
    assert table.step() in ("play", "bid", "next")


def test_every_control_is_reachable_by_keyboard_and_named(table: TablePage) -> None:
    dealer_game(table)
    page = table.page
    page.click("#tool-menu summary")  # the More menu open: its items are checked too
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, a[href], input, select')]
            .filter(e => e.checkVisibility())
            .filter(e => !((e.getAttribute('aria-label') || e.innerText || e.labels?.[0]?.innerText || '').trim()))
            .map(e => e.outerHTML)"""
    )
    assert unnamed == []
    assert page.evaluate("() => [...document.images].every(img => img.hasAttribute('alt'))")
    page.keyboard.press("Escape")
    page.locator("#main").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.bid-button:not([disabled])')"):
            break
    else:
        raise AssertionError("Tab never reached a bid button")
    before = table.version()
    page.keyboard.press("Enter")
    table.wait_moved_on(before)
    table.play_until("play")
    for _ in range(80):
        if page.evaluate("() => document.activeElement.matches('.hand-card.playable')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached a card you may play")
    card = page.evaluate("() => document.activeElement.dataset.card")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert " of " in label
    before = table.version()
    page.keyboard.press("Enter")
    table.wait_moved_on(before)
    assert card not in table.hand()


def test_a_phone_sized_screen_plays_without_sideways_scrolling(browser: Browser, server: RunningServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        table = TablePage(context.new_page(), server.url)
        table.new_game("short")
        page = table.page
        for _ in range(12):
            kind = table.wait_ready()
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), kind
            target = page.locator(ALLOWED_BID if kind == "bid" else PLAYABLE_CARD).first
            if kind in ("bid", "play"):
                box = target.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            table.step()
        expect(page.locator("#sheet")).to_be_visible()
    finally:
        context.close()


def test_your_games_can_be_resumed_replayed_trick_by_trick_and_downloaded(table: TablePage) -> None:
    table.new_game("short")
    table.play_until("next")
    page = table.page
    game_url = page.url
    page.goto(f"{table.base_url}/")
    item = page.locator(".game-item").first
    expect(item).to_contain_text("Hand 1 of 9")
    item.locator("text=Watch trick by trick").click()
    expect(page.locator("#replay-step")).to_contain_text("as dealt")
    page.click("#replay-next")
    expect(page.locator("#replay-step")).to_contain_text("trick 1 of 5")
    expect(page.locator("#replay-trick-cards li")).to_have_count(4)
    page.goto(f"{table.base_url}/")
    with page.expect_download() as download:
        page.locator(".game-item").first.locator("text=Download record").click()
    record = json.loads(Path(download.value.path()).read_text())
    status, result = records.check(record)
    assert status == 0
    assert len(result["deals"]) == 1
    page.locator(".game-item").first.locator(".game-link").click()
    page.wait_for_url(game_url)
    assert table.wait_ready() == "next"


# A click on a control, and at once (before any answer can come: the page's script runs one thing at a time)
# whether the page still offers a move: a second click must find nothing to press.
CLICK_AND_LOOK: Final = """selector => {
  document.querySelector(selector).click();
  const bids = [...document.querySelectorAll('.center-panel .bid-button')].filter(b => !b.disabled).length;
  const cards = document.querySelectorAll('.hand.your-turn .hand-card.playable:not([aria-disabled="true"])').length;
  return bids + cards;
}"""


def test_a_bid_or_card_sent_holds_its_controls_until_the_answer(table: TablePage) -> None:
    """Issue 22, problem 6: a double click sent the move twice; the second was refused as stale."""
    table.new_game("short", number=number_where_you_deal_first())
    page = table.page
    assert table.wait_ready() == "bid"
    assert page.evaluate(CLICK_AND_LOOK, ALLOWED_BID) == 0
    table.play_until("play")
    assert page.evaluate(CLICK_AND_LOOK, PLAYABLE_CARD) == 0
    page.locator("#hand .hand-card").first.dblclick()  # whatever it meets, a second click is not "moved on"
    table.wait_ready()
    expect(page.locator("#notice")).not_to_contain_text("moved on")
