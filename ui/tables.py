"""Small numeric tables (Q, K, V, W) printed to 4 decimals, as the book prints tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui import cache
from ui.cache import KB
from ui.figures import arrow


def matrix(
    m: np.ndarray,
    rows: Sequence[str] | None = None,
    *,
    where: DeltaGenerator | None = None,
    decimals: int = 4,
) -> None:
    """A matrix as a table with fixed decimals. Column formats, not a pandas Styler: a Styler
    costs several milliseconds a table on every rerun; the table itself is kept as Arrow
    (:func:`matrix_arrow`), which ``st.dataframe`` draws as it would the DataFrame."""
    a = np.asarray(m, dtype=np.float64)
    table = matrix_arrow(a, None if rows is None else tuple(rows))
    config = {str(j): st.column_config.NumberColumn(format=f"%.{decimals}f") for j in range(a.shape[1])}
    (where or st).dataframe(table, column_config=config, width="stretch")


def matrix_frame(a: np.ndarray, rows: tuple[str, ...] | None) -> pd.DataFrame:
    """The DataFrame :func:`matrix` draws: columns named 0, 1, …, rows by ``rows`` if given."""
    cols = [str(j) for j in range(a.shape[1])]
    return pd.DataFrame(a, index=list(rows) if rows is not None else None, columns=cols)


def _worst() -> list[tuple[object, ...]]:
    """The largest matrix a page prints: 32 tokens of 16 dimensions (the sentence itself)."""
    labels, x = cache.largest_sentence()
    return [(x, tuple(f"{t}_{'x' * 11}" for t in labels))]


# 32 × 16 float64 with 32 row labels: about 10 KB as Arrow. 64 entries: a page's seven matrices at
# several settings.
@cache.resource(entry_bytes=12 * KB, entries=64, worst=_worst)
def matrix_arrow(a: np.ndarray, rows: tuple[str, ...] | None) -> Any:
    """:func:`matrix_frame` as the Arrow table ``st.dataframe`` would turn it into, kept: building a
    DataFrame and converting it cost most of a small table's rerun (issue 25)."""
    return arrow(matrix_frame(a, rows))
