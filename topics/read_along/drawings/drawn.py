"""What a read-along drawing returns: a figure, its name, and its values as a table a screen reader
reads; and the pieces the drawings share (tables as the figures print them, the weights' scale on a
long sentence, outlines in the reader's theme)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.read_along.step import Figure
from ui import colors, figures, theme
from ui import format as fmt
from ui.figures import Relative

# On a sentence longer than this, weights near 1/n are a pale square on the fixed 0–1 scale: the
# tour colours each row from 0 to its own largest weight instead (the tour has no scale control;
# the topic pages do), and says so under the figure and on the colour bar.
WEIGHTS_RELATIVE: Relative = "row"


@dataclass(frozen=True)
class Drawn:
    """A drawn step: ``figure`` (None when the table is the figure) and ``table``, the values the
    figure shows (shown collapsed under the figure, or as the figure itself).

    ``name`` says what the figure shows at these settings (its accessible name; empty takes the
    step's ``Figure.name``); ``table_name`` names the table when it is not the figure's values
    (a worked sum); ``note`` is a caption the page shows under the figure (how it is coloured)."""

    figure: go.Figure | None
    table: pd.DataFrame
    name: str = ""
    note: str | None = None
    table_name: str | None = None


Draw = Callable[[Figure], Drawn]


def sized(name: str, n_rows: int, n_cols: int, rows: str = "query", cols: str = "key") -> str:
    """A heatmap's name with its size: "Attention weights A, 6 queries by 6 keys" (``rows`` and
    ``cols`` are singular nouns; ``ui.format.size`` makes one query one, not "1 queries")."""
    return f"{name}, {fmt.size(n_rows, n_cols, rows, cols)}"


def matrix_table(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    row_title: str = "query",
    col_title: str = "key",
) -> pd.DataFrame:
    """A heatmap's matrix as a table, each cell as the heatmap prints it (4 decimals, −∞ for a
    mask's fill), rows and columns named by their tokens and the row header named."""
    return figures.matrix_frame(m, rows, cols, row_title=row_title, col_title=col_title)


def text_table(
    cells: Sequence[Sequence[str]],
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    row_title: str = "query",
    col_title: str = "key",
) -> pd.DataFrame:
    """Cells a view has already written as text (``≈0``), in the same table as :func:`matrix_table`."""
    frame = figures.matrix_frame(
        np.zeros((len(rows), len(cols))), rows, cols, row_title=row_title, col_title=col_title
    )
    return pd.DataFrame([list(r) for r in cells], index=frame.index, columns=frame.columns)


def significant(x: float, digits: int = 4) -> str:
    """A curve's value as its table prints it: ``digits`` significant figures (0.02000, 1.392,
    1.100e-06), a large one whole (12,345)."""
    if abs(x) >= 10**digits:
        return f"{x:,.0f}"
    return f"{x:#.{digits}g}".rstrip(".") if abs(x) >= 1e-4 or x == 0 else f"{x:.{digits - 1}e}"


def printed(table: pd.DataFrame, digits: int = 4) -> pd.DataFrame:
    """``table`` with every float column written to ``digits`` significant figures (whole numbers
    and text stay as they are)."""
    out = table.copy()
    for c in out.columns:
        if out[c].dtype.kind == "f":
            out[c] = [significant(float(x), digits) for x in out[c]]
    return out


def weights_scale(n: int) -> Relative | None:
    """How a weights heatmap of ``n`` tokens is coloured: fixed 0–1 while the cells print their
    values, each row from 0 to its largest past that."""
    return WEIGHTS_RELATIVE if n > figures.TEXT_MAX else None


def scale_note(n: int, relative: Relative | None) -> str | None:
    """The caption under a weights heatmap drawn on the relative scale: why, and where the values are."""
    if relative is None:
        return None
    return (
        f"With {n} tokens a row's weights are near 1/{n} = {1 / n:.4f}, and the fixed 0–1 scale "
        "would draw them all pale, so each row here is coloured from 0 to its own largest weight "
        "(the colour bar says so): compare colours within a row, not across rows. The values are "
        "in the table below."
    )


def scaled_name(name: str, relative: Relative | None) -> str:
    """A weights heatmap's name, saying how it is coloured when that is not the fixed 0–1 scale."""
    return name if relative is None else f"{name}, each row coloured from 0 to its largest weight"


def recolour(fig: go.Figure, m: np.ndarray, relative: Relative, xaxis: str = "x") -> go.Figure:
    """A heatmap that prints no values (past ``TEXT_MAX``), built by a topic's own figure code on
    the fixed scale, coloured on the relative scale instead: the heatmap layers on ``xaxis`` take
    ``ui.figures.relative_colours``' shades (a focused row's layer and the dimmed one alike), and
    the first shows the colour bar with its title. Only cells without text are recoloured, so no
    cell's ink was chosen for the old fill."""
    shade, lo, hi, title = figures.relative_colours(np.asarray(m, dtype=np.float64), relative)
    first = True
    for trace in fig.data:
        if trace.type != "heatmap" or (trace.xaxis or "x") != xaxis:
            continue
        z = [
            [None if old is None else float(new) for old, new in zip(row, shade_row, strict=True)]
            for row, shade_row in zip(trace.z, shade, strict=True)
        ]
        trace.update(z=z, zmin=lo, zmax=hi, showscale=first)
        if first:
            trace.colorbar.title = {"text": title, "side": "right", "font": {"size": 10}}
        first = False
    return fig


def outline(*, width: float = 4.0) -> tuple[tuple[str, float], tuple[str, float]]:
    """An outline's two lines in the reader's theme, ``(colour, width)``: the focus colour outside
    and the background's inside, as the heatmaps' focus outlines (``ui.figures.focus_shapes``)."""
    pal = theme.active()
    return (pal.focus, width), (pal.focus_inner, 1.0)


def label_background(alpha: float = 0.85) -> str:
    """An annotation's box: the theme's background, mostly opaque, so its text keeps its contrast."""
    r, g, b = (round(c * 255) for c in colors.parse(theme.active().background))
    return f"rgba({r},{g},{b},{alpha})"


COVER = "?"  # what a covered cell shows before the reveal


def covered(m: np.ndarray, cells: Sequence[tuple[int, int]]) -> tuple[np.ndarray, list[list[str]]]:
    """``m`` with ``cells`` left unfilled and printing "?", and every other cell's text as the
    heatmap prints it: the figure is all there but the answer."""
    out = np.asarray(m, dtype=np.float64).copy()
    text = [[figures.cell_text(float(x)) for x in row] for row in out]
    for i, j in cells:
        out[i, j] = np.nan
        text[i][j] = COVER
    return out, text


def mirrored(cells: Sequence[tuple[int, int]], x: np.ndarray) -> list[tuple[int, int]]:
    """``cells`` and every cell that holds the same number by construction: a repeated word has the
    same embedding ``x`` row (``x``: [n, d_in]), so its row and column mirror the asked token's, and
    covering the asked cell alone would leave its value on screen in the mirror."""
    x = np.asarray(x)
    same = [np.flatnonzero((x == x[i]).all(axis=1)) for i in range(len(x))]
    return sorted({(int(r), int(c)) for i, j in cells for r in same[i] for c in same[j]})


def covered_table(table: pd.DataFrame, cells: Sequence[tuple[int, int]]) -> pd.DataFrame:
    """``table`` with ``cells`` (row, column positions) written as "?"."""
    out = table.astype(object).copy()
    for i, j in cells:
        out.iat[i, j] = COVER
    return out


def without(fig: go.Figure, *names: str) -> go.Figure:
    """``fig`` without the traces whose names start with any of ``names`` (the answer's traces)."""
    fig.data = tuple(t for t in fig.data if not str(t.name or "").startswith(names))
    return fig
