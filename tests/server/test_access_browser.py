"""The table for everyone, in Debian's Chromium: a hand played by keyboard alone while the live region tells the play
in order, the read-out keys, the focus following the play, the four-colour pack and high contrast of the Table
settings (at the table and in the replay), reduced motion, and axe-core on every page of the site, the table in each
phase solo and shared and a spectator's page included (no serious or critical violation)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ohhell import records
from ohhell.cards import card_name, parse_card
from server.axe import serious_violations
from server.serving import RunningServer
from server.tablepage import (
    ALLOWED_BID,
    GAME_OVER,
    NEXT_HAND,
    PLAYABLE_CARD,
    TablePage,
    number_where_you_deal_first,
    offered,
    use_settings,
)

pytestmark = pytest.mark.browser

HEARD_JS: Final = """() => {
  window.heard = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) window.heard.push(node.textContent);
  }).observe(document.getElementById('announcer'), { childList: true });
}"""
"""Every sentence that goes into the live region from the start, kept by the test (the page keeps only the latest)."""

IDLE: Final = "() => document.getElementById('game').dataset.idle === 'true'"
MY_MOVE: Final = f"""() => ({IDLE})() && !!document.querySelector(
  '.center-panel.bidding:not([hidden]), .hand.your-turn .hand-card.playable, {NEXT_HAND}, {GAME_OVER}')"""
FOCUS: Final = "() => { const a = document.activeElement; return a === document.body ? 'body' : a.id || a.className; }"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A browser of its own whose table settings play no card for the person; axe-core may be put into its pages."""
    context = browser.new_context(bypass_csp=True)
    use_settings(context, {"forcedCard": False, "speed": "instant"})
    yield context
    context.close()


def heard(page: Page) -> list[str]:
    sentences: list[str] = page.evaluate("() => window.heard")
    return sentences


def keyboard_to(page: Page, selector: str, presses: int = 80) -> None:
    """Press Tab until the element of ``selector`` has the focus."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_new_game(page: Page, base: str, number: int) -> None:
    """New game by keyboard alone: Tab to the rules, arrows to "short", Tab to the deal number, type it, Enter."""
    page.goto(f"{base}/")
    keyboard_to(page, "#preset")
    for _ in range(20):
        at, wanted = page.evaluate(
            "() => [preset.selectedIndex, [...preset.options].findIndex(o => o.value === 'short')]"
        )
        if at == wanted:
            break
        page.keyboard.press("ArrowDown" if wanted > at else "ArrowUp")
    assert page.eval_on_selector("#preset", "s => s.value") == "short"
    keyboard_to(page, "#number")
    page.keyboard.type(str(number))
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/*")


def expected_sentences(record: dict[str, Any], hand: list[str]) -> list[str]:
    """What the live region should say from the first bid to the end of the first hand, from the game's record:
    each bid and card in the server's words, "Your turn ..." before each of your moves, each trick's winner."""
    names = ["You", *record["players"][1:]]
    game = records.loads(json.dumps(record))
    tricks = iter(game.deals[0].tricks)
    sentences: list[str] = []
    played = 0
    for entry in record["deals"][0]["actions"]:
        seat_text, verb, value = entry.split(" ")
        seat = int(seat_text)
        if verb == "bid":
            if seat == 0:
                sentences.append("Your turn to bid.")
            sentences.append(f"{names[seat]} bid {value}.")
        else:
            if seat == 0:
                sentences.append("Your turn to play, you lead." if played % 4 == 0 else "Your turn to play.")
            sentences.append(f"{names[seat]} played the {card_name(parse_card(value))}.")
            played += 1
            if played % 4 == 0:
                winner = names[next(tricks).winner]
                sentences.append(f"{winner} take{'' if winner == 'You' else 's'} the trick.")
    assert played == 4 * len(hand)
    return sentences


def test_a_whole_hand_is_played_by_keyboard_alone_and_the_live_region_tells_it_in_order(
    context: BrowserContext, server: RunningServer
) -> None:
    page = context.new_page()
    page.set_default_timeout(20_000)
    context.add_init_script(f"document.addEventListener('DOMContentLoaded', {HEARD_JS})")
    keyboard_new_game(page, server.url, number_where_you_deal_first())
    game_url = page.url
    page.wait_for_function(MY_MOVE)
    # you deal: the computer players bid first, then the focus is on the bidding panel (not a button: Enter bids
    # nothing), and the lowest bid allowed is typed
    assert page.evaluate(FOCUS) == "center-panel"
    hand = page.eval_on_selector_all("#hand .hand-card", "cards => cards.map(c => c.getAttribute('aria-label'))")
    assert len(hand) == 5 and all(
        re.fullmatch(r"(Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)", c) for c in hand
    )
    page.keyboard.press("c")  # the cards read out, by suit
    assert re.fullmatch(r"Your 5 cards: .+\.", heard(page)[-1])
    page.keyboard.press("h")  # the Hint, an alert a screen reader reads at once; the focus stays on the panel
    expect(page.locator("#notice[role='alert']")).to_contain_text("Hint: Bid")
    page.keyboard.press("w")  # Why?: a dialog; Escape closes it and gives the focus back
    expect(page.locator("#why-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#why-dialog")).to_be_hidden()
    assert page.evaluate(FOCUS) == "center-panel"
    bid = page.eval_on_selector(".bid-button:not([disabled])", "b => b.dataset.bid")
    assert page.eval_on_selector(".bid-button:not([disabled])", "b => b.getAttribute('aria-label')") == f"Bid {bid}"
    page.keyboard.press(bid)
    for _ in range(5):
        page.wait_for_function(MY_MOVE)
        # your card: the focus is on a card you may play; the arrows go to the last one you may play, Enter plays it
        assert "playable" in page.evaluate(FOCUS).split()
        for _ in range(12):
            if page.evaluate("() => !document.activeElement.nextElementSibling?.matches('.playable')"):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("t")  # the trick read out
        assert heard(page)[-1].startswith(("Trick ", "No card on the table."))
        card = page.evaluate("() => document.activeElement.dataset.card")
        page.keyboard.press("?")  # a dialog while the table is drawn again (the window resized): its card is new
        page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        page.keyboard.press("Escape")
        page.wait_for_function("card => document.activeElement.dataset.card === card", arg=card)  # not the body
        held = page.locator("#hand .hand-card").count()
        page.keyboard.press("Enter")
        # the card has left the hand (a change that stays: on a loaded machine the whole trick may be over, and the
        # next one come back to you, between two of the page's frames), and the table is still again
        page.wait_for_function("held => document.querySelectorAll('#hand .hand-card').length < held", arg=held)
        page.wait_for_function(IDLE)
        assert page.evaluate(FOCUS) != "body"
    page.wait_for_function(MY_MOVE)
    assert page.evaluate(FOCUS) == "next-hand"  # the focus went to Next hand

    record = context.request.get(f"{game_url.replace('/games/', '/api/games/')}/record").json()
    said = heard(page)
    assert said[0].startswith("Hand 1 of 9, 5 cards. Trump: ") and " deal" in said[0]
    spoken = [s for s in said[1:] if not s.startswith(("Your 5 cards", "Trick ", "No card on the table."))]
    expected = expected_sentences(record, hand)
    assert spoken[: len(expected)] == expected
    result = spoken[len(expected)]
    assert result.startswith("Hand 1 of 9 is over. You bid ") and "Score after 1 hand: " in result

    # the read-out keys, on demand: the bids, the score, the hand
    for key, pattern in [
        ("b", r"You: bid \d+, won \d+, (made it|missed by \d+|\d+ too many); .+\. \d+ bid for 5 tricks.*\."),
        ("s", r"Score after 1 hand: .*You -?\d+.*\."),
        ("d", r"Hand 1 of 9, 5 cards\. .+\. Hand 1 is over\."),
    ]:
        page.keyboard.press(key)
        assert re.fullmatch(pattern, heard(page)[-1]), heard(page)[-1]
    plates = page.eval_on_selector_all("#plates .plate", "ps => ps.map(p => p.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"[^:]+: bid \d+, won \d+, .+, 0 cards", plate) for plate in plates), plates

    # the keys list names the read-out keys; Enter on Next hand starts the next hand, told by the live region
    page.keyboard.press("?")
    expect(page.locator("#keys-list")).to_contain_text("Read out your cards")
    page.keyboard.press("Escape")
    assert page.evaluate(FOCUS) == "next-hand"
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.heard.some(s => s.startsWith('Hand 2 of 9'))")


MID_TRICK: Final = "() => document.querySelectorAll('#trick .trick-card').length > 0"


def play_on(pages: list[Page], until: str, limit: int = 3000) -> Page:
    """Make each person's first offered move in turn (the first page presses Next hand) until one of them is
    offered ``until`` (``bid``, ``play``, ``next``, ``over``; ``play`` on a trick already led); that page."""
    for _ in range(limit):
        for page in pages:
            kind = offered(page)
            if kind == until and (until != "play" or page.evaluate(MID_TRICK)):
                return page
            if kind in ("bid", "play") or (kind == "next" and page is pages[0]):
                before = page.eval_on_selector("#game", "g => g.dataset.version")
                page.locator({"bid": ALLOWED_BID, "play": PLAYABLE_CARD, "next": NEXT_HAND}[kind]).first.click()
                page.wait_for_function("v => document.getElementById('game').dataset.version !== v", arg=before)
        pages[0].wait_for_timeout(20)
    raise AssertionError(f"no page was offered {until!r}")


def assert_accessible(page: Page, where: str, checked: list[str], drawn: str | None = None) -> None:
    """No serious or critical violation by axe-core in ``page`` once it is drawn (its network quiet, or the element
    ``drawn`` shown for a page that keeps a request open); ``where`` is noted in ``checked``."""
    if drawn is None:
        page.wait_for_load_state("networkidle")
    else:
        page.wait_for_selector(drawn)
    assert serious_violations(page) == [], where
    checked.append(where)


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def test_every_page_and_the_solo_table_in_each_phase_pass_axe(context: BrowserContext, server: RunningServer) -> None:
    page = context.new_page()
    page.set_default_timeout(20_000)
    checked: list[str] = []
    for path in ("/", "/how-to-play", "/how-to-play/short", "/keeper", "/signin", "/signup", "/transfer", "/duplicate"):
        page.goto(f"{server.url}{path}")
        assert_accessible(page, path, checked)
    page.goto(f"{server.url}/")
    page.click("#table-settings summary")  # New game with its table settings open
    assert_accessible(page, "New game, table settings open", checked)
    page.goto(f"{server.url}/signup")
    page.get_by_label("Name").fill(unique("Axe"))
    page.get_by_label("Password").fill("a long secret")
    page.click("#signup-button")
    expect(page.locator("#signed-in-as")).to_be_visible()
    for path in ("/account", "/club", "/club/me", "/club/collection", "/duplicate/about"):
        page.goto(f"{server.url}{path}")
        assert_accessible(page, path, checked)
    sheet = context.request.post(
        f"{server.url}/api/keeper/sheets", data={"preset": "short", "names": ["Ann", "Bo", "Cy"]}
    )
    assert sheet.ok, sheet.text()
    page.goto(f"{server.url}{sheet.json()['url']}")
    assert_accessible(page, "a score keeper's sheet", checked, drawn="#sheet tr")

    table = TablePage(page, server.url, {"forcedCard": False, "speed": "instant"})
    table.new_game("short", number=number_where_you_deal_first())
    assert_accessible(page, "table: bidding", checked)
    play_on([page], "play")
    assert_accessible(page, "table: mid-trick", checked)
    for dialog, button in (
        ("#why-dialog", "#why-button"),
        ("#keys-dialog", "#keys-button"),
        ("#settings-dialog", "#settings-button"),
    ):
        table.tool(button)
        expect(page.locator(dialog)).to_be_visible()
        assert_accessible(page, f"table: {dialog}", checked)
        page.keyboard.press("Escape")
    play_on([page], "next")
    assert_accessible(page, "table: end of hand", checked)
    table.tool("#resign-button")
    page.click("#resign-confirm")
    expect(page.locator(GAME_OVER)).to_be_visible()
    assert_accessible(page, "table: game over", checked)
    page.goto(f"{page.url}/replay")
    expect(page.locator("#replay-step")).to_contain_text("as dealt")
    assert_accessible(page, "replay", checked)
    assert len(checked) == 23


def test_the_shared_table_in_each_phase_and_a_spectators_page_pass_axe(browser: Browser, server: RunningServer) -> None:
    contexts = [browser.new_context(bypass_csp=True) for _ in range(3)]
    checked: list[str] = []
    try:
        host, friend, watcher = (context.new_page() for context in contexts)
        for context in contexts:
            use_settings(context, {"forcedCard": False, "speed": "instant"})
        for page in (host, friend, watcher):
            page.set_default_timeout(20_000)
        host.goto(f"{server.url}/")
        host.select_option("#preset", "short")
        host.select_option("#players", "3")
        host.fill("#your-name", "Ann")
        host.select_option("#computer-level-0", "friend")
        host.click("#start")
        host.wait_for_url("**/games/*")
        expect(host.locator("#invite-link")).to_have_value(re.compile(r"/join/"))
        assert_accessible(host, "waiting room", checked)
        friend.goto(host.locator("#invite-link").input_value())
        assert_accessible(friend, "join page", checked)
        friend.fill("#join-name", "Bea")
        friend.click("#join-button")
        friend.wait_for_url(host.url)
        watcher.goto(f"{host.locator('#watch-link').input_value()}?name=Dee")
        expect(host.locator("#start-game")).to_be_enabled()
        host.click("#start-game")
        # chat by keyboard: Tab to the line, type, Enter; the friend's page has it in its live list of lines
        keyboard_to(host, "#chat-text", presses=120)
        host.keyboard.type("hello all")
        host.keyboard.press("Enter")
        line = friend.locator("#chat-lines .chat-line").last
        expect(line).to_contain_text("Ann: hello all")
        mute = line.locator(".chat-mute")
        expect(mute).to_have_attribute("aria-pressed", "false")
        mute.focus()
        friend.keyboard.press("Enter")
        expect(mute).to_have_attribute("aria-pressed", "true")
        expect(mute).to_have_text("Unmute")
        people = [host, friend]
        assert_accessible(play_on(people, "bid"), "shared table: bidding", checked)
        assert_accessible(play_on(people, "play"), "shared table: mid-trick", checked)
        assert_accessible(watcher, "spectator: mid-hand", checked)
        assert_accessible(play_on(people, "next"), "shared table: end of hand", checked)
        play_on(people, "over")
        expect(friend.locator(GAME_OVER)).to_be_visible()
        for person in people:  # the focus went to Play again
            person.wait_for_function("() => document.activeElement.id === 'play-again'")
        assert_accessible(host, "shared table: game over", checked)
        expect(watcher.locator("#result")).to_contain_text("point")
        assert_accessible(watcher, "spectator: game over", checked)
        assert len(checked) == 8
    finally:
        for context in contexts:
            context.close()


FACES: Final = """() => [...document.querySelectorAll('#hand .card-face, #turn-up .card-face, #trick .card-face')]
  .map(i => i.getAttribute('src'))"""


def test_the_four_colour_pack_and_high_contrast_are_table_settings_seen_at_the_table_and_in_the_replay(
    context: BrowserContext, server: RunningServer
) -> None:
    page = context.new_page()
    page.set_default_timeout(20_000)
    table = TablePage(page, server.url, {"forcedCard": False, "speed": "instant"})
    table.new_game("short", number=number_where_you_deal_first())
    assert all(src.startswith("/static/cards/") for src in page.evaluate(FACES))
    table.tool("#settings-button")
    page.get_by_label("Four-colour pack").check()
    page.get_by_label("High contrast").check()
    page.keyboard.press("Escape")
    faces = page.evaluate(FACES)
    assert len(faces) >= 6 and all(src.startswith("/club/faces/four-colour/") for src in faces), faces
    assert page.evaluate("() => document.documentElement.classList.contains('high-contrast')")
    plate = page.locator("#plates .plate").first
    expect(plate).to_have_css("background-color", "rgb(0, 0, 0)")  # retried: the plates may be drawn again meanwhile
    assert_accessible(page, "high contrast", [])
    play_on([page], "play")
    assert all(src.startswith("/club/faces/four-colour/") for src in page.evaluate(FACES))
    play_on([page], "next")
    page.reload()  # kept by the browser
    table.wait_ready()
    assert page.evaluate("() => document.documentElement.classList.contains('high-contrast')")
    page.goto(f"{page.url}/replay")
    pictures = page.locator("#replay-seats .card-face")
    expect(pictures.first).to_be_visible()
    assert all(
        src.startswith("/club/faces/four-colour/")
        for src in pictures.evaluate_all("p => p.map(i => i.getAttribute('src'))")
    )
    assert page.evaluate("() => document.documentElement.classList.contains('high-contrast')")
    assert context.request.get(f"{server.url}{faces[0]}").ok  # the pictures are there for everyone, no reward needed


def test_reduced_motion_stills_the_table(browser: Browser, server: RunningServer) -> None:
    context = browser.new_context(reduced_motion="reduce")
    try:
        page = context.new_page()
        table = TablePage(page, server.url)
        table.new_game("short", number=number_where_you_deal_first())
        chip = page.locator(".turn-chip").first
        expect(chip).to_be_visible()
        expect(chip).to_have_css("animation-name", "none")  # expect retries: the table may be drawn again meanwhile
        expect(page.locator("#plates .plate").first).to_have_css("transition-duration", "0s")
        page.emulate_media(reduced_motion="no-preference")
        expect(chip).to_have_css("animation-name", "pulse")
        expect(chip).to_have_css("animation-iteration-count", "3")  # then still: an endless pulse repaints the tab
    finally:
        context.close()
