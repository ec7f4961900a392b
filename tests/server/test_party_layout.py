"""The shared table's layout, checked by the elements' boxes and by ``document.elementFromPoint``.

Tables of 3 people; of 2 people and 2 computer players (4 seats); of 2 people and 5 computer players (7 seats);
each with a spectator and the chat holding lines. At the waiting room, the bidding, mid-trick, the end of a hand
and the game over, every page (each person's and the spectator's) is checked at a phone's and three laptop and
desktop sizes (the tab resized in place): no sideways scrolling; every card of the hand, every button of the
table's panel (Play again in the Game over panel) and "Your turn" inside the screen with nothing over them; at
the sizes where the score sheet and the people panel sit beside the table, the chat's input inside the screen
too; elsewhere it is reached by scrolling, with nothing over it. Off a phone, every plate's label and card count
sit on one line, with the longest words put in for a moment: a plate that took a line more for "Needs 1 more" than
for "On track" pushed a side of two plates past the table's room, and the hand off a 1280x720 screen, on some deals.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from server.partypage import INSTANT, SharedTable, shared_table
from server.serving import RunningServer

# The tests play one table on from moment to moment, in order: under pytest-xdist they stay on one worker.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("party_layout")]

SIZES: Final = [ViewportSize(width=390, height=844), ViewportSize(width=1280, height=720),
                ViewportSize(width=1366, height=768), ViewportSize(width=1920, height=1080)]  # fmt: skip
LAPTOP: Final = ViewportSize(width=1280, height=720)
NARROW: Final = ViewportSize(width=360, height=740)
"""A small phone: the score sheet's width is checked there (the table's height is checked at 390x844)."""
SIDE_BY_SIDE: Final = 981
"""From this width the score sheet and the people panel sit beside the table (ohhell.css)."""
TABLES: Final = {3: (["Ann", "Bea", "Cy"], 0), 4: (["Ann", "Bea"], 2), 7: (["Ann", "Bea"], 5)}

# What is wrong with the page as it is now, as sentences (empty: nothing). In one round trip: the boxes of the
# hand's cards (at a point of the part of each that the next card leaves uncovered), of the panel's buttons, of
# "Your turn", and, for the people panel, of the chat's input and Play again.
PROBLEMS: Final = """(sideBySide) => {
  const problems = [];
  const width = window.innerWidth, height = window.innerHeight;
  const inside = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= width + 0.5 && r.bottom <= height + 0.5;
  const shown = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const label = (e) => e.id ? `#${e.id}`
    : (e.dataset.card || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40));
  const covered = (e, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit && (hit === e || e.contains(hit)) ? null : (hit ? label(hit) || hit.tagName : 'nothing');
  };
  const check = (e, what, point) => {
    const r = e.getBoundingClientRect();
    if (!inside(r)) { problems.push(`${what} ${label(e)} is off the screen: ${JSON.stringify(r)}`); return; }
    const [x, y] = point ? point(r) : [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    const over = covered(e, x, y);
    if (over) problems.push(`${what} ${label(e)} is under ${over}`);
  };
  const reached = (e, what) => {  // by scrolling: inside the screen once scrolled to, with nothing over it
    e.scrollIntoView({block: 'nearest'});
    check(e, what);
    window.scrollTo(0, 0);
  };
  window.scrollTo(0, 0);
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page scrolls sideways by ${document.documentElement.scrollWidth - width} px`);
  }
  const sheet = document.querySelector('.sheet-scroll');
  if (shown(sheet) && sheet.scrollWidth > sheet.clientWidth + 1) {
    problems.push(`the score sheet scrolls sideways by ${sheet.scrollWidth - sheet.clientWidth} px`);
  }
  const cards = [...document.querySelectorAll('#hand .hand-card')];
  cards.forEach((card, i) => {
    const next = cards[i + 1] && cards[i + 1].parentElement === card.parentElement ? cards[i + 1] : null;
    check(card, 'the card', (r) => {
      const right = next ? Math.min(r.right, next.getBoundingClientRect().left) : r.right;
      return [(r.left + right) / 2, r.top + r.height * 0.2];  // a second row covers the first's lower part
    });
  });
  if (width > 640) {  // off a phone, a plate's label and card count stay on one line, the longest words too
    for (const state of document.querySelectorAll('.plate .plate-state')) {
      const tag = state.querySelector('.plate-label'), count = state.querySelector('.plate-cards span');
      const was = [tag && tag.textContent, count && count.textContent];
      if (tag) tag.textContent = 'Needs 13 more';
      if (count) count.textContent = '13 cards';
      const plate = state.closest('.plate').getBoundingClientRect(), r = state.getBoundingClientRect();
      const line = Math.max(...[...state.children].map((e) => e.getBoundingClientRect().height));
      if (r.height > line + 4 || r.left < plate.left || r.right > plate.right) {
        problems.push(`the plate ${label(state.closest('.plate'))} does not fit one line: ${JSON.stringify(r)}`);
      }
      if (tag) tag.textContent = was[0];
      if (count) count.textContent = was[1];
    }
  }
  const panel = document.getElementById('center-panel');
  if (!panel.hidden) {
    for (const button of panel.querySelectorAll('button, a.button')) {
      if (shown(button)) check(button, 'the panel button');
    }
  }
  const status = document.getElementById('status');
  if (status.classList.contains('your-turn')) check(status, '"Your turn"');
  const room = document.getElementById('waiting-room');
  for (const button of room.hidden ? [] : room.querySelectorAll('button')) {
    if (shown(button)) reached(button, 'the waiting room button');
  }
  const input = document.getElementById('chat-text');
  if (shown(input)) {
    if (sideBySide) check(input, 'the chat'); else reached(input, 'the chat');  // beside the room too
  }
  return problems;
}"""


def problems(page: Page) -> list[str]:
    page.wait_for_function(
        "() => !document.getElementById('waiting-room').hidden"
        " || document.getElementById('game').dataset.idle === 'true'"
    )
    size = page.viewport_size or LAPTOP
    # The table is fitted to a new size by the page's resize handler (the felt, and the score sheet beside the
    # people panel), which runs in the first frame drawn at that size: wait until the page has the size, then for
    # two frames. A fixed pause was not enough on a busy machine: the page was checked before the handler ran,
    # with the phone's unfitted column (the chat's input 75 px below a 1280x720 screen, CI of 2026-12-07).
    page.wait_for_function(
        "([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[size["width"], size["height"]]
    )
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(60)  # the fonts have settled
    width = size["width"]
    found: list[str] = page.evaluate(PROBLEMS, width >= SIDE_BY_SIDE)
    return found


def check_every_size(table: SharedTable, moment: str) -> None:
    """Each page of the table at each size: nothing wrong."""
    wrong: list[str] = []
    for person in [*table.people, table.spectator]:
        page = person.page
        assert page is not None
        for size in SIZES:
            page.set_viewport_size(size)
            found = problems(page)
            if found and os.environ.get("SHOTS"):
                page.screenshot(
                    path=f"{os.environ['SHOTS']}/{moment}-{person.name}-{size['width']}.png", full_page=True
                )
            wrong += [f"{moment}, {person.name}, {size['width']}x{size['height']}: {p}" for p in found]
        page.set_viewport_size(LAPTOP)
    assert not wrong, "\n".join(wrong)


def chat(table: SharedTable, lines: int) -> None:
    """``lines`` more lines of chat, said in turn by the people and the spectator (each may say 5 in 10 s)."""
    pages = [p.page for p in [*table.people, table.spectator] if p.page is not None]
    before = pages[0].locator("#chat-lines li").count()
    for index in range(lines):
        page = pages[index % len(pages)]
        page.fill("#chat-text", f"Line {index} of a chat that goes on for a while, as chats do")
        page.click("#chat-send")
    pages[0].wait_for_function(f"() => document.querySelectorAll('#chat-lines li').length >= {before + lines}")


@pytest.fixture(scope="module", params=sorted(TABLES), ids=[f"{n}-seats" for n in sorted(TABLES)])
def table(request: pytest.FixtureRequest, browser: Browser, server: RunningServer) -> Iterator[SharedTable]:
    names, computers = TABLES[request.param]
    shared = shared_table(browser, server, names, computers, LAPTOP, settings=INSTANT)
    try:
        yield shared
    finally:
        shared.close()


def test_every_person_sees_the_whole_table_from_the_start(table: SharedTable) -> None:
    """Problem 4 of issue 22: started from the waiting room at 1280x720, every page fits without a reload."""
    host = table.host.page
    assert host is not None
    opened = time.monotonic()
    # problem 10: the rules in words, not "tricks+10 scoring" nor a preset's name for changed hand sizes
    rules = host.inner_text("#waiting-rules")
    assert rules.startswith("Short, ") and "points: 1 a trick, 10 more for an exact bid" in rules, rules
    chat(table, 8)
    check_every_size(table, "the waiting room")
    host.wait_for_timeout(max(0, 6 - (time.monotonic() - opened)) * 1000)  # the room is 6 s old
    table.start()
    # problem 9: the first person's clock counts from Start, not from when the waiting room opened
    clocks = [int(re.sub(r"\D", "", text) or 0) for text in host.locator(".thinking-clock").all_inner_texts()]
    assert all(seconds < 4 for seconds in clocks), clocks
    # problem 5: no Undo where the table does not allow it (several people), a spectator's page included
    for person in [*table.people, table.spectator]:
        assert person.page is not None
        expect(person.page.locator("#undo-button")).to_be_hidden()
    wrong: list[str] = []
    for person in [*table.people, table.spectator]:
        assert person.page is not None
        wrong += [f"{person.name}: {p}" for p in problems(person.page)]
    assert not wrong, "\n".join(wrong)
    first = next(p for p in table.people if p.page is not None and p.page.locator("#status.your-turn").count())
    assert first.page is not None and first.page.locator("#hand .hand-card").count() == 5


@pytest.mark.parametrize("moment", ["bid", "play", "next", "over"])
def test_the_table_fits_every_size_at_each_moment(table: SharedTable, moment: str) -> None:
    table.play_until(moment)
    if moment == "over":
        chat(table, 12)  # late in the game the chat is long too
    check_every_size(table, moment)


def test_the_whole_score_sheet_fits_a_narrow_phone_without_scrolling_sideways(table: SharedTable) -> None:
    """At Game over, every hand on the sheet: at 360 px (a small phone) neither the page nor the sheet scrolls
    sideways, with seven seats too (the hand's column puts its cards and trump under its number)."""
    table.play_until("over")
    wrong = []
    for person in [*table.people, table.spectator]:
        page = person.page
        assert page is not None
        page.set_viewport_size(NARROW)
        page.wait_for_function("([w]) => window.innerWidth === w", arg=[NARROW["width"]])
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        widths = page.evaluate(
            """() => { const s = document.querySelector('.sheet-scroll');
                return [document.documentElement.scrollWidth, s.scrollWidth, s.clientWidth,
                        document.querySelectorAll('.sheet tbody tr').length]; }"""
        )
        page.set_viewport_size(LAPTOP)
        page_width, sheet_width, sheet_room, rows = widths
        assert rows >= 5, f"{person.name}: the sheet has {rows} rows at Game over"
        if page_width > NARROW["width"] or sheet_width > sheet_room + 1:
            wrong.append(f"{person.name}: page {page_width} px, sheet {sheet_width} px in {sheet_room} px")
    assert not wrong, "; ".join(wrong)


def test_play_again_is_the_way_on(table: SharedTable) -> None:
    """Problem 2: at a shared table Play again is the panel's primary button; "Play these cards again" says it
    leads to a game of one's own against computer players before it takes anyone there."""
    table.play_until("over")
    page = table.host.page
    assert page is not None
    assert page.locator(".game-over .button.primary").inner_text() == "Play again"
    page.click(".game-over .replay-deal")
    dialog = page.locator("#replay-dialog")
    assert dialog.is_visible()
    assert "against computer players" in dialog.inner_text()
    page.click("#replay-dialog button[value='keep']")
    assert page.url == table.url


def test_the_new_game_form_with_friends_fits_a_phone_and_its_menus_agree(
    browser: Browser, server: RunningServer
) -> None:
    """Problems 7 and 10: the home page scrolled sideways by 12 px at 390 px (the list of other players; the
    layout tests' phone, a mobile viewport, widened itself to fit instead), and the Players menu still said
    "(you + 3 computers)" once a seat was a friend's."""
    context = browser.new_context(viewport=SIZES[0])
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        page.select_option("#players", "7")
        page.select_option("#computer-level-0", "friend")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[0]["width"]
        assert page.locator("#players option:checked").inner_text() == "7 (you, 1 friend, 5 computers)"
        page.select_option("#computer-level-0", "easy")
        assert page.locator("#players option:checked").inner_text() == "7 (you + 6 computers)"
    finally:
        context.close()
