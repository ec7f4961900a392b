"""Duplicate events in Debian's Chromium: three accounts through a club's event and the daily deal, from the
club's form and the Play button to the results page and each person's hands beside the field."""

from __future__ import annotations

import asyncio
import re
import time
import uuid

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from server.duplicateplay import close_now, last_move, play
from server.seriesplay import first_move
from server.serving import RunningServer, run_async
from server.tablepage import ALLOWED_BID

pytestmark = pytest.mark.browser


def sign_up(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/signup")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill("a long secret")
    page.click("#signup-button")
    expect(page.locator("#signed-in-as")).to_have_text(name)


def client_of(page: Page, server: RunningServer) -> httpx.Client:
    """An HTTP client holding the page's cookies (the same account, session and player)."""
    client = httpx.Client(base_url=server.url, timeout=10)
    for cookie in page.context.cookies():
        client.cookies.set(cookie["name"], cookie["value"])
    return client


def enter_and_play(pages: list[Page], server: RunningServer) -> None:
    """Each person presses Play, bids once in the page, leaves, resumes from the event's page and plays out over
    the socket (the first and third the lowest bids, the second the highest)."""
    event_url = pages[0].url
    games = []
    for page in pages:
        page.goto(event_url)
        page.click("#enter-event")
        page.wait_for_url("**/games/*")
        expect(page.locator("#deal-number")).to_have_text("sealed")  # the number is not in the page
        expect(page.locator("#event-link")).to_be_visible()
        page.locator(ALLOWED_BID).first.click()
        page.goto(event_url)  # leaves the table: it waits, played by nobody
        page.click("#resume-event")
        page.wait_for_url("**/games/*")
        games.append(int(page.url.rsplit("/", 1)[1]))
        page.goto(event_url)
        expect(page.locator("#results-later")).to_be_visible()
    clients = [client_of(page, server) for page in pages]

    async def everyone() -> None:
        policies = (first_move, last_move, first_move)
        await asyncio.gather(*(play(server, g, c, choose=p) for g, c, p in zip(games, clients, policies, strict=True)))

    run_async(everyone)
    for page in pages:
        shows_done(page)


def shows_done(page: Page, seconds: float = 30.0) -> None:
    """The event's page says the entry is played, reloaded until it does: the series' result reaches the entry a
    moment after the game's last action, through the results hook's queue (slower on a busy machine)."""
    deadline = time.monotonic() + seconds
    while True:
        page.reload()
        if page.locator("#entry-done").count() or time.monotonic() > deadline:
            break
        page.wait_for_timeout(250)
    expect(page.locator("#entry-done")).to_be_visible()


def results(page: Page, names: list[str]) -> set[str]:
    """The results page: every entry in the standings, and one's own hands beside the field; the winners."""
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(3)
    cells = [(row.locator("td").nth(0).inner_text(), row.locator("td").nth(1).inner_text()) for row in rows.all()]
    assert {name for _, name in cells} == set(names)
    expect(page.locator("#event-numbers")).to_be_attached()
    page.click("#my-hands")
    expect(page.locator("#entry-hands tbody tr").first).to_contain_text("bid")
    expect(page.locator("#practice-replay")).to_be_visible()
    return {name for place, name in cells if place == "1"}


def practice(page: Page) -> None:
    """Once the event has closed, its cards may be played again: a practice game, Show All Hands allowed."""
    page.click("#practice-replay")
    page.wait_for_url("**/games/*")
    expect(page.locator("#event-link")).to_have_count(0)  # an ordinary game, not the event's table


def test_three_accounts_through_a_club_event_and_the_daily_deal(browser: Browser, server: RunningServer) -> None:
    pages = [browser.new_context().new_page() for _ in range(3)]
    names = [f"{prefix}{uuid.uuid4().hex[:5]}" for prefix in ("Lea", "Max", "Ned")]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, server.url, name)
    host, *members = pages
    host.goto(f"{server.url}/club")
    host.get_by_label("Club name").fill("Duplicate night")
    host.click("#create-club")
    host.click("#new-invite")
    club_url = host.url.split("?")[0]
    invite = host.locator(".invite-link").first.inner_text()
    for member in members:
        member.goto(invite)
        member.click("#join-club")
        expect(member.locator("#club-name")).to_have_text("Duplicate night")
        expect(member.locator("#club-event-form")).to_have_count(0)  # only admins open events

    host.goto(club_url)
    host.fill("#event-title", "Thursday duplicate")
    host.select_option("#event-preset", "short")
    host.select_option("#event-players", "3")
    host.fill("#event-minutes", "90")
    host.click("#open-club-event")
    host.wait_for_url("**/duplicate/events/*")
    club_event = int(host.url.rsplit("/", 1)[1])
    enter_and_play(pages, server)
    close_now(server, club_event)
    winners = set()
    for page in pages:
        page.goto(f"{server.url}/duplicate/events/{club_event}")
        winners = results(page, names)
    host.goto(club_url)
    expect(host.locator("#club-events li")).to_contain_text(re.compile(r"Thursday duplicate[\s\S]*closed; won by"))
    for page, name in zip(pages, names, strict=True):  # the event's winners have a club win; every entry counts
        page.goto(f"{server.url}/club/me")
        expect(page.locator("#stat-club-wins")).to_have_text("1" if name in winners else "0")
        expect(page.locator("#stat-played")).to_have_text("1")

    host.goto(f"{server.url}/duplicate")
    action = host.locator("#enter-form").get_attribute("action") or ""
    daily = int(action.split("/")[3])
    enter_and_play(pages, server)
    close_now(server, daily)
    for page in pages:
        page.goto(f"{server.url}/duplicate")
        page.click("#daily-results")
        results(page, names)
    practice(host)
