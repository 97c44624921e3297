"""Figures for the masking page: stage heatmaps, the difference grid, the softmax bars.

The two masking paths differ by float64 rounding (about 1e-16), which a 4-decimal heatmap would
print as a wall of 0.0000; each such cell of the difference grid shows its own exponent, exact
zeros as 0, and the zero fill's leak (tenths) prints with 4 decimals like every other weight.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui import figures
from ui import format as fmt


def diff_text(x: float) -> str:
    """``1.1e-16`` for rounding noise, ``0`` where the paths agree exactly, 4 decimals for a leak."""
    x = float(x)
    if x == 0:
        return "0"
    return fmt.sci(x) if abs(x) < 1e-3 else fmt.num(x)


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


def softmax_bars(logits: np.ndarray, probs: np.ndarray) -> go.Figure:
    """The counterexample: each logit's softmax weight, the vector in the title when it is short.

    Past a dozen logits the bars lose their value labels (they would overlap) and the axis
    zooms to the tallest bar, so 64 near-uniform weights stay visible.
    """
    long = len(probs) > 12
    labels = [f"x{i + 1}" if long else f"x{i + 1} = {v:g}" for i, v in enumerate(logits)]
    title = f"softmax → {fmt.vec(probs)}" if len(probs) <= 8 else f"softmax of {len(probs)} logits"
    y_range = (0.0, 1.15 * float(np.max(probs))) if long else (0.0, 1.0)
    return figures.bars(probs, labels, title=title, y_range=y_range, values_shown=not long)
