"""``python_ohhell``: OpenSpiel's own simulation test, its search bots, and the same deals as OpenSpiel's ``oh_hell``.

The cross-check: OpenSpiel's ``oh_hell`` (a turned-up trump, the hook, a point a
trick plus 10 for an exact bid) is our ``full`` rule set with one deal of ``k``
cards. The same dealer, hands and turned card go to both games; at every
decision both must agree on the seat to act and on the legal action ids (the
ids are meant to be OpenSpiel's own), one is picked at random and applied to
both; at the end the returns must agree.
"""

from __future__ import annotations

import pickle
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ohhell.bots import Budget
from ohhell.env.actions import ActionLayout
from ohhell.rules import Rules

pyspiel = pytest.importorskip("pyspiel")
ohhell_openspiel = pytest.importorskip("ohhell.openspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

CROSS_CHECK_DEALS = 600
GAMES = [
    "python_ohhell(preset=short,players=3)",
    "python_ohhell(preset=full,players=4,hand_size=10)",
    "python_ohhell(preset=up-and-down,players=7,schedule=1/3/2,trump=S/H/NT,first_lead=dealer)",
    "python_ohhell(preset=traditional,players=5,schedule=3/2)",
    "python_ohhell(preset=magicians,players=4,schedule=5/15)",
    "python_ohhell(preset=magicians,players=6,hand_size=3,bid_changes=until-next,hook=1,zero_bid_bonus=5)",
    "python_ohhell(preset=down-only,players=6,schedule=2/1,miss_penalty=1,scoring=5+bid,first_dealer_seat=2)",
]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=3, serialize=True, verbose=False)


def test_the_parameters_name_the_rules_and_the_game_string_loads_them_again() -> None:
    game = pyspiel.load_game("python_ohhell(preset=magicians,players=3,hook=1,schedule=2/4)")
    assert game.rules == Rules.preset("magicians", players=3, hook=True, schedule=(2, 4))
    assert game.get_parameters()["hook"] == 1 and game.get_parameters()["special_cards"] == 1
    for name in GAMES:
        game = pyspiel.load_game(name)
        assert pyspiel.load_game(str(game)).rules == game.rules


def test_unknown_parameters_and_bad_switches_are_refused() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_ohhell(colour=red)")
    with pytest.raises(ValueError, match="hook must be 1"):
        pyspiel.load_game("python_ohhell(hook=2)")


@pytest.mark.parametrize("name", [GAMES[1], "python_ohhell(preset=magicians,players=4,schedule=3/6)", GAMES[5]])
def test_resampling_keeps_what_the_seat_knows_and_changes_what_it_does_not(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                for p in range(game.num_players()):
                    other = state.resample_from_infostate(p, sampler)
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.information_state_tensor(p) == state.information_state_tensor(p)
                    assert other.observation_string(p) == state.observation_string(p)
                    assert other.observation_tensor(p) == state.observation_tensor(p)
                    assert other.current_player() == state.current_player()
                    assert other.legal_actions(p) == state.legal_actions(p)
                    differed += str(other) != str(state)
            state.apply_action(rng.choice(state.legal_actions()))
    assert differed > 0


def test_states_survive_pickling_and_cloning() -> None:
    game = pyspiel.load_game(GAMES[3])
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state) and restored.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state.trajectory)).table.game.totals) == str(
        state.trajectory.table.game.totals
    )


@pytest.mark.parametrize(
    "name", ["python_ohhell(players=4,hand_size=3)", "python_ohhell(preset=magicians,hand_size=2)"]
)
def test_openspiels_ismcts_and_mcts_bots_play_it_against_ours(name: str) -> None:
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 4.0, 40, random_state=np.random.RandomState(1)),
        pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.5, 40, 100, False, 0, False),
        ohhell_openspiel.OhHellBot("hard", seed=0, budget=Budget(iterations=40)),
        ohhell_openspiel.OhHellBot("normal", seed=1),
    ]
    for seed in range(2):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        low, high = game.min_utility(), game.max_utility()
        assert len(returns) == 4 and all(low <= r <= high for r in returns)


FIRST_DECISION = """
import pyspiel
import ohhell.openspiel
game = pyspiel.load_game("python_ohhell(players=4,hand_size=3)")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
"""


def test_called_from_python_openspiels_mcts_bots_choose_by_step_with_policy_or_in_python() -> None:
    namespace: dict[str, Any] = {}
    exec(FIRST_DECISION, namespace)
    game, state = namespace["game"], namespace["state"]
    legal = state.legal_actions()
    cpp_bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.5, 40, 100, False, 0, False)
    policy, action = cpp_bot.step_with_policy(state)
    assert action in legal and policy == [(action, 1.0)]
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    python_bot = mcts.MCTSBot(game, 1.5, 40, evaluator, random_state=np.random.RandomState(1))
    assert python_bot.step(state) in legal


def test_the_cpp_mcts_bots_step_from_python_still_crashes_on_a_python_game(tmp_path: Path) -> None:
    """docs/research.md warns of it; should this fail, OpenSpiel has mended it, and the warning can go."""
    code = FIRST_DECISION + "pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.5, 40, 100, False, 0, False)"
    code += ".step(state)"
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, timeout=120, check=False)
    assert result.returncode == -signal.SIGSEGV, result.stderr


def test_cards_and_bids_have_openspiels_ids() -> None:
    layout = ActionLayout.of(Rules.preset("full", players=4, schedule=(10,)))
    reference = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10}).new_initial_state()
    reference.apply_action(10)
    reference.apply_action(0)
    assert [reference.action_to_string(pyspiel.PlayerId.CHANCE, i) for i in (0, 1, 2, 3, 4, 51)] == [
        "C2", "D2", "S2", "H2", "C3", "HA",
    ]  # fmt: skip
    assert [layout.name(i) for i in (0, 1, 2, 3, 4, 51, 52, 62)] == [
        "play 2C", "play 2D", "play 2S", "play 2H", "play 3C", "play AH", "bid 0", "bid 10",
    ]  # fmt: skip


def test_the_same_deals_give_the_same_legal_actions_and_returns_as_openspiels_oh_hell() -> None:
    rng = random.Random(20_261_201)
    for deal in range(CROSS_CHECK_DEALS):
        players = 3 + deal % 5
        tricks = rng.randint(1, 51 // players)
        reference = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks}).new_initial_state()
        ours = pyspiel.load_game(f"python_ohhell(players={players},hand_size={tricks})").new_initial_state()
        dealer = rng.randrange(players)
        cards = rng.sample(range(52), players * tricks + 1)
        for outcome in (tricks, dealer, *cards):
            reference.apply_action(outcome)
        hands = [cards[seat : players * tricks : players] for seat in range(players)]  # oh_hell deals 0, 1, 2, ...
        ours.apply_action(dealer)
        for j in range(players * tricks):  # we deal from the dealer's left
            seat = (dealer + 1 + j) % players
            ours.apply_action(hands[seat][j // players])
        ours.apply_action(cards[-1])
        while not reference.is_terminal():
            assert ours.current_player() == reference.current_player(), f"deal {deal}"
            legal = reference.legal_actions()
            assert ours.legal_actions() == legal, f"deal {deal}: {ours}"
            action = rng.choice(legal)
            reference.apply_action(action)
            ours.apply_action(action)
        assert ours.is_terminal()
        assert ours.returns() == reference.returns(), f"deal {deal}"
