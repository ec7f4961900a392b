"""The learned player's networks, run in numpy: a small multilayer perceptron and the file its weights live in.

A network maps a batch of inputs (:mod:`ohhell.bots.learned.features`) to, for
each row, the chance of taking 0, 1, ... :data:`~ohhell.bots.learned.features.OUTCOMES` - 1
more tricks in the deal. Training (:mod:`ohhell.train`, PyTorch) writes the same
layers to an ``.npz`` file: ``w0, b0, w1, b1, ...`` (``w`` shaped ``(inputs,
outputs)``) and a ``meta`` JSON string. Nothing here imports torch.

>>> import numpy as np
>>> net = Network.random([4, 8, 3], np.random.default_rng(0))
>>> probabilities = net.forward(np.ones((2, 4), dtype=np.float32))
>>> probabilities.shape, bool(np.allclose(probabilities.sum(axis=1), 1.0))
((2, 3), True)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

Array = NDArray[np.float32]


@dataclass(frozen=True)
class Network:
    """Dense layers with ReLU between them and a softmax at the end."""

    weights: tuple[Array, ...]
    biases: tuple[Array, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.biases) or not self.weights:
            raise ValueError("a network needs as many bias vectors as weight matrices, and at least one layer")
        for index, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {index}: weights {w.shape} do not match biases {b.shape}")
            if index and self.weights[index - 1].shape[1] != w.shape[0]:
                raise ValueError(f"layer {index} takes {w.shape[0]} inputs, the layer before gives {w.shape[1]}")

    @property
    def inputs(self) -> int:
        """The width of an input row."""
        return int(self.weights[0].shape[0])

    @property
    def outputs(self) -> int:
        """The number of outcomes."""
        return int(self.weights[-1].shape[1])

    def logits(self, batch: Array) -> Array:
        """The last layer's values before the softmax."""
        x = batch
        last = len(self.weights) - 1
        for index, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if index < last:
                np.maximum(x, 0.0, out=x)
        return x

    def forward(self, batch: Array) -> Array:
        """Each row's outcome probabilities.

        The products run on one thread: a decision's batch is a handful of rows, for which OpenBLAS's threads
        cost more than they bring, and on a busy machine waiting for them took tens of milliseconds.
        """
        with _one_thread():
            x = self.logits(batch)
        x = x - x.max(axis=1, keepdims=True)
        np.exp(x, out=x)
        x /= x.sum(axis=1, keepdims=True)
        return np.asarray(x, dtype=np.float32)

    @classmethod
    def random(cls, sizes: Sequence[int], rng: np.random.Generator) -> Network:
        """A network of the given layer widths with small random weights (for tests)."""
        weights = tuple(
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in itertools.pairwise(sizes)
        )
        biases = tuple(np.zeros(b, dtype=np.float32) for b in sizes[1:])
        return cls(weights, biases)

    def save(self, path: Path) -> None:
        """Write the layers and the metadata to an ``.npz`` file."""
        arrays: dict[str, Any] = {}
        for index, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{index}"] = w.astype(np.float32)
            arrays[f"b{index}"] = b.astype(np.float32)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)

    @classmethod
    def load(cls, source: Path | Any) -> Network:
        """Read a network written by :meth:`save` (a path or an open binary file)."""
        with np.load(source, allow_pickle=False) as data:
            layers = sum(1 for name in data.files if name.startswith("w"))
            weights = tuple(np.ascontiguousarray(data[f"w{i}"], dtype=np.float32) for i in range(layers))
            biases = tuple(np.ascontiguousarray(data[f"b{i}"], dtype=np.float32) for i in range(layers))
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        return cls(weights, biases, meta)


@cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


def _one_thread() -> Any:
    return _controller().limit(limits=1, user_api="blas")


@cache
def shipped(name: str) -> Network:
    """A network shipped with the package: ``"bid"`` or ``"play"`` (``ohhell/bots/learned/weights/NAME.npz``)."""
    source = resources.files("ohhell.bots.learned").joinpath("weights", f"{name}.npz")
    with source.open("rb") as handle:
        return Network.load(handle)
