"""Take the screenshots of docs/screenshots/ with Playwright and Debian's Chromium.

Run from the repository: ``.venv/bin/python tests/server/take_screenshots.py`` (it starts its own server on a
temporary database). Not a test: pictures are for people to look at.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Final

from playwright.sync_api import Page, ViewportSize, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chromium import CHROMIUM, CHROMIUM_FLAGS
from server.duplicateplay import close_now, enter, event_on, last_move, play
from server.seriesplay import first_move
from server.serving import RunningServer, player, run_async
from server.tablepage import TablePage, number_where_you_deal_first

OUT: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP: Final = ViewportSize(width=1440, height=900)
LAPTOP: Final = ViewportSize(width=1280, height=720)
PHONE: Final = ViewportSize(width=390, height=844)


def shoot(page: Page, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=str(OUT / f"{name}.png"))
    print(f"wrote docs/screenshots/{name}.png")


def dealer_bidding(table: TablePage) -> None:
    """A 10-card hand of the full game that you deal: the three computer players have bid; one number is refused."""
    number = number_where_you_deal_first()
    while True:
        table.new_game("full", number=number)
        if table.page.locator(".bid-button.forbidden").count():
            return
        number = number_where_you_deal_first(start=number + 1)


def big_hand(table: TablePage, preset: str, schedule: str) -> None:
    """A first hand of every card of the pack (13 cards, 15 with Magicians and Jesters), you dealing: your bid."""
    page = table.page
    page.goto(f"{table.base_url}/")
    body = {
        "preset": preset,
        "settings": {"schedule": schedule},
        "number": number_where_you_deal_first(),
        "computers": [{"name": name, "level": "normal"} for name in ("Alice", "Bob", "Carol")],
    }
    url = page.evaluate(
        """async body => (await (await fetch('/api/games', {method: 'POST',
             headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json()).url""",
        body,
    )
    page.goto(f"{table.base_url}{url}")
    table.wait_ready()


def mid_trick(table: TablePage) -> None:
    """Your turn with cards already on the table."""
    for _ in range(200):
        kind = table.wait_ready()
        if kind == "play" and table.page.locator("#trick .trick-card").count() >= 2:
            return
        table.step()


def duplicate_results(page: Page, server: RunningServer) -> None:
    """The results of a daily deal that five people played in different ways, as Ann sees it after the close."""
    clients = [player(server) for _ in range(5)]
    event_id = event_on(clients[0], "/duplicate")
    names = ("Ann", "Bo", "Cy", "Di", "Ed")
    games = [enter(client, "/duplicate", event_id, name=name) for client, name in zip(clients, names, strict=True)]
    policies = (first_move, last_move, first_move, last_move)

    async def everyone() -> None:
        await asyncio.gather(
            *(play(server, g, c, choose=p) for g, c, p in zip(games, clients, policies, strict=False)),
            play(server, games[4], clients[4], moves=30),  # Ed leaves early: unfinished at the close
        )

    run_async(everyone)
    close_now(server, event_id)
    for cookie in clients[0].cookies.jar:
        page.context.add_cookies([{"name": cookie.name, "value": cookie.value or "", "url": server.url}])
    page.goto(f"{server.url}/duplicate/events/{event_id}")
    shoot(page, "duplicate-results")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = RunningServer(f"sqlite:///{folder}/shots.sqlite3", animation_scale=0.05).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
                desktop = browser.new_page(viewport=DESKTOP)
                table = TablePage(desktop, server.url)
                desktop.goto(f"{server.url}/")
                desktop.click("#settings summary")
                shoot(desktop, "new-game")
                dealer_bidding(table)
                table.page.click("#hint-button")
                shoot(desktop, "bidding")
                table.step()
                mid_trick(table)
                desktop.click("#hint-button")
                desktop.wait_for_selector(".hand-card.hinted")
                shoot(desktop, "mid-trick")
                for _ in range(3):
                    table.play_until("next")
                    if _ < 2:
                        table.step()
                shoot(desktop, "end-of-hand")
                table.tool("#hands-button")
                shoot(desktop, "show-all-hands")
                desktop.keyboard.press("Escape")
                desktop.click("#why-button")
                shoot(desktop, "why")
                desktop.keyboard.press("Escape")
                short = TablePage(browser.new_page(viewport=DESKTOP), server.url)
                short.new_game("short")
                short.play_until("over", limit=300)
                shoot(short.page, "game-over")
                desktop.goto(f"{server.url}/how-to-play/up-and-down")
                shoot(desktop, "how-to-play")
                desktop.goto(f"{server.url}/transfer")
                desktop.click("#make-code")
                desktop.wait_for_selector("#transfer-qr svg")
                shoot(desktop, "transfer")
                # the four-colour pack and high contrast of the Table settings, mid-trick
                seeing = TablePage(
                    browser.new_page(viewport=DESKTOP), server.url, {"forcedCard": False, "fourColour": True}
                )
                dealer_bidding(seeing)
                seeing.step()
                mid_trick(seeing)
                shoot(seeing.page, "four-colour")
                seeing.tool("#settings-button")
                seeing.page.check("#setting-high-contrast")
                seeing.page.keyboard.press("Escape")
                shoot(seeing.page, "high-contrast")
                # the settings as a newcomer has them (a forced card played for you)
                laptop = TablePage(browser.new_page(viewport=LAPTOP), server.url, {})
                big_hand(laptop, "full", "down-from-max")
                shoot(laptop.page, "laptop-13-cards")
                laptop.tool("#settings-button")
                shoot(laptop.page, "table-settings")
                laptop.page.keyboard.press("Escape")
                laptop.page.keyboard.press("?")
                shoot(laptop.page, "keys")
                laptop.page.keyboard.press("Escape")
                phone = TablePage(browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True), server.url)
                dealer_bidding(phone)
                shoot(phone.page, "phone-bidding")
                phone.step()
                mid_trick(phone)
                shoot(phone.page, "phone")
                big_hand(phone, "magicians", "down-from-max")
                shoot(phone.page, "phone-15-cards")
                phone.tool("#tool-menu summary")
                shoot(phone.page, "phone-menu")
                duplicate_results(browser.new_page(viewport=LAPTOP), server)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
