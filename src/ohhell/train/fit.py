"""Fitting a network to self-play samples with PyTorch on the CPU, and writing it out for numpy.

The model is :class:`~ohhell.bots.learned.network.Network`'s shape in torch:
dense layers with ReLU between them; the loss is the cross-entropy of the tricks
the seat went on to take. Each epoch ends with a checkpoint (the model, the
optimiser, the epoch and the losses so far), so an interrupted fit goes on from
its last epoch.

This module imports torch (``pip install 'ohhell[train]'``; on this project's
machines ``pip install torch==2.13.0`` takes the CPU build from local disk).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ohhell.bots.learned.features import INPUT_SIZE, OUTCOMES
from ohhell.bots.learned.network import Network
from ohhell.train.selfplay import Samples

HIDDEN: tuple[int, ...] = (256, 256)


def model(hidden: Sequence[int] = HIDDEN, inputs: int = INPUT_SIZE, outputs: int = OUTCOMES) -> nn.Sequential:
    """The torch model: dense layers with ReLU between them (logits out; the softmax is in the loss)."""
    sizes = [inputs, *hidden, outputs]
    layers: list[nn.Module] = []
    for index, (a, b) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(a, b))
        if index < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def to_network(net: nn.Sequential, meta: dict[str, Any] | None = None) -> Network:
    """The same layers as a numpy :class:`Network`."""
    linear = [m for m in net if isinstance(m, nn.Linear)]
    weights = tuple(m.weight.detach().numpy().T.astype(np.float32).copy() for m in linear)
    biases = tuple(m.bias.detach().numpy().astype(np.float32).copy() for m in linear)
    return Network(weights, biases, dict(meta or {}))


def from_network(network: Network) -> nn.Sequential:
    """A torch model holding ``network``'s weights (to go on training from them)."""
    hidden = [w.shape[1] for w in network.weights[:-1]]
    net = model(hidden, network.inputs, network.outputs)
    linear = [m for m in net if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for m, w, b in zip(linear, network.weights, network.biases, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b.copy()))
    return net


@dataclass
class History:
    """The losses of a fit, epoch by epoch: on the samples trained on and on those held out."""

    train: list[float] = field(default_factory=list)
    held_out: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class FitOptions:
    """How to fit: epochs, batch size, learning rate, the share held out, the seed."""

    epochs: int = 4
    batch: int = 512
    learning_rate: float = 1e-3
    held_out: float = 0.05
    seed: int = 0
    threads: int = 2


def fit(
    samples: Samples,
    options: FitOptions,
    checkpoint: Path,
    start: Network | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Network, History]:
    """Fit a network to ``samples`` (from ``start``'s weights if given), checkpointing to ``checkpoint`` each epoch.

    If ``checkpoint`` exists the fit goes on from it. ``progress(done, total)`` hears the batches.
    """
    torch.set_num_threads(options.threads)
    torch.manual_seed(options.seed)
    order = np.random.default_rng(options.seed).permutation(len(samples))
    cut = int(len(order) * (1 - options.held_out))
    fit_rows, held_rows = np.sort(order[:cut]), np.sort(order[cut:])
    inputs = torch.from_numpy(samples.inputs[fit_rows].astype(np.float32))
    targets = torch.from_numpy(samples.targets[fit_rows].astype(np.int64))
    held_inputs = torch.from_numpy(samples.inputs[held_rows].astype(np.float32))
    held_targets = torch.from_numpy(samples.targets[held_rows].astype(np.int64))
    net = from_network(start) if start is not None else model()
    optimiser = torch.optim.Adam(net.parameters(), lr=options.learning_rate)
    history = History()
    first = 0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        net.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        history = History(state["train"], state["held_out"])
        first = state["epoch"] + 1
    loss_of = nn.CrossEntropyLoss()
    batches = (len(inputs) + options.batch - 1) // options.batch
    generator = torch.Generator().manual_seed(options.seed)
    for epoch in range(first, options.epochs):
        net.train()
        shuffle = torch.randperm(len(inputs), generator=generator)
        total = 0.0
        for index in range(batches):
            rows = shuffle[index * options.batch : (index + 1) * options.batch]
            optimiser.zero_grad()
            loss = loss_of(net(inputs[rows]), targets[rows])
            loss.backward()
            optimiser.step()
            total += loss.item() * len(rows)
            if progress is not None:
                progress(epoch * batches + index + 1, options.epochs * batches)
        history.train.append(total / max(1, len(inputs)))
        history.held_out.append(evaluate(net, held_inputs, held_targets))
        torch.save(
            {
                "model": net.state_dict(),
                "optimiser": optimiser.state_dict(),
                "epoch": epoch,
                "train": history.train,
                "held_out": history.held_out,
            },
            checkpoint,
        )
    return to_network(net), history


def evaluate(net: nn.Sequential, inputs: torch.Tensor, targets: torch.Tensor) -> float:
    """The mean cross-entropy of ``net`` on these samples."""
    if not len(inputs):
        return float("nan")
    net.eval()
    with torch.no_grad():
        return float(nn.functional.cross_entropy(net(inputs), targets))
