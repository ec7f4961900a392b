"""The club in Debian's Chromium: accounts by their forms, a card back unlocked and seen at the table, the XP line
after a series, and Undo against computer players (with the replay showing it)."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from ohhell.dealnumbers import random_first_dealer
from server.seriesplay import play_series
from server.serving import RunningServer, run_async
from server.tablepage import ALLOWED_BID, GAME_OVER, NEXT_HAND, PLAYABLE_CARD, READY_JS, TablePage

pytestmark = pytest.mark.browser


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def sign_up(page: Page, base: str, name: str, password: str = "a long secret") -> None:
    page.goto(f"{base}/signup")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.click("#signup-button")
    expect(page.locator("#signed-in-as")).to_have_text(name)


def sign_in(page: Page, base: str, name: str, password: str) -> None:
    page.goto(f"{base}/signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.click("#signin-button")


def test_sign_up_sign_out_a_wrong_password_sign_in_again_and_the_limit(page: Page, server: RunningServer) -> None:
    page.set_default_timeout(20_000)
    name = unique("Web")
    sign_up(page, server.url, name)
    page.click("#signed-in-as")
    page.click("#signout-button")
    expect(page.locator("#sign-in-link")).to_be_visible()
    sign_in(page, server.url, name, "not my password")
    expect(page.locator("#form-error")).to_contain_text("do not match")
    expect(page.get_by_label("Password")).to_have_attribute("aria-invalid", "true")
    sign_in(page, server.url, name, "a long secret")
    expect(page.locator("#signed-in-as")).to_have_text(name)
    page.click("#signed-in-as")
    page.click("#signout-button")
    for _ in range(5):
        sign_in(page, server.url, name, "wrong again")
        expect(page.locator("#form-error")).to_contain_text("do not match")
    sign_in(page, server.url, name, "a long secret")  # the right password, past the limit
    expect(page.locator("#form-error")).to_contain_text("Too many failed attempts")
    expect(page.locator("#sign-in-link")).to_be_visible()


def browser_client(page: Page, server: RunningServer) -> httpx.Client:
    """An HTTP client holding the page's cookies (the same account, session and player)."""
    client = httpx.Client(base_url=server.url, timeout=10)
    for cookie in page.context.cookies():
        client.cookies.set(cookie["name"], cookie["value"])
    return client


def test_a_card_back_unlocked_by_a_series_is_the_one_seen_at_the_table(page: Page, server: RunningServer) -> None:
    table = TablePage(page, server.url)
    sign_up(page, server.url, unique("Back"))
    page.goto(f"{server.url}/club/collection")
    baize = page.locator(".collection-item[data-back='baize']")
    expect(baize).to_contain_text("Unlocks at level 2")
    table.new_game("short")
    game_id = int(page.url.rsplit("/", 1)[1])
    client = browser_client(page, server)
    run_async(lambda: play_series(server, game_id, client))  # the series played to its end, as the page would
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#series-xp")).to_have_text(re.compile(r"^\+\d+ XP · level 2$"))
    page.goto(f"{server.url}/club/collection")
    expect(baize).to_contain_text("Yours")
    baize.get_by_role("button", name="Use this back").click()
    expect(page.locator(".collection-item[data-back='baize']")).to_have_class(re.compile("chosen"))
    table.new_game("short")
    backs = page.locator("#plates .plate-cards img, .plate .plate-cards img")
    expect(backs.first).to_have_attribute("src", "/club/backs/baize.svg")
    assert page.evaluate("document.body.dataset.cardBack") == "baize"


def number_where_you_bid_first(players: int = 4) -> int:
    """A deal number whose first dealer is the seat before you: you bid first, the computer players after you."""
    number = 1
    while random_first_dealer(number, players) != players - 1:
        number += 1
    return number


def test_undo_against_computer_players_takes_back_a_bid_and_the_replay_shows_it(
    page: Page, server: RunningServer
) -> None:
    table = TablePage(page, server.url)
    table.new_game("short", number=number_where_you_bid_first())
    undo = page.locator("#undo-button")
    expect(undo).to_be_disabled()
    page.locator(ALLOWED_BID).first.click()
    assert table.wait_ready() == "play"  # the three computer players bid after you
    expect(undo).to_be_enabled()
    undo.click()
    expect(page.locator("#notice")).to_contain_text("took back a move and 3 computer moves after it")
    expect(page.locator("#notice")).to_have_class(re.compile(r"\binfo\b"))  # what was asked for: not an error
    expect(page.locator(ALLOWED_BID).first).to_be_visible()  # bidding again: the bid was taken back
    expect(undo).to_be_disabled()
    page.locator(ALLOWED_BID).last.click()
    table.wait_ready()
    expect(page.locator(PLAYABLE_CARD).first).to_be_visible()
    table.play_until("next")
    page.goto(f"{page.url}/replay")
    expect(page.locator("#replay-undos")).to_contain_text("took back 4 moves")


def act(page: Page, kind: str) -> None:
    """The first move the page offers: Next hand, the lowest allowed bid, the first playable card."""
    if kind == "next":
        page.click(NEXT_HAND)
    elif kind == "bid":
        page.locator(ALLOWED_BID).first.click()
    else:
        page.locator(PLAYABLE_CARD).first.click()


def test_a_club_of_three_plays_a_series_at_a_club_table_to_the_end(browser: Browser, server: RunningServer) -> None:
    pages = [TablePage(browser.new_context().new_page(), server.url).page for _ in range(3)]
    names = [unique(prefix) for prefix in ("Ida", "Jo", "Kit")]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, server.url, name)
    host, *members = pages
    host.goto(f"{server.url}/club")
    host.get_by_label("Club name").fill("Browser club")
    host.click("#create-club")
    host.click("#new-invite")
    club_url = host.url.split("?")[0]
    invite = host.locator(".invite-link").first.inner_text()
    for member in members:
        member.goto(invite)
        member.click("#join-club")
        expect(member.locator("#club-name")).to_have_text("Browser club")
    host.select_option("#club-players", "3")
    host.select_option("#club-preset", "short")
    host.click("#open-club-table")
    host.wait_for_url("**/games/*")
    game_url = host.url
    expect(host.locator("#invite-link")).to_have_value(re.compile(r"/join/"))  # filled by the table's first message
    table_invite = host.locator("#invite-link").input_value()
    for member, name in zip(members, names[1:], strict=True):
        member.goto(table_invite)
        member.fill("#join-name", name)
        member.click("#join-button")
        member.wait_for_url(game_url)
    expect(host.locator("#start-game")).to_be_enabled()
    host.click("#start-game")
    for _ in range(3000):
        kinds = [page.evaluate(READY_JS, [GAME_OVER, NEXT_HAND, ALLOWED_BID, PLAYABLE_CARD]) for page in pages]
        if all(kind == "over" for kind in kinds):
            break
        for page, kind in zip(pages, kinds, strict=True):
            if kind in ("bid", "play") or (kind == "next" and page is host):
                if page.evaluate(READY_JS, [GAME_OVER, NEXT_HAND, ALLOWED_BID, PLAYABLE_CARD]) != kind:
                    continue  # another person's move has just changed the table
                act(page, kind)
    else:
        raise AssertionError("the club's series did not end")
    for page in pages:
        expect(page.locator("#series-xp")).to_have_text(re.compile(r"^\+\d+ XP · level 2$"))
    host.goto(club_url)
    rows = host.locator("#leaderboard tbody tr")
    expect(rows).to_have_count(3)
    series = [row.locator("td").nth(3).inner_text() for row in rows.all()]
    wins = sum(int(row.locator("td").nth(4).inner_text()) for row in rows.all())
    assert series == ["1", "1", "1"] and wins >= 1  # every winner (all those tied on top) has a club win
    expect(host.locator("#club-series li")).to_have_count(1)
    host.goto(f"{server.url}/club/me")
    expect(host.locator("#stat-played")).to_have_text("1")
