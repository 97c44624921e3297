"""What a read-along drawing returns: a figure, and its values as a table a screen reader reads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.read_along.step import Figure


@dataclass(frozen=True)
class Drawn:
    """A drawn step: ``figure`` (None when the table is the figure) and ``table``, the values the
    figure shows (shown collapsed under the figure, or as the figure itself)."""

    figure: go.Figure | None
    table: pd.DataFrame


Draw = Callable[[Figure], Drawn]


def matrix_table(m: np.ndarray, rows: Sequence[str], cols: Sequence[str]) -> pd.DataFrame:
    """A matrix as a table whose rows and columns are named by their tokens."""
    return pd.DataFrame(m, index=list(rows), columns=list(cols))
