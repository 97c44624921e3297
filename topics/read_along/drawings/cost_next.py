"""Drawings of the tour's closing steps (``steps/cost_next.py``): the cost page's memory chart and
cost table, and the What-comes-next page's shuffle heatmap, KV-cache chart and parameter split,
each drawn by that page's own figure code."""

from __future__ import annotations

import math

import pandas as pd

from topics.cost import figures as cost_figures
from topics.cost.view import View as CostView
from topics.next import figures as next_figures
from topics.next import view as next_view
from topics.read_along.drawings.drawn import (
    Draw,
    Drawn,
    covered_table,
    label_background,
    matrix_table,
    sized,
    without,
)
from topics.read_along.step import Figure
from ui import figures
from ui.figures import FOCUS

TABLE_FROM = 1 << 16  # the cost table's rows from 65,536 tokens: the current one stays in view on a phone
ZOOM = 8  # the doubling chart spans the base length ÷ 8 to the doubled length × 8
CHART_HEIGHT = 400  # the pages' charts are 440-480 px: a phone keeps the caption in view


def _binary(b: int) -> str:
    """A power of two in bytes as the cost page's axis writes it: ``4 MiB``."""
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << k:
            return f"{b >> k} {unit}"
    return f"{b} B"


def cost_doubling(f: Figure) -> Drawn:
    """The memory chart at the doubled length (its marker), with the base length marked too."""
    base: CostView = f.data.base
    doubled: CostView = f.data.doubled
    shown = base if f.hide else doubled  # before the reveal the line stops at the base length
    fig = cost_figures.memory_chart(shown, height=CHART_HEIGHT)
    line = fig.data[0]  # the score matrices' curve
    on = [i for i, n in enumerate(line.x) if not f.hide or n <= base.n]
    line.update(
        x=[line.x[i] for i in on], y=[line.y[i] for i in on], customdata=[line.customdata[i] for i in on]
    )
    keep = [i for i, n in enumerate(doubled.ladder) if not f.hide or n <= base.n]
    if not f.hide:
        fig.add_scatter(
            x=[base.n],
            y=[base.row.nbytes],
            mode="markers",
            name=f"n = {base.n:,}",
            marker=dict(color=FOCUS, size=10, symbol="diamond"),
            hovertemplate=f"n = {base.n:,}<br>{base.row.nbytes:,} bytes<extra></extra>",
        )
    # Zoomed to the two lengths (a factor 2 apart is 45 px here, not 10 on the page's 1 to 2M axis),
    # each marker labelled on its own side.
    lo, hi = base.n // ZOOM, doubled.n * ZOOM
    xs = [lo, base.n // 4, base.n, doubled.n, doubled.n * 4, hi]
    fig.update_xaxes(
        range=[math.log10(lo), math.log10(hi)],
        tickvals=xs,
        ticktext=[f"{x:,}" for x in xs],
    )
    fig.layout.xaxis.tickangle = None  # Plotly's own choice: on a phone "1,024" and "2,048" turn
    ys = [1 << k for k in range(10, 41, 2)]  # every 4×: KiB, MiB, GiB
    fig.update_yaxes(tickvals=ys, ticktext=[_binary(y) for y in ys])
    bottom, top = lo * lo * base.cfg.bytes_per_score, hi * hi * base.cfg.bytes_per_score
    fig.update_yaxes(range=[math.log10(bottom), math.log10(top)])
    # The legend names only what the zoom shows: a card's memory above it is no line on the plot.
    fig.data = [t for t in fig.data if any(bottom <= y <= top for y in t.y)]
    named: set[str] = set()
    for t in fig.data:  # one legend entry a group ("other cards"), on the first line left of it
        if t.legendgroup:
            t.showlegend = t.legendgroup not in named
            named.add(t.legendgroup)
    for m, side in ((base, -1), *(() if f.hide else ((doubled, 1),))):
        fig.add_annotation(
            x=math.log10(m.n), y=math.log10(m.row.nbytes), text=f"n = {m.n:,}", showarrow=True, arrowhead=0,
            ax=60 * side, ay=-30 * side, bgcolor=label_background(), font=dict(size=12),
        )  # fmt: skip
    marks = {base.n: "the base length", doubled.n: "doubled"}
    table = pd.DataFrame(
        {
            "bytes": [f"{doubled.ladder_bytes[i]:,}" for i in keep],
            "marked": [marks.get(doubled.ladder[i], "") for i in keep],
        },
        index=pd.Index([f"{doubled.ladder[i]:,}" for i in keep], name="n"),
    )
    if f.hide:
        return Drawn(fig, table, f"{f.name}, up to the length {base.n:,}, marked")
    return Drawn(fig, table, f"{f.name}, the lengths {base.n:,} and {doubled.n:,} marked")


def cost_table(f: Figure) -> Drawn:
    """The cost page's table, the rows and columns a phone holds without scrolling: the 1,024-token
    baseline and every length from :data:`TABLE_FROM` on, exact counts as text, as the page has them
    (the cards too: a column of integers with a "?" in it cannot travel as Arrow's int64)."""
    v: CostView = f.data
    rows = [r for r in v.table if r.n == v.table[0].n or r.n >= TABLE_FROM]
    table = pd.DataFrame(
        {
            "bytes": [f"{r.nbytes:,}" for r in rows],
            "cards to buy": [f"{r.cards_to_buy:,}" for r in rows],  # text, as "?" covers one
        },
        index=pd.Index([f"{r.n:,}" + (" (current)" if r.n == v.n else "") for r in rows], name="n"),
    )
    if f.hide:  # the current row's cards are the question, and a longer row's (2²⁰ is next door)
        return Drawn(None, covered_table(table, [(i, 1) for i, r in enumerate(rows) if r.n >= v.n]))
    return Drawn(None, table)


def next_shuffle(f: Figure) -> Drawn:
    """Without the mask, P·f(X) − f(P·X) on the reversed sentence, the focused token's row outlined."""
    v: next_view.View = f.data
    sh = v.shuffle
    row = None if sh.focus is None else sh.focus.row
    if f.hide:  # the outputs of the original order, moved with their tokens: P·f(X)
        out = sh.free.permuted_outputs
        dims = [f"dim {j + 1}" for j in range(out.shape[1])]
        title = "P·f(X): each token's output in the original order, at its new position"
        fig = figures.heatmap(
            out, sh.rows, dims, title=title, x_title="dimension", y_title="position", focus=row
        )
        table = matrix_table(out, sh.rows, dims, row_title="position", col_title="dimension")
        return Drawn(fig, table, sized(title, len(sh.rows), len(dims), "position", "dimension"))
    fig = next_figures.difference_heatmap(
        sh.free.difference, sh.rows, bound=sh.bound, title="Without the mask: P·f(X) − f(P·X)", focus=row
    )
    dims = [f"dim {j + 1}" for j in range(sh.free.difference.shape[1])]
    table = matrix_table(sh.free.difference, sh.rows, dims, row_title="position", col_title="dimension")
    return Drawn(fig, table, sized(f.name, len(sh.rows), len(dims), "position", "dimension"))


def next_kv(f: Figure) -> Drawn:
    """The KV-cache chart: bytes against tokens, the reader's sentence marked on the current line."""
    v: next_view.View = f.data
    kv = v.kv
    fig = next_figures.kv_curves(
        kv, title="KV cache against tokens cached", context_length=v.block.context_length, height=CHART_HEIGHT
    )
    asked = next(c.name for c in kv.curves if c.current)
    curves = [c for c in kv.curves if not (f.hide and c.current)]
    if f.hide:  # the asked model's line and the reader's marker are the answer
        without(fig, asked, "your setting")
    table = pd.DataFrame(
        {c.name: [f"{b:,}" for b in c.bytes] for c in curves},
        index=pd.Index([f"{n:,}" for n in kv.grid], name="tokens"),
    )
    table["blocks' weights"] = f"{kv.weight_bytes:,}"
    return Drawn(fig, table)


def next_block(f: Figure) -> Drawn:
    """One block's parameters by component, attention's four matrices outlined."""
    v: next_view.View = f.data
    parts = next_view.block.SUBLAYER  # which sublayer each component belongs to, as the page colours them
    counts = v.params.components()
    fig = next_figures.param_split(counts, parts, title=f.name)
    names = list(counts)
    at = [len(names) - 1 - names.index(n) for n in names if parts[n] == "attention"]  # rows bottom up
    fig.add_shape(
        type="rect",
        xref="paper",
        yref="y",
        x0=0,
        x1=1,
        y0=min(at) - 0.5,
        y1=max(at) + 0.5,
        line=dict(color=FOCUS, width=2),
    )
    table = pd.DataFrame(
        {"sublayer": [parts[n] for n in names], "parameters": [f"{c:,}" for c in counts.values()]},
        index=pd.Index(names, name="component"),
    )
    return Drawn(fig, table, f"{f.name}: {len(names)} components as bars, parameters each")


DRAWINGS: dict[str, Draw] = {
    "cost_doubling": cost_doubling,
    "cost_table": cost_table,
    "next_shuffle": next_shuffle,
    "next_kv": next_kv,
    "next_block": next_block,
}
