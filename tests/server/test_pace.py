"""The pace the person sets and the table's keys, in a real browser: each speed applied to the pauses, the forced
card played for you, the next hand by itself, keyboard play, and the settings kept by the browser."""

from __future__ import annotations

import re
from typing import Final

import pytest
from playwright.sync_api import Page, expect

from ohhell.dealnumbers import random_first_dealer
from server.serving import FAST, RunningServer
from server.tablepage import ALLOWED_BID, TablePage, number_where_you_deal_first

pytestmark = pytest.mark.browser

DELAYS: Final = {"bid": 650, "card": 750, "trick": 1500}  # game.js's pauses at normal speed, in ms
FACTORS: Final = {"slow": 1.8, "normal": 1.0, "fast": 0.4, "instant": 0.0}


def table_with(page: Page, server: RunningServer, **settings: object) -> TablePage:
    return TablePage(page, server.url, {"forcedCard": False, **settings})


@pytest.mark.parametrize("speed", sorted(FACTORS))
def test_each_speed_sets_every_pause(page: Page, server: RunningServer, speed: str) -> None:
    table = table_with(page, server, speed=speed)
    table.new_game("short", number=number_where_you_deal_first())  # the computer players bid first
    table.wait_ready()
    kind, pause = page.eval_on_selector("#game", "g => g.dataset.lastPause").split()
    assert kind == "bid"
    assert float(pause) == pytest.approx(DELAYS["bid"] * FAST * FACTORS[speed], abs=0.01)
    table.step()
    table.play_until("next")
    kind, pause = page.eval_on_selector("#game", "g => g.dataset.lastPause").split()
    assert kind in DELAYS
    assert float(pause) == pytest.approx(DELAYS[kind] * FAST * FACTORS[speed], abs=0.01)


def test_the_speed_is_chosen_in_table_settings_and_kept_by_the_browser(page: Page, server: RunningServer) -> None:
    table = table_with(page, server)
    table.new_game("short")
    table.tool("#settings-button")
    page.check("#settings-dialog input[value='fast']")
    page.uncheck("#setting-sort")
    page.keyboard.press("Escape")
    page.reload()
    table.wait_ready()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('ohhell.table'))")
    assert stored["speed"] == "fast" and stored["sortBySuit"] is False
    table.tool("#settings-button")
    expect(page.locator("#settings-dialog input[value='fast']")).to_be_checked()
    expect(page.locator("#setting-sort")).not_to_be_checked()


def test_the_forced_card_is_played_for_you(page: Page, server: RunningServer) -> None:
    table = table_with(page, server, forcedCard=True)
    table.new_game("up-and-down", number=number_where_you_deal_first())  # one card each: it is forced
    assert table.wait_ready() == "bid"
    table.page.locator(ALLOWED_BID).first.click()
    # no click on the card: the table plays it and the hand ends
    expect(page.locator("#next-hand")).to_be_visible()
    expect(page.locator("#hand .hand-card")).to_have_count(0)


def test_without_the_setting_the_forced_card_waits_for_you(page: Page, server: RunningServer) -> None:
    table = table_with(page, server, forcedCard=False)
    table.new_game("up-and-down", number=number_where_you_deal_first())
    table.step()
    assert table.wait_ready() == "play"
    expect(page.locator("#hand .hand-card.playable")).to_have_count(1)
    table.step()
    assert table.wait_ready() == "next"


def test_the_next_hand_starts_by_itself_when_asked(page: Page, server: RunningServer) -> None:
    table = table_with(page, server, forcedCard=True, autoNext=True)
    table.new_game("up-and-down", number=number_where_you_deal_first())
    table.page.locator(ALLOWED_BID).first.click()
    expect(page.locator("#hand-title")).to_have_text(re.compile(r"^Hand 2 of"))


def test_keys_bid_play_hint_next_and_list_themselves(page: Page, server: RunningServer) -> None:
    number = next(n for n in range(1, 100) if random_first_dealer(n, 4) != 0)  # you are not the dealer
    table = table_with(page, server)
    table.new_game("short", number=number)
    table.play_until("bid")
    page.keyboard.press("Enter")  # the panel has the focus, not the 0 button: a stray Enter bids nothing
    page.keyboard.press("2")
    expect(page.locator("#my-plate .plate-line")).to_have_text("Bid 2 · won 0")
    table.play_until("play")
    page.keyboard.press("h")
    expect(page.locator("#notice")).to_contain_text("Hint: Play the")
    for _ in range(8):
        page.keyboard.press("ArrowRight")
        if page.evaluate("() => document.activeElement.matches('.hand-card.playable')"):
            break
    else:
        raise AssertionError("the arrows never reached a card you may play")
    card = page.evaluate("() => document.activeElement.dataset.card")
    before = table.version()
    page.keyboard.press("Enter")
    table.wait_moved_on(before)
    assert card not in table.hand()
    page.keyboard.press("?")
    expect(page.locator("#keys-dialog")).to_be_visible()
    expect(page.locator("#keys-list")).to_contain_text("Next hand")
    page.keyboard.press("Escape")
    table.play_until("next")
    page.keyboard.press("n")
    expect(page.locator("#hand-title")).to_have_text(re.compile(r"^Hand 2 of"))


def test_two_digits_bid_10_and_more(page: Page, server: RunningServer) -> None:
    table = table_with(page, server)
    table.new_game("full", number=number_where_you_deal_first())  # 10 cards; you deal, so you bid last
    assert table.wait_ready() == "bid"
    allowed = page.eval_on_selector_all(ALLOWED_BID, "bs => bs.map(b => Number(b.dataset.bid))")
    bid = 10 if 10 in allowed else 9
    for digit in str(bid):
        page.keyboard.press(digit)
    expect(page.locator("#my-plate .plate-line")).to_have_text(f"Bid {bid} · won 0")


@pytest.mark.parametrize("sounds", [True, False])
def test_sounds_mark_your_turn_a_trick_and_the_end_of_a_hand_unless_muted(
    page: Page, server: RunningServer, sounds: bool
) -> None:
    table = table_with(page, server, sounds=sounds)
    table.new_game("up-and-down", number=number_where_you_deal_first())  # 1 card: the hand ends after one trick
    table.step()
    table.play_until("next")
    heard = (page.evaluate("() => document.documentElement.dataset.sounds") or "").split()
    if sounds:
        assert {"turn", "trick", "hand"} <= set(heard), heard
    else:
        assert heard == []
