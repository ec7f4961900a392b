"""The rules as data: presets, schedules, overrides and refused combinations (RULES.md)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings

from conftest import valid_rules
from ohhell.cards import FULL_PACK, HEARTS, SPADES, STANDARD_PACK
from ohhell.errors import RulesError
from ohhell.rules import OPTION_NAMES, PRESETS, SCHEDULES, Rules, first_hand_size, schedule_sizes

# ----------------------------------------------------------------- presets


PRESET_TABLE = [
    # name, schedule, first dealer, hook, bids, scoring, special cards
    ("full", "down-up", "random", True, "final", "tricks+10", False),
    ("down-only", "down", "random", True, "final", "tricks+10", False),
    ("short", "short", "random", True, "final", "tricks+10", False),
    ("up-and-down", "up-down", "random", True, "final", "10+bid", False),
    ("traditional", "down-up", "draw", True, "until-next", "tricks+10", False),
    ("magicians", "rising", "random", False, "final", "magicians", True),
]


@pytest.mark.parametrize(
    ("name", "schedule", "first_dealer", "hook", "bid_changes", "scoring", "special_cards"), PRESET_TABLE
)
def test_presets_table_of_rules_md(
    name: str, schedule: str, first_dealer: str, hook: bool, bid_changes: str, scoring: str, special_cards: bool
) -> None:
    rules = Rules.preset(name)
    assert rules.preset_name == name
    assert rules.players == 4
    assert rules.schedule == schedule
    assert rules.first_dealer == first_dealer
    assert rules.hook is hook
    assert rules.bid_changes == bid_changes
    assert rules.scoring == scoring
    assert rules.special_cards is special_cards
    assert rules.pack_size == (60 if special_cards else 52)
    assert rules.trump == "turn-up"
    assert rules.first_lead == "left-of-dealer"
    assert rules.miss_penalty is False
    assert rules.zero_bid_bonus is None


def test_the_preset_names_are_exactly_those_of_rules_md() -> None:
    assert sorted(PRESETS) == sorted(row[0] for row in PRESET_TABLE)


@pytest.mark.parametrize("name", [row[0] for row in PRESET_TABLE if row[0] != "magicians"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_52_card_presets_are_for_3_to_7_players(name: str, players: int) -> None:
    assert Rules.preset(name, players=players).players == players


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_magicians_preset_is_for_3_to_6_players(players: int) -> None:
    assert Rules.preset("magicians", players=players).players == players


def test_the_magicians_preset_refuses_7_players_saying_why() -> None:
    with pytest.raises(RulesError, match="60-card pack with Magicians and Jesters is for 3 to 6 players, not 7"):
        Rules.preset("magicians", players=7)


def test_an_unknown_preset_is_refused_naming_the_presets() -> None:
    with pytest.raises(RulesError, match="unknown preset 'fulll': use one of full, down-only"):
        Rules.preset("fulll")


def test_an_unknown_option_is_refused_naming_the_options() -> None:
    with pytest.raises(RulesError, match="unknown option 'hooks': options are"):
        Rules.preset("full", hooks=False)
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        Rules.preset("full").replace(colour="red")


# ----------------------------------------------------------------- schedules


@pytest.mark.parametrize(
    ("schedule", "players", "deals"),
    [
        ("down-up", 3, 19),
        ("down-up", 4, 19),
        ("down-up", 5, 19),
        ("down-up", 6, 15),
        ("down-up", 7, 13),
        ("down", 3, 10),
        ("down", 4, 10),
        ("down", 5, 10),
        ("down", 6, 8),
        ("down", 7, 7),
        ("short", 3, 9),
        ("short", 4, 9),
        ("short", 5, 9),
        ("short", 6, 9),
        ("short", 7, 9),
        ("up-down", 4, 25),
        ("seven", 3, 13),
        ("seven", 4, 13),
        ("seven", 5, 13),
        ("seven", 6, 13),
        ("seven", 7, 13),
        ("up-down-7", 3, 13),
        ("up-down-7", 4, 13),
        ("up-down-7", 7, 13),
    ],
)
def test_schedule_deal_counts_of_rules_md(schedule: str, players: int, deals: int) -> None:
    assert Rules(players=players, schedule=schedule).deals == deals


def test_first_hand_is_10_for_3_to_5_players_8_for_6_and_7_for_7() -> None:
    assert [first_hand_size(n) for n in (3, 4, 5, 6, 7)] == [10, 10, 10, 8, 7]


def test_down_up_goes_from_f_to_1_and_back_with_one_1_card_deal() -> None:
    assert Rules(players=6).hand_sizes == (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
    sizes = Rules(players=4).hand_sizes
    assert sizes[:10] == tuple(range(10, 0, -1))
    assert sizes[10:] == tuple(range(2, 11))
    assert sizes.count(1) == 1


def test_down_goes_from_f_to_1() -> None:
    assert Rules(players=7, schedule="down").hand_sizes == (7, 6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_short_is_5_to_1_to_5_at_every_table_size(players: int) -> None:
    assert Rules(players=players, schedule="short").hand_sizes == (5, 4, 3, 2, 1, 2, 3, 4, 5)


def test_up_down_for_4_players_is_1_to_13_to_1_with_one_13_card_deal() -> None:
    sizes = Rules(players=4, schedule="up-down").hand_sizes
    assert sizes == (*range(1, 14), *range(12, 0, -1))
    assert len(sizes) == 25
    assert sizes.count(13) == 1


def test_up_and_down_from_max_use_the_most_cards_the_pack_allows() -> None:
    assert Rules(players=5, schedule="up").hand_sizes == tuple(range(1, 11))
    assert Rules(players=5, schedule="down-from-max").hand_sizes == tuple(range(10, 0, -1))
    assert Rules(players=3, schedule="up-down").hand_sizes[16] == 17


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_seven_is_7_to_1_to_7_at_every_table_size(players: int) -> None:
    assert Rules(players=players, schedule="seven").hand_sizes == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


def test_up_down_7_climbs_to_7_and_comes_back() -> None:
    assert Rules(schedule="up-down-7").hand_sizes == (1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_rising_with_60_cards_deals_until_the_pack_runs_out(players: int, rounds: int) -> None:
    """Seed 004: 3 players play 20 rounds, 4 play 15, 5 play 12, 6 play 10."""
    rules = Rules.preset("magicians", players=players)
    assert rules.hand_sizes == tuple(range(1, rounds + 1))


def test_rising_with_the_52_card_pack_deals_until_it_runs_out() -> None:
    assert Rules.preset("magicians", players=4, special_cards=False).hand_sizes == tuple(range(1, 14))


def test_every_named_schedule_is_known_and_an_unknown_one_refused() -> None:
    for name in SCHEDULES:
        assert schedule_sizes(name, 4, 52)
    with pytest.raises(RulesError, match="unknown schedule 'sideways'"):
        Rules(schedule="sideways")


def test_an_explicit_list_of_hand_sizes_is_a_schedule() -> None:
    rules = Rules(players=4, schedule=[3, 1, 13])  # type: ignore[arg-type]
    assert rules.schedule == (3, 1, 13)
    assert rules.hand_sizes == (3, 1, 13)
    assert rules.deals == 3


# ----------------------------------------------------------------- trump


def test_a_trump_rotation_advances_one_step_a_deal_with_its_no_trump_step() -> None:
    rules = Rules(trump=["S", "H", "D", "C", "NT"])  # type: ignore[arg-type]
    assert rules.trump == ("S", "H", "D", "C", "NT")
    assert not rules.turns_up_trump
    assert [rules.rotation_trump(i) for i in range(7)] == [0, 1, 2, 3, None, 0, 1]


def test_turn_up_rules_have_no_rotation() -> None:
    rules = Rules()
    assert rules.turns_up_trump
    with pytest.raises(RulesError, match="turn up trump"):
        rules.rotation_trump(0)


# ----------------------------------------------------------------- overrides


OVERRIDES: list[dict[str, Any]] = [
    {"players": 6},
    {"schedule": "short"},
    {"schedule": (2, 4)},
    {"first_dealer": "draw"},
    {"first_dealer": 2},
    {"trump": ("H", "NT")},
    {"hook": False},
    {"bid_changes": "until-next"},
    {"first_lead": "dealer"},
    {"scoring": "5+bid"},
    {"miss_penalty": True},
    {"zero_bid_bonus": 5},
    {"special_cards": True},
]


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("override", OVERRIDES, ids=lambda o: next(iter(o)))
def test_every_option_can_be_overridden_on_every_preset(name: str, override: dict[str, Any]) -> None:
    rules = Rules.preset(name, **override)
    for option, value in override.items():
        assert getattr(rules, option) == value
    base = PRESETS[name]
    for option in OPTION_NAMES - set(override):
        assert getattr(rules, option) == getattr(base, option)
    assert rules.preset_name == name


def test_a_named_schedule_follows_an_overridden_table_size() -> None:
    assert Rules.preset("full", players=6).deals == 15
    assert Rules.preset("up-and-down", players=7).hand_sizes == (1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1)
    assert Rules.preset("magicians").replace(players=3).deals == 20


def test_magicians_without_special_cards_is_a_52_card_game() -> None:
    rules = Rules.preset("magicians", special_cards=False, players=7)
    assert rules.pack_size == 52
    assert rules.pack == STANDARD_PACK
    assert Rules.preset("magicians").pack == FULL_PACK


def test_replace_validates_again() -> None:
    rules = Rules.preset("full")
    assert rules.replace(players=5).players == 5
    with pytest.raises(RulesError, match="not 9"):
        rules.replace(players=9)


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules.preset("full")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.hook = False  # type: ignore[misc]
    assert hash(rules) == hash(Rules.preset("full"))
    assert rules == Rules()


def test_the_preset_name_is_a_label_not_a_rule() -> None:
    assert Rules.preset("down-only") == Rules(schedule="down")


# ----------------------------------------------------------------- refused combinations


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2}, "Oh Hell! is for 3 to 7 players, not 2"),
        ({"players": 8}, "Oh Hell! is for 3 to 7 players, not 8"),
        ({"players": 2, "special_cards": True}, "for 3 to 6 players, not 2"),
        ({"players": 7, "special_cards": True}, "60-card pack with Magicians and Jesters is for 3 to 6 players, not 7"),
        ({"players": "4"}, "players must be a whole number, not '4'"),
        ({"players": True}, "players must be a whole number"),
        ({"schedule": (14,)}, "a 14-card deal needs 56 cards for 4 players, but the pack has 52"),
        (
            {"schedule": (16,), "special_cards": True},
            "a 16-card deal needs 64 cards for 4 players, but the pack has 60",
        ),
        ({"players": 6, "schedule": (9,)}, "needs 54 cards for 6 players"),
        ({"schedule": (3, 0, 3)}, "hand sizes must be whole numbers of at least 1, not 0"),
        ({"schedule": (-1,)}, "at least 1, not -1"),
        ({"schedule": (2.5,)}, "at least 1, not 2.5"),
        ({"schedule": (True,)}, "at least 1, not True"),
        ({"schedule": ()}, "the schedule must have at least one deal"),
        ({"schedule": 7}, "schedule must be a name or a list of hand sizes, not 7"),
        ({"schedule": "sideways"}, "unknown schedule 'sideways'"),
        ({"trump": ("S", "X")}, "trump rotation step 'X' must be S, H, D, C or NT"),
        ({"trump": ("s",)}, "trump rotation step 's'"),
        ({"trump": ()}, "a trump rotation needs at least one step"),
        ({"trump": "rotation"}, "trump must be 'turn-up' or a rotation"),
        ({"trump": 3}, "trump must be 'turn-up' or a rotation"),
        ({"hook": 1}, "hook must be true or false, not 1"),
        ({"miss_penalty": "yes"}, "miss_penalty must be true or false"),
        ({"special_cards": None}, "special_cards must be true or false"),
        ({"bid_changes": "whenever"}, "bid_changes must be one of final, until-next, not 'whenever'"),
        ({"first_lead": "left"}, "first_lead must be one of left-of-dealer, dealer, not 'left'"),
        ({"scoring": "tricks+5"}, "scoring must be one of tricks+10, 10+bid, 5+bid, magicians, not 'tricks+5'"),
        ({"first_dealer": 4}, "first_dealer seat 4 does not exist: seats are 0 to 3"),
        ({"first_dealer": -1}, "first_dealer seat -1 does not exist"),
        ({"first_dealer": 6, "players": 6}, "first_dealer seat 6 does not exist: seats are 0 to 5"),
        ({"first_dealer": "highest"}, "first_dealer must be one of random, draw, not 'highest'"),
        ({"first_dealer": True}, "first_dealer must be 'random', 'draw' or a seat number, not True"),
        ({"first_dealer": 1.0}, "first_dealer must be 'random', 'draw' or a seat number"),
        ({"zero_bid_bonus": "5"}, "zero_bid_bonus must be a whole number, not '5'"),
        ({"zero_bid_bonus": False}, "zero_bid_bonus must be a whole number"),
    ],
)
def test_impossible_combinations_are_refused_with_a_sentence_saying_why(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**options)
    assert message in str(info.value)


def test_a_preset_override_that_becomes_impossible_is_refused() -> None:
    with pytest.raises(RulesError, match="a 14-card deal needs 70 cards for 5 players, but the pack has 60"):
        Rules.preset("magicians", players=5, schedule=(14,))
    with pytest.raises(RulesError, match="a 13-card deal needs 65 cards for 5 players, but the pack has 52"):
        Rules.preset("up-and-down", players=4, schedule=(1, 13)).replace(players=5)
    with pytest.raises(RulesError, match="first_dealer seat 3 does not exist"):
        Rules.preset("full", players=3, first_dealer=3)


def test_miss_penalty_may_be_combined_with_every_scheme() -> None:
    assert Rules.preset("magicians", miss_penalty=True).miss_penalty


def test_the_13_card_deal_uses_the_whole_pack_and_is_allowed() -> None:
    assert Rules(players=4, schedule=(13,)).hand_sizes == (13,)
    assert Rules(players=4, schedule=(15,), special_cards=True).hand_sizes == (15,)


# ----------------------------------------------------------------- record form


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_json_of_a_preset_names_it_with_its_players(name: str) -> None:
    assert Rules.preset(name).to_json() == {"preset": name, "players": 4}


def test_to_json_lists_only_the_options_that_differ_from_the_preset() -> None:
    rules = Rules.preset("traditional", players=5, trump=("S", "NT"), schedule=(3, 2), zero_bid_bonus=5)
    assert rules.to_json() == {
        "preset": "traditional",
        "players": 5,
        "schedule": [3, 2],
        "trump": {"rotation": ["S", "NT"]},
        "zero_bid_bonus": 5,
    }


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_from_json_reads_a_bare_preset_name(name: str) -> None:
    assert Rules.from_json(name) == PRESETS[name]
    assert Rules.from_json(name).preset_name == name


@settings(max_examples=200, deadline=None)
@given(valid_rules())
def test_to_json_and_from_json_round_trip_through_json_text(rules: Rules) -> None:
    text = json.dumps(rules.to_json())
    again = Rules.from_json(json.loads(text))
    assert again == rules
    assert again.preset_name == rules.preset_name
    assert again.hand_sizes == rules.hand_sizes


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (3, "rules must be a preset name or an object, not int"),
        (["full"], "rules must be a preset name or an object, not list"),
        ({"preset": 3}, "preset must be a name, not 3"),
        ({"preset": "nope"}, "unknown preset 'nope'"),
        ({"preset": "full", "hooks": True}, "unknown option 'hooks'"),
        ({"trump": {"rotation": "SH"}}, 'trump must be "turn-up" or {"rotation"'),
        ({"trump": {"suits": ["S"]}}, 'trump must be "turn-up" or {"rotation"'),
        ({"schedule": 5}, "schedule has the wrong type: 5"),
        ({"players": 9}, "not 9"),
    ],
)
def test_from_json_refuses_bad_records(data: object, message: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_json(data)
    assert message in str(info.value)


def test_from_json_reads_zero_bonus_as_the_rules_md_name_of_zero_bid_bonus() -> None:
    assert Rules.from_json({"preset": "traditional", "zero_bonus": 5}).zero_bid_bonus == 5
    with pytest.raises(RulesError, match="give zero_bid_bonus or zero_bonus, not both"):
        Rules.from_json({"zero_bonus": 5, "zero_bid_bonus": 5})


def test_describe_is_one_line_for_people() -> None:
    assert Rules.preset("full").describe() == "full, 4 players: 19 deals (10 9 ... 10), hook, tricks+10 scoring"
    assert Rules.preset("magicians", players=6).describe() == (
        "magicians, 6 players: 10 deals (1 2 ... 10), no hook, magicians scoring, Magicians and Jesters"
    )
    assert "3 deals (2 1 2)" in Rules(schedule=(2, 1, 2)).describe()


def test_rotation_suits_map_to_suit_numbers() -> None:
    rules = Rules(trump=("H", "S"))
    assert (rules.rotation_trump(0), rules.rotation_trump(1)) == (HEARTS, SPADES)
