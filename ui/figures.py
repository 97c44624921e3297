"""Plotly figure builders with one look for the whole app.

Heatmaps carry token labels and 4-decimal cell text, as the book prints tensors, and say what their
axes hold (rows are queries, columns keys, unless a figure says otherwise). Their colours never
stretch to a matrix's own minimum and maximum (:func:`value_range`): weights, masks and
probabilities sit on the fixed 0–1 ``SEQUENTIAL`` scale, so near-uniform weights look near-uniform;
signed quantities (scores of signed weights, Ω − Ωᵀ, the two masking paths) use ``DIVERGING``
centred on zero, so white always means 0. Past ``TEXT_MAX`` tokens the cells stop printing values
and a colour bar reads the scale instead. Any heatmap can pick out one query's row (``focus``).

Builders write the figure as a plain Plotly spec and wrap it without validating it
(``figure``): building through graph_objects' ``update_*`` calls cost tens of milliseconds a
figure, most of a page's rerun. :func:`show` draws it through the app's chart element
(``ui.chart``), which updates a chart in place when its spec changes.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pyarrow as pa  # type: ignore[import-untyped]
import streamlit as st

from ui import chart, colors, theme
from ui import format as fmt

# The light theme's scales; a figure built in a script run takes the active theme's (ui.theme).
SEQUENTIAL = theme.LIGHT.sequential  # white (0) to dark blue (most)
DIVERGING = theme.LIGHT.diverging  # blue (negative), white (0), red (positive)
# Series colours, each at least 3:1 on white as a line and 4.5:1 as text (SECOND was #dd6b20,
# 3.39:1, in annotations; MUTED was #a0aec0, 2.26:1); ui.theme.SERIES_DARK holds their dark twins.
ACCENT = "#2b6cb0"
SECOND = "#c05621"
THIRD = "#2f855a"
MUTED = "#718096"
PALETTE = (ACCENT, SECOND, THIRD, "#805ad5", "#c53030", "#2c7a7b")
FONT = dict(family="Inter, system-ui, sans-serif", size=13)

# No Plotly toolbar. On a touch screen it never hides, and it sat over chart titles and the first
# row of the masking heatmaps; on a desktop it covered titles on every hover. What it offered stays
# reachable without it: drag to zoom, double-click to reset, hover for values, and the chart
# element's own PNG and SVG buttons (ui.chart).
PLOTLY_CONFIG = {"displayModeBar": False, "displaylogo": False}


def layout(title: str | None, height: int, **extra: Any) -> dict[str, Any]:
    """The app's layout: left-aligned title, tight margins, one font. No named template: the
    chart element draws on a transparent background, over the page's, and ``ui.theme`` colours
    the rest."""
    base: dict[str, Any] = {
        "font": FONT,
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
    }
    if title:
        # 2 px in from the left: a glyph's box reaches past its origin ("T" of "Target" by 1 px).
        base["title"] = {"text": title, "x": 0, "xanchor": "left", "pad": {"l": 2}, "font": {"size": 15}}
    base.update(extra)
    return base


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(k: int) -> str:
    """``10⁻³``: the one way a log axis writes a power of ten (``1`` and ``10`` stay as they are)."""
    return "1" if k == 0 else "10" if k == 1 else "10" + str(k).translate(_SUPERSCRIPT)


def short_count(n: float) -> str:
    """``1k``, ``10k``, ``1M``: a count on an axis, never colliding with its neighbours."""
    for size, suffix in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= size:
            return f"{n / size:g}{suffix}"
    return f"{n:g}"


def log_ticks(low: float, high: float, *, counts: bool = False, max_ticks: int = 9) -> dict[str, Any]:
    """``tickvals`` and ``ticktext`` for a log axis from ``low`` to ``high``, in one format app-wide.

    Plotly's own log ticks mix styles on one axis ("2, 1, 0.9, 0.8", "10, 2, 5, 10²"). Here:
    within three decades, 1, 2 and 5 of each decade (and 3 within two) written plainly (0.2, 0.5, 1,
    2); wider, powers
    of ten only (10⁻³), every k-th decade so at most ``max_ticks`` remain; ``counts`` (draws,
    steps, tokens) are written 1, 10, 100, 1k, 1M, every other decade labelled past five.
    """
    low, high = float(min(low, high)), float(max(low, high))
    lo, hi = int(np.floor(np.log10(low))), int(np.ceil(np.log10(high)))
    if hi - lo <= 3:
        steps = (1, 2, 3, 5) if hi - lo <= 2 else (1, 2, 5)
        vals = [m * 10.0**k for k in range(lo, hi + 1) for m in steps]
        vals = [v for v in vals if low / 2 <= v <= high * 2]  # Plotly leaves out any past the range
        text = [short_count(v) if counts else f"{v:,.{max(0, -int(np.floor(np.log10(v))))}f}" for v in vals]
    else:
        step = max(1, -(-(hi - lo + 1) // max_ticks))
        ks = [k for k in range(lo, hi + 1) if k % step == 0 and low / 3 <= 10.0**k <= high * 3]
        vals = [10.0**k for k in ks]
        text = [short_count(v) if counts else power_of_ten(k) for v, k in zip(vals, ks, strict=True)]
        if counts and len(vals) > 5:  # "1 10 100 1k 10k 100k 1M" runs together on a phone: label every other
            text = [t if (k - ks[0]) % 2 == 0 else "" for t, k in zip(text, ks, strict=True)]
    if sum(low <= v <= high for v in vals) < 2:  # a narrow range (2.37 to 2.63) falls between 2 and 3
        fine = _fine_ticks(low, high)
        if len(fine[0]) >= 2:
            vals, text = fine
    # Short labels that fit level even on a phone; left to itself Plotly turns them on narrow charts
    # and the turned labels run into the legend below.
    return {"tickvals": vals, "ticktext": text, "tickangle": 0}


def _fine_ticks(low: float, high: float) -> tuple[list[float], list[str]]:
    """Evenly spaced ticks of 5, 2 or 1 × 10ᵏ inside ``[low, high]``, at least two where the range
    allows, for a range narrower than the gap between two of :func:`log_ticks`' usual values."""
    span = high - low
    if span <= 0:
        return [], []
    top = int(np.floor(np.log10(span)))
    vals: list[float] = []
    step = 10.0**top
    for step in (m * 10.0**e for e in range(top, top - 3, -1) for m in (5, 2, 1)):
        first = np.ceil(low / step) * step
        vals = [float(v) for v in np.arange(first, high + step / 2, step) if low <= v <= high]
        if len(vals) >= 3 or (len(vals) >= 2 and step <= span / 2):
            break
    places = max(0, -int(np.floor(np.log10(step))))
    return vals, [f"{v:,.{places}f}" for v in vals]


def figure(data: list[dict[str, Any]], layout_spec: dict[str, Any]) -> go.Figure:
    """Wrap a spec as a Figure without validating it: every builder writes the spec Plotly reads."""
    return go.Figure({"data": data, "layout": layout_spec}, _validate=False)


def cell_text(v: float, decimals: int = 4) -> str:
    """One heatmap cell as the book prints it; ``−∞`` for a mask fill, blank for NaN."""
    if math.isnan(v):  # math's tests: numpy's ufuncs cost a microsecond a call, on every cell
        return ""
    if math.isinf(v):
        return "−∞" if v < 0 else "∞"
    if abs(v) >= 10.0 ** (fmt.FLOAT32_DIGITS - decimals):  # no more digits than float32 holds
        return fmt.num(v, decimals)
    s = f"{v:.{decimals}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


# Cells print their values up to this many rows and columns; past it a 4-decimal number no longer
# fits a cell at any width the app is read at, so the values move to the hover and a colour bar.
TEXT_MAX = 8
FOCUS = theme.LIGHT.focus  # the outline of a focused query's row (the light theme's)
# How a heatmap of weights is coloured: on the fixed 0–1 scale, or relative to the matrix's largest
# weight or to each row's largest, so 32 weights near 1/32 are not one pale square (ui.scale).
Relative = Literal["matrix", "row"]


def plain(label: str) -> str:
    """A label as Plotly text that shows exactly what it says: Plotly reads a subset of HTML
    (``<b>``, ``<a href>``) in every label, and a reader's token is text, never markup."""
    return html.escape(str(label), quote=False)


def value_range(
    matrix: np.ndarray, *, diverging: bool = False, zmin: float | None = None, zmax: float | None = None
) -> tuple[float, float, bool]:
    """``(zmin, zmax, signed)`` for a heatmap: where its colour scale starts and ends, and whether
    the scale is diverging.

    Colours are never stretched to a matrix's own minimum and maximum: a row of weights between
    0.10 and 0.24 would run from white to navy and look anything but uniform. So:
    - explicit ``zmin``/``zmax`` win;
    - signed values (``diverging``, or any negative entry) get a diverging scale centred on 0,
      ``±`` the largest finite magnitude, so white always means 0;
    - non-negative values start at 0 and end at 1, or at their maximum when it is above 1: weights,
      masks and probabilities are always drawn on the fixed 0–1 scale.
    """
    m = np.asarray(matrix, dtype=np.float64)
    finite = m[np.isfinite(m)]
    signed = diverging or (finite.size > 0 and float(finite.min()) < 0)
    if zmin is not None and zmax is not None:
        return float(zmin), float(zmax), signed and zmin < 0 < zmax
    if signed:
        bound = float(np.max(np.abs(finite))) if finite.size else 1.0
        bound = bound if bound > 0 else 1.0
        return -bound, bound, True
    top = float(finite.max()) if finite.size else 1.0
    return 0.0, max(1.0, top), False


def distinct(labels: Sequence[str]) -> list[str]:
    """Labels made distinct for a category axis, which would merge two equal ones into one row: a
    repeat gets invisible zero-width spaces appended, so it prints the same and stays its own row."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        k = seen.get(label, 0)
        seen[label] = k + 1
        out.append(label + "\u200b" * k)
    return out


def axis_labels(labels: Sequence[str]) -> list[str]:
    """A heatmap axis's categories: each label as plain text (:func:`plain`), repeats kept apart
    (:func:`distinct`)."""
    return distinct([plain(t) for t in labels])


def prints_values(n_rows: int, n_cols: int) -> bool:
    """Whether a heatmap this size prints its values in the cells (see ``TEXT_MAX``)."""
    return max(n_rows, n_cols) <= TEXT_MAX


@dataclass(frozen=True)
class Grid:
    """One token heatmap's pieces, for a figure that places them (:func:`grid`): its traces (the
    fills, the printed values as text layers, then the clickable markers, last) and its outlines."""

    traces: list[dict[str, Any]]
    shapes: list[dict[str, Any]]


def grid(
    matrix: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    diverging: bool = False,
    decimals: int = 4,
    zmin: float | None = None,
    zmax: float | None = None,
    text: Sequence[Sequence[str]] | None = None,
    colorbar: bool | None = None,
    focus: int | None = None,
    cell: int | None = None,
    xref: str = "x",
    yref: str = "y",
    x0: float = 0,
    y0: float = 0,
    tile: int = 0,
    relative: Relative | None = None,
    printed: bool | None = None,
) -> Grid:
    """A token heatmap a reader can click, whose every cell's text stays legible.

    - **Colour:** a heatmap trace on :func:`value_range`'s scale. With a ``focus`` row, the other
      rows are drawn on the part of the same scale nearest the background (``ui.colors.dim_scale``):
      they recede through their own fills, ranked as before, with nothing laid over their text.
    - **Text:** each printed cell is coloured black or white by WCAG luminance against that cell's
      own fill (``ui.colors.text_on``), so it reads at 5:1 or more (Plotly's own choice went down
      to 3.13:1). A heatmap's own text takes one colour (``textfont.color`` is no array there),
      so the values are the text of the click markers below, a scatter trace, whose
      ``textfont.color`` takes one colour a cell. One trace, no canvas: a transparent heatmap per
      ink, as before, cost the browser a canvas image each on every change (README, "Benchmarks").
      ``printed`` overrides whether the cells print (``TEXT_MAX``).
    - **Clicks:** a transparent marker sits on every cell's centre, carrying ``[tile, i, j]`` as
      its customdata; with ``hoverdistance = -1`` a click anywhere in a cell picks that cell's
      marker (the nearest centre of a regular grid is the cell's own), and the chart element
      (``ui.chart``) sends its customdata back. It also carries the hover. (Markers, not the
      heatmap's own points: under ``st.plotly_chart`` a heatmap reported no selection to Streamlit
      1.67, streamlit issues 8760 and 8933.)
    - **Marks:** the focused row and the chosen ``cell`` are outlined (:func:`focus_shapes`).

    - **Scale:** in the active theme's colours (``ui.theme``). With ``relative``, non-negative
      values are coloured from 0 to the matrix's largest (``"matrix"``) or to each row's largest
      (``"row"``), and the colour bar, always shown then, says which; the cells still print, and
      hover, their own values (:func:`relative_colours`).

    ``x0``/``y0`` offset the cells for tiled figures, which pass each tile's axes as ``xref`` and
    ``yref`` and its number as ``tile``.
    """
    m = np.asarray(matrix, dtype=np.float64)
    n_rows, n_cols = m.shape
    finite = np.isfinite(m)
    printed = prints_values(n_rows, n_cols) if printed is None else printed
    if text is None:
        text = [[cell_text(v, decimals) for v in row] for row in m]
    pal = theme.active()
    lo, hi, signed = value_range(m, diverging=diverging, zmin=zmin, zmax=zmax)
    shade, bar_title = m, None
    if relative is not None and not signed:
        shade, lo, hi, bar_title = relative_colours(m, relative)
    scale = pal.diverging if signed else pal.sequential
    xs: list[Any] = axis_labels(cols)
    ys: list[Any] = axis_labels(rows)
    if x0 or y0:  # a tile on numeric axes: cells at their category positions
        xs = [x0 + j for j in range(n_cols)]
        ys = [y0 + i for i in range(n_rows)]
    focused = focus is not None and 0 <= focus < n_rows
    in_focus = np.zeros(n_rows, dtype=bool)
    in_focus[focus if focused else slice(None)] = True

    def layer(keep: np.ndarray, colorscale: list[list[Any]], bar: bool) -> dict[str, Any]:
        z = [[float(v) if ok and k else None for v, ok in zip(r, f, strict=True)]
             for r, f, k in zip(shade, finite, keep, strict=True)]  # fmt: skip
        colorbar_spec: dict[str, Any] = {
            "thickness": 10, "len": 0.9, "outlinewidth": 0, "tickfont": {"size": 10}
        }  # fmt: skip
        if bar_title:
            colorbar_spec["title"] = {"text": bar_title, "side": "right", "font": {"size": 10}}
        return {
            "type": "heatmap", "z": z, "x": xs, "y": ys, "xaxis": xref, "yaxis": yref,
            "colorscale": colorscale, "zmin": lo, "zmax": hi, "hoverinfo": "skip", "showscale": bar,
            "colorbar": colorbar_spec,
            "xgap": 1 if n_cols <= 16 else 0, "ygap": 1 if n_rows <= 16 else 0,
        }  # fmt: skip

    bar = (not printed or bar_title is not None) if colorbar is None else colorbar
    traces = [layer(in_focus, scale, bar)]
    faded = colors.dim_scale(scale, toward=pal.background)
    if focused:
        traces.append(layer(~in_focus, faded, False))
    fill = colors.fills(shade, scale, lo, hi)
    fill[~in_focus] = colors.fills(shade, faded, lo, hi)[~in_focus]
    fill[~finite] = colors.parse(pal.background)  # no fill drawn: the cell's text sits on the page
    ink = colors.text_on(fill)
    cells = [(i, j) for i in range(n_rows) for j in range(n_cols)]
    picker: dict[str, Any] = {
        "type": "scatter", "mode": "markers", "xaxis": xref, "yaxis": yref,
        "x": [xs[j] for _, j in cells],
        "y": [ys[i] for i, _ in cells],
        "customdata": [[tile, i, j] for i, j in cells],
        "hovertext": [f"{plain(rows[i])} → {plain(cols[j])}: {text[i][j] or 'undefined'}" for i, j in cells],
        "hovertemplate": "%{hovertext}<extra></extra>",
        "marker": {"color": "rgba(0, 0, 0, 0)", "size": 8},
        "showlegend": False,
    }  # fmt: skip
    if printed:
        longest = max((len(t) for r in text for t in r), default=0)
        picker["mode"] = "markers+text"
        picker["text"] = [plain(text[i][j]) for i, j in cells]
        picker["textposition"] = "middle center"
        size = 11 if longest <= 5 and n_cols <= 6 else 10
        picker["textfont"] = {"color": [str(ink[i, j]) for i, j in cells], "size": size}
    traces.append(picker)
    shapes = focus_shapes(focus, n_rows, n_cols, xref=xref, yref=yref, x0=x0, y0=y0, cell=cell)
    return Grid(traces, shapes)


def cell_notes(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every printed cell of a spec's token heatmaps (:func:`grid`'s cell text), as
    ``{"x", "y", "xref", "yref", "text", "color", "size"}``, ``x``/``y`` the cell's column and row
    positions (a tile's offset included), each heatmap's row by row: what a reader sees printed."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for trace in spec.get("data", []):
        if trace.get("type") != "scatter" or "text" not in trace.get("mode", "").split("+"):
            continue
        refs = (trace.get("xaxis") or "x", trace.get("yaxis") or "y")
        font = trace.get("textfont", {})
        inks = font.get("color")
        columns, rows = list(dict.fromkeys(trace["x"])), list(dict.fromkeys(trace["y"]))  # axis labels
        for k, t in enumerate(trace.get("text") or []):
            if not t:
                continue
            x, y = trace["x"][k], trace["y"][k]
            tiled = isinstance(x, (int, float))  # a tile on numeric axes: cells at their positions
            at = (x, y) if tiled else (columns.index(x), rows.index(y))
            note = {"x": at[0], "y": at[1], "xref": refs[0], "yref": refs[1], "text": t}
            colour = inks[k] if isinstance(inks, list) else inks
            found.setdefault(refs, []).append({**note, "color": colour, "size": font.get("size")})
    return [n for notes in found.values() for n in sorted(notes, key=lambda n: (n["y"], n["x"]))]


def relative_colours(m: np.ndarray, relative: Relative) -> tuple[np.ndarray, float, float, str]:
    """``(shade, zmin, zmax, colour-bar title)``: what a relative scale colours non-negative ``m``
    by. ``"matrix"`` keeps the values and ends the scale at the largest finite one; ``"row"``
    divides each row by its own largest, so every row's largest is the darkest cell. A row or a
    matrix with nothing above 0 keeps 1 as its end, so no division is by 0."""
    finite = np.where(np.isfinite(m), m, np.nan)
    if relative == "row":
        with np.errstate(invalid="ignore"):
            top = np.nanmax(np.where(np.isnan(finite).all(axis=1, keepdims=True), 1.0, finite), axis=1)
        top = np.where(top > 0, top, 1.0)
        return m / top[:, None], 0.0, 1.0, "÷ its row's<br>largest"
    largest = float(np.nanmax(finite)) if np.isfinite(finite).any() else 1.0
    largest = largest if largest > 0 else 1.0
    return m, 0.0, largest, f"0 to {largest:.4f},<br>the largest"


def picked(state: Any) -> tuple[int, int, int] | None:
    """``(tile, i, j)`` of the cell a click picked on a :func:`grid`, from its chart element's
    state (``st.session_state[key]``, whose ``click`` the element sets); None when it holds none."""
    return chart.clicked_cell(state)


def _tick_size(count: int, large: int) -> int:
    return large if count <= TEXT_MAX else 10 if count <= 16 else 9


def heatmap_axes(
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    x_title: str = "key",
    y_title: str = "query",
    focus: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A heatmap's ``(xaxis, yaxis)``: rows top to bottom as the matrix prints, both axes titled.

    Axes are categories (a token such as "1984" must not turn the axis numeric); column labels
    stay level while they fit and turn when they would run together; tick labels shrink past
    ``TEXT_MAX`` tokens. A focused row's label is marked ``▸`` (plain text: a bold tag would be markup).
    """
    title_font = {"size": 11}
    x = {
        "type": "category",
        "side": "bottom",
        # Level while they fit, else upright: at 45° a 9 px label needs 15 px a column, and at 32
        # tokens Plotly turned labels 12 px apart into each other ("becau" under "it"); past 16
        # columns every other one is labelled (the values table names them all).
        "autotickangles": [0, 90],
        **({"nticks": 16} if len(cols) > 16 else {}),
        "tickfont": {"size": _tick_size(len(cols), 10)},  # "journey starts" stays apart in a 300 px chart
        "title": {"text": x_title, "font": title_font, "standoff": 8},  # clear of the tick labels' boxes
        "ticks": "",
        "automargin": True,
        "showgrid": False,
        "zeroline": False,
    }
    y = {
        "type": "category",
        "autorange": "reversed",
        "tickfont": {"size": _tick_size(len(rows), 11)},
        # Plotly's default standoff wastes ~25 px; past TEXT_MAX rows its small tick labels are
        # measured short, and 4 px let the title touch them ("query" over "w15" at 32 tokens).
        "title": {"text": y_title, "font": title_font, "standoff": 8 if len(rows) <= TEXT_MAX else 12},
        "ticks": "",
        "automargin": True,
        "showgrid": False,
        "zeroline": False,
    }
    if focus is not None and 0 <= focus < len(rows):
        labels = axis_labels(rows)
        y["tickvals"] = labels
        y["ticktext"] = [f"▸ {t}" if i == focus else t for i, t in enumerate(labels)]
    return x, y


def focus_shapes(
    row: int | None,
    n_rows: int,
    n_cols: int,
    *,
    xref: str = "x",
    yref: str = "y",
    x0: float = 0,
    y0: float = 0,
    cell: int | None = None,
) -> list[dict[str, Any]]:
    """Outlines that pick out one query's row of a heatmap and, with ``cell``, one cell of it.

    Nothing is laid over the text: a veil took cell text below 3:1. The other rows recede through
    their own fills instead (:func:`grid`). Each outline is drawn twice, dark outside and white
    inside, so it stands out on a pale cell and on a dark one (WCAG's 3:1 for graphics, 1.4.11).
    Coordinates are category positions (cell ``(i, j)`` is centred on ``(x0 + j, y0 + i)``), so a
    tiled figure passes the tile's offset. No row (``None``) gives no shapes.
    """
    if row is None or not 0 <= row < n_rows:
        return []
    boxes = [(x0 - 0.5, x0 + n_cols - 0.5, 2.5)]
    if cell is not None and 0 <= cell < n_cols:
        boxes.append((x0 + cell - 0.5, x0 + cell + 0.5, 4.0))
    pal = theme.active()
    shapes = []
    for left, right, width in boxes:
        rect = {"type": "rect", "xref": xref, "yref": yref, "x0": left, "x1": right,
                "y0": y0 + row - 0.5, "y1": y0 + row + 0.5, "layer": "above"}  # fmt: skip
        shapes.append({**rect, "line": {"color": pal.focus, "width": width}})
        shapes.append({**rect, "line": {"color": pal.focus_inner, "width": 1}})
    return shapes


def heatmap_height(n_rows: int, height: int = 340) -> int:
    """Tall enough for ``n_rows`` readable rows: ``height`` for the book's six, more past a dozen."""
    return max(height, 120 + 15 * n_rows)


def heatmap(
    matrix: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str | None = None,
    diverging: bool = False,
    decimals: int = 4,
    zmin: float | None = None,
    zmax: float | None = None,
    height: int = 340,
    text: Sequence[Sequence[str]] | None = None,
    colorbar: bool | None = None,
    x_title: str = "key",
    y_title: str = "query",
    focus: int | None = None,
    cell: int | None = None,
    relative: Relative | None = None,
) -> go.Figure:
    """A token-labelled heatmap, rows top to bottom as the matrix prints (see :func:`grid`).

    Rows are queries and columns keys unless ``y_title``/``x_title`` say otherwise; ``focus``
    picks out one row and ``cell`` one key of it (:func:`focus_shapes`). Drawn with
    :func:`show` and a ``pick`` callback, a click on a cell picks it.
    """
    g = grid(
        matrix,
        rows,
        cols,
        diverging=diverging,
        decimals=decimals,
        zmin=zmin,
        zmax=zmax,
        text=text,
        colorbar=colorbar,
        focus=focus,
        cell=cell,
        relative=relative,
    )
    xaxis, yaxis = heatmap_axes(rows, cols, x_title=x_title, y_title=y_title, focus=focus)
    spec = layout(title, heatmap_height(len(rows), height), xaxis=xaxis, yaxis=yaxis)
    spec["margin"].update(l=0, r=2)  # a third of a page is ~300 px: every pixel goes to the cells
    spec["shapes"] = g.shapes
    spec["hovermode"] = "closest"
    spec["hoverdistance"] = -1  # a click anywhere in a cell picks its marker (see grid)
    return figure(g.traces, spec)


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str | None = None,
    color: str = ACCENT,
    decimals: int = 4,
    height: int = 300,
    y_range: tuple[float, float] | None = (0.0, 1.0),
    values_shown: bool = True,
) -> go.Figure:
    """A labelled bar chart (attention weights of one row, a softmax); ``values_shown=False``
    leaves the values to the hover, for bars too many to label."""
    v = np.asarray(values, dtype=np.float64)
    trace = {
        "type": "bar",
        "x": [plain(t) for t in labels],
        "y": v.tolist(),
        "marker": {"color": color},
        "text": [cell_text(x, decimals) for x in v],
        "textposition": "outside" if values_shown else "none",
        "cliponaxis": False,
        "hovertemplate": "%{x}: %{y:.6f}<extra></extra>",
    }
    spec = layout(title, height)
    if y_range is not None:
        spec["yaxis"] = {"range": list(y_range)}
    return figure([trace], spec)


EYE = (1.95, 1.95, 1.2)  # scatter3d_tokens' camera, looking at the cube's centre
# A label's places around its point, each with its direction on screen (right, up).
LABEL_SPOTS = {
    "top center": (0.0, 1.0), "bottom center": (0.0, -1.0), "middle right": (1.0, 0.0),
    "middle left": (-1.0, 0.0), "top right": (0.7, 0.7), "bottom left": (-0.7, -0.7),
    "top left": (-0.7, 0.7), "bottom right": (0.7, -0.7),
}  # fmt: skip
NEAR = 0.2  # labels of points closer than this on screen (a share of the cube's side) would overlap


def label_spots(p: np.ndarray, eye: tuple[float, float, float] = EYE) -> list[str]:
    """Where each point's token label sits in :func:`scatter3d_tokens`: above it, unless points
    drawn within :data:`NEAR` of it on screen crowd it; then on the free side that faces most
    away from them (a place a crowding neighbour's label has taken is never chosen). On the book's
    sentence "journey", "starts" and "with" land on one spot of the screen (seen from the scene's
    camera, ``eye``), and their labels piled up."""
    p = np.asarray(p, dtype=np.float64)
    span = np.ptp(p, axis=0)
    q = (p - p.min(axis=0)) / np.where(span > 0, span, 1.0)  # the cube the scene draws
    e = np.asarray(eye, dtype=np.float64) / np.linalg.norm(eye)
    right = np.cross(e, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    screen = np.column_stack([q @ right, q @ np.cross(right, e)])  # seen from the camera
    spots: list[str] = []
    for i in range(len(p)):
        close = [j for j in range(len(p)) if j != i and np.linalg.norm(screen[i] - screen[j]) < NEAR]
        if not close:
            spots.append("top center")
            continue
        away = [screen[i] - screen[j] for j in close]
        away = [a / n if (n := np.linalg.norm(a)) > 0 else np.array([0.0, 1.0 if i < j else -1.0])
                for a, j in zip(away, close, strict=True)]  # fmt: skip
        taken = {spots[j] for j in close if j < i}
        free = [s for s in LABEL_SPOTS if s not in taken] or list(LABEL_SPOTS)
        spots.append(max(free, key=lambda s: min(float(np.dot(LABEL_SPOTS[s], a)) for a in away)))
    return spots


def scatter3d_tokens(
    sets: Sequence[tuple[str, np.ndarray]],
    labels: Sequence[str],
    *,
    title: str | None = None,
    height: int = 520,
    focus: int | None = None,
) -> go.Figure:
    """Sets of 3-d points (inputs, then outputs), each set in its own colour and marker.

    Only the first set prints its token labels (up to ``TEXT_MAX`` tokens): the outputs of
    weightless attention huddle within a few hundredths of each other, and six labels there pile
    into one blob. Every point
    names its token on hover; the ``focus`` token's points are labelled, enlarged and joined by
    a dashed line, so its input can be followed to its output.
    """
    symbols = ("circle", "diamond", "square", "cross")
    data = []
    for k, ((name, pts), color) in enumerate(zip(sets, PALETTE, strict=False)):
        p = np.asarray(pts, dtype=np.float64)
        trace = {
            "type": "scatter3d",
            "x": p[:, 0].tolist(),
            "y": p[:, 1].tolist(),
            "z": p[:, 2].tolist(),
            "mode": "markers+text" if k == 0 and len(labels) <= TEXT_MAX else "markers",
            "name": name,
            "text": [plain(t) for t in labels],
            "textposition": label_spots(p[:, :3]),
            "textfont": {"color": color, "size": 12},
            "marker": {"size": 5 if k == 0 else 4, "color": color, "symbol": symbols[k % len(symbols)]},
            "hovertemplate": "%{text}<br>(%{x:.4f}, %{y:.4f}, %{z:.4f})<extra>" + name + "</extra>",
        }
        data.append(trace)
    if focus is not None and 0 <= focus < len(labels) and len(sets) > 1:
        pts = np.array([np.asarray(p, dtype=np.float64)[focus] for _, p in sets])
        who = plain(labels[focus])
        names = [""] + [f"z for {who}"] * (len(sets) - 1)  # the input is labelled already
        data.append(
            {
                "type": "scatter3d",
                "x": pts[:, 0].tolist(),
                "y": pts[:, 1].tolist(),
                "z": pts[:, 2].tolist(),
                "mode": "lines+markers+text",
                "name": f"{who}, followed",
                "text": names,
                "textposition": "top left",  # above the outputs' huddle, not across it
                "textfont": {"color": FOCUS, "size": 12},
                "line": {"color": FOCUS, "width": 3, "dash": "dash"},
                "marker": {
                    "size": 7,
                    "color": list(PALETTE[: len(sets)]),
                    "line": {"color": FOCUS, "width": 2},
                },
                "hovertemplate": "%{text}<br>(%{x:.4f}, %{y:.4f}, %{z:.4f})<extra></extra>",
            }
        )
    axis = {"tickfont": {"size": 10}, "nticks": 5}
    spec = layout(
        title,
        height,
        scene={
            "xaxis": {**axis, "title": {"text": "dim 1"}},
            "yaxis": {**axis, "title": {"text": "dim 2"}},
            "zaxis": {**axis, "title": {"text": "dim 3"}},
            "aspectmode": "cube",
            # Far enough out that no corner of the cube, and none of its tick labels, leaves the frame,
            # on a phone too: Plotly sizes a scene by the chart's height, so in a tall 358 px wide
            # phone chart a closer camera (1.45, 1.45, 0.9) cut the dim 3 axis off at the left.
            "camera": {"eye": dict(zip("xyz", EYE, strict=True)), "center": {"x": 0, "y": 0, "z": -0.05}},
            "domain": {"x": [0, 1], "y": [0.08, 1]},
        },
        legend={"orientation": "h", "y": 0, "yanchor": "bottom", "x": 0},
    )
    return figure(data, spec)


@dataclass(frozen=True)
class Chart:
    """A figure with what a reader who cannot see it needs: its name and its values (see :func:`show`)."""

    figure: go.Figure
    name: str
    table: pd.DataFrame | None = None


@dataclass(frozen=True)
class Built:
    """A :class:`Chart` made ready to draw (:func:`built`): its spec, in one theme's colours, written
    once as JSON (what the chart element, ``ui.chart``, hands Plotly), its name and its table.
    Immutable plain data, so a bounded resource cache (``ui.cache.resource``) can hand the same
    object to every reader, with no copy to unpickle, and a rerun whose figure inputs have not
    changed draws the chart without building it again: building a heatmap, copying its spec out of
    Plotly and writing it as JSON (a 32-token heatmap's labels and hover text are thousands of
    strings) were most of what a page's rerun cost.

    A cached builder of one takes the theme's mode (``ui.theme.active().mode``) as an argument, so
    each theme keeps its own entry; :func:`show` draws it as it stands, exactly as the Chart."""

    json: str  # the spec as plotly.io.to_json writes it (validate=False: Plotly built it)
    name: str
    table: Any = None  # the Chart's table as a pyarrow.Table (:func:`arrow`)
    index_hidden: bool = False  # whether st.table hides that table's index (a RangeIndex)
    height: int | None = None  # the layout's height, which the element reserves before it draws
    scene: bool = False  # whether it holds a 3-D scene (a named figure rather than an image)

    @property
    def spec(self) -> dict[str, Any]:
        """The spec itself, read back from its JSON."""
        spec: dict[str, Any] = json.loads(self.json)
        return spec


def built(chart: Chart) -> Built:
    """``chart`` as :func:`show` would draw it now, in the active theme (:func:`spec_of`)."""
    return with_table(spec_of(chart.figure), chart.name, chart.table)


def with_table(spec: dict[str, Any], name: str, table: pd.DataFrame | None) -> Built:
    """A :class:`Built` of a spec already in the active theme's colours, its name and its table
    (turned into Arrow here, as ``st.table`` would turn it)."""
    height, scene = spec.get("layout", {}).get("height"), _has_scene(spec)
    if table is None:
        return Built(to_json(spec), name, height=height, scene=scene)
    hidden = isinstance(table.index, pd.RangeIndex)  # st.table's own rule for a DataFrame
    return Built(to_json(spec), name, arrow(table), hidden, height, scene)


def arrow(table: pd.DataFrame) -> Any:
    """``table`` as a ``pyarrow.Table`` (pyarrow's public ``Table.from_pandas``, what ``st.table``
    and ``st.dataframe`` turn a DataFrame into before sending it): a cache keeps this, smaller
    than the DataFrame's Python strings, and either element draws it without converting it again."""
    return pa.Table.from_pandas(table)


def to_json(spec: dict[str, Any]) -> str:
    """A spec as JSON, by Plotly's own writer (typed arrays, NaN as null). Not validated again: every
    spec drawn here comes from a figure Plotly built (``themed`` only recolours it)."""
    written: str = pio.to_json(spec, validate=False)
    return written


def spec_of(fig: go.Figure | dict[str, Any]) -> dict[str, Any]:
    """A figure as its plain ``{"data", "layout"}`` spec, in the active theme's colours."""
    spec = fig.to_dict() if isinstance(fig, go.Figure) else {"data": [], "layout": {}, **fig}
    return theme.themed(spec, theme.active())


def _has_scene(spec: dict[str, Any]) -> bool:
    return any(t.get("type") == "scatter3d" for t in spec.get("data", []))


def slug(name: str) -> str:
    """A file name from a chart's name: lower case, words joined by hyphens."""
    words = "".join(c if c.isalnum() else " " for c in name.lower()).split()
    return "-".join(words)[:60] or "chart"


def show(
    fig: Chart | Built | go.Figure | dict[str, Any],
    key: str | None = None,
    *,
    name: str | None = None,
    table: pd.DataFrame | None = None,
    pick: Callable[[], None] | None = None,
) -> None:
    """Draw a figure at full width, in the reader's theme, named for a screen reader, with its
    values as a table.

    - The chart is drawn by the app's chart element (``ui.chart``), which keeps its place across
      reruns under ``key`` and updates in place (``Plotly.react``); without a key, the chart's name
      stands for one.
    - ``name`` says what the chart shows ("Attention weights, 6 queries by 6 keys"): the plot's
      accessible name (``role="img"``, ``aria-label``), and the name of its PNG and SVG files.
    - ``table`` holds the chart's numbers; it is shown under "Values as a table" (:func:`values`),
      where a screen reader can read them and a reader of a chart too large to print its values
      finds them, with a CSV download.
    - With ``pick`` (and a ``key``), a click on a heatmap cell runs ``pick`` before the rerun, with
      the cell in the element's state (``ui.cell.picker``).

    A :class:`Chart` brings its own name and table; so does a :class:`Built`, whose spec is drawn as
    it stands (a cache built it from a Chart, in the reader's theme).
    """
    if not isinstance(fig, Built):
        if isinstance(fig, Chart):
            fig, name, table = fig.figure, fig.name, fig.table
        fig = with_table(spec_of(fig), name or "Chart", None)
    else:
        table = None
    name = fig.name
    chart.draw(
        fig.json,
        name=name,
        height=fig.height or 450,
        key=key or f"chart_{slug(name)}",
        file=slug(name),
        config=PLOTLY_CONFIG,
        scene=fig.scene,
        background=theme.active().background,
        pick=pick,
    )
    if fig.table is not None:
        _values(fig.table, fig.index_hidden, partial(_arrow_csv, fig.table), name, key=key)
    elif table is not None:
        values(table, name, key=key)


def matrix_frame(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    decimals: int = 4,
    row_title: str = "query",
    col_title: str = "key",
) -> pd.DataFrame:
    """A heatmap's matrix as the table :func:`values` shows: each cell as the heatmap prints it
    (:func:`cell_text`), rows and columns named by their tokens (repeats kept apart, as on the
    axes) and the row header named, so a screen reader announces "query journey, key starts"."""
    a = np.asarray(m, dtype=np.float64)
    frame = pd.DataFrame(
        [[cell_text(v, decimals) for v in row] for row in a],
        index=pd.Index(distinct([str(r) for r in rows]), name=f"{row_title} ↓, {col_title} →"),
        columns=distinct([str(c) for c in cols]),
    )
    return frame


def _csv(table: pd.DataFrame) -> bytes:
    return table.to_csv().encode()


def _arrow_csv(table: Any) -> bytes:
    """A :class:`Built` chart's table (Arrow) as the CSV its DataFrame writes."""
    return _csv(table.to_pandas())


def values(table: pd.DataFrame, name: str, *, key: str | None = None) -> None:
    """A chart's numbers under "Values as a table": an HTML table with named row and column
    headers (a screen reader reads it cell by cell, and it prints whole), and a CSV download."""
    _values(table, None, partial(_csv, table), name, key=key)


def _values(
    table: Any, index_hidden: bool | None, csv: Callable[[], bytes], name: str, *, key: str | None
) -> None:
    """:func:`values` for a DataFrame or, from a :class:`Built`, the same table already in Arrow
    (with ``index_hidden`` as st.table would decide it from the DataFrame)."""
    _lazy_values(table, index_hidden, csv, name, key or slug(name))


def values_key(name: str, key: str | None = None) -> str:
    """The session-state key of the "Values as a table" expander of the chart ``key`` (or, without
    one, named ``name``): True while it is open."""
    return f"values_{key or slug(name)}"


def _lazy_values(
    table: Any, index_hidden: bool | None, csv: Callable[[], bytes], name: str, key: str
) -> None:  # key: the chart's key, or its name's slug
    """The expander, drawn empty while it is closed: a table is drawn only for a reader who opens
    it, which reruns the page. Streamlit draws a closed expander's content all the same, and on
    every rerun: a 32 × 32 ``st.table`` cost the browser about half a second a change. (A fragment
    of its own would rerun less, but two expanders opened at once each ask for a fragment rerun,
    and one of them was lost: its expander stayed open and empty.)"""
    box = st.expander(f"Values as a table: {name}", key=values_key(name, key), on_change="rerun")
    if not box.open:
        return
    with box:
        st.table(table, hide_index=index_hidden)
        st.download_button(
            "Download as CSV",
            csv,  # written when a reader asks for it, not on every rerun
            file_name=f"{slug(name)}.csv",
            mime="text/csv",
            key=f"csv_{key}",
            on_click="ignore",
            icon=":material/download:",
        )
