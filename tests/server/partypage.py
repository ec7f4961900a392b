"""People at a shared table in real browser tabs: each a browser context of its own (its own player cookie), the
table set through the page's own API calls, moves made by clicks on what each page shows."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Final

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from server.serving import RunningServer
from server.tablepage import ALLOWED_BID, GAME_OVER, NEXT_HAND, PLAYABLE_CARD, use_settings

READY_JS: Final = """([over, next, bid, play]) => {
  const game = document.getElementById('game');
  if (!game || game.dataset.idle !== 'true') return null;
  if (document.querySelector(over)) return 'over';
  if (document.querySelector(next)) return 'next';
  if (document.querySelector(bid)) return 'bid';
  if (document.querySelector(play)) return 'play';
  return null;
}"""
INSTANT: Final = {"forcedCard": False, "speed": "instant"}
"""Table settings for tests that only need to reach a moment: the computer players' moves are not paused."""


class Person:
    """One browser context (one cookie) and its current tab, keeping every socket message it received."""

    def __init__(
        self,
        context: BrowserContext,
        name: str,
        settings: dict[str, object] | None = None,
    ) -> None:
        self.context = context
        use_settings(context, settings)  # every card played by the test's own click
        self.name = name
        self.frames: list[str] = []
        self.page: Page | None = None

    def open(self, url: str) -> Page:
        page = self.context.new_page()
        page.set_default_timeout(20_000)
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.goto(url)
        self.page = page
        return page

    def _frame(self, payload: Any) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def close(self) -> None:
        assert self.page is not None
        self.page.close()
        self.page = None

    def ready(self) -> str | None:
        """What the page offers now (``over``, ``next``, ``bid``, ``play``), once it has caught up; else None."""
        if self.page is None:
            return None
        kind: str | None = self.page.evaluate(READY_JS, [GAME_OVER, NEXT_HAND, ALLOWED_BID, PLAYABLE_CARD])
        return kind

    def act(self, kind: str) -> None:
        assert self.page is not None
        if kind == "next":
            self.page.click(NEXT_HAND)
        elif kind == "bid":
            self.page.locator(ALLOWED_BID).first.click()
        elif kind == "play":
            self.page.locator(PLAYABLE_CARD).first.click()


@dataclass
class SharedTable:
    """A table of several people in the waiting room: the host, the friends seated, a spectator watching."""

    url: str
    people: list[Person]
    spectator: Person
    computers: int
    contexts: list[BrowserContext] = field(default_factory=list)

    @property
    def host(self) -> Person:
        return self.people[0]

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def start(self) -> None:
        """The host starts the game; every page leaves the waiting room."""
        page = self.host.page
        assert page is not None
        expect(page.locator("#start-game")).to_be_enabled()
        page.click("#start-game")
        for person in [*self.people, self.spectator]:
            assert person.page is not None
            expect(person.page.locator("#waiting-room")).to_be_hidden()
            expect(person.page.locator("#plates .plate").first).to_be_visible()

    def play_until(self, wanted: str, limit: float = 240.0) -> None:
        """Everyone makes the first move their page offers (the host presses Next hand) until the host's page
        offers ``wanted``: ``bid``, ``play`` (mid-trick: a card on the table), ``next`` or ``over``."""
        assert self.host.page is not None
        self.host.page.wait_for_function("() => document.getElementById('waiting-room').hidden")
        end = time.monotonic() + limit
        while time.monotonic() < end:
            host_kind = None
            for person in self.people:
                kind = person.ready()
                if person is self.host:
                    if self._host_offers(kind, wanted):
                        return  # decided on this one reading: a page that came to the moment must not act on it
                    host_kind = kind
                if kind is None or kind == "over" or (kind == "next" and person is not self.host):
                    continue
                person.act(kind)
                break
            else:
                if host_kind == "over":
                    break  # the game is over and the moment never came: nothing more will
                assert self.host.page is not None
                self.host.page.wait_for_timeout(20)
        seen = {
            p.name: (p.ready(), p.page and p.page.inner_text("#status"), p.page and p.page.inner_text("#notice"))
            for p in self.people
        }
        raise AssertionError(f"the host's page never offered {wanted!r}: {seen}")

    def _host_offers(self, kind: str | None, wanted: str) -> bool:
        """Whether the host's page, reading ``kind``, is at the moment ``wanted``."""
        if kind != wanted:
            return False
        if wanted != "play":
            return True
        assert self.host.page is not None
        return bool(self.host.page.locator("#trick .trick-card").count())


def shared_table(
    browser: Browser,
    server: RunningServer,
    names: list[str],
    computers: int,
    viewport: ViewportSize,
    preset: str = "short",
    settings: dict[str, object] | None = None,
    host_name: str | None = None,
) -> SharedTable:
    """A table of ``len(names)`` people (the first hosts; the others take the seats to the host's left through
    the invite link) and ``computers`` computer players after them, with a spectator ("Dee") watching."""
    contexts: list[BrowserContext] = []

    def person(name: str) -> Person:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        return Person(context, name, settings)

    people = [person(name) for name in names]
    spectator = person("Dee")
    host = people[0]
    page = host.open(f"{server.url}/")
    body = {
        "preset": preset,
        "name": host_name or names[0],
        "computers": [{"name": f"Bot {i}", "level": "easy"} for i in range(1, len(names) + computers)],
        "friends": list(range(1, len(names))),
        "table": {"grace_seconds": 30},
    }
    url = page.evaluate(
        """async body => (await (await fetch('/api/games', {method: 'POST',
             headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json()).url""",
        body,
    )
    game_url = f"{server.url}{url}"
    page.goto(game_url)
    expect(page.locator("#invite-link")).to_have_value(re.compile(r"/join/"))
    invite = page.locator("#invite-link").input_value()
    code = invite.rsplit("/", 1)[1]
    for seat, friend in enumerate(people[1:], start=1):
        friend.context.request.get(f"{server.url}/")
        answer = friend.context.request.post(f"{server.url}/api/join/{code}", data={"name": friend.name, "seat": seat})
        assert answer.ok, answer.text()
        friend.open(game_url)
        assert friend.page is not None
        expect(friend.page.locator("#waiting-room")).to_be_visible()
    expect(page.locator("#watch-link")).to_have_value(re.compile(r"/watch/"))
    spectator.open(f"{page.locator('#watch-link').input_value()}?name=Dee")
    expect(page.locator("#watching")).to_contain_text("Dee")
    return SharedTable(game_url, people, spectator, computers, contexts)
