"""Masking the future's figures: the stage heatmaps, the difference grid and the box's bars.

With the −∞ fill the two masking paths differ by float64 rounding alone, whose digits depend on
the machine's order of sums: the difference grid prints such a cell as ``≈0`` (the view's cell
text, :func:`topics.masking.text.cell_text`) and colours it white, so the colour shows only what
is more than rounding (the 0 fill's leak).

Each figure comes as a :class:`ui.figures.Chart`: a name that says what it shows at the page's
settings, for a screen reader, and its numbers as a table, written as the page prints them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.masking import STAGES, Stage
from topics.masking.text import stage_value
from ui import figures
from ui import format as fmt
from ui.figures import Chart, Relative

# The stages that hold attention weights (the rest are scores): the naive path's softmax comes
# first, at step 2 (core.masking.naive_path); the efficient path's last, at step 4 (efficient_path).
WEIGHT_STAGES: dict[str, tuple[int, ...]] = {"naive": (2, 3, 4), "efficient": (STAGES,)}


def text_frame(cells: Sequence[Sequence[str]], labels: Sequence[str]) -> pd.DataFrame:
    """A heatmap's cell text as a table, rows queries and columns keys, named as
    :func:`ui.figures.matrix_frame` names them."""
    names = figures.distinct([str(t) for t in labels])
    return pd.DataFrame([list(r) for r in cells], index=pd.Index(names, name="query ↓, key →"), columns=names)


def stage_heatmap(
    matrix: np.ndarray,
    labels: Sequence[str],
    *,
    focus: int | None = None,
    cell: int | None = None,
    relative: Relative | None = None,
) -> go.Figure:
    """One stage of a masking path; ``-inf`` cells read "−∞" and take no colour. ``focus`` and
    ``cell`` outline the cell panel's row and cell; every cell is a click away from it.

    Score stages are signed (diverging scale, white at 0); weight stages lie in [0, 1] and are
    drawn on the fixed 0–1 scale, so the two paths' weights compare cell for cell, or on a
    ``relative`` one (:func:`ui.figures.relative_colours`) when the page asks for it.
    """
    return figures.heatmap(matrix, labels, labels, focus=focus, cell=cell, relative=relative)


def stage_chart(
    path: str,
    stage: int,
    shown: Stage,
    labels: Sequence[str],
    *,
    relative: Relative | None = None,
    focus: int | None = None,
    cell: int | None = None,
) -> Chart:
    """One path's stage (``path`` "naive" or "efficient", ``stage`` 1 to 4), named and with its
    values as a table (``0/0`` where the naive path divides 0 by 0, ``−∞`` for the fill).
    ``relative`` colours the weights stages only (``WEIGHT_STAGES``), never the signed scores."""
    weights = stage in WEIGHT_STAGES[path]
    n = len(labels)
    what = "attention weights" if weights else "scores"
    name = f"{path.capitalize()} path, step {stage} of {STAGES}, {shown.name}: {what}, {fmt.size(n, n)}"
    fig = stage_heatmap(shown.matrix, labels, focus=focus, cell=cell, relative=relative if weights else None)
    cells = [[stage_value(x) for x in row] for row in np.asarray(shown.matrix, dtype=np.float64)]
    return Chart(fig, name, text_frame(cells, labels))


def difference_chart(
    diff: np.ndarray,
    cells: Sequence[Sequence[str]],
    labels: Sequence[str],
    limit: float,
    *,
    title: str,
    focus: int | None = None,
    cell: int | None = None,
) -> Chart:
    """The difference grid (:func:`difference_grid`), named and with its cells as a table."""
    fig = difference_grid(diff, cells, labels, limit, title=title, focus=focus, cell=cell)
    n = len(labels)
    return Chart(fig, f"{title}, {fmt.size(n, n)}", text_frame(cells, labels))


def difference_grid(
    diff: np.ndarray,
    cells: Sequence[Sequence[str]],
    labels: Sequence[str],
    limit: float,
    *,
    title: str,
    height: int = 340,
    focus: int | None = None,
    cell: int | None = None,
) -> go.Figure:
    """Naive minus efficient weights on a diverging scale centred on zero (white = identical).

    The scale spans at least ``±1e-3``, so a cell below ``limit`` (float64 rounding) stays white
    instead of being stretched to the scale's ends, while a leak of tenths keeps its colour.
    The title's note on ``≈0`` goes on a second, smaller line: on one line a phone's width cut it off.
    """
    m = np.asarray(diff, dtype=np.float64)
    finite = np.abs(m[np.isfinite(m)])
    span = max(float(finite.max()) if finite.size else 0.0, 1e-3, limit)
    head, note = title.split(" (", 1) if " (" in title else (title, "")
    fig = figures.heatmap(
        m,
        labels,
        labels,
        title=head + (f"<br><span style='font-size:12px'>({note}</span>" if note else ""),
        diverging=True,
        zmin=-span,
        zmax=span,
        text=[list(r) for r in cells],
        height=height,
        focus=focus,
        cell=cell,
    )
    if note:
        fig.layout.margin.t = 58
    return fig


def logit_text(v: float) -> str:
    """``2``, ``-0.5``, or ``∞`` / ``−∞`` for the infinities the box accepts."""
    if np.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{v:g}"


def softmax_bars(logits: np.ndarray, probs: np.ndarray) -> go.Figure:
    """The counterexample: each logit's softmax weight, the vector in the title when it is short.

    Past a dozen logits the bars lose their value labels (they would overlap) and the axis
    zooms to the tallest bar, so 64 near-uniform weights stay visible. ``probs`` must be finite:
    :func:`topics.masking.box.softmax_extended` returns ``None`` rather than NaN weights.
    """
    if not np.isfinite(probs).all():
        raise ValueError("softmax weights must be finite to draw; NaN rows have no bars")
    long = len(probs) > 12
    labels = [f"x{i + 1}" if long else f"x{i + 1} = {logit_text(v)}" for i, v in enumerate(logits)]
    title = f"softmax → {fmt.vec(probs)}" if len(probs) <= 8 else f"softmax of {len(probs)} logits"
    y_range = (0.0, 1.15 * float(np.max(probs))) if long else (0.0, 1.0)
    fig = figures.bars(probs.tolist(), labels, title=title, y_range=y_range, values_shown=not long)
    # An x-axis of its own, so the theme sets its tick labels' colour (Streamlit's grey is 3.72:1).
    fig.layout.xaxis = {"type": "category"}
    return fig


def softmax_chart(logits: np.ndarray, probs: np.ndarray) -> Chart:
    """The box's bars (:func:`softmax_bars`), named, with each logit and its weight as a table."""
    n = len(probs)
    name = f"Softmax of the {fmt.count(n, 'logit')} in the box: one bar per logit, its weight"
    table = pd.DataFrame(
        {"logit": [logit_text(v) for v in logits], "softmax weight": [fmt.num(p) for p in probs]},
        index=pd.Index([f"x{i + 1}" for i in range(n)], name="entry"),
    )
    return Chart(softmax_bars(logits, probs), name, table)
