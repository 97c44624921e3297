"""The Multi-head page's caches: the forward pass and the view per setting, its figures, one head's
projections, the book's numbers, and the stopwatch's measurement.

The computations are :mod:`topics.multihead.view`'s plain functions; here they are only cached,
so the page (``view.build(..., run=run, book_run=book_numbers)``) and the tests get the same
numbers from the same code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from core import tokens
from topics.multihead import figures as mf
from topics.multihead import speed, view
from ui import budget, cache
from ui.cache import KB
from ui.figures import Built, Chart, Relative, arrow, built


def _run_worst() -> list[tuple[object, ...]]:
    """The most output cells a drawable setting has (1,024 wide × 16 heads) and the most W_q cells,
    on the book's sentence and the largest."""
    return [
        (*s, 123, len(x), x)
        for s in (("wrapper", 64, 1024, 16), ("wrapper", 384, 384, 9))
        for x in (tokens.inputs(), cache.largest_sentence()[1])
    ]


# The first batch item's attention per head, the output and W_q thinned to what their figures
# draw (96 × 96 cells at most), the shape trace: 209 KB at 32 tokens, 1,024 wide × 16 heads. Three
# entries: the page reads its runs through view_of below; a run is read here only on a figure's miss.
@cache.data(
    entry_bytes=256 * KB,
    entries=3,
    worst=_run_worst,
    show_spinner="Drawing the weights and running the forward pass…",
)
def run(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray
) -> view.Run:
    """:func:`topics.multihead.view.forward`, cached: GPT-2's 2.4M parameters take a moment."""
    return view.forward(kind, d_in, d_out, heads, seed, context_length, x)


def _view_worst() -> list[tuple[object, ...]]:
    """The largest runs (:func:`_run_worst`) as settings: the view holds the run and its tables."""
    words = (tokens.TOKENS, cache.largest_sentence()[0]) * 2
    return [
        (view.Settings(w, x, "Custom", kind, heads, d_in, d_out, seed),)  # type: ignore[arg-type]
        for (kind, d_in, d_out, heads, seed, _, x), w in zip(_run_worst(), words, strict=True)
    ]


# The run (209 KB at most, above) and the tables the page shows beside it: 221 KB at the largest.
@cache.data(entry_bytes=240 * KB, entries=4, worst=_view_worst)
def view_of(s: view.Settings) -> view.View:
    """:func:`topics.multihead.view.build` of ``s`` on the cached :func:`run`, cached itself: its
    tables (the shape trace, the matched widths, exercise 3.2) cost more than the run's lookup."""
    return view.build(s, run=run, book_run=book_numbers)


# The shape trace, the matched widths and exercise 3.2 as Arrow: 9 KB at most.
@cache.resource(entry_bytes=16 * KB, entries=4, worst=_view_worst)
def tables(s: view.Settings) -> tuple[Any, Any, Any]:
    """The view's three tables (:func:`view_of`: the shape trace, the matched widths, exercise 3.2)
    as the Arrow tables ``st.dataframe`` would turn them into, None where the view has none."""
    v = view_of(s)
    trace = None if v.trace is None else arrow(v.trace)
    comparison = None if v.comparison is None else arrow(v.comparison)
    return trace, comparison, arrow(v.exercise)


def _charts_worst() -> list[tuple[object, ...]]:
    labels = (tokens.TOKENS, cache.largest_sentence()[0]) * 2
    return [(*args, words, 0, "dark") for args, words in zip(_run_worst(), labels, strict=True)]


# W_q's striped figure with its name and table: at most 96 × 96 cells drawn, 235 KB held (its
# JSON and Arrow table). Two entries: it changes with the setting only, never with the focus.
@cache.resource(entry_bytes=256 * KB, entries=2, worst=lambda: [(*a[:7], "dark") for a in _charts_worst()])
def wq_chart(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray, scheme: str
) -> Built:
    """W_q's stripes from the cached :func:`run`, named for a screen reader, with what it draws as a
    table, built (:class:`ui.figures.Built`: its JSON and its table as Arrow, written once); once
    per setting and theme. ``scheme`` is the theme the figure is drawn in
    (``ui.theme.active().mode``): its scale is chosen when it is built, so each theme has its own
    entry."""
    del scheme  # only a key: the figure reads the active theme
    r = run(kind, d_in, d_out, heads, seed, context_length, x)
    assert r.w_query is not None  # drawable only
    cols = "1 column" if r.head_width == 1 else f"{r.head_width} columns"
    stripes = "1 stripe" if heads == 1 else f"{heads} stripes"
    fig = mf.striped_matrix(
        r.w_query,
        r.head_width,
        title=f"W_q {list(r.w_query.shape)}, as XW_q reads it: {stripes} of {cols}",
        x_title="column of W_q, head by head",
        y_title="row (input feature)",
    )
    return built(
        Chart(
            fig,
            mf.striped_name("W_q", r.w_query, ("input row", "input rows")),
            mf.striped_table(r.w_query, None, row_title="row (input feature)"),
        )
    )


# The output's striped figure, with its name and table: 32 rows by at most 96 columns, 128 KB held.
@cache.resource(entry_bytes=144 * KB, entries=3, worst=_charts_worst)
def output_chart(
    kind: str,
    d_in: int,
    d_out: int,
    heads: int,
    seed: int,
    context_length: int,
    x: np.ndarray,
    labels: tuple[str, ...],
    focus: int | None,
    scheme: str,
) -> Built:
    """The output of the first batch item from the cached :func:`run`, its ``focus`` row outlined,
    named and with its table; built once per setting, focus and theme (see :func:`wq_chart`)."""
    del scheme
    r = run(kind, d_in, d_out, heads, seed, context_length, x)
    assert r.output is not None  # drawable only
    fig = mf.striped_matrix(
        r.output,
        r.output.head_width,
        row_labels=labels,
        title=f"Output {list(r.output_shape)}, first batch item",
        # Rows tall enough for their printed values (a dozen rows of 15 px ran them together).
        height=max(280, 100 + (24 if mf.prints_values(r.output.cells) else 15) * len(labels)),
        x_title="output column",
        y_title="query",
        focus=focus,
    )
    return built(
        Chart(
            fig,
            mf.striped_name("Output of the first batch item", r.output, ("query", "queries")),
            mf.striped_table(r.output, labels, row_title="query"),
        )
    )


def _head_worst() -> list[tuple[object, ...]]:
    """A head of 32 tokens, every cell a clickable marker, focused and chosen, in both scales."""
    labels = cache.largest_sentence()[0]
    w = np.tril(np.full((len(labels), len(labels)), 1 / 3))
    return [(w, labels, 15, 16, True, 3, 7, rel, "dark") for rel in (None, "matrix", "row")]


# One head's heatmap with its name and table: 97 KB held at 32 tokens (its JSON and its Arrow
# table). Sixteen entries, the most heads a page draws: a full rerun finds every head, a cell click
# redraws only the heads it changes.
@cache.resource(entry_bytes=112 * KB, entries=16, worst=_head_worst)
def head_chart(
    weights: np.ndarray,
    labels: tuple[str, ...],
    head: int,
    heads: int,
    chosen: bool,
    focus: int | None,
    cell: int | None,
    relative: Relative | None,
    scheme: str,
) -> Built:
    """:func:`topics.multihead.figures.head_chart`, cached per head, focus, cell and theme (see
    :func:`wq_chart`); ``cell`` matters only to the ``chosen`` head, so pass it there alone."""
    del scheme
    return built(
        mf.head_chart(weights, labels, head, heads, chosen=chosen, focus=focus, cell=cell, relative=relative)
    )


@cache.data(entry_bytes=2 * KB, entries=1, worst=lambda: [()])  # 1.7 KB, one entry
def book_numbers() -> view.Book:
    """:func:`topics.multihead.view.book_numbers`, cached: the same for every reader."""
    return view.book_numbers()


# One head's q, k and v [n, head width] each: 768 KB at 32 tokens of a 1,024-wide head.
@cache.data(
    entry_bytes=800 * KB,
    entries=2,
    worst=lambda: [("wrapper", 1, 1024, 16, 123, 32, cache.largest_sentence()[1], 0)],
)
def head_projections(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray, head: int
) -> view.Head:
    """:func:`topics.multihead.view.head_projections`, cached: GPT-2's W_q takes a tenth of a second
    to draw."""
    return view.head_projections(kind, d_in, d_out, heads, seed, context_length, x, head)


@dataclass(frozen=True)
class Measurement:
    """One press of Measure: the timings, and when and how long they were measured on this server."""

    results: tuple[speed.Paired, ...]
    started: float  # wall clock (time.time()) when the timing began, after any wait for a turn
    seconds: float  # how long it took, warm-up included

    @property
    def conclusive(self) -> bool:
        """Every cell finished the two rounds an interval needs: worth showing other readers (a
        busy server's press that did not is measured again on the next press)."""
        return all(p.interval is not None for p in self.results)


Progress = Callable[[int | None, int, float], None]  # cell, round, elapsed; cell None: warming up


def _measure_worst() -> list[tuple[object, ...]]:
    return [(speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D, speed.PAGE_BUDGET_S, 0)]


# The page's grid, 8 cells of at most ``max_rounds`` = 100 ratios each: 12 KB pickled at the most
# rounds (tests/multihead checks that bound; a real press on this machine finishes far fewer).
@cache.data(
    entry_bytes=16 * KB,
    entries=2,
    worst=_measure_worst,
    show_spinner=False,  # the stopwatch shows a bar instead
)
def measure(
    ns: tuple[int, ...],
    heads: tuple[int, ...],
    d: int,
    budget_s: float,
    window: int,
    _progress: Progress | None = None,
) -> Measurement:
    """:func:`topics.multihead.speed.measure_interleaved` over the page's grid, cached per grid and
    per reuse ``window`` (``int(time.time() // speed.PAGE_REUSE_S)``): a timing is a measurement of
    this server at one moment, not a function of the grid, so every reader who presses Measure in
    the same window is shown the first press's timings, and the first press in a new window
    measures again. Two entries: the current window's and the one before.

    It runs under the heavy-work budget (``ui.budget``), its working set declared
    (:func:`topics.multihead.speed.working_set`): presses at once queue instead of slicing the CPU
    between them and every other reader. ``_progress`` (not part of the key) draws the bar.
    """
    del window  # only a key: when it moves, the next press measures again
    cells = speed.page_cells(ns, heads, d)
    with budget.heavy(speed.working_set(cells)):
        if _progress is not None:
            _progress(None, 0, 0.0)
        started, t0 = time.time(), time.perf_counter()
        results = speed.measure_interleaved(cells, budget_s, progress=_progress)
        return Measurement(tuple(results), started, time.perf_counter() - t0)
