"""Hint: what the Normal (or Hard) player would do from a person's own view, said to that person.

A hint is that player's :class:`~ohhell.bots.base.Decision` for the person's own view, so it can never know
more than the person does, and it may speak of the person's own cards. :func:`explain` puts the decision in
plain words to "you" (:attr:`Hint.reason`: "Bid 2: you can count on the ace of spades, and the king of hearts may
take a trick.") and the numbers behind it in separate lines to fold away (:attr:`Hint.details`: the expected
tricks, the value of every option weighed, each card's chance). Every word and number comes from the decision.

>>> import random
>>> from ohhell import Game, Rules
>>> game = Game(Rules.preset("full"), number=5)
>>> advice = hint(game.view(game.to_act), "normal", random.Random(0))
>>> advice.reason.startswith("Bid ")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ohhell.actions import Action, argument_of, verb_of
from ohhell.bots import make_bot
from ohhell.bots.base import Budget, Decision
from ohhell.bots.intent import Intent
from ohhell.bots.public import PublicFacts, card_words, counted
from ohhell.cards import SUIT_NAMES, Card, card_name
from ohhell.deal import beats
from ohhell.view import SeatView

HINT_LEVELS: Final = ("normal", "hard")
SHOWN_OPTIONS: Final = 6
"""Options listed in a hint's details; the rest are summed up by their count."""
COUNT_ON: Final = 0.8
"""A card's chance of a trick from which a hint says "you can count on" it."""
MAY_TAKE: Final = 0.35
"""A card's chance of a trick from which a hint says it "may take a trick"."""
LIKELY: Final = 0.9
"""A card's chance to win the trick from which a hint says it "should win"; below, it "has a good chance"."""


@dataclass(frozen=True)
class Hint:
    """A suggestion for the person at a seat.

    ``reason`` is one or two plain sentences to "you"; ``details`` are the numbers behind them, one line each,
    for a part of the page folded away.
    """

    action: Action
    reason: str
    details: tuple[str, ...] = ()


def suggest(
    view: SeatView, level: str = "normal", rng: random.Random | None = None, budget: Budget | None = None
) -> Decision:
    """The bid, card or trump the ``level`` player would choose from ``view``, with its reasons."""
    if level not in HINT_LEVELS:
        raise ValueError(f"hints come from the {' or '.join(HINT_LEVELS)} player, not {level!r}")
    return make_bot(level).decide(view, rng if rng is not None else random.Random(), budget)


def hint(
    view: SeatView,
    level: str = "normal",
    rng: random.Random | None = None,
    budget: Budget | None = None,
    names: Sequence[str] | None = None,
) -> Hint:
    """:func:`suggest`, put in words by :func:`explain`."""
    return explain(suggest(view, level, rng, budget), view, names)


def explain(decision: Decision, view: SeatView, names: Sequence[str] | None = None) -> Hint:
    """``decision``, made from ``view`` (the person's own), in words to that person, with its numbers apart.

    ``names`` are the seats' names, to say whose card is on the table ("under Bob's queen of hearts").
    """
    verb = verb_of(decision.action)
    if verb == "trump":
        suit = SUIT_NAMES[argument_of(decision.action)]
        text = f"Name {suit} trump: your cards expect the most points with {suit} as trump."
    elif verb in ("bid", "change"):
        text = _bid_reason(decision, view)
    else:
        text = _play_reason(decision, view, names)
    return Hint(decision.action, text, _details(decision))


def _bid_reason(decision: Decision, view: SeatView) -> str:
    bid = argument_of(decision.action)
    if decision.fact("worlds") is not None:
        text = f"Bid {bid}: a search of simulated deals of the cards you cannot see favoured it."
    else:
        sure = [c for c, p in decision.card_chances if p >= COUNT_ON]
        maybe = [c for c, p in decision.card_chances if MAY_TAKE <= p < COUNT_ON]
        parts = []
        if sure:
            parts.append(f"you can count on {_listed(sure)}")
        if maybe:
            parts.append(f"{_listed(maybe)} may {'take a trick' if len(maybe) == 1 else 'each take one'}")
        if parts:
            text = f"Bid {bid}: {', and '.join(parts)}."
        elif bid > 0:
            text = (
                f"Bid {bid}: no one card of yours is likely to take a trick, but together they come to about"
                f" {counted(bid, 'trick')}."
            )
        else:
            text = "Bid 0: none of your cards is likely to take a trick."
    forbidden = view.forbidden_bid
    if decision.intent is Intent.HOOKED and forbidden is not None:
        tricks = counted(view.hand_size, "trick")
        text += f" You would bid {forbidden}, but as the dealer you may not make the bids add up to the {tricks}."
    return text


def _play_reason(decision: Decision, view: SeatView, names: Sequence[str] | None) -> str:
    card = decision.action
    bid = view.bids[view.seat] or 0
    won = view.tricks_won[view.seat]
    need = bid - won
    if need > 0:
        situation = f"you need {counted(need, 'more trick')}"
    elif bid == 0 and won == 0:
        situation = "you bid 0 and want no tricks"
    elif need == 0:
        situation = "you have made your bid"
    else:
        situation = f"you are {counted(-need, 'trick')} over your bid"
    searched = decision.fact("worlds") is not None
    values = {round(o.value, 1) for o in decision.options}  # as the details print them
    if len(view.legal_actions) == 1:
        return f"Play {card_words(card)}: {situation}, and it is the only card you may play."
    if len(values) <= 1:
        return f"Play {card_words(card)}: {situation}, and any card you may play comes to the same here."
    best = PublicFacts.of(view).winning_card
    trump = -1 if view.trump is None else view.trump
    intent = decision.intent
    if intent is Intent.WIN:
        chance = dict(decision.card_chances).get(card, 0.0)
        if searched:
            aim = "it won this trick in most of the simulated deals"
        else:
            aim = "it should win this trick" if chance >= LIKELY else "it has a good chance to win this trick"
    elif intent is Intent.LOSE and need > 0:
        aim = "it lets this trick go and keeps your chances for the tricks you need"
    elif intent is Intent.LOSE and best is not None and not beats(card, best, trump):
        owner = f"{names[view.winning_seat]}'s" if names is not None and view.winning_seat is not None else "the"
        aim = f"it stays under {owner} {card_name(best)}"
    elif intent is Intent.LOSE:
        aim = "it lost this trick in most of the simulated deals" if searched else "it is unlikely to win this trick"
    else:
        aim = (
            "the search of simulated deals favoured it"
            if searched
            else "it leaves you the best outlook for the rest of the deal"
        )
    contrary = (intent is Intent.LOSE and need > 0) or (intent is Intent.WIN and need <= 0)
    return f"Play {card_words(card)}: {situation}, {'but' if contrary else 'and'} {aim}."


SHARED_CHANCE: Final = 3
"""From this many cards with the same chance, a hint's details name the chance once for all of them."""


def _chances_listed(chances: Sequence[tuple[Card, float]]) -> str:
    """Each card's chance, best first; cards that share one chance (as printed) together, the chance said once.

    Many cards of a big hand share one figure: the Normal player's counted chances are mapped to the winning rates
    observed for cards so counted (:data:`ohhell.bots.chances.CALIBRATION`), and every card it counts as all but
    hopeless gets that group's lowest rate, 6% or so. Listed one by one ("king of hearts 6%, 5 of diamonds 6%,
    ...") they read like a figure for each card; together they say what they are.

    >>> _chances_listed([(51, 0.93), (24, 0.06), (3, 0.06), (8, 0.06)])
    'ace of clubs 93%, and 6% each for the king of hearts, the 5 of spades and the 10 of spades'
    """
    shown = [(c, f"{p:.0%}") for c, p in chances]
    counts: dict[str, int] = {}
    for _, figure_text in shown:
        counts[figure_text] = counts.get(figure_text, 0) + 1
    parts, grouped = [], set()
    for _, figure_text in shown:
        if counts[figure_text] >= SHARED_CHANCE and figure_text not in grouped:
            grouped.add(figure_text)
            cards = [card_name(c) for c, f in shown if f == figure_text]
            named = ", ".join(f"the {name}" for name in cards[:-1]) + f" and the {cards[-1]}"
            parts.append(f"{figure_text} each for {named}")
    single = [f"{card_name(c)} {f}" for c, f in shown if counts[f] < SHARED_CHANCE]
    if not parts:
        return ", ".join(single)
    if not single:
        return "; ".join(parts)
    return f"{', '.join(single)}, and {'; '.join(parts)}"


def _details(decision: Decision) -> tuple[str, ...]:
    """The numbers behind a decision, a line each: what was searched, the expected tricks, options, card chances."""
    lines = []
    simulations, worlds = decision.fact("simulations"), decision.fact("worlds")
    if simulations:
        lines.append(f"Searched {simulations} simulated deals over {worlds} sampled worlds.")
    elif worlds:
        lines.append(f"Searched {worlds} sampled worlds.")
    made = decision.fact("made_rate")
    if isinstance(made, float):
        lines.append(f"Bid {argument_of(decision.action)} was made in {made:.0%} of them.")
    forecast = decision.fact("made_chance")
    if isinstance(forecast, float) and verb_of(decision.action) == "bid":
        lines.append(f"Bid {argument_of(decision.action)} is made {forecast:.0%} of the time, the network forecasts.")
    expected = decision.fact("expected_tricks")
    if isinstance(expected, float):
        lines.append(f"Your cards add up to {expected:.1f} expected tricks.")
    options = decision.options
    if len(options) > 1:
        measure = decision.measure[:1].upper() + decision.measure[1:]
        if len({round(o.value, 1) for o in options}) == 1:
            lines.append(f"{measure}: {figure(options[0].value)} whichever you choose.")
        else:
            uneven = len({o.samples for o in options}) > 1  # a tree search tries the better moves more often
            listed = "; ".join(
                f"{_option_words(o.action)}: {figure(o.value)}"
                + (f" ({o.samples} simulated deal{'' if o.samples == 1 else 's'})" if uneven else "")
                for o in options[:SHOWN_OPTIONS]
            )
            more = len(options) - SHOWN_OPTIONS
            lines.append(f"{measure}: {listed}{f' (and {more} more)' if more > 0 else ''}.")
    if decision.card_chances:
        label = decision.chance_label[:1].upper() + decision.chance_label[1:]
        some = [(c, p) for c, p in decision.card_chances if p >= 0.005]
        if not some:
            lines.append(
                f"{label}: none for any of your cards." if len(decision.card_chances) > 1 else f"{label}: none."
            )
        else:
            rest = len(decision.card_chances) - len(some)
            lines.append(f"{label}: {_chances_listed(some)}{'; none for the others' if rest else ''}.")
    return tuple(lines)


def figure(value: float) -> str:
    """A number of the reckoning as people write it: ``5.7``, ``6``, ``0`` (never ``0.0`` nor ``-0``).

    >>> figure(5.66), figure(6.0), figure(-0.01), figure(0.04)
    ('5.7', '6', '0', '0')
    """
    rounded = round(value, 1)
    if rounded == 0:
        return "0"
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def _option_words(action: Action) -> str:
    """An option as a hint lists it: ``bid 2``, ``king of clubs``, ``hearts``."""
    verb = verb_of(action)
    if verb == "play":
        return card_name(action)
    if verb == "trump":
        return SUIT_NAMES[argument_of(action)]
    return f"bid {argument_of(action)}"


def _listed(cards: Sequence[Card]) -> str:
    """``the ace of spades``, ``the ace of spades and the king of hearts``, ``a, b and c``."""
    words = [card_words(c) for c in cards]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
