"""The TiB/H100 cost table: the view's exact rows as a pandas frame, its column formats, its CSV.

Scores and bytes are exact integers written out with separators: at 128 heads × 128 layers they
pass 2⁵³, where a browser's numbers stop being exact, so they travel as text and never as a
float. The other columns are numbers ``column_config`` formats. The CSV is written from the
same frame, so the download holds exactly the table shown (:func:`show` draws both).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from topics.cost import format as cost_format
from topics.cost.view import View

COLUMNS = (
    "n",
    "scores",
    "bytes",
    "size",
    "cards (ratio)",
    "cards to buy",
    "time per token (s)",
    "time per token (h)",
    "current",
)


def frame(v: View) -> pd.DataFrame:
    """One row per context length of the ladder, plus the current one (flagged ``current``)."""
    rows = [
        (
            r.n,
            f"{r.scores:,}",
            f"{r.nbytes:,}",
            cost_format.binary_size(r.nbytes),
            float(r.cards),  # correctly rounded from the exact Fraction
            r.cards_to_buy,
            float(r.seconds),
            float(r.seconds / 3600),
            r.n == v.n,
        )
        for r in v.table
    ]
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    return df.astype({"n": "int64", "cards to buy": "int64"})


def column_config(gpu_name: str) -> dict[str, ColumnConfig]:
    """Formats and help for every column; ``gpu_name`` names the card the cards columns count."""
    return {
        "n": st.column_config.NumberColumn("n", help="Context length, tokens.", format="localized"),
        "scores": st.column_config.TextColumn(
            "scores",
            help="n² × heads × layers: every attention score held at once, exact.",
            alignment="right",
        ),
        "bytes": st.column_config.TextColumn(
            "bytes", help="scores × bytes per score, exact.", alignment="right"
        ),
        "size": st.column_config.TextColumn("size", help="The same bytes in binary units (1 KiB = 1,024 B)."),
        "cards (ratio)": st.column_config.NumberColumn(
            "cards (ratio)", help=f"bytes / memory of one {gpu_name}.", format="%.2f"
        ),
        "cards to buy": st.column_config.NumberColumn(
            "cards to buy", help="The ratio rounded up: nobody sells 0.55 of a card.", format="localized"
        ),
        "time per token (s)": st.column_config.NumberColumn(
            "post's time per token (s)",
            help="The post's model, t₀ × (n / 1,024)²: everything scaled as if quadratic. "
            "'Where the time goes' shows what one head's multiply-adds give.",
            format="localized",
        ),
        "time per token (h)": st.column_config.NumberColumn("post's time per token (h)", format="%.2f"),
        "current": st.column_config.CheckboxColumn("current", help="The row for the sidebar's n."),
    }


def csv(df: pd.DataFrame) -> bytes:
    """The frame as CSV, UTF-8, no index: what the download button serves."""
    return df.to_csv(index=False).encode("utf-8")


def show(v: View, table: Any, data: bytes) -> None:
    """The table, every row without an inner scrollbar, and its CSV download: ``table`` is
    :func:`frame` of ``v`` as Arrow and ``data`` its :func:`csv`, both kept (``topics.cost.study``)."""
    st.dataframe(
        table,
        column_config=column_config(v.gpu.name),
        hide_index=True,
        width="stretch",
        height=35 * (len(table) + 1) + 3,
    )
    st.download_button(
        "Download the table as CSV",
        data,
        file_name=f"attention-cost-{v.gpu.name.split()[0].lower()}-{v.cfg.bytes_per_score}B.csv",
        mime="text/csv",
        key="csv",
    )
