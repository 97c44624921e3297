"""Learning to attend's training runs, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace (see :mod:`ui.dropout_study`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from core import weights
from core.attention import Mode
from core.reproduce import Script
from core.sentence import weights_for
from core.weights import WeightSet
from topics.learning import script
from topics.learning import training as learning
from topics.learning.training import Trajectory
from ui import cache
from ui.cache import MB


def _worst() -> list[tuple[object, ...]]:
    """Three trajectories of 5,000 steps at 32 tokens × 16 dimensions, the widest weights."""
    x = cache.largest_sentence()[1]
    ws = weights_for(weights.section_3_4(), 16)
    return [("previous", 0, "adam", 0.02, 5_000, ws.w_query, ws.w_key, x)]


# Three trajectories, their snapshots capped in cells (core.learning.record_every): 386 KB for the
# book's sentence, 836 KB at 32 tokens × 16 dimensions.
@cache.data(entry_bytes=1 * MB, entries=16, worst=_worst, show_spinner="Training all three modes…")
def train(
    kind: learning.Target,
    token: int,
    optimiser: learning.Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> tuple[np.ndarray, dict[Mode, learning.Trajectory]]:
    """The target pattern on inputs ``x`` (the sentence's embeddings), and every mode fitted to it
    from ``w_query`` and ``w_key``."""
    target = learning.target_pattern(kind, len(x), token)
    config = learning.TrainConfig(optimiser, lr, steps, record_every=learning.record_every(steps, len(x)))
    return target, learning.train_modes(x, target, w_query, w_key, config)


def _nudged_worst() -> list[tuple[object, ...]]:
    x = cache.largest_sentence()[1]
    ws = weights_for(weights.section_3_4(), 16)
    return [("previous", 0, "adam", 0.02, 5_000, x, ws.w_query, ws.w_key)]


# The same run as Learning's, from weights nudged by one ulp, for the Reproduce expander's note:
# 828 KB at 32 tokens. Few entries: it is trained only while that expander is open.
@cache.data(
    entry_bytes=1 * MB,
    entries=2,
    worst=_nudged_worst,
    show_spinner="Probing how this run responds to a last-bit nudge…",
)
def _nudged(
    kind: str,
    token: int,
    optimiser: str,
    lr: float,
    steps: int,
    x: np.ndarray,
    w_query: np.ndarray,
    w_key: np.ndarray,
) -> dict[str, Trajectory]:
    target = learning.target_pattern(kind, len(x), token)  # type: ignore[arg-type]
    every = learning.record_every(steps, len(x))
    config = learning.TrainConfig(optimiser, lr, steps, record_every=every)  # type: ignore[arg-type]
    return script.nudged(x, target, w_query, w_key, config)


def learning_script(
    labels: tuple[str, ...],
    x: np.ndarray,
    ws: WeightSet,
    kind: str,
    token: int,
    mode: str,
    optimiser: str,
    lr: float,
    steps: int,
    step: int,
    runs: Mapping[str, Trajectory],
) -> Script:
    """The learning script, its note saying how far PyTorch's run can end from the page's ``runs``.

    The note comes from a second NumPy run from weights nudged by one ulp
    (:func:`core.reproduce.drift`), trained only when the expander is open, and cached.
    """
    made = script.learning(labels, x, ws, kind, token, mode, optimiser, lr, steps, step)
    nudged = _nudged(kind, token, optimiser, lr, steps, x, ws.w_query, ws.w_key)
    d = script.drift(runs, nudged, mode, step)
    return dataclasses.replace(made, note=f"{made.note} {script.drift_note(d)}")
