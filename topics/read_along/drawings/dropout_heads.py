"""Drawings of the dropout and multi-head steps (``steps/dropout_heads.py``), each by its page's own
figure builder: the Dropout page's dropped heatmap and running mean, the Multi-head page's W_q
stripes and shape trace."""

from __future__ import annotations

import numpy as np
import pandas as pd

from topics.dropout import figures as dfig
from topics.multihead import figures as mf
from topics.multihead import view as heads
from topics.read_along.drawings.drawn import (
    Draw,
    Drawn,
    covered,
    covered_table,
    matrix_table,
    outline,
    printed,
    recolour,
    scale_note,
    scaled_name,
    weights_scale,
    without,
)
from topics.read_along.step import Figure
from topics.read_along.steps.dropout_heads import Classes, DropPick, Stripe, Trace
from ui import figures
from ui import format as fmt

EARLY = 5  # before the reveal, the running mean of the first draws only
MARK = "▸ "  # marks the row or column a table step talks about (as ui.focus.marked does)


def drop_draw(f: Figure) -> Drawn:
    """One draw after dropout beside its row sums, the step's row (and cell) outlined. Past
    ``TEXT_MAX`` tokens the page's figure is recoloured row by row (:func:`drawn.recolour`): its
    weights, near 2/n, were a pale square on the 0–1 scale."""
    d: DropPick = f.data
    v, T, n = d.view, d.view.labels, len(d.view.labels)
    if not d.sums or f.hide:  # the row sums answer the next step's question, or this one's
        cells = []
        if not d.sums and f.hide:  # the survivors' new values are the question: covered
            kept = np.tril(np.ones(v.first.shape, dtype=bool)) & v.first_keep
            cells = [(int(i), int(j)) for i, j in zip(*np.nonzero(kept), strict=True)]
        m, text = covered(v.first, cells)
        title = f.name if d.sums else "One draw after dropout"
        relative = weights_scale(n)
        fig = figures.heatmap(
            m, T, T, title=title, text=text, zmin=0, zmax=1, focus=d.row, cell=d.cell, relative=relative
        )
        table = covered_table(matrix_table(v.first, T, T), cells)
        if d.sums:
            table["row sum"] = "?"
        name = scaled_name(f"{title}: {fmt.size(n, n)}", relative)
        return Drawn(fig, table, name, scale_note(n, relative))
    fig = dfig.dropped_heatmap(v.first, v.row_sums, T, title=f.name, focus=d.row, cell=d.cell)
    relative = weights_scale(n)
    if relative is not None:
        recolour(fig, v.first, relative)
    table = matrix_table(v.first, T, T)
    table["row sum"] = [figures.cell_text(x) for x in v.row_sums]
    name = scaled_name(
        f"{f.name}: {fmt.size(n, n)}, then a column of {'its sum' if n == 1 else 'the row sums'}", relative
    )
    return Drawn(fig, table, name, scale_note(n, relative))


def drop_running(f: Figure) -> Drawn:
    """The running mean row sum with its band, and a marker on the mean after every draw."""
    v = f.data.view
    texts = v.running_text
    if f.hide:  # the first draws only, no band and no expectation: where it settles is the question
        k = min(EARLY, len(v.running_at))
        fig = dfig.running_mean_chart(
            v.running_at[:k], v.running_mean[:k], v.expectation, v.std, text=texts[:k], title=f.name
        )
        without(fig, "expectation")
        fig.update_xaxes(type="log", range=[0, float(np.log10(v.running_at[-1]))])  # room for the rest
        table = pd.DataFrame(
            {"running mean row sum": v.running_mean[:k]}, index=pd.Index(v.running_at[:k], name="draws")
        )
        return Drawn(fig, printed(table), f"{f.name}: the first {k} draws")
    fig = dfig.running_mean_chart(
        v.running_at, v.running_mean, v.expectation, v.std, text=texts, title=f.name
    )
    fig.add_scatter(
        x=[float(v.running_at[-1])],
        y=[float(v.running_mean[-1])],
        mode="markers",
        marker={"size": 14, "color": figures.ACCENT, "line": {"color": figures.FOCUS, "width": 3}},
        name=f"after {v.draws:,} draws",
        hovertemplate=f"after {v.draws:,} draws: {texts[-1]}<extra></extra>",
    )
    table = pd.DataFrame(
        {"running mean row sum": v.running_mean, "mean ± one standard error": texts},
        index=pd.Index(v.running_at, name="draws"),
    )
    band = "the band of ± 2 standard errors around the expectation"
    name = f"{f.name} against the number of draws, 1 to {v.draws:,}, and {band}"
    return Drawn(fig, printed(table.iloc[::-1]), name)  # the last count, the one marked, first


def heads_classes(f: Figure) -> Drawn:
    """Both classes at the same arguments, a column each (narrow enough for a phone): what d_out
    means in each, and the shape each outputs."""
    c: Classes = f.data
    cfg = c.split.config
    table = pd.DataFrame(
        {
            "Wrapper (3.6.1)": [
                cfg.d_out,
                cfg.num_heads,
                c.wrapper.head_width,
                heads.shape(c.wrapper.output_wrapper),
            ],
            "Split (3.6.2)": [
                cfg.d_out,
                cfg.num_heads,
                c.split.head_width,
                heads.shape(c.split.output_split),
            ],
        },
        index=pd.Index(
            ["d_out given", "num_heads", "one head's width", MARK + "output shape"], name="argument"
        ),
    )
    if f.hide:  # the widths are the question
        return Drawn(None, covered_table(table.astype(str), [(r, k) for r in (2, 3) for k in (0, 1)]))
    return Drawn(None, table.astype(str))


def heads_trace(f: Figure) -> Drawn:
    """The split class's shape trace as it ran, the step's row marked."""
    t: Trace = f.data
    assert t.view.trace is not None
    table = t.view.trace.copy()
    table["step"] = [MARK + s if i == t.row else s for i, s in enumerate(table["step"])]
    if f.hide:  # the marked shape and every later one are the question
        table["shape"] = [x if i < t.row else "?" for i, x in enumerate(table["shape"])]
    return Drawn(
        None, table.set_index("step")[["shape", "contiguous", "code"]]
    )  # the shape in view on a phone


def heads_stripes(f: Figure) -> Drawn:
    """W_q of the split class, head by head, with one head's stripe outlined."""
    s: Stripe = f.data
    r = s.view.run
    assert r is not None and r.w_query is not None
    w = r.w_query
    fig = mf.striped_matrix(
        w,
        r.head_width,
        title=f.name,
        height=max(320, 120 + 24 * len(w.rows)),  # 16 input rows keep their printed values legible
        x_title="column of W_q, head by head",
        y_title="row (input feature)",
    )
    left, right = s.head * r.head_width + 0.5, (s.head + 1) * r.head_width + 0.5  # columns are 1-based
    for color, width in outline():  # the focus colour outside, the background's inside
        fig.add_shape(
            type="rect", x0=left, x1=right, y0=0, y1=1, yref="paper", layer="above",
            line={"color": color, "width": width},
        )  # fmt: skip
    rows = [str(i + 1) for i in w.rows]
    cols = [f"h{c // r.head_width + 1}: {c + 1}" for c in w.cols]
    table = matrix_table(w.cells, rows, cols, row_title="row", col_title="head: column")
    name = f"{f.name}: {len(rows)} input rows by {len(cols)} columns, {r.head_width} a head"
    return Drawn(fig, table, name)


DRAWINGS: dict[str, Draw] = {
    "drop_draw": drop_draw,
    "drop_running": drop_running,
    "heads_classes": heads_classes,
    "heads_trace": heads_trace,
    "heads_stripes": heads_stripes,
}
