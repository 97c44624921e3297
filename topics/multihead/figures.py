"""Figure builders for the multi-head page: W_q's stripes, one heatmap per head, the speed-up.

The stripes figure draws every weight on the app's diverging scale, so a weight's sign shows, and
marks each head's columns with a band of its own hue (the post's picture: every head's weights sit
side by side in adjacent column groups). Matrices larger than ``MAX_CELLS`` a side
are drawn thinned (``topics.multihead.thinning``), so the bands stay exact however large the
matrix. Builders add shapes and annotations in one layout update and keep per-cell
text to small matrices: GPT-2's W_q must not cost the page a second per rerun.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from topics.multihead.speed import Paired
from topics.multihead.thinning import MAX_CELLS, Thinned, thinned
from ui import figures

HEAD_HUES = (*figures.PALETTE, "#b7791f", "#d53f8c")
TEXT_CELLS = 100  # print values in the cells up to this many


def striped_matrix(
    m: np.ndarray | Thinned,
    head_width: int,
    *,
    row_labels: Sequence[str] | None = None,
    title: str | None = None,
    max_cells: int = MAX_CELLS,
    height: int = 320,
    x_title: str = "column, head by head",
    y_title: str = "row",
    focus: int | None = None,
) -> go.Figure:
    """A matrix whose consecutive groups of ``head_width`` columns belong to head 1, 2, ...

    Weights are signed, so every cell is drawn on the app's diverging scale centred on 0 (blue
    negative, white 0, red positive), from ``−max|m|`` to ``+max|m|``. Each head is marked by a
    band of its own hue above its columns, a label and a dividing line (none for a single
    group); hover shows the signed value and its real row and column. Values print in the cells
    of small matrices; otherwise a colour bar reads the scale. ``focus`` picks out one row.
    ``m`` may come already :func:`thinned` (with its own head width), as a cache keeps it.
    """
    t = m if isinstance(m, Thinned) else thinned(m, head_width, max_cells)
    head_width, (n_rows, n_cols) = t.head_width, t.shape
    heads = max(1, n_cols // head_width)
    r, c, sub, vmax = t.rows, t.cols, t.cells, t.vmax
    is_thin = len(r) < n_rows or len(c) < n_cols
    ys = list(row_labels) if row_labels is not None and not len(r) < n_rows else [str(i + 1) for i in r]
    ys = figures.axis_labels(ys)
    text_on = sub.size <= TEXT_CELLS
    data, shapes, notes = [], [], []
    for h in range(heads):
        mine = (c >= h * head_width) & (c < (h + 1) * head_width)
        x = c[mine] + 1  # real 1-based column numbers
        hue = HEAD_HUES[h % len(HEAD_HUES)]
        trace = {
            "type": "heatmap",
            "z": sub[:, mine].tolist(),
            "x": x.tolist(),
            "y": ys,
            "zmin": -vmax,
            "zmax": vmax,
            "colorscale": figures.DIVERGING,
            "showscale": not text_on and h == heads - 1,
            "colorbar": {"thickness": 10, "len": 0.9, "outlinewidth": 0, "tickfont": {"size": 10}},
            "xgap": 0 if is_thin else 1,
            "ygap": 0 if is_thin else 1,
            "hovertemplate": f"head {h + 1}<br>row %{{y}}, column %{{x}}: %{{z:.4f}}<extra></extra>",
        }
        if text_on:
            trace["texttemplate"] = "%{z:.4f}"
            trace["textfont"] = {"size": 11}
        data.append(trace)
        if heads > 1:
            step = x[1] - x[0] if len(x) > 1 else 1
            left, right = float(x[0] - step / 2), float(x[-1] + step / 2)
            if h:
                shapes.append(
                    dict(type="line", x0=left, x1=left, y0=0, y1=1, yref="paper", line=dict(width=1.5))
                )
            shapes.append(
                dict(
                    type="rect",
                    x0=left,
                    x1=right,
                    y0=1.01,
                    y1=1.045,
                    yref="paper",
                    fillcolor=hue,
                    line=dict(width=0),
                )
            )
            notes.append(
                dict(x=(left + right) / 2, y=1.05, yref="paper", yanchor="bottom", text=f"h{h + 1}",
                     showarrow=False, font=dict(color=hue, size=12))
            )  # fmt: skip
    if focus is not None and 0 <= focus < len(ys) and not len(r) < n_rows:
        left, right = float(c[0] + 1 - 0.5), float(c[-1] + 1 + 0.5)
        for shape in figures.focus_shapes(focus, len(ys), 1):
            shapes.append({**shape, "x0": left, "x1": right})
    title_font = {"size": 12}
    spec = figures.layout(
        title,
        height,
        shapes=shapes,
        annotations=notes,
        xaxis={"showticklabels": False, "showgrid": False, "zeroline": False,
               "title": {"text": x_title, "font": title_font}},
        yaxis={"autorange": "reversed", "type": "category", "showgrid": False, "automargin": True,
               "title": {"text": y_title, "font": title_font}},
    )  # fmt: skip
    spec["margin"]["t"] = 70 if title else 40
    return figures.figure(data, spec)


def head_heatmap(
    weights: np.ndarray,
    labels: Sequence[str],
    head: int,
    *,
    chosen: bool = False,
    focus: int | None = None,
    cell: int | None = None,
) -> go.Figure:
    """One head's attention weights ``[n, n]``, a tile of the per-head heatmaps drawn with
    ``ui.figures.grid``: every cell clickable (its marker carries ``tile = head``, so a click picks
    the head too), its text black or white by its fill, values printed up to ``figures.TEXT_MAX``
    tokens and a colour bar past them. ``focus`` outlines the same query's row in every head; only
    the ``chosen`` head (the cell panel's) outlines the chosen ``cell`` and says so in its title.

    One figure per head, not one tiled figure: the page lays the heads out in columns, which a
    phone stacks, so each head keeps a cell wide enough for four decimals at any width.
    """
    w = np.asarray(weights, dtype=np.float64)
    legible = values_fit(labels)
    g = figures.grid(
        w,
        labels,
        labels,
        zmin=0.0,
        zmax=1.0,
        focus=focus,
        cell=cell if chosen else None,
        tile=head,
        colorbar=None if legible else True,
    )
    xaxis, yaxis = figures.heatmap_axes(labels, labels, focus=focus)
    title = f"▸ Head {head + 1} (worked out below)" if chosen and focus is not None else f"Head {head + 1}"
    spec = figures.layout(title, figures.heatmap_height(len(labels)), xaxis=xaxis, yaxis=yaxis)
    spec["margin"].update(l=0, r=2)
    spec.update(
        shapes=g.shapes, annotations=g.annotations if legible else [], hovermode="closest", hoverdistance=-1
    )
    return figures.figure(g.traces, spec)


PHONE_CHART_PX = 358  # a head's chart on a 390 px phone, which stacks the heads one a row
LABEL_CHAR_PX = 6.6  # a character of the 11 px query labels on the left
VALUE_PX = 6 * 6.4 + 6  # "0.2458" in the cells' 10 px font (their smallest), and a gap


def values_fit(labels: Sequence[str]) -> bool:
    """Whether a head's cells, at their narrowest (a 390 px phone), are wide enough to print four
    decimals at the cells' legible minimum of 10 px; when not, the head prints no values and shows
    its colour bar (the hover, and the values table where the page has one, give the numbers)."""
    n = len(labels)
    if not figures.prints_values(n, n):
        return False
    plot = PHONE_CHART_PX - LABEL_CHAR_PX * max((len(t) for t in labels), default=0) - 10
    return plot / max(n, 1) >= VALUE_PX


def head_heatmaps(
    weights: np.ndarray, labels: Sequence[str], *, focus: int | None, cell: int | None, head: int
) -> tuple[go.Figure, ...]:
    """Every head's heatmap of ``weights`` [H, n, n] (:func:`head_heatmap`), ``head`` the cell
    panel's. Not cached: a quarter of a second at the largest (16 heads of 32 tokens, 1,024
    clickable cells each), and 6 MB a cache entry would hold."""
    return tuple(
        head_heatmap(w, labels, h, chosen=h == head, focus=focus, cell=cell) for h, w in enumerate(weights)
    )


def speedup_plot(results: Sequence[Paired], *, title: str | None = None, height: int = 360) -> go.Figure:
    """Speed-up of the split class (wrapper time / split time) against heads, one line per n,
    each point with its 95% interval as an error bar. Settings with fewer than two rounds have
    no interval and are not drawn."""
    data = []
    done = [(p, p.interval) for p in results if p.interval is not None]
    for i, n in enumerate(sorted({p.case.n for p, _ in done})):
        pts = sorted(((p, iv) for p, iv in done if p.case.n == n), key=lambda pi: pi[0].case.heads)
        data.append(
            {
                "type": "scatter",
                "x": [p.case.heads for p, _ in pts],
                "y": [iv.ratio for _, iv in pts],
                "error_y": {
                    "type": "data",
                    "symmetric": False,
                    "array": [iv.hi - iv.ratio for _, iv in pts],
                    "arrayminus": [iv.ratio - iv.lo for _, iv in pts],
                },
                "mode": "lines+markers",
                "name": f"n = {n:,}",
                "line": {"color": figures.PALETTE[i % len(figures.PALETTE)]},
                "customdata": [[iv.lo, iv.hi, iv.rounds] for _, iv in pts],
                "hovertemplate": "H = %{x}: %{y:.2f}× (95%: %{customdata[0]:.2f}–%{customdata[1]:.2f}×, "
                "%{customdata[2]} rounds)<extra>" + f"n = {n:,}" + "</extra>",
            }
        )
    ends = [v for _, iv in done for v in (iv.lo, iv.hi)] or [1.0]
    heads = sorted({p.case.heads for p, _ in done})
    lo, hi = np.floor(np.log2(min(min(ends), 1.0))), np.ceil(np.log2(max(max(ends), 1.0)))
    ticks = [2.0**k for k in range(int(lo), int(hi) + 1)]
    spec = figures.layout(
        title,
        height,
        legend={"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0},
        xaxis={"title": {"text": "heads H"}, "type": "log", "tickvals": heads},
        yaxis={"title": {"text": "speed-up of the split class (×)"}, "type": "log", "tickvals": ticks,
               "ticktext": [f"{v:g}×" for v in ticks]},
        shapes=[{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1.0, "y1": 1.0,
                 "line": {"color": figures.MUTED, "dash": "dash"}}],
        annotations=[{"xref": "paper", "x": 1, "y": 0, "yref": "y", "text": "same speed", "showarrow": False,
                      "xanchor": "right", "yanchor": "bottom"}],
    )  # fmt: skip
    spec["margin"]["b"] = 80
    return figures.figure(data, spec)
