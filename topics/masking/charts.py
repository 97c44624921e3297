"""Masking the future's charts, built once for each input and theme and kept in bounded caches.

A rerun whose chart inputs have not changed (the stage stepped back, the fill switched back, a
click on a cell that leaves a chart as it was) draws the cached :class:`ui.figures.Built` instead
of building the heatmap again: building a heatmap and copying its spec out of Plotly was most of
the page's rerun (issue 25). Each function takes exactly what its chart shows, and ``mode``, the
theme the page is drawn in (``ui.theme.active().mode``): the builders colour the figure in it, so
each theme keeps its own entries.
"""

from __future__ import annotations

import numpy as np

from core import weights
from core.masking import Stage
from topics.masking import view
from topics.masking.box import MAX_LOGITS, softmax_extended
from topics.masking.figures import difference_chart, softmax_chart, stage_chart
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, built
from ui.theme import Mode


def _longest_sentence() -> tuple[tuple[str, ...], np.ndarray]:
    """The largest charts' sentence: 32 tokens of 11 characters (383 of the box's 400 characters),
    16 dimensions edited to ±9.99 by turns, so the scores print as long as they can."""
    labels, _ = cache.largest_sentence()
    signs = np.where(np.add.outer(np.arange(len(labels)), np.arange(16)) % 2, 1.0, -1.0)
    return tuple(f"{t:_<11}" for t in labels), 9.99 * signs


def _worst_stage() -> list[tuple[object, ...]]:
    """Every stage of both paths on the longest sentence, focused: the signed scores are largest."""
    labels, x = _longest_sentence()
    v = view.build(view.Settings(labels, x, weights.section_3_4(), fill="zero"))
    runs = (("naive", v.runs.naive), ("efficient", v.runs.zero))
    return [
        (path, k, s.name, s.formula, s.matrix, labels, "row", 31, 0, "dark")
        for path, stages in runs
        for k, s in enumerate(stages, start=1)
    ]


def _worst_grid() -> list[tuple[object, ...]]:
    """The 0 fill's grid on the longest sentence, focused: every cell prints a leak."""
    labels, x = _longest_sentence()
    v = view.build(view.Settings(labels, x, weights.section_3_5(), fill="zero"))
    return [(v.difference, v.cells, labels, v.limit, v.grid_title, 31, 0, "dark")]


# A 32-token chart with its focus holds 146 KB at most (its spec's JSON, whose non-ASCII
# labels Plotly writes as \u escapes, and its table); the book's six to 11 KB. 16 stages: both
# paths at two stages, in two themes, a few focus moves each.
@cache.resource(entry_bytes=160 * KB, entries=16, worst=_worst_stage)
def stage_built(
    path: str,
    step: int,
    name: str,
    formula: str,
    matrix: np.ndarray,
    labels: tuple[str, ...],
    relative: Relative | None,
    focus: int | None,
    cell: int | None,
    mode: Mode,
) -> Built:
    """:func:`topics.masking.figures.stage_chart`, built (``mode`` is the theme it is coloured in)."""
    shown = Stage(name, formula, matrix)
    return built(stage_chart(path, step, shown, labels, relative=relative, focus=focus, cell=cell))


@cache.resource(entry_bytes=160 * KB, entries=8, worst=_worst_grid)
def grid_built(
    diff: np.ndarray,
    cells: tuple[tuple[str, ...], ...],
    labels: tuple[str, ...],
    limit: float,
    title: str,
    focus: int | None,
    cell: int | None,
    mode: Mode,
) -> Built:
    """:func:`topics.masking.figures.difference_chart`, built."""
    return built(difference_chart(diff, cells, labels, limit, title=title, focus=focus, cell=cell))


def _worst_bars() -> list[tuple[object, ...]]:
    """The most logits the box takes, each as long as a float prints (8 KB)."""
    logits = -np.pi * 10.0 ** (np.arange(MAX_LOGITS, dtype=np.float64) - MAX_LOGITS // 2)
    sm = softmax_extended(logits)
    return [(logits, sm.weights, "dark")]


@cache.resource(entry_bytes=12 * KB, entries=8, worst=_worst_bars)
def bars_built(logits: np.ndarray, probs: np.ndarray, mode: Mode) -> Built:
    """:func:`topics.masking.figures.softmax_chart`, built."""
    return built(softmax_chart(logits, probs))


# The page's calls. Each passes its arguments by name: Streamlit reads the cached function's
# signature once per positional argument to hash it (half a millisecond for ten), and not for
# keyword arguments.


def stage(v: view.View, path: str, relative: Relative | None, mode: Mode) -> Built:
    """``path``'s stage ("naive" or "efficient") as ``v`` shows it, with its focus and cell."""
    shown = v.naive if path == "naive" else v.efficient
    return stage_built(
        path=path, step=v.stage, name=shown.name, formula=shown.formula, matrix=shown.matrix,
        labels=v.labels, relative=relative, focus=v.focus_row, cell=v.cell_key, mode=mode,
    )  # fmt: skip


def grid(v: view.View, mode: Mode) -> Built:
    """``v``'s difference grid, with its focus and cell."""
    return grid_built(
        diff=v.difference, cells=v.cells, labels=v.labels, limit=v.limit, title=v.grid_title,
        focus=v.focus_row, cell=v.cell_key, mode=mode,
    )  # fmt: skip


def bars(logits: np.ndarray, probs: np.ndarray, mode: Mode) -> Built:
    """The box's bars."""
    return bars_built(logits=logits, probs=probs, mode=mode)
