"""The learned player's networks in numpy: their shape, their file, and the same answers as torch's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ohhell.bots.learned.features import INPUT_SIZE, OUTCOMES
from ohhell.bots.learned.network import Network, shipped


def test_a_forward_pass_gives_each_row_a_distribution() -> None:
    net = Network.random([INPUT_SIZE, 32, OUTCOMES], np.random.default_rng(1))
    out = net.forward(np.random.default_rng(2).standard_normal((5, INPUT_SIZE)).astype(np.float32))
    assert out.shape == (5, OUTCOMES)
    assert np.allclose(out.sum(axis=1), 1.0, atol=1e-5)
    assert (out >= 0).all()


def test_a_network_is_saved_and_read_back_unchanged(tmp_path: Path) -> None:
    net = Network.random([7, 5, 3], np.random.default_rng(3))
    net = Network(net.weights, net.biases, {"generation": 2})
    net.save(tmp_path / "n.npz")
    back = Network.load(tmp_path / "n.npz")
    assert back.meta == {"generation": 2}
    for a, b in zip(net.weights + net.biases, back.weights + back.biases, strict=True):
        assert np.array_equal(a, b)


def test_layers_that_do_not_fit_are_refused_with_the_layer_named() -> None:
    good = Network.random([4, 3, 2], np.random.default_rng(0))
    with pytest.raises(ValueError, match="layer 1 takes 4 inputs"):
        Network((good.weights[0], np.zeros((4, 2), np.float32)), good.biases)
    with pytest.raises(ValueError, match="layer 0: weights"):
        Network((good.weights[0], good.weights[1]), (np.zeros(9, np.float32), good.biases[1]))


def test_numpy_inference_equals_torch_on_the_same_weights() -> None:
    torch = pytest.importorskip("torch")
    from ohhell.train.fit import from_network, model, to_network

    torch.manual_seed(0)
    net = model((64, 32))
    inputs = torch.randn(50, INPUT_SIZE)
    with torch.no_grad():
        expected = torch.softmax(net(inputs), dim=1).numpy()
    got = to_network(net).forward(inputs.numpy())
    assert np.allclose(got, expected, atol=1e-5)
    again = from_network(to_network(net))
    with torch.no_grad():
        assert torch.allclose(again(inputs), net(inputs), atol=1e-6)


def test_the_shipped_networks_fit_the_features() -> None:
    for name in ("bid", "play"):
        net = shipped(name)
        assert (net.inputs, net.outputs) == (INPUT_SIZE, OUTCOMES)
        assert net.meta["generation"] >= 0


def test_the_players_never_import_torch() -> None:
    code = (
        "import random, sys\n"
        "from ohhell import Game, Rules\n"
        "from ohhell.bots import make_bot\n"
        "from ohhell.bots.table import play_game\n"
        "game = Game(Rules.preset('short', players=4), number=3)\n"
        "play_game(game, [make_bot('normal') for _ in range(4)], random.Random(0))\n"
        "assert game.is_over\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
