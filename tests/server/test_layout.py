"""The table's layout checked by the elements' boxes at a phone's and three laptop and desktop sizes.

For hands of 1, 10, 13 and 15 cards (15: Magicians and Jesters at 4 players): every card inside the screen, the
bidding and end-of-hand panels over no name plate nor the turned card and inside the screen, every bid button
visible and on top where it is pressed, and no sideways scrolling anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page

from server.serving import RunningServer
from server.tablepage import ALLOWED_BID, TablePage, number_where_you_deal_first, use_settings

pytestmark = pytest.mark.browser

SIZES: Final = [(390, 844), (1280, 720), (1366, 768), (1920, 1080)]
SHORT_PHONE: Final = (390, 664)
"""What a 390x844 phone shows of a page in Safari, its bars counted: the hand stays at the bottom of the screen."""
HANDS: Final[dict[int, tuple[str, dict[str, Any]]]] = {
    1: ("up-and-down", {}),
    10: ("full", {}),
    13: ("full", {"schedule": "down-from-max"}),
    15: ("magicians", {"schedule": "down-from-max"}),
}
COMPUTERS: Final = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")

# Every box the checks need, in one round trip: the viewport, the cards, the plates, the turned card, the panel and
# each bid button with whether the point at its centre belongs to it.
BOXES: Final = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const onTop = (e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return !!hit && (hit === e || e.contains(hit));
  };
  const panel = document.getElementById('center-panel');
  return {
    width: window.innerWidth, height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    cards: [...document.querySelectorAll('#hand .hand-card')].map(box),
    plates: [...document.querySelectorAll('#plates .plate, #my-plate')].map(box),
    turnUp: box(document.getElementById('turn-up')),
    felt: (() => {
      const felt = document.getElementById('felt');
      const style = getComputedStyle(felt);
      const border = parseFloat(style.borderTopWidth);
      const r = felt.getBoundingClientRect();
      // the inside of the rim: the padding box, whose corners are rounded by the radius less the rim
      return {x: r.left + border, y: r.top + border, r: r.right - border, b: r.bottom - border,
              radius: Math.max(0, parseFloat(style.borderTopLeftRadius) - border)};
    })(),
    panel: panel.hidden ? null : box(panel),
    bids: [...document.querySelectorAll('.center-panel .bid-button')].map(b => ({...box(b), onTop: onTop(b)})),
  };
}"""


def start(page: Page, base_url: str, cards: int, players: int = 4) -> None:
    """A new game through the page's own API call, with the first hand of ``cards`` cards and you dealing."""
    preset, settings = HANDS[cards]
    body = {
        "preset": preset,
        "settings": settings,
        "number": number_where_you_deal_first(players),
        "computers": [{"name": name, "level": "easy"} for name in COMPUTERS[: players - 1]],
    }
    page.goto(f"{base_url}/")
    url = page.evaluate(
        """async body => {
          const answer = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                   body: JSON.stringify(body)});
          return (await answer.json()).url;
        }""",
        body,
    )
    page.goto(f"{base_url}{url}")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["r"] and b["x"] < a["r"] and a["y"] < b["b"] and b["y"] < a["b"]


def inside(a: dict[str, float], width: int, height: int) -> bool:
    return a["x"] >= 0 and a["y"] >= 0 and a["r"] <= width + 0.5 and a["b"] <= height + 0.5


def check_table(page: Page, expect_cards: int, panel: str) -> dict[str, Any]:
    """The boxes of the table as it is now, checked."""
    page.wait_for_timeout(50)  # the resize observer and fonts have settled
    boxes: dict[str, Any] = page.evaluate(BOXES)
    width, height = boxes["width"], boxes["height"]
    assert boxes["scrollWidth"] <= width, "the page scrolls sideways"
    assert len(boxes["cards"]) == expect_cards
    for card in boxes["cards"]:
        assert inside(card, width, height), f"a card is off the screen: {card}"
    assert boxes["panel"] is not None, f"no {panel} panel"
    assert inside(boxes["panel"], width, height), f"the {panel} panel is cut off: {boxes['panel']}"
    for plate in boxes["plates"]:
        assert not overlaps(boxes["panel"], plate), f"the {panel} panel covers a plate"
    assert not overlaps(boxes["panel"], boxes["turnUp"]), f"the {panel} panel covers the turned card"
    assert inside(boxes["turnUp"], width, height)
    assert not cut_by_the_corner(boxes["turnUp"], boxes["felt"]), "the table's rounded corner cuts the turned card"
    return boxes


def cut_by_the_corner(box: dict[str, float], felt: dict[str, float]) -> bool:
    """Whether the top-left corner of ``box`` lies outside the rounded top-left corner of the table's inside."""
    radius = felt["radius"]
    cx, cy = felt["x"] + radius, felt["y"] + radius
    if box["x"] >= cx or box["y"] >= cy:
        return box["x"] < felt["x"] or box["y"] < felt["y"]
    return bool((cx - box["x"]) ** 2 + (cy - box["y"]) ** 2 > radius**2)


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def sized(request: pytest.FixtureRequest, browser: Browser, server: RunningServer) -> Iterator[TablePage]:
    width, height = request.param
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    try:
        yield TablePage(context.new_page(), server.url)
    finally:
        context.close()


@pytest.mark.parametrize("cards", sorted(HANDS))
def test_the_bidding_panel_and_every_card_fit_the_screen(sized: TablePage, cards: int) -> None:
    start(sized.page, sized.base_url, cards)
    assert sized.wait_ready() == "bid"
    boxes = check_table(sized.page, cards, "bidding")
    assert len(boxes["bids"]) == cards + 1
    for button in boxes["bids"]:
        assert inside(button, boxes["width"], boxes["height"]), f"a bid button is off the screen: {button}"
        assert button["onTop"], f"a bid button is covered: {button}"
    # the Hint's box, open with its numbers unfolded, pushes nothing off the screen
    sized.page.click("#hint-button")
    sized.page.locator("#notice .hint-numbers summary").click()
    check_table(sized.page, cards, "bidding")
    # the Hint's close button sits beside its text, not over it
    close, head = (sized.page.locator(f"#notice {part}").bounding_box() for part in (".notice-close", ".hint-head"))
    assert close is not None and head is not None
    assert close["x"] >= head["x"] + head["width"] or close["y"] >= head["y"] + head["height"], (close, head)


# On a short phone, scrolled to the top, then with each bid button scrolled into view as the browser does for a focused
# one: every card of the hand inside the screen, and the button on top at its centre (not under the hand).
SHORT_PHONE_PROBLEMS: Final = """() => {
  const problems = [];
  const height = window.innerHeight, width = window.innerWidth;
  const cards = () => [...document.querySelectorAll('#hand .hand-card')].forEach((card, i, all) => {
    const r = card.getBoundingClientRect();
    const where = `${window.scrollY} px down: ${JSON.stringify(r)}`;
    if (r.top < 0 || r.bottom > height + 0.5 || r.left < 0 || r.right > width + 0.5) {
      problems.push(`the card ${card.dataset.card} is off the screen at ${where}`);
      return;
    }
    // on top at a point of the part that the next card of its row leaves uncovered (a second row covers the first's
    // lower part)
    const next = all[i + 1] && all[i + 1].parentElement === card.parentElement ? all[i + 1] : null;
    const right = next ? Math.min(r.right, next.getBoundingClientRect().left) : r.right;
    const hit = document.elementFromPoint((r.left + right) / 2, r.top + r.height * 0.2);
    if (!hit || !(hit === card || card.contains(hit))) {
      const over = hit ? hit.className || hit.tagName : 'nothing';
      problems.push(`the card ${card.dataset.card} is under ${over} at ${where}`);
    }
  });
  window.scrollTo(0, 0);
  cards();
  for (const button of document.querySelectorAll('.center-panel .bid-button')) {
    button.scrollIntoView({block: 'nearest'});
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!hit || !(hit === button || button.contains(hit))) {
      const over = hit ? hit.className || hit.tagName : 'nothing';
      problems.push(`the bid button ${button.textContent.trim()} is under ${over}`);
    }
    cards();
  }
  window.scrollTo(0, 0);
  return problems;
}"""


@pytest.mark.parametrize("cards", [10, 13, 15])
def test_on_a_short_phone_the_hand_stays_on_the_screen_and_each_bid_button_scrolls_into_view_above_it(
    browser: Browser, server: RunningServer, cards: int
) -> None:
    width, height = SHORT_PHONE
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    try:
        table = TablePage(context.new_page(), server.url)
        start(table.page, server.url, cards)
        assert table.wait_ready() == "bid"
        table.page.wait_for_timeout(50)  # the resize observer and fonts have settled
        assert table.page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert table.page.evaluate(SHORT_PHONE_PROBLEMS) == []
    finally:
        context.close()


def test_seven_players_bidding_on_seven_cards_fit(sized: TablePage) -> None:
    start(sized.page, sized.base_url, 10, players=7)  # the full game deals 7 cards to 7 players
    assert sized.wait_ready() == "bid"
    boxes = check_table(sized.page, 7, "bidding")
    assert all(button["onTop"] for button in boxes["bids"])


@pytest.mark.parametrize("players", [4, 7])
def test_the_end_of_hand_panel_covers_no_plate(sized: TablePage, players: int) -> None:
    start(sized.page, sized.base_url, 1, players)
    sized.play_until("next")
    check_table(sized.page, 0, "end-of-hand")


def test_the_cards_of_a_15_card_hand_fit_while_playing(sized: TablePage) -> None:
    start(sized.page, sized.base_url, 15)
    sized.play_until("play")
    boxes: dict[str, Any] = sized.page.evaluate(BOXES)
    assert boxes["scrollWidth"] <= boxes["width"]
    assert len(boxes["cards"]) == 15
    for card in boxes["cards"]:
        assert inside(card, boxes["width"], boxes["height"] + 24), card  # a raised card may stand 12 px higher


def test_the_new_game_page_does_not_scroll_sideways_and_its_menus_show_their_labels(sized: TablePage) -> None:
    page = sized.page
    page.goto(f"{sized.base_url}/")
    page.click("#settings summary")
    for preset in ("up-and-down", "magicians"):
        page.select_option("#preset", preset)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        clipped = page.evaluate(
            """() => {
              const canvas = document.createElement('canvas').getContext('2d');
              return [...document.querySelectorAll('select')].filter(s => s.offsetParent !== null).filter(s => {
                const style = getComputedStyle(s);
                canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const text = s.options[s.selectedIndex]?.text || '';
                const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
                return canvas.measureText(text).width > room;
              }).map(s => `${s.id}: ${s.options[s.selectedIndex].text}`);
            }"""
        )
        assert clipped == []


@pytest.mark.parametrize("path", ["/how-to-play/magicians", "/how-to-play", "/transfer", "/keeper"])
def test_the_other_pages_do_not_scroll_sideways(sized: TablePage, path: str) -> None:
    sized.page.goto(f"{sized.base_url}{path}")
    assert sized.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_resize_while_moves_are_played_back_is_not_lost(browser: Browser, tmp_path: Path) -> None:
    """The table is laid out again for a resize that comes while the page plays the computer players' moves back
    (CI once saw the hand 75 px below a 1280x720 screen: the resize from a phone's size came during a pause, its
    redraw was skipped, and nothing drew the table again once the pause ended)."""
    server = RunningServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", animation_scale=1).start()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        use_settings(page, {"forcedCard": False, "speed": "slow"})  # each computer player's bid shown 1.2 s
        start(page, server.url, 10)  # you deal: the three computer players bid first
        # the last computer player's bid is drawn (the bidding panel is yours) and its pause is still running
        page.wait_for_function(
            "bid => document.getElementById('game').dataset.idle === 'false' && !!document.querySelector(bid)",
            arg=ALLOWED_BID,
        )
        page.set_viewport_size({"width": 1280, "height": 720})
        assert TablePage(page, server.url).wait_ready() == "bid"
        check_table(page, 10, "bidding")
    finally:
        context.close()
        server.stop()
