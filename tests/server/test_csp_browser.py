"""Every page works under the Content-Security-Policy, in Chromium, and none reports a violation.

A violation is caught two ways on each page: the ``securitypolicyviolation`` event (listened to before any of the
page's own scripts run) and Chromium's console error ("Refused to …").
"""

from __future__ import annotations

import asyncio
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Final

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from websockets.asyncio.client import connect

from ohhell.server.table.live import MAX_SOCKETS_PER_SEAT
from ohhell.web import identity
from ohhell.web.headers import CONTENT_SECURITY_POLICY
from server.serving import RunningServer
from server.tablepage import TablePage, use_settings

pytestmark = pytest.mark.browser

LISTEN: Final = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""
INJECT: Final = """() => {
  const script = document.createElement("script");
  script.textContent = "window.__inline = true";
  document.body.append(script);
  return window.__inline === true;
}"""


class Watched:
    """A browser context whose pages keep every CSP violation and console error."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        context.add_init_script(LISTEN)
        self.console: list[str] = []
        self.page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and re.search(r"Content Security Policy|Refused to", message.text):
            self.console.append(f"{self.page.url}: {message.text}")

    def visit(self, url: str) -> Page:
        response = self.page.goto(url)
        assert response is not None and response.headers.get("content-security-policy") == CONTENT_SECURITY_POLICY
        self.page.wait_for_load_state("load")
        return self.page

    def check(self) -> None:
        """No violation on the page shown now (nor any reported in the console so far)."""
        violations = self.page.evaluate("window.__violations || []")
        assert violations == [], f"{self.page.url}: {violations}"
        assert self.console == [], self.console


def test_every_page_works_under_the_content_security_policy(browser: Browser, server: RunningServer) -> None:
    host = Watched(browser.new_context())
    friend = Watched(browser.new_context())
    use_settings(host.context)
    try:
        page = host.visit(f"{server.url}/")
        host.check()
        # a table of several people: the host's waiting room, the invite link's page, the watch link's page
        page.select_option("#preset", "short")
        page.select_option("#players", "4")
        page.fill("#your-name", "Ann")
        page.select_option("#computer-level-0", "friend")
        page.click("#start")
        page.wait_for_url("**/games/*")
        expect(page.locator("#invite-link")).to_have_value(re.compile(r"/join/"))
        expect(page.locator("#watch-link")).to_have_value(re.compile(r"/watch/"))
        invite, watch, game_url = (
            page.locator("#invite-link").input_value(),
            page.locator("#watch-link").input_value(),
            page.url,
        )
        host.check()
        join = friend.visit(invite)
        join.fill("#join-name", "Bea")
        join.click("#join-button")
        join.wait_for_url(game_url)
        expect(page.locator("#waiting-seats")).to_contain_text("Bea")  # the host's socket works
        friend.check()
        friend.visit(f"{watch}?name=Dee")
        expect(friend.page.locator("#game")).to_be_visible()
        expect(page.locator("#watching")).to_contain_text("Dee")
        friend.check()
        page.click("#start-game")
        expect(page.locator("#waiting-room")).to_be_hidden()
        expect(page.locator("#plates .plate").first).to_be_visible()
        host.check()

        # a game against computer players, played a little: the New game form, the socket, the clicks
        table = TablePage(friend.page, server.url)  # a browser whose New game form remembers no friend's seat
        table.new_game("short")
        table.step()
        table.step()
        friend.check()
        friend.visit(f"{friend.page.url}/replay")
        expect(friend.page.locator("h1")).to_contain_text("Replay")
        friend.check()

        for path in (
            "/how-to-play",
            "/keeper",
            "/keeper/blank?preset=short&players=4&format=html",
            "/transfer",
            "/duplicate",
            "/duplicate/about",
            "/signup",
        ):
            host.visit(f"{server.url}{path}")
            host.check()
        page = host.page  # sign up through the form: the account and club pages
        page.fill("#name", "Csp Carla")
        page.fill("#password", "a long secret")
        page.click("#signup-button")
        page.wait_for_url(re.compile(r"/(account|club|$)"))
        for path in ("/account", "/club", "/club/me", "/club/collection", "/signin"):
            host.visit(f"{server.url}{path}")
            host.check()
        page = host.visit(f"{server.url}/keeper")
        page.click("#new-sheet button[type=submit]")
        page.wait_for_url(re.compile(r"/keeper/\w+$"))
        host.check()

        # the watch itself works: an inline script injected now is refused, and reported
        ran = page.evaluate(INJECT)
        assert ran is False
        page.wait_for_function("window.__violations.length > 0")
        assert "script-src" in page.evaluate("window.__violations[0]")
    finally:
        host.context.close()
        friend.context.close()


def test_a_fifth_tab_of_a_seat_says_why_it_is_turned_away_and_does_not_retry(
    browser: Browser, server: RunningServer
) -> None:
    context = browser.new_context()
    try:
        table = TablePage(context.new_page(), server.url)
        table.new_game("short")
        game_url = table.page.url
        cookie = {c["name"]: c["value"] for c in context.cookies()}[identity.COOKIE]
        socket_url = game_url.replace("http://", "ws://").replace("/games/", "/ws/games/")
        opened, release = threading.Event(), threading.Event()

        async def hold_three_more() -> None:  # the page holds one: four in all, until released
            held = []
            for _ in range(MAX_SOCKETS_PER_SEAT - 1):
                socket = await connect(socket_url, additional_headers={"Cookie": f"{identity.COOKIE}={cookie}"})
                await asyncio.wait_for(socket.recv(), 20)
                held.append(socket)
            opened.set()
            await asyncio.to_thread(release.wait, 60)
            for socket in held:
                await socket.close()

        with ThreadPoolExecutor(1) as pool:
            holding = pool.submit(asyncio.run, hold_three_more())
            assert opened.wait(30)
            try:
                fifth = context.new_page()
                fifth.goto(game_url)
                box = fifth.locator("#connection")
                expect(box).to_be_visible()
                expect(box).to_contain_text(f"open in {MAX_SOCKETS_PER_SEAT} tabs or windows already")
                fifth.wait_for_timeout(1500)  # no reconnecting meanwhile: the reason stays
                expect(box).to_contain_text("close one, then reload")
            finally:
                release.set()
            holding.result(timeout=30)
        fifth.reload()  # room again: the table comes
        expect(fifth.locator("#connection")).to_be_hidden()
    finally:
        context.close()
