"""The spectator's view is built from public facts: no hand, no legal action, and the same table otherwise."""

from __future__ import annotations

import random

from ohhell.cards import card_text
from ohhell.game import Game
from ohhell.rules import Rules
from ohhell.server.party.spectator import WATCHER, public_view
from ohhell.server.table import snapshot
from ohhell.server.table.seats import Seat
from server.leaks import cards_mentioned


def test_the_public_view_holds_no_hand_and_a_spectators_messages_name_only_cards_everyone_saw() -> None:
    game = Game(Rules.preset("short", players=4), 4242, names=["A", "B", "C", "D"])
    seats = [Seat.human("A", "key"), *(Seat.computer(name, "easy") for name in "BCD")]
    facts = snapshot.TableFacts(1, seats, 0, {})
    state, sent = snapshot.full_state(game, facts, WATCHER)
    assert state["deal"]["hand"] == [] and state["game"]["you"] == WATCHER
    rng = random.Random(1)
    seq = 0
    deal = game.deals[0]
    while not deal.is_over:
        view = public_view(deal, game.totals_before(0))
        assert len(view.hand) == 0 and view.legal_actions == () and not view.my_turn
        seat = game.to_act
        action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        message = snapshot.action_message(game, facts, WATCHER, seq, seat, action, None, sent)
        state = snapshot.merge(state, message)
        seq += 1
        seen = {card_text(c) for trick in deal.tricks for c in trick.cards} | {card_text(c) for c in deal.trick}
        if deal.turn_up is not None:
            seen.add(card_text(deal.turn_up))
        assert cards_mentioned(message) <= seen, message
        assert state["deal"]["hand"] == [] and state["deal"]["playable"] == [] and state["deal"]["bids"] == []
    assert state == snapshot.full_state(game, facts, WATCHER)[0]  # the changes add up to the whole state
