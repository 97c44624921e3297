"""Learning to attend's heavy work, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace (see :mod:`ui.cache`). Each function here is the
plain one of :mod:`topics.learning.training`, :mod:`topics.learning.reach` or
:mod:`topics.learning.script`, cached, and run under the server's heavy-work budget
(:mod:`ui.budget`) with the working set it declares; :func:`build` hands them to
:func:`topics.learning.view.build`, in the budget's waiting room and under one spinner.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from core import weights
from core.attention import Mode
from core.reproduce import Script
from core.sentence import weights_for
from topics.learning import reach, script, training, view
from topics.learning.reach import Found, Reach
from topics.learning.training import Optimiser, Target, Trajectory
from ui import budget, cache
from ui.cache import KB, MB


def _worst() -> list[tuple[object, ...]]:
    """Three trajectories of 5,000 steps at 32 tokens × 16 dimensions, the widest weights."""
    x = cache.largest_sentence()[1]
    ws = weights_for(weights.section_3_4(), 16)
    return [("previous", 0, "adam", 0.02, 5_000, ws.w_query, ws.w_key, x)]


# Three trajectories, their snapshots capped in cells (training.record_every): 386 KB for the
# book's sentence, 836 KB at 32 tokens × 16 dimensions.
@cache.data(entry_bytes=1 * MB, entries=12, worst=_worst)
def fit(
    kind: Target,
    token: int,
    optimiser: Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> tuple[np.ndarray, dict[Mode, Trajectory]]:
    """:func:`topics.learning.training.fit`, cached."""
    with budget.heavy(training.fit_bytes(len(x), x.shape[1], w_query.shape[1], steps)):
        return training.fit(kind, token, optimiser, lr, steps, w_query, w_key, x)


# The search and linear program, for up to reach.MAX_SEARCH_TOKENS tokens: 7.1 KB at 8 × 16.
@cache.data(
    entry_bytes=16 * KB,
    entries=32,
    worst=lambda: [("previous", 0, 6, cache.largest_sentence()[1][: reach.MAX_SEARCH_TOKENS])],
)
def limits(
    kind: Target, token: int, width: int, x: np.ndarray
) -> tuple[dict[Mode, Found] | None, Reach | None]:
    """:func:`topics.learning.reach.limits`, cached."""
    with budget.heavy(reach.limits_bytes(kind, token, width, x)):
        return reach.limits(kind, token, width, x)


# The same run as fit's, from weights nudged by one ulp, for the Reproduce expander's note:
# 828 KB at 32 tokens. Few entries: it is trained only while that expander is open.
@cache.data(
    entry_bytes=1 * MB,
    entries=2,
    worst=_worst,
)
def nudged(
    kind: Target,
    token: int,
    optimiser: Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> dict[Mode, Trajectory]:
    """:func:`topics.learning.script.nudged`, cached."""
    with budget.heavy(training.fit_bytes(len(x), x.shape[1], w_query.shape[1], steps)):
        return script.nudged(kind, token, optimiser, lr, steps, w_query, w_key, x)


def reproduce(v: view.View) -> Script:
    """The script for the view on screen, its note saying how far PyTorch's run can end from the
    page's: the nudge probe (:func:`topics.learning.view.probe`), run when the expander opens."""
    s = v.settings
    with budget.waiting_room(), st.spinner("Probing how this run responds to a last-bit nudge…"):
        drift = view.probe(v, nudged=nudged)
    return script.build(
        s.labels, s.embeddings, v.ws, s.target, v.token, s.mode, s.optimiser, s.lr, s.steps, v.step, drift
    )


def _worst_base() -> list[tuple[object, ...]]:
    labels, x = cache.largest_sentence()
    return [(view.Settings(labels, x, steps=max(view.STEPS), width=max(view.WIDTHS)),)]


# The view holds its own copy of fit's three trajectories (a hit on fit unpickles one), 836 KB at
# 32 tokens, and a few kilobytes more: its tables, evidence and prose.
@cache.resource(entry_bytes=1 * MB, entries=4, worst=_worst_base)
def base(settings: view.Settings) -> view.View:
    """:func:`topics.learning.view.base` with this module's caches, kept whole: a rerun at settings
    already seen (the heatmaps' colour scale moved, which no setting here holds, or the step moved
    back) looks the view up once, instead of looking up the runs and the search again and
    recomputing their tables and prose. The focus and the cell are not read (:func:`build`)."""
    return view.base(settings, fit=fit, limits=limits)


def build(s: view.Settings) -> view.View:
    """:func:`topics.learning.view.build` with this module's caches, in the budget's waiting room.

    One spinner covers the whole build, started before anything slow: a first visit trains three
    modes, searches what each can reach and (off the book's sentence) trains the checks' run, each
    often under the half second after which a cache's own spinner would show, so a reader could
    wait seconds with none. On a warm rerun every call is a cache hit and the spinner never shows.
    """
    with budget.waiting_room(), st.spinner(SPINNER):
        v = base(settings=replace(s, focus=None, cell=None))  # by name: see charts.heatmaps
    return view.focused(v, s.focus, s.cell)


SPINNER = (
    "Training all three modes, then searching what each can reach: Adam from "
    f"{reach.SEARCH_STARTS} starts per mode, each row left out of the loss in turn, and a linear "
    "program over every d_in × d_in M…"
)
