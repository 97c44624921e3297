"""Figures specific to the masking page: the difference grid, printed in scientific notation.

The two masking paths differ by float64 rounding (about 1e-16), which a 4-decimal heatmap would
print as a wall of 0.0000; each such cell shows its own exponent, exact zeros as 0, and the
zero fill's leak (tenths) prints with 4 decimals like every other weight.
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


def difference_grid(diff: np.ndarray, labels: Sequence[str], *, title: str, height: int = 340) -> go.Figure:
    """Naive minus efficient weights on a diverging scale centred on zero (white = identical)."""
    return figures.heatmap(
        diff, labels, labels, title=title, diverging=True, text=sci_cells(diff), height=height
    )
