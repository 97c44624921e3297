"""Learning to attend's heatmaps and loss curves, built once for each input and theme and kept in
bounded caches.

A rerun whose heatmap inputs have not changed (the target, whatever the step; a step the reader
has already looked at; a scale or focus switched back) draws the cached :class:`ui.figures.Built`
instead of building the heatmap again: building a 32-token heatmap and copying its spec out of
Plotly was most of the page's rerun (issue 25). A step not seen yet is built as before. The
function takes exactly what its chart shows, and ``mode``, the theme it is coloured in
(``ui.theme.active().mode``), so each theme keeps its own entries.

The loss curves do not change with the step shown, only their marker does: they are kept for each
run (:func:`loss_curves_spec`), and a step not seen yet moves the marker on a copy of their layout
(:func:`loss_built`); the two tables of runs do not change with the step at all (:func:`run_tables`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from topics.learning import figures, readouts, view
from topics.learning.figures import heatmap_specs, one_heatmap
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, arrow, built, spec_of, with_table
from ui.theme import Mode
from ui.weights import MODE_LABELS


def _worst() -> list[tuple[object, ...]]:
    """The four heatmaps of a 32-token sentence, focused on the last query, in the dark theme."""
    labels, x = cache.largest_sentence()
    v = view.focused(view.base(view.Settings(labels, x)), len(labels) - 1, 0)
    return [
        (s["matrix"], labels, s["title"], s["name"], s["places"], s["weights"], s["focus"], s["cell"],
         s["diverging"], "row" if s["weights"] else None, "dark")
        for s in heatmap_specs(v).values()
    ]  # fmt: skip


# A 32-token heatmap with its table holds about 96 KB; the book's six tokens about 11 KB. 24
# entries: the four heatmaps at a few steps, focus moves and both themes.
@cache.resource(entry_bytes=128 * KB, entries=24, worst=_worst)
def heatmap_built(
    matrix: np.ndarray,
    labels: tuple[str, ...],
    title: str,
    name: str,
    places: int,
    weights: bool,
    focus: int | None,
    cell: int | None,
    diverging: bool,
    relative: Relative | None,
    mode: Mode,
) -> Built:
    """:func:`topics.learning.figures.one_heatmap`, built (``mode`` is the theme it is coloured in)."""
    return built(one_heatmap(matrix, labels, title, name, places, weights, focus, cell, diverging, relative))


def heatmaps(v: view.View, relative: Relative | None, mode: Mode) -> dict[str, Built]:
    """The page's four heatmaps as ``v`` shows them, by widget key. Arguments go by name: Streamlit
    reads a cached function's signature once per positional argument to hash it."""
    return {key: heatmap_built(**spec, mode=mode) for key, spec in heatmap_specs(v, relative).items()}  # type: ignore[arg-type]


def _longest_run() -> view.View:
    """The longest run (the most steps) on a 32-token sentence: the largest loss chart and tables."""
    labels, x = cache.largest_sentence()
    return view.base(view.Settings(labels, x, steps=max(view.STEPS)))


def _worst_loss() -> list[tuple[object, ...]]:
    v = _longest_run()
    return [(_run_key(v), "dark", v)]


def _run_key(v: view.View) -> view.Settings:
    """What the runs, and so the loss curves and the two tables of runs, depend on: every setting
    but the step shown, the mode the heatmaps show (they show every mode), the focus and the cell."""
    return replace(v.settings, step=0, mode="three", focus=None, cell=None)


# Three modes of at most 1,000 points each (figures.MAX_POINTS), packed: about 42 KB.
@cache.data(entry_bytes=48 * KB, entries=12, worst=_worst_loss)
def loss_curves_spec(settings: view.Settings, mode: Mode, _v: view.View) -> dict[str, Any]:
    """:func:`topics.learning.figures.loss_curves` of ``_v`` (whose settings, step aside, are
    ``settings``) as its spec in the theme's colours, with the step marked at 0: :func:`loss` moves
    the mark."""
    return spec_of(figures.loss_curves(_v.runs, MODE_LABELS, step=0, entropy_floor=_v.floor))


def _worst_marked() -> list[tuple[object, ...]]:
    v = _longest_run()
    return [(_run_key(v), v.step, "dark", v)]


# The curves (42 KB at most) with a step marked, their name and their table.
@cache.resource(entry_bytes=56 * KB, entries=16, worst=_worst_marked)
def loss_built(settings: view.Settings, step: int, mode: Mode, _v: view.View) -> Built:
    """The loss chart of ``_v`` at its step shown, ``step``: the curves, kept whatever the step
    (:func:`loss_curves_spec`), with that step marked (the marker is the layout's one shape,
    already in the theme's colour), named, and its table, whose rows include that step."""
    curves = loss_curves_spec(settings=settings, mode=mode, _v=_v)
    layout = curves["layout"]
    (mark,) = layout["shapes"]
    spec = {**curves, "layout": {**layout, "shapes": [{**mark, "x0": step, "x1": step}]}}
    name = figures.loss_name(_v.runs, MODE_LABELS, step, _v.floor)
    return with_table(spec, name, figures.loss_table(_v.runs, MODE_LABELS, step, _v.floor))


def loss(v: view.View, mode: Mode) -> Built:
    """The loss chart as ``v`` shows it, at its step shown."""
    return loss_built(settings=_run_key(v), step=v.step, mode=mode, _v=v)


def _worst_tables() -> list[tuple[object, ...]]:
    v = _longest_run()
    return [(_run_key(v), v)]


# Two tables of three rows: 5 KB as Arrow at 32 tokens (the rows still wrong name tokens).
@cache.resource(entry_bytes=8 * KB, entries=24, worst=_worst_tables)
def run_tables_built(settings: view.Settings, _v: view.View) -> tuple[Any, Any]:
    """The runs' table and the evidence table of ``_v`` (whose settings, step aside, are
    ``settings``), as the Arrow tables ``st.dataframe`` would turn them into."""
    return arrow(readouts.run_table(_v)), arrow(readouts.evidence_table(_v))


def run_tables(v: view.View) -> tuple[Any, Any]:
    """The runs' table and the evidence table as ``v`` shows them: neither changes with the step."""
    return run_tables_built(settings=_run_key(v), _v=v)
