"""Small numeric tables (Q, K, V, W) printed to 4 decimals, as the book prints tensors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator


def matrix(
    m: np.ndarray,
    rows: Sequence[str] | None = None,
    *,
    where: DeltaGenerator | None = None,
    decimals: int = 4,
) -> None:
    """A matrix as a table with fixed decimals. Column formats, not a pandas Styler: a Styler
    costs several milliseconds a table on every rerun."""
    a = np.asarray(m, dtype=np.float64)
    cols = [str(j) for j in range(a.shape[1])]
    df = pd.DataFrame(a, index=list(rows) if rows is not None else None, columns=cols)
    config = {c: st.column_config.NumberColumn(format=f"%.{decimals}f") for c in cols}
    (where or st).dataframe(df, column_config=config, width="stretch")
