"""The Dropout page's Monte Carlo, cached here in a module rather than in the page script.

A cached function defined in a page script is redefined on every run, and each cache miss then
holds on to that run's whole script namespace; after eight Resample clicks nine namespaces were
alive and ``gc.collect()`` freed none. Defined once here, the function holds only this module.

The cache keeps :class:`topics.dropout.sampling.DropoutStats`: summaries of a few kilobytes, with
the running mean at the draw counts the chart and the checks read, never the draws. The page hands
:func:`study` to :func:`topics.dropout.view.build`, whose default is the plain
:func:`topics.dropout.view.monte_carlo` this caches.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np
import streamlit as st

from core import tokens
from topics.dropout import sampling, view
from topics.dropout.sampling import DropoutStats, Generator
from ui import budget, cache
from ui.cache import KB


def _worst() -> list[tuple[object, ...]]:
    """The largest entries: the most draws, on the book's six tokens and on the longest sentence."""
    xs = (tokens.inputs(), cache.largest_sentence()[1])
    return [(0.9, False, view.SEED_MAX, view.draw_choices(len(x))[-1], "numpy", x) for x in xs]


# Summaries at ~600 draw counts, whatever the number of draws; a 32-token sentence's first draw
# and rates are the largest part (7.9 KB for the book's six tokens, 14.5 KB at 32 tokens).
@cache.data(entry_bytes=32 * KB, entries=128, worst=_worst)
def run(p: float, scale: bool, seed: int, draws: int, generator: Generator, x: np.ndarray) -> DropoutStats:
    """:func:`topics.dropout.view.monte_carlo`, cached, run under the server's heavy-work budget
    (``ui.budget``) for the bytes :func:`topics.dropout.sampling.working_set` bounds it by."""
    with budget.heavy(sampling.working_set(len(x), draws, generator)):
        return view.monte_carlo(p, scale, seed, draws, generator, x)


def _worst_checks() -> list[tuple[object, ...]]:
    return [(view.SEED_MAX, g) for g in ("torch", "numpy")]


# The book's first draw, its weights and two summaries of the book's six tokens: about 15 KB.
@cache.data(entry_bytes=24 * KB, entries=16, worst=_worst_checks)
def checks(seed: int, generator: Generator) -> view.BookChecks:
    """:func:`topics.dropout.view.book_checks` at ``seed`` and ``generator``, cached: they stay at
    the book's settings whatever the page shows, so only these two change them."""
    return view.book_checks(seed, generator, run)


def study(p: float, scale: bool, seed: int, draws: int, generator: Generator, x: np.ndarray) -> DropoutStats:
    """:func:`run` under a spinner naming the work (Streamlit shows it only after half a second)."""
    with st.spinner(spinner_text(draws, generator, seed)):
        return run(p, scale, seed, draws, generator, x)


def spinner_text(draws: int, generator: Generator, seed: int) -> str:
    name = "PyTorch's" if generator == "torch" else "NumPy's"
    return f"Drawing {draws:,} dropout masks from {name} generator, seed {seed}…"


@contextlib.contextmanager
def drawing(s: view.Settings) -> Iterator[None]:
    """Around the page's view build: one spinner naming the work (shown after half a second) for
    the page's draws and its checks' (one spinner a run, not one a cached call), inside the budget's
    waiting room, which tells a reader whose draws wait how many readers' are ahead."""
    with budget.waiting_room(), st.spinner(spinner_text(s.draws, s.generator, s.seed)):
        yield
