"""Drive the game page in a browser the way a person does: by clicks on what the page shows."""

from __future__ import annotations

import json
from typing import Final

from playwright.sync_api import BrowserContext, Page

from ohhell.dealnumbers import random_first_dealer

ALLOWED_BID: Final = ".center-panel.bidding .bid-button:not([disabled])"
PLAYABLE_CARD: Final = ".hand.your-turn .hand-card.playable"
NEXT_HAND: Final = "#next-hand"
GAME_OVER: Final = ".game-over .button.primary"
READY: Final = f"{ALLOWED_BID}, {PLAYABLE_CARD}, {NEXT_HAND}, {GAME_OVER}"
READY_JS: Final = """([over, next, bid, play]) => {
  const game = document.getElementById('game');
  if (!game || game.dataset.idle !== 'true') return null;
  for (const [kind, selector] of [['over', over], ['next', next], ['bid', bid], ['play', play]]) {
    if (document.querySelector(selector)) return kind;
  }
  return null;
}"""
"""What a page offers its person now, once its table has caught up (``over``, ``next``, ``bid``, ``play``), or null."""


def number_where_you_deal_first(players: int = 4, start: int = 1) -> int:
    """A deal number whose first dealer is seat 0 (you): the computer players bid before you."""
    number = start
    while random_first_dealer(number, players) != 0:
        number += 1
    return number


TEST_SETTINGS: Final = {"forcedCard": False}
"""The table settings tests start with unless they say otherwise: no card is played for the person, so that
every card is played by the test's own click."""


def use_settings(target: Page | BrowserContext, settings: dict[str, object] | None = None) -> None:
    """Start the table settings of a tab or a browser context at ``settings`` (:data:`TEST_SETTINGS` if none),
    unless the page has kept others since."""
    stored = json.dumps(json.dumps(TEST_SETTINGS if settings is None else settings))
    target.add_init_script(
        f"if (localStorage.getItem('ohhell.table') === null) localStorage.setItem('ohhell.table', {stored});"
    )


def offered(page: Page) -> str | None:
    """What ``page`` offers its person now (``over``, ``next``, ``bid``, ``play``), or None while it catches up."""
    kind: str | None = page.evaluate(READY_JS, [GAME_OVER, NEXT_HAND, ALLOWED_BID, PLAYABLE_CARD])
    return kind


class TablePage:
    """One browser tab at the table."""

    def __init__(self, page: Page, base_url: str, settings: dict[str, object] | None = None) -> None:
        self.page = page
        self.base_url = base_url
        page.set_default_timeout(20_000)
        use_settings(page, settings)

    def new_game(self, preset: str = "short", number: int | None = None, players: int = 4) -> None:
        """Fill in the New game form and start."""
        page = self.page
        page.goto(f"{self.base_url}/")
        page.select_option("#preset", preset)
        page.select_option("#players", str(players))
        if number is not None:
            page.fill("#number", str(number))
        page.click("#start")
        page.wait_for_url("**/games/*")
        self.wait_ready()

    def wait_ready(self) -> str:
        """Wait until the table has caught up and the person can act; say how: ``bid``, ``play``, ``next``, ``over``."""
        self.page.wait_for_function(
            "ready => document.getElementById('game').dataset.idle === 'true' && !!document.querySelector(ready)",
            arg=READY,
        )
        if self.page.locator(GAME_OVER).count():
            return "over"
        if self.page.locator(NEXT_HAND).count():
            return "next"
        if self.page.locator(ALLOWED_BID).count():
            return "bid"
        return "play"

    def step(self) -> str:
        """Make the first move the page offers (lowest allowed bid, first playable card, Next hand)."""
        kind = self.wait_ready()
        if kind == "over":
            return kind
        before = self.version()
        if kind == "next":
            self.page.click(NEXT_HAND)
        elif kind == "bid":
            self.page.locator(ALLOWED_BID).first.click()
        else:
            self.page.locator(PLAYABLE_CARD).first.click()
        self.wait_moved_on(before)
        return kind

    def tool(self, selector: str) -> None:
        """Press a tool of the toolbar, opening the More menu first when the tool is in it."""
        page = self.page
        if page.locator(f"#tool-menu {selector}").count() and not page.locator("#tool-menu").evaluate("m => m.open"):
            page.click("#tool-menu summary")
        page.click(selector)

    def version(self) -> str:
        """Which moment the table shows: actions so far and the hand shown."""
        version: str = self.page.eval_on_selector("#game", "game => game.dataset.version")
        return version

    def wait_moved_on(self, before: str) -> None:
        """Wait until the table shows a later moment than ``before``."""
        self.page.wait_for_function("before => document.getElementById('game').dataset.version !== before", arg=before)

    def play_until(self, wanted: str, limit: int = 400) -> None:
        """Click on until the page offers ``wanted`` (``next``, ``over``, ``play`` or ``bid``)."""
        for _ in range(limit):
            if self.wait_ready() == wanted:
                return
            self.step()
        raise AssertionError(f"the page never offered {wanted!r}")

    def hand(self) -> list[str]:
        """The cards of your hand, as shown."""
        cards: list[str] = self.page.eval_on_selector_all("#hand .hand-card", "cards => cards.map(c => c.dataset.card)")
        return cards

    def table_text(self) -> dict[str, object]:
        """What the table shows, for comparing two moments."""
        page = self.page
        return {
            "hand": self.hand(),
            "plates": page.eval_on_selector_all("#plates .plate", "ps => ps.map(p => p.innerText)"),
            "trick": page.eval_on_selector_all("#trick .trick-card", "ts => ts.map(t => t.dataset.card)"),
            "bar": page.inner_text("#bar"),
            "sheet": page.inner_text("#sheet"),
            "number": page.inner_text("#deal-number"),
        }
