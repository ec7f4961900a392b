"""Three people in three browsers and one computer player play a whole short game by clicks, with a spectator.

One of them reloads in the middle, one closes the tab on their turn (a computer player plays for them after the
table's 1-second grace period, and they take the seat back), chat markup stays text, and every message each
person and the spectator received is checked against the record for cards hidden from them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, expect

from server.partypage import Person
from server.partyscan import leaks
from server.serving import RunningServer

pytestmark = pytest.mark.browser

SHOTS: Final = Path("/tmp/party-shots")
MARKUP: Final = '<b>bold</b><img src=x onerror="window.pwned=1"> gl'


def test_three_people_a_computer_player_and_a_spectator_play_a_short_game(
    browser: Browser, server: RunningServer
) -> None:
    host, bea, cy = (Person(browser.new_context(), name) for name in ("Ann", "Bea", "Cy"))
    watcher = Person(browser.new_context(), "Dee")
    try:
        # New game: seats 1 and 2 wait for friends, seat 3 is a computer player; a 1-second grace period
        page = host.open(f"{server.url}/")
        page.select_option("#preset", "short")
        page.select_option("#players", "4")
        page.fill("#your-name", "Ann")
        page.select_option("#computer-level-0", "friend")
        page.select_option("#computer-level-1", "friend")
        page.click("#table-settings summary")
        page.fill("#grace_seconds", "1")
        page.click("#start")
        page.wait_for_url("**/games/*")
        game_url = page.url
        expect(page.locator("#waiting-room")).to_be_visible()
        expect(page.locator("#start-game")).to_be_disabled()
        expect(page.locator("#invite-link")).to_have_value(re.compile(r"/join/"))
        invite = page.locator("#invite-link").input_value()
        watch = page.locator("#watch-link").input_value()
        assert re.search(r"/join/[\w-]{16,}$", invite) and re.search(r"/watch/[\w-]{16,}$", watch)

        # two friends take the open seats through the invite link
        for friend in (bea, cy):
            join = friend.open(invite)
            join.fill("#join-name", friend.name)
            join.click("#join-button")
            join.wait_for_url(game_url)
            expect(join.locator("#waiting-room")).to_be_visible()
        expect(page.locator("#waiting-seats")).to_contain_text("Bea")
        expect(page.locator("#waiting-seats")).to_contain_text("Cy")
        expect(page.locator("#waiting-seats li").nth(2)).to_contain_text("Here")

        # a spectator watches, and gives a name (the watch link alone says "Spectator"); the host starts
        spectator = watcher.open(watch)
        expect(page.locator("#watching")).to_contain_text("Spectator")
        spectator.fill("#watcher-name", "Dee")
        spectator.click("#watcher-name-save")
        expect(page.locator("#watching")).to_contain_text("Dee")
        assert spectator.locator("#watcher-name").input_value() == "Dee"
        expect(page.locator("#start-game")).to_be_enabled()
        page.click("#start-game")
        expect(page.locator("#waiting-room")).to_be_hidden()
        expect(page.locator("#plates .plate").first).to_be_visible()
        expect(spectator.locator("#plates .plate")).to_have_count(4)  # every seat around the table
        expect(spectator.locator("#my-plate")).to_be_hidden()  # a spectator has no seat of their own
        expect(page.locator(".plate[data-seat='3'] .people-tag")).to_have_text("Computer player")

        # chat: markup is shown as text, never run
        page.fill("#chat-text", MARKUP)
        page.click("#chat-send")
        assert bea.page is not None
        expect(bea.page.locator("#chat-lines .chat-text").last).to_have_text(MARKUP)
        expect(spectator.locator("#chat-lines .chat-text").last).to_have_text(MARKUP)
        assert bea.page.locator("#chat-lines b, #chat-lines img").count() == 0
        assert bea.page.evaluate("window.pwned") is None
        spectator.click("[data-phrase='good-luck']")
        expect(page.locator("#chat-lines")).to_contain_text("Dee (watching): Good luck!")

        people = [host, bea, cy]
        moves = 0
        reloaded = away_done = False
        for _ in range(3000):
            kinds = {p.name: p.ready() for p in people}
            if all(k == "over" for k in kinds.values()):
                break
            for person in people:
                kind = person.ready()  # again: another person's Next hand may have just moved the table on
                if kind is None or kind == "over" or (kind == "next" and person is not host):
                    continue  # any person may press Next hand: here the host does
                if not away_done and person is bea and kind in ("bid", "play") and moves >= 4:
                    # Bea closes the tab on her turn: after the grace period the computer player plays for her
                    bea.close()
                    stand_in = "Computer playing for Bea"
                    expect(page.locator(".plate[data-seat='1'] .people-tag")).to_have_text(stand_in, timeout=20_000)
                    expect(spectator.locator(".plate[data-seat='1'] .people-tag")).to_have_text(
                        stand_in, timeout=20_000
                    )
                    page.wait_for_function(
                        "() => !document.querySelector(\".plate[data-seat='1']\").classList.contains('to-act')"
                    )
                    bea.open(game_url)  # the same browser takes the seat back at once
                    expect(page.locator(".plate[data-seat='1'] .people-tag")).to_have_text(
                        "Person · connected", timeout=20_000
                    )
                    away_done = True
                    break
                person.act(kind)
                moves += 1
                if not reloaded and person is cy and moves >= 10:
                    cy.close()  # Cy reloads in the middle of the game
                    cy.open(game_url)
                    reloaded = True
        else:
            raise AssertionError("the game did not end")
        assert reloaded and away_done
        for person in people:
            assert person.page is not None
            expect(person.page.locator("#result")).to_contain_text("point")
        expect(spectator.locator("#result")).to_contain_text("point")
        assert spectator.locator("#hand .hand-card").count() == 0
        expect(page.locator("#play-again")).to_be_enabled()
        page.screenshot(path=str(SHOTS / "party-over.png"))
        spectator.screenshot(path=str(SHOTS / "party-spectator.png"))

        # Play again: each person says yes, and everyone moves to the new game (same seats, a new deal number)
        for person in people:
            assert person.page is not None
            person.page.click("#play-again")
        for person in people:
            assert person.page is not None
            person.page.wait_for_url(lambda url: url != game_url and "/games/" in url)
        assert host.page is not None
        expect(host.page.locator("#plates .plate")).to_have_count(3, timeout=20_000)
        # the spectator follows, as a spectator under the same name (not "Not your game")
        spectator.wait_for_url(re.compile(r"/watch/[\w-]{16,}\?name=Dee$"))
        expect(spectator.locator("#plates .plate")).to_have_count(4)
        expect(spectator.locator("#my-plate")).to_be_hidden()
        expect(host.page.locator("#watching")).to_contain_text("Dee")

        # every message to every person and to the spectator, against the record
        record = host.context.request.get(f"{game_url.replace('/games/', '/api/games/')}/record").json()
        assert len(record["deals"]) == 9 and record["players"] == ["Ann", "Bea", "Cy", record["players"][3]]
        for seat, person in enumerate([host, bea, cy, watcher]):
            named, leaked = leaks(record, -1 if person is watcher else seat, person.frames)
            assert named > 50, person.name
            assert leaked == 0, person.name
        # each person downloads their record; Bea's replay works too
        assert bea.context.request.get(f"{game_url.replace('/games/', '/api/games/')}/record").ok
        assert bea.context.request.get(f"{game_url.replace('/games/', '/api/games/')}/replay").ok
    finally:
        for person in (host, bea, cy, watcher):
            person.context.close()
