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
import pandas as pd
import plotly.graph_objects as go

from topics.multihead.speed import Paired
from topics.multihead.thinning import MAX_CELLS, Thinned, thinned
from ui import colors, figures, theme
from ui import format as fmt
from ui.figures import Chart, Relative

# Every hue a key of ui.theme.SERIES_DARK (the dark theme swaps it for its twin) and at least 4.5:1
# on white, since the head labels are written in it (#b7791f was 3.64:1, #d53f8c 4.27:1).
HEAD_HUES = (*figures.PALETTE, "#975a16", "#b83280")
TEXT_CELLS = 100  # print values in the cells up to this many
# ... and up to this many columns: a 4-decimal value needs about 45 px, and a phone's 358 px chart
# gives 8 columns 35 px each ("-0.2354" ran into its neighbours). Past it the table holds them.
TEXT_COLS = 6
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")  # the speed-up's lines


def prints_values(cells: np.ndarray) -> bool:
    """Whether :func:`striped_matrix` prints these drawn cells' values (``TEXT_CELLS``, ``TEXT_COLS``)."""
    return cells.size <= TEXT_CELLS and cells.shape[1] <= TEXT_COLS


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
    of small matrices, each black or white by its cell's fill (``ui.colors.text_on``), so it
    reads at 4.5:1 in either theme; otherwise a colour bar reads the scale. ``focus`` picks out
    one row. ``m`` may come already :func:`thinned` (with its own head width), as a cache keeps it.
    The scale and the cell text are the active theme's (``ui.theme.active``), chosen here.
    """
    t = m if isinstance(m, Thinned) else thinned(m, head_width, max_cells)
    head_width, (n_rows, n_cols) = t.head_width, t.shape
    heads = max(1, n_cols // head_width)
    r, c, sub, vmax = t.rows, t.cols, t.cells, t.vmax
    is_thin = len(r) < n_rows or len(c) < n_cols
    ys = list(row_labels) if row_labels is not None and not len(r) < n_rows else [str(i + 1) for i in r]
    ys = figures.axis_labels(ys)
    text_on = prints_values(sub)
    pal = theme.active()
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
            "colorscale": pal.diverging,
            "showscale": not text_on and h == heads - 1,
            "colorbar": {"thickness": 10, "len": 0.9, "outlinewidth": 0, "tickfont": {"size": 10}},
            "xgap": 0 if is_thin else 1,
            "ygap": 0 if is_thin else 1,
            "hovertemplate": f"head {h + 1}<br>row %{{y}}, column %{{x}}: %{{z:.4f}}<extra></extra>",
        }
        data.append(trace)
        if heads > 1:
            step = x[1] - x[0] if len(x) > 1 else 1
            left, right = float(x[0] - step / 2), float(x[-1] + step / 2)
            if h:
                shapes.append(
                    dict(type="line", x0=left, x1=left, y0=0, y1=1, yref="paper",
                         line=dict(width=1.5, color=pal.text))
                )  # fmt: skip
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
    if text_on:  # annotations, not the heatmap's own text: Plotly's pick went down to 3.13:1
        ink = colors.text_on(colors.fills(sub, pal.diverging, -vmax, vmax))
        for i in range(len(ys)):  # y by row position: a label such as "2" would be read as position 2
            for j, col in enumerate(c):
                notes.append(
                    dict(x=int(col) + 1, y=i, text=figures.cell_text(float(sub[i, j])), showarrow=False,
                         font=dict(size=11, color=str(ink[i, j])))
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
    relative: Relative | None = None,
) -> go.Figure:
    """One head's attention weights ``[n, n]``, a tile of the per-head heatmaps drawn with
    ``ui.figures.grid``: every cell clickable (its marker carries ``tile = head``, so a click picks
    the head too), its text black or white by its fill, values printed up to ``figures.TEXT_MAX``
    tokens and a colour bar past them. ``focus`` outlines the same query's row in every head; only
    the ``chosen`` head (the cell panel's) outlines the chosen ``cell`` and says so in its title.
    ``relative`` colours the head from 0 to its own largest weight, or each row to its largest.

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
        relative=relative,
        printed=legible and figures.prints_values(len(labels), len(labels)),
    )
    xaxis, yaxis = figures.heatmap_axes(labels, labels, focus=focus)
    title = f"▸ Head {head + 1} (worked out below)" if chosen and focus is not None else f"Head {head + 1}"
    spec = figures.layout(title, figures.heatmap_height(len(labels)), xaxis=xaxis, yaxis=yaxis)
    spec["margin"].update(l=0, r=2)
    spec.update(shapes=g.shapes, hovermode="closest", hoverdistance=-1)
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
    weights: np.ndarray,
    labels: Sequence[str],
    *,
    focus: int | None,
    cell: int | None,
    head: int,
    relative: Relative | None = None,
) -> tuple[go.Figure, ...]:
    """Every head's heatmap of ``weights`` [H, n, n] (:func:`head_heatmap`), ``head`` the cell
    panel's. Not cached: a quarter of a second at the largest (16 heads of 32 tokens, 1,024
    clickable cells each), and 6 MB a cache entry would hold."""
    return tuple(
        head_heatmap(w, labels, h, chosen=h == head, focus=focus, cell=cell, relative=relative)
        for h, w in enumerate(weights)
    )


SCALE_WORDS: dict[str | None, str] = {
    None: "coloured on the fixed 0 to 1 scale",
    "matrix": "coloured from 0 to the head's largest weight",
    "row": "each row coloured from 0 to its largest weight",
}


def head_charts(
    weights: np.ndarray,
    labels: Sequence[str],
    *,
    focus: int | None,
    cell: int | None,
    head: int,
    relative: Relative | None = None,
) -> tuple[Chart, ...]:
    """:func:`head_heatmaps`, each named for a screen reader ("Head 2 of 4: attention weights,
    6 queries by 6 keys, ...") with its weights as a table (:func:`head_chart` each)."""
    return tuple(
        head_chart(w, labels, h, len(weights), chosen=h == head, focus=focus, cell=cell, relative=relative)
        for h, w in enumerate(weights)
    )


def head_chart(
    weights: np.ndarray,
    labels: Sequence[str],
    head: int,
    heads: int,
    *,
    chosen: bool = False,
    focus: int | None = None,
    cell: int | None = None,
    relative: Relative | None = None,
) -> Chart:
    """Head ``head`` of ``heads``: its weights ``[n, n]`` as :func:`head_heatmap` draws them, named for
    a screen reader, with the weights as a table. One head at a time, so a cache can keep each
    (``topics.multihead.study.head_chart``): a cell click redraws only the heads it changes."""
    n = len(labels)
    return Chart(
        head_heatmap(weights, labels, head, chosen=chosen, focus=focus, cell=cell, relative=relative),
        f"Head {head + 1} of {heads}: attention weights, {fmt.size(n, n)}, {SCALE_WORDS[relative]}",
        figures.matrix_frame(weights, labels, labels),
    )


def striped_table(t: Thinned, row_labels: Sequence[str] | None, *, row_title: str) -> pd.DataFrame:
    """What :func:`striped_matrix` draws of a matrix, as a table: its rows by their labels (or
    1-based numbers), its columns by number, as ``h2: 5`` (head 2, column 5 of the whole matrix)
    when the matrix has several heads' stripes; thinned as the figure is."""
    rows = list(row_labels) if row_labels is not None and len(t.rows) == t.shape[0] else None
    rows = rows or [str(i + 1) for i in t.rows]
    if t.shape[1] // t.head_width > 1:
        cols, col_title = [f"h{int(c) // t.head_width + 1}: {int(c) + 1}" for c in t.cols], "head: column"
    else:
        cols, col_title = [str(int(c) + 1) for c in t.cols], "column"
    return figures.matrix_frame(t.cells, rows, cols, row_title=row_title, col_title=col_title)


def striped_name(what: str, t: Thinned, rows: tuple[str, str]) -> str:
    """A striped figure's accessible name: what it is, its size (``rows``: the rows' noun, singular
    and plural), its stripes, and whether the figure draws every cell or every k-th row and column."""
    heads = max(1, t.shape[1] // t.head_width)
    size = f"{fmt.count(t.shape[0], *rows)} by {fmt.count(t.shape[1], 'column')}"
    stripes = f", {heads} stripes of {fmt.count(t.head_width, 'column')}, one per head" if heads > 1 else ""
    drawn = len(t.rows) < t.shape[0] or len(t.cols) < t.shape[1]
    thin = (
        f"; drawn thinned, {fmt.count(len(t.rows), 'row')} by {fmt.count(len(t.cols), 'column')}"
        if drawn
        else ""
    )
    return f"{what}, {size}{stripes}; blue negative, red positive{thin}"


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
                "line": {"color": figures.PALETTE[i % len(figures.PALETTE)], "dash": DASHES[i % len(DASHES)]},
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


def speedup_chart(results: Sequence[Paired], *, title: str | None = None) -> Chart:
    """:func:`speedup_plot`, named, with its points as a table (the settings with an interval)."""
    rows = sorted(
        ((p.case.n, p.case.heads, iv) for p in results if (iv := p.interval) is not None),
        key=lambda r: (r[0], r[1]),
    )
    table = pd.DataFrame(
        {
            "tokens n": [n for n, _, _ in rows],
            "heads H": [h for _, h, _ in rows],
            "speed-up (×)": [f"{iv.ratio:.2f}" for _, _, iv in rows],
            "95% low (×)": [f"{iv.lo:.2f}" for _, _, iv in rows],
            "95% high (×)": [f"{iv.hi:.2f}" for _, _, iv in rows],
            "rounds": [iv.rounds for _, _, iv in rows],
        }
    )
    ns = sorted({n for n, _, _ in rows})
    name = (
        f"{title + ': ' if title else ''}speed-up of the split class over the wrapper against heads H, "
        f"one line per length n ({', '.join(f'{n:,}' for n in ns)}), with 95% intervals"
    )
    return Chart(speedup_plot(results, title=title), name, table)
