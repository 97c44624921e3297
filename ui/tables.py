"""Small numeric tables (Q, K, V, W) printed to 4 decimals, as the book prints tensors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.figures import cell_text


def matrix(
    m: np.ndarray,
    rows: Sequence[str] | None = None,
    *,
    where: DeltaGenerator | None = None,
    decimals: int = 4,
) -> None:
    """A matrix as a table with fixed decimals (:func:`matrix_html`), drawn as Markdown.

    An HTML table, not ``st.dataframe``: a changed six-row grid cost the browser about 13 ms a
    rerun against about 4 ms for the same table in Markdown (``python -m bench elements``), and
    Q, K, V and Z change with nearly every control. It is also a real table, its row and column
    headers announced by a screen reader, where the grid is drawn on a canvas."""
    a = np.asarray(m, dtype=np.float64)
    (where or st).markdown(matrix_html(a, rows, decimals), unsafe_allow_html=True)


def matrix_html(a: np.ndarray, rows: Sequence[str] | None = None, decimals: int = 4) -> str:
    """``a`` as an HTML table: columns numbered 0, 1, …, rows headed by ``rows`` (tokens, as
    :func:`plain_cell`) or by their numbers, every cell to ``decimals`` places as a heatmap
    prints it (``ui.figures.cell_text``: no minus on a printed zero)."""
    heads = [str(i) for i in range(a.shape[0])] if rows is None else [str(r) for r in rows]
    corner = "row" if rows is None else "token"
    top = "".join(f'<th scope="col">{j}</th>' for j in range(a.shape[1]))
    body = "".join(
        f'<tr><th scope="row">{plain_cell(head)}</th>'
        + "".join(f"<td>{cell_text(v, decimals)}</td>" for v in row)
        + "</tr>"
        for head, row in zip(heads, a, strict=True)
    )
    return f'<table><thead><tr><th scope="col">{corner}</th>{top}</tr></thead><tbody>{body}</tbody></table>'


MARKUP = frozenset("&<>\"'$*_[]():`~#|\\{}!^")  # what HTML or Streamlit's Markdown could read as markup


def plain_cell(text: str) -> str:
    """``text`` as a table cell shows it, letter for letter: every character HTML or Streamlit's
    Markdown could read as markup (a tag, ``$x$`` as math, ``**b**``, ``:red[x]``) written as a
    numeric character reference, which both leave as that character."""
    return "".join(f"&#{ord(c)};" if c in MARKUP else c for c in text)
