"""Why? shows a computer player's reasons to every seat: built from public facts and its intent, and scanned over
whole games of every preset at several table sizes, none gives its hand away."""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Sequence

import pytest
from botkit import act, deal_of, decide, hooked_dealer
from reasonscan import problems as scan

from ohhell.actions import action_text
from ohhell.bots import Budget, make_bot
from ohhell.bots.intent import Intent
from ohhell.bots.public import PublicFacts, PublicReason, public_text, why
from ohhell.cards import CardSet, parse_card
from ohhell.deal import Deal
from ohhell.game import Game
from ohhell.rules import PRESETS, Rules
from ohhell.view import seat_view

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""Every table seats each level in turn, so that every level plays every preset at every size."""
TREE_BUDGET = Budget(iterations=40)
FLAT_BUDGET = Budget(iterations=2)
NAMES = ("Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus")


def table_sizes(preset: str) -> tuple[int, ...]:
    return (3, 5, 6) if PRESETS[preset].special_cards else (3, 5, 7)


TABLES = [(preset, players) for preset in PRESETS for players in table_sizes(preset)]


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_no_reason_of_a_whole_game_names_a_hidden_card_or_what_the_hand_holds(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    names = NAMES[:players]
    game = Game(rules, number=4000 + 10 * players + len(preset), names=names)
    rng = random.Random(players)
    budget = FLAT_BUDGET if rules.special_cards else TREE_BUDGET
    problems: dict[str, list[str]] = {}
    reasons = 0
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        level = LEVELS[(seat + game.deal_index) % len(LEVELS)]
        decision = make_bot(level).decide(view, rng, budget)
        text = why(decision, view, names)
        played = decision.action if decision.action < 60 else None
        hidden = [c for s in range(players) for c in CardSet(game.deal.hands[s]) if c != played or s != seat]
        shown = [*view.trick, *(c for c in (played, view.turn_up) if c is not None)]
        found = scan(text, hidden, shown) + ([] if names[seat] in text else ["does not call the player by name"])
        for problem in found:
            where = f"{names[seat]} ({level}), {action_text(decision.action)}: {text!r}"
            problems.setdefault(problem, []).append(where)
        reasons += 1
        game.apply(decision.action, seat)
    assert reasons > 20 * players
    report = [f"{problem} ({len(where)} times), as in {where[0]}" for problem, where in problems.items()]
    assert not problems, f"{sum(map(len, problems.values()))} problems in {reasons} reasons:\n" + "\n".join(report)


def test_a_public_reason_is_written_from_types_that_hold_no_hand() -> None:
    hints = typing.get_type_hints(public_text)
    assert hints == {
        "reason": PublicReason,
        "facts": PublicFacts,
        "names": Sequence[str],
        "you": int | None,
        "return": str,
    }
    assert [f.name for f in dataclasses.fields(PublicReason)] == ["intent", "action"]
    assert typing.get_type_hints(PublicReason) == {"intent": Intent, "action": int}
    assert {f.name for f in dataclasses.fields(PublicFacts)} == {
        "rules",
        "seat",
        "dealer",
        "hand_size",
        "turn_up",
        "trump",
        "bids",
        "tricks_won",
        "trick_leader",
        "trick",
        "led_suit",
        "winning_seat",
        "forbidden_bid",
    }
    for name, kind in typing.get_type_hints(PublicFacts).items():
        assert kind in (Rules, int, int | None, tuple[int, ...], tuple[int | None, ...]), (name, kind)


def test_the_public_facts_are_the_same_whatever_the_hands() -> None:
    one = deal_of(["AS KH", "2S 3H", "QS QD"], dealer=2, turn_up="9H")
    other = deal_of(["2S 3H", "QS QD", "AS KH"], dealer=2, turn_up="9H")
    act(one, "bid 1")
    act(other, "bid 1")
    assert seat_view(one, 1) != seat_view(other, 1)
    assert PublicFacts.of(seat_view(one, 1)) == PublicFacts.of(seat_view(other, 1))


def _magician_turned() -> Deal:
    rules = Rules.preset("magicians", schedule=(5,))
    hands = [CardSet.parse(h) for h in ("AH KH QH JH 2C", "2S 3S 4S 5S 6S", "2D 3D 4D 5D 6D", "7S 8S 9S TS 3C")]
    return Deal(rules, hands, dealer=0, turn_up=parse_card("MG"))


@pytest.mark.parametrize("level", LEVELS)
def test_naming_trump_after_a_turned_magician_says_nothing_of_the_hand(level: str) -> None:
    # Today's bug: an Easy dealer said "Chose its longest suit, hearts (5 cards), as trump" to every seat, and
    # Normal gave its expected points with each suit.
    view = seat_view(_magician_turned(), 0)
    decision = decide(level, view)
    assert decision.intent is Intent.NAME_TRUMP
    assert why(decision, view, NAMES) == "A Magician was turned up, so Ann, the dealer, named hearts trump."


def test_a_play_is_said_from_the_bid_the_card_and_what_the_player_meant() -> None:
    deal = act(deal_of(["AS KH", "2S 3H", "QS QD"], dealer=2, turn_up="9H"), "bid 1", "bid 0", "bid 0")
    facts = PublicFacts.of(seat_view(deal, 0))
    lead = public_text(PublicReason(Intent.WIN, parse_card("AS")), facts, NAMES)
    assert lead == "Ann needed one more trick and led the ace of spades to win the trick."
    act(deal, "play AS")
    facts = PublicFacts.of(seat_view(deal, 1))
    duck = public_text(PublicReason(Intent.LOSE, parse_card("2S")), facts, NAMES)
    assert duck == "Bob wanted no tricks (a bid of 0) and played the 2 of spades, staying under Ann's ace of spades."
    assert public_text(PublicReason(Intent.LOSE, parse_card("2S")), facts, NAMES, you=0).endswith(
        "staying under your ace of spades."
    )


def test_the_hook_is_said_in_public_words() -> None:
    view = hooked_dealer()
    decision = decide("normal", view)
    assert decision.intent is Intent.HOOKED
    assert why(decision, view, NAMES) == (
        "Dev would have bid 1, but the dealer may not make the bids add up to the three tricks, so Dev bid 2."
    )
