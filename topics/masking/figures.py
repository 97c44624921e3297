"""Masking the future's figures: the stage heatmaps, the difference grid and the box's bars.

With the −∞ fill the two masking paths differ by float64 rounding alone, whose digits depend on
the machine's order of sums: the difference grid prints such a cell as ``≈0`` (the view's cell
text, :func:`topics.masking.text.cell_text`) and colours it white, so the colour shows only what
is more than rounding (the 0 fill's leak).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui import figures
from ui import format as fmt


def stage_heatmap(
    matrix: np.ndarray, labels: Sequence[str], *, focus: int | None = None, cell: int | None = None
) -> go.Figure:
    """One stage of a masking path; ``-inf`` cells read "−∞" and take no colour. ``focus`` and
    ``cell`` outline the cell panel's row and cell; every cell is a click away from it.

    Score stages are signed (diverging scale, white at 0); weight stages lie in [0, 1] and are
    drawn on the fixed 0–1 scale, so the two paths' weights compare cell for cell.
    """
    return figures.heatmap(matrix, labels, labels, focus=focus, cell=cell)


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
    return figures.bars(probs.tolist(), labels, title=title, y_range=y_range, values_shown=not long)
