"""The keeper's web page in a real browser: a whole ``short`` game for four kept by clicks, then a correction.

The game is one the engine played, so the totals the page shows are checked against the engine's own.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from ohhell.rules import Rules
from ohhell.scoring import deal_points
from server.serving import RunningServer

from .helpers import engine_game

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Di"]


def entered(page: Page, events: int) -> None:
    """Wait until the page shows ``events`` entries in its history: the last click was stored."""
    expect(page.locator("#history li:not(.muted)")).to_have_count(events)


def start_sheet(page: Page, server: RunningServer, first_dealer: int) -> None:
    page.goto(f"{server.url}/keeper")
    page.select_option("#preset", "short")
    for seat, name in enumerate(NAMES, 1):
        page.fill(f"#name-{seat}", name)
    page.select_option("#first-dealer", str(first_dealer))
    page.fill("#keeper", "Eve")
    page.click("text=Start the score sheet")
    page.wait_for_url(re.compile(r"/keeper/\d+$"))


def test_keep_a_whole_short_game_by_clicks_and_check_the_totals(page: Page, keeper_server: RunningServer) -> None:
    rules = Rules.preset("short")
    first_dealer, deals, totals = engine_game(rules, number=31337)
    page.set_viewport_size({"width": 390, "height": 844})
    start_sheet(page, keeper_server, first_dealer)
    events = 0
    for index, played in enumerate(deals):
        dealer = (first_dealer + index) % 4
        expect(page.locator("#deal-line")).to_contain_text(f"Deal {index + 1} of 9 · {NAMES[dealer]} deals")
        assert played.trump is not None
        page.click(f"[data-trump='{played.trump}']")
        events += 1
        entered(page, events)
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        for seat in order:
            expect(page.locator("#step h1")).to_contain_text(f"{NAMES[seat]} bids")
            cards = rules.hand_sizes[index]
            forbidden = cards - sum(played.bids[s] for s in order[:3])
            if seat == dealer and 0 <= forbidden <= cards:
                expect(page.locator(f"[data-bid='{forbidden}']")).to_be_disabled()
                expect(page.locator("#forbidden-reason")).to_have_text(
                    f"{NAMES[dealer]} deals and may not bid {forbidden}: the bids would total {cards},"
                    " the number of tricks."
                )
            page.click(f"[data-bid='{played.bids[seat]}']")
            events += 1
            entered(page, events)
        for seat in order:
            page.click(f"[data-seat='{seat}'][data-tricks='{played.tricks[seat]}']")
        page.click("#save-tricks")
        events += 1
        entered(page, events)
    for seat, total in enumerate(totals):
        expect(page.locator(f"#sheet tfoot td.total[data-seat='{seat}']")).to_contain_text(str(total))
    best = max(totals)
    for seat in (s for s, t in enumerate(totals) if t == best):
        expect(page.locator(f"#sheet tfoot td.total[data-seat='{seat}']")).to_have_class(re.compile("winner"))
    expect(page.locator("#deal-line")).to_contain_text("Game over")
    expect(page.locator("#history li").first).to_contain_text("Eve")

    # A correction that breaks a rule is refused with its sentence and changes nothing ...
    first = deals[0]
    page.click("button[aria-label='Correct deal 1']")
    taker = next(s for s in range(4) if first.tricks[s] > 0)
    page.fill(f"[data-fix-tricks='{taker}']", str(first.tricks[taker] - 1))
    page.click("#fix-save")
    expect(page.locator("#fix-message")).to_contain_text("The tricks add up to 4, but a 5-card deal has 5 tricks")
    # ... and an honest one is kept, in the history, with the totals recomputed.
    other = (taker + 1) % 4
    page.fill(f"[data-fix-tricks='{other}']", str(first.tricks[other] + 1))
    page.click("#fix-save")
    entered(page, events + 1)
    expect(page.locator("#history li.correction")).to_contain_text(
        f"corrected deal 1: {NAMES[taker]}'s tricks {first.tricks[taker]} → {first.tricks[taker] - 1};"
        f" {NAMES[other]}'s tricks {first.tricks[other]} → {first.tricks[other] + 1}"
    )
    for seat in (taker, other):
        new_tricks = first.tricks[seat] + (1 if seat == other else -1)
        new_total = totals[seat] - first.points[seat] + deal_points(first.bids[seat], new_tricks, rules)
        expect(page.locator(f"#sheet tfoot td.total[data-seat='{seat}']")).to_contain_text(str(new_total))
    expect(page.locator("tr[data-deal='1'] td.corrected")).to_have_count(2)


def test_downloads_and_the_list_of_sheets(page: Page, keeper_server: RunningServer) -> None:
    start_sheet(page, keeper_server, first_dealer=0)
    sheet_url = page.url
    page.click("[data-trump='S']")
    entered(page, 1)
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    with httpx.Client(base_url=keeper_server.url, cookies=cookies, timeout=30) as client:
        csv = client.get(f"{sheet_url}/sheet.csv")
        assert csv.headers["content-type"].startswith("text/csv")
        assert csv.text.splitlines()[1].startswith('1,5,"Ann","spades",0,"Ann",')
        assert client.get(f"{sheet_url}/sheet.json").json()["events"][0]["trump"] == "S"
        pdf = client.get(f"{sheet_url}/sheet.pdf", params={"paper": "letter"})
        assert pdf.content.startswith(b"%PDF")
        printable = client.get(f"{sheet_url}/print").text
        assert printable.count('id="print-button"') == 1 and "print-button.js" in printable
        assert "onclick" not in printable  # the Content-Security-Policy runs no inline script
        assert httpx.get(f"{sheet_url}/sheet.csv").status_code == 403
    page.goto(f"{keeper_server.url}/keeper")
    expect(page.locator(".sheet-list li").first).to_contain_text("Ann, Bob, Cy, Di")


def test_two_phones_keep_one_sheet(page: Page, browser: Browser, keeper_server: RunningServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_sheet(page, keeper_server, 0)
    page.click("#share-button")
    expect(page.locator("#share-qr svg")).to_be_visible()
    link = page.locator("#share-link").get_attribute("href")
    assert link is not None and link.startswith("/keeper/join/")
    page.click("#share-dialog button:has-text('Done')")
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a second phone: its own cookie
    other.goto(f"{keeper_server.url}{link}")
    other.wait_for_url(re.compile(r"/keeper/\d+$"))
    expect(other.locator("#deal-line")).to_contain_text("Ann deals")
    other.click("[data-trump='H']")
    entered(other, 1)
    # The first phone sees it without being touched, at once (its request waiting at /next is answered).
    expect(page.locator("#history li:not(.muted)")).to_have_count(1, timeout=2000)
    expect(page.locator("#message")).to_contain_text("another phone")
    page.click("[data-bid='1']")  # and the other way round
    entered(page, 2)
    expect(other.locator("#history li:not(.muted)")).to_have_count(2, timeout=2000)
    other.context.close()


def test_the_owner_renews_and_withdraws_the_link_and_joiners_cannot_share(
    page: Page, browser: Browser, keeper_server: RunningServer
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_sheet(page, keeper_server, 0)
    page.click("#share-button")
    expect(page.locator("#share-link")).to_have_attribute("href", re.compile("^/keeper/join/"))
    first = page.locator("#share-link").get_attribute("href")
    assert first is not None
    page.click("#share-dialog button:has-text('Done')")
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(f"{keeper_server.url}{first}")
    other.wait_for_url(re.compile(r"/keeper/\d+$"))
    expect(other.locator("#deal-line")).to_contain_text("Ann deals")
    expect(other.locator("#share-button")).to_have_count(0)  # a browser that joined cannot hand the link on
    # The owner sees who joined, and makes a new link: the old one now says it was replaced.
    page.click("#share-button")
    expect(page.locator("#share-joined")).to_have_text("1 other browser keeps this sheet.")
    page.click("#share-renew")
    expect(page.locator("#share-message")).to_contain_text("A new link: the old one no longer opens this sheet")
    expect(page.locator("#share-link")).not_to_have_attribute("href", first)
    second = page.locator("#share-link").get_attribute("href")
    stranger = browser.new_context().new_page()
    stranger.goto(f"{keeper_server.url}{first}")
    expect(stranger.locator("h1")).to_have_text("This share link was replaced")
    expect(stranger.locator("#keeper-message")).to_contain_text("Ask them for the new link")
    # Withdrawn, with the browsers that joined removed: the joined page says so at once, the link says withdrawn.
    page.check("#share-remove")
    page.click("#share-withdraw")
    expect(page.locator("#share-dialog")).not_to_be_visible()
    expect(page.locator("#message")).to_contain_text("The share link was withdrawn")
    expect(other.locator("#message")).to_contain_text("not kept in this browser", timeout=3000)
    stranger.goto(f"{keeper_server.url}{second}")
    expect(stranger.locator("h1")).to_have_text("This share link was withdrawn")
    other.reload()
    expect(other.locator("h1")).to_have_text("Not kept in this browser")
    other.context.close()
    stranger.context.close()
