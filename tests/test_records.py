"""Records round trip: a game written with :func:`records.dumps` and read back with :func:`records.loads` is the same
game, for every preset and every table size it allows; a record cut short is still a valid record.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ohhell import CardSet, Game, Rules, card_text, records
from ohhell.rules import PRESETS

TABLES = [
    pytest.param(preset, players, id=f"{preset}-{players}")
    for preset in PRESETS
    for players in range(3, 7 if preset == "magicians" else 8)
]


def play_randomly(game: Game, rng: random.Random, *, stop_after: int | None = None) -> None:
    """Random legal actions until the game is over (or ``stop_after`` actions).

    Under ``until-next`` a seat whose change window is open sometimes changes its bid out of turn.
    """
    done = 0
    while not game.is_over and (stop_after is None or done < stop_after):
        if game.rules.bid_changes == "until-next" and rng.random() < 0.25:
            open_seats = [s for s in range(game.rules.players) if s != game.to_act and game.legal_actions(s)]
            if open_seats:
                seat = rng.choice(open_seats)
                game.apply(rng.choice(game.legal_actions(seat)), seat)
                done += 1
                continue
        game.apply(rng.choice(game.legal_actions()))
        done += 1


def outcome(game: Game) -> dict[str, Any]:
    """Everything a record must preserve, deal by deal."""
    return {
        "first_dealer": game.first_dealer,
        "number": game.number,
        "names": list(game.names),
        "rules": game.rules,
        "deals": [
            {
                "dealer": deal.dealer,
                "size": deal.size,
                "trump": deal.trump,
                # copies of a Magician or Jester are interchangeable (RULES.md): compare cards by their text
                "turn_up": None if deal.turn_up is None else card_text(deal.turn_up),
                "hands": [CardSet(mask).texts() for mask in deal.hands_dealt],
                "bids": list(deal.bids),
                "tricks": list(deal.tricks_won),
                "points": None if deal.points is None else list(deal.points),
                "actions": deal.action_log(),
                "tricks_played": [(t.leader, [card_text(c) for c in t.cards], t.winner) for t in deal.tricks],
            }
            for deal in game.deals
        ],
        "results": list(game.results),
        "totals": list(game.totals),
        "winners": game.winners,
        "is_over": game.is_over,
    }


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_round_trip_of_a_random_game(preset: str, players: int) -> None:
    seed = 1000 * players + sorted(PRESETS).index(preset)
    game = Game(Rules.preset(preset, players=players), number=seed)
    play_randomly(game, random.Random(seed))
    assert game.is_over
    text = records.dumps(game)
    back = records.loads(text)
    assert outcome(back) == outcome(game)
    assert records.dumps(back) == text, "reading a record back and writing it again gives the same record"
    assert json.loads(records.dumps(back, indent=None)) == json.loads(text)
    # The record names its rules by preset, and ohhell check reports the game as played.
    record = json.loads(text)
    assert record["format"] == "ohhell-record/1"
    assert record["rules"]["preset"] == preset
    assert record["first_dealer"] == game.first_dealer
    assert len(record["deals"]) == game.rules.deals
    status, result = records.check(text)
    assert status == 0, result
    assert result == {
        "complete": True,
        "deals": [
            {
                "dealer": r.dealer,
                "cards": r.cards,
                "trump": None if r.trump is None else "SHDC"[r.trump],
                "bids": list(r.bids),
                "tricks": list(r.tricks),
                "points": list(r.points),
            }
            for r in game.results
        ],
        "totals": game.totals,
        "winners": game.winners,
    }
    assert result["winners"] == [s for s, t in enumerate(result["totals"]) if t == max(result["totals"])]


def test_until_next_games_do_change_bids() -> None:
    """The random traditional games above really exercise ``change`` actions (else the round trip proves less)."""
    game = Game(Rules.preset("traditional", players=4), number=4000 + sorted(PRESETS).index("traditional"))
    play_randomly(game, random.Random(game.number))
    log = [line for deal in json.loads(records.dumps(game))["deals"] for line in deal["actions"]]
    assert any(" change " in line for line in log)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_a_record_cut_short_is_accepted(preset: str, players: int) -> None:
    """A record missing its last actions (and then its last deals) is valid, with ``complete`` false."""
    seed = 7 * players + 100 * sorted(PRESETS).index(preset)
    rng = random.Random(seed)
    game = Game(Rules.preset(preset, players=players), number=seed)
    play_randomly(game, rng)
    full = json.loads(records.dumps(game))
    status, whole = records.check(full)
    assert status == 0
    n = players
    cuts = sorted(rng.sample(range(sum(len(d["actions"]) for d in full["deals"])), 12))
    for cut in cuts:
        record = json.loads(json.dumps(full))
        # keep the first `cut` actions of the game, dropping every deal after the one the cut falls in
        left = cut
        for index, deal in enumerate(record["deals"]):
            if left < len(deal["actions"]):
                deal["actions"] = deal["actions"][:left]
                del record["deals"][index + 1 :]
                break
            left -= len(deal["actions"])
        status, result = records.check(record)
        assert status == 0, (cut, result)
        assert result["complete"] is False
        assert result["winners"] is None
        last = result["deals"][-1]
        kept = record["deals"][-1]["actions"]
        assert last["points"] is None
        assert result["deals"][:-1] == whole["deals"][: len(result["deals"]) - 1]
        assert result["totals"] == [sum(d["points"][s] for d in result["deals"][:-1]) for s in range(n)]
        bids_made = {int(a.split()[0]) for a in kept if a.split()[1] == "bid"}
        assert [b is not None for b in last["bids"]] == [s in bids_made for s in range(n)]
        plays = sum(1 for a in kept if a.split()[1] == "play")
        assert sum(last["tricks"]) == plays // n
        if any(a.split()[1] == "trump" for a in kept) or full["deals"][len(result["deals"]) - 1]["turn_up"] != "MG":
            assert last["trump"] == whole["deals"][len(result["deals"]) - 1]["trump"]
        else:
            assert last["trump"] is None, "a Magician is turned and trump is not chosen yet"
    # Whole deals missing at the end: the finished deals only, and no winners.
    for keep in (0, 1, len(full["deals"]) - 1):
        record = json.loads(json.dumps(full))
        del record["deals"][keep:]
        status, result = records.check(record)
        assert status == 0
        assert result["complete"] is False
        assert result["winners"] is None
        assert result["deals"] == whole["deals"][:keep]
        assert result["totals"] == [sum(d["points"][s] for d in whole["deals"][:keep]) for s in range(n)]


def test_loads_of_a_cut_record_can_play_on() -> None:
    """A game read back from a record cut mid-deal is at the same point: the same seat acts with the same choices."""
    rng = random.Random(5)
    game = Game(Rules.preset("short", players=5), number=5)
    play_randomly(game, rng, stop_after=37)
    assert not game.is_over
    back = records.loads(records.dumps(game))
    assert back.to_act == game.to_act
    assert back.legal_actions() == game.legal_actions()
    assert back.deal.bids == game.deal.bids
    assert back.deal.trick == game.deal.trick
    status, result = records.check(records.dumps(game))
    assert status == 0
    assert result["complete"] is False
    assert result["deals"][-1]["points"] is None


def test_a_seat_that_left_a_table_of_several_people_is_in_the_record_and_never_a_winner() -> None:
    from ohhell import records
    from ohhell.game import Game
    from ohhell.rules import Rules

    game = Game(Rules.preset("short", players=3), 77)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    best = game.winners
    assert best is not None
    game.left = {best[0]: 5}
    assert best[0] not in (game.winners or [])
    record = records.to_record(game)
    assert record["left"] == [{"seat": best[0], "action": 5}]
    status, result = records.check(record)
    assert status == 0 and result["left"] == record["left"] and best[0] not in result["winners"]
    for wrong in ([{"seat": 3, "action": 1}], [{"seat": 0}], {"seat": 0, "action": 1}, [{"seat": True, "action": 1}]):
        status, result = records.check({**record, "left": wrong})
        assert status != 0 and "left" in result["error"]["message"]
