"""The name plates' labels and the turn markers in a real browser: true at every moment of a hand and after it."""

from __future__ import annotations

import re
from typing import Final

import pytest
from playwright.sync_api import Page, expect

from ohhell.dealnumbers import random_first_dealer
from server.serving import RunningServer
from server.tablepage import TablePage, number_where_you_deal_first

pytestmark = pytest.mark.browser

DURING: Final = re.compile(r"^(Needs \d+ more|On track|\d+ too many)$")
AFTER: Final = re.compile(r"^(Made it|Missed by \d+|\d+ too many)$")


@pytest.fixture
def table(page: Page, server: RunningServer) -> TablePage:
    return TablePage(page, server.url)


def labels(table: TablePage) -> list[str]:
    texts: list[str] = table.page.eval_on_selector_all(".plate-label", "ls => ls.map(l => l.textContent)")
    return texts


def test_while_the_hand_is_played_no_plate_says_made_it_and_after_it_none_says_needs(table: TablePage) -> None:
    # up and down the river starts with a 1-card hand; you deal, so the three computer players bid first
    table.new_game("up-and-down", number=number_where_you_deal_first())
    assert table.wait_ready() == "bid"
    during = labels(table)
    assert len(during) == 3
    assert all(DURING.match(label) for label in during), during
    table.step()
    assert table.wait_ready() == "play"
    assert all(DURING.match(label) for label in labels(table))
    table.step()
    assert table.wait_ready() == "next"
    after = labels(table)
    assert len(after) == 4
    assert all(AFTER.match(label) for label in after), after


def test_a_zero_bid_is_on_track_until_the_hand_is_over(table: TablePage) -> None:
    number = next(n for n in range(1, 100) if random_first_dealer(n, 4) != 0)  # not the dealer: 0 is allowed
    table.new_game("up-and-down", number=number)
    table.play_until("bid")
    table.page.click(".center-panel .bid-button[data-bid='0']:not([disabled])")
    table.wait_ready()
    expect(table.page.locator("#my-plate .plate-label")).to_have_text(re.compile(r"^(On track|1 too many)$"))
    table.play_until("next")
    expect(table.page.locator("#my-plate .plate-label")).to_have_text(re.compile(r"^(Made it|1 too many)$"))


def test_after_giving_up_mid_trick_nothing_says_your_turn_and_the_trick_is_gone(table: TablePage) -> None:
    table.new_game("full", number=number_where_you_deal_first())
    table.play_until("play")
    page = table.page
    expect(page.locator("#trick .trick-card")).to_have_count(3)  # the three computer players led and followed
    expect(page.locator("#my-plate .turn-chip")).to_have_text("Your turn")
    table.tool("#resign-button")
    page.click("#resign-confirm")
    expect(page.locator(".hand-over .panel-title")).to_have_text("Game over")
    expect(page.locator("#trick .trick-card")).to_have_count(0)
    expect(page.locator(".turn-chip")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Game over.")
    expect(page.locator("#status.your-turn")).to_have_count(0)
    expect(page.locator(".hand.your-turn")).to_have_count(0)
    assert not any(label.startswith("Needs") for label in labels(table))
    page.reload()
    expect(page.locator(".hand-over .panel-title")).to_have_text("Game over")
    expect(page.locator(".turn-chip")).to_have_count(0)
    expect(page.locator("#trick .trick-card")).to_have_count(0)
