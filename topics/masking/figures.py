"""Masking the future's figures: the stage heatmaps, the difference grid and the box's bars.

The two masking paths differ by float64 rounding (about 1e-16), which a 4-decimal heatmap would
print as a wall of 0.0000; each cell of the difference grid prints as :func:`view.diff_text`
writes it, with its own exponent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from topics.masking.view import diff_text
from ui import figures
from ui import format as fmt


def sci_cells(matrix: np.ndarray) -> list[list[str]]:
    """Cell text for a difference grid, each cell as :func:`diff_text` prints it."""
    return [[diff_text(v) for v in row] for row in np.asarray(matrix, dtype=np.float64)]


def stage_heatmap(matrix: np.ndarray, labels: Sequence[str], *, focus: int | None = None) -> go.Figure:
    """One stage of a masking path; ``-inf`` cells read "−∞" and take no colour.

    Score stages are signed (diverging scale, white at 0); weight stages lie in [0, 1] and are
    drawn on the fixed 0–1 scale, so the two paths' weights compare cell for cell.
    """
    return figures.heatmap(matrix, labels, labels, focus=focus)


def difference_grid(
    diff: np.ndarray, labels: Sequence[str], *, title: str, height: int = 340, focus: int | None = None
) -> go.Figure:
    """Naive minus efficient weights on a diverging scale centred on zero (white = identical)."""
    return figures.heatmap(
        diff, labels, labels, title=title, diverging=True, text=sci_cells(diff), height=height, focus=focus
    )


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
