"""New game and the table welcome a newcomer: remembered choices, the rules' limits, the draw for the first deal,
How to play, the hand sorted by suit; in a real browser."""

from __future__ import annotations

import itertools
import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from ohhell.rules import PRESETS
from server.serving import RunningServer
from server.tablepage import TablePage

pytestmark = pytest.mark.browser

RED = {"H", "D"}


@pytest.fixture
def table(page: Page, server: RunningServer) -> TablePage:
    return TablePage(page, server.url)


def test_new_game_remembers_the_last_choices(table: TablePage) -> None:
    page = table.page
    page.goto(f"{table.base_url}/")
    page.select_option("#preset", "short")
    page.select_option("#players", "5")
    page.fill("#your-name", "Dana")
    page.fill("#computer-name-0", "Zed")
    page.select_option("#computer-level-1", "hard")
    page.click("#settings summary")
    page.uncheck("#hook")
    page.fill("#number", "77")
    page.click("#start")
    page.wait_for_url("**/games/*")
    page.goto(f"{table.base_url}/")
    expect(page.locator("#preset")).to_have_value("short")
    expect(page.locator("#players")).to_have_value("5")
    expect(page.locator("#your-name")).to_have_value("Dana")
    expect(page.locator("#computer-name-0")).to_have_value("Zed")
    expect(page.locator("#computer-level-1")).to_have_value("hard")
    expect(page.locator("#hook")).not_to_be_checked()
    expect(page.locator("#number")).to_have_value("")  # a new deal unless a number is typed again


def test_magicians_offers_only_the_player_counts_it_allows(table: TablePage) -> None:
    page = table.page
    page.goto(f"{table.base_url}/")
    page.select_option("#players", "7")
    page.select_option("#preset", "magicians")
    expect(page.locator("#players")).to_have_value("6")
    assert page.eval_on_selector("#players option[value='7']", "o => o.disabled && o.hidden")
    page.select_option("#preset", "full")
    assert not page.eval_on_selector("#players option[value='7']", "o => o.disabled")


def test_the_draw_for_the_first_deal_is_shown_when_the_rules_draw(table: TablePage) -> None:
    table.new_game("traditional")
    expect(table.page.locator("#draw-note")).to_be_visible()
    expect(table.page.locator("#draw-note")).to_have_text(re.compile(r"^The draw for the first deal: .+ first\.$"))
    other = TablePage(table.page, table.base_url)
    other.new_game("short")
    expect(table.page.locator("#draw-note")).to_have_count(0)


def test_how_to_play_has_a_page_for_each_preset_reached_from_new_game_and_the_table(table: TablePage) -> None:
    page = table.page
    for preset in PRESETS:
        answer = httpx.get(f"{table.base_url}/how-to-play/{preset}")
        assert answer.status_code == 200
        assert "The aim" in answer.text and "Scoring" in answer.text
    magicians = httpx.get(f"{table.base_url}/how-to-play/magicians").text
    assert "Magicians and Jesters may be played at any time" in magicians
    assert "draws a card for the first deal" in httpx.get(f"{table.base_url}/how-to-play/traditional").text
    page.goto(f"{table.base_url}/")
    page.select_option("#preset", "magicians")
    page.click("#howto-link")
    expect(page.locator("h1")).to_have_text("How to play: Magicians and Jesters")
    table.new_game("short")
    table.tool("#how-to-play-link")
    expect(page.locator("h1")).to_have_text("How to play: Short")


def test_the_hand_is_sorted_by_suit_in_alternating_colours_with_trump_last(page: Page, server: RunningServer) -> None:
    table = TablePage(page, server.url, {"forcedCard": False, "sortBySuit": True})
    table.new_game("full")
    trump = page.evaluate("() => document.querySelector('.turn-up-suit').className.match(/suit-(\\w+)/)[1]")
    suits = [card[1] for card in table.hand()]
    runs = [suit for i, suit in enumerate(suits) if i == 0 or suits[i - 1] != suit]
    assert len(runs) == len(set(runs)), f"each suit together: {suits}"
    if trump in "SHDC" and trump in runs:
        assert runs[-1] == trump
    plain = [suit for suit in runs if suit != trump]
    reds = sum(suit in RED for suit in plain)
    if abs(reds - (len(plain) - reds)) <= 1:  # the colours can alternate (two black suits alone cannot)
        for a, b in itertools.pairwise(plain):
            assert (a in RED) != (b in RED), f"colours alternate: {runs}"
