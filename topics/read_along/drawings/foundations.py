"""Drawings of the foundations' steps (``steps/foundations.py``): the Recap's, Three matrices' and
Learning to attend's own figures, at the step's settings, each with its values as a table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from topics.learning import figures as learning_figures
from topics.learning.view import View as LearningView
from topics.read_along.drawings.drawn import (
    Draw,
    Drawn,
    covered,
    covered_table,
    matrix_table,
    mirrored,
    printed,
    scale_note,
    scaled_name,
    sized,
    weights_scale,
)
from topics.read_along.step import Figure
from topics.recap.view import View as RecapView
from topics.three_matrices.view import View as ThreeView
from ui import figures
from ui import format as fmt
from ui.weights import MODE_LABELS

PAIRS_HEIGHT = 420  # the three pairs of dimensions, within a phone's first screen

# Three views of 3-d points, as a scatterplot matrix's lower triangle: dims 1-2 above, dims 1-3 and
# 2-3 below, the panels in one column sharing their x axis, in one row their y axis; the legend sits
# in the empty quarter. (x axis, y axis, x dim, y dim, the axes an inner x and y axis match: None
# for an outer one, which carries the tick labels and the title)
_PANELS = (
    ("x", "y", 0, 1, "x2", None),
    ("x2", "y2", 0, 2, None, None),
    ("x3", "y3", 1, 2, None, "y2"),
)
_LEFT, _RIGHT, _LOW, _HIGH = [0.0, 0.46], [0.54, 1.0], [0.0, 0.46], [0.54, 1.0]
_DOMAINS = ((_LEFT, _HIGH), (_LEFT, _LOW), (_RIGHT, _LOW))


def _flat(name: str, p: np.ndarray, **style: object) -> list[dict[str, object]]:
    """One set of points in each of the three panels, named once in the legend."""
    return [
        {
            "type": "scatter",
            "x": p[:, dx].tolist(),
            "y": p[:, dy].tolist(),
            "xaxis": x,
            "yaxis": y,
            "name": name,
            "legendgroup": name,
            "showlegend": i == 0,
            "hovertemplate": f"%{{text}}<br>dim {dx + 1} %{{x:.4f}}, dim {dy + 1} %{{y:.4f}}"
            f"<extra>{name}</extra>",
            **style,
        }
        for i, (x, y, dx, dy, _, _) in enumerate(_PANELS)
    ]


def _axis(domain: list[float], anchor: str, dim: int, matches: str | None) -> dict[str, object]:
    """One panel's axis: an outer one titled with its dimension, an inner one matched and bare."""
    axis = {"nticks": 6, "tickfont": {"size": 10}, "zeroline": False, "domain": domain, "anchor": anchor}
    if matches is not None:
        return {**axis, "matches": matches, "showticklabels": False}
    return {**axis, "title": {"text": f"dim {dim + 1}", "standoff": 8}}


def _axes() -> dict[str, object]:
    """The panels' axes: tick labels and a title on the outer edges only, the rest matched."""
    axes: dict[str, object] = {}
    for (x, y, dx, dy, x_matches, y_matches), (xd, yd) in zip(_PANELS, _DOMAINS, strict=True):
        axes["xaxis" + x[1:]] = _axis(xd, y, dx, x_matches)
        axes["yaxis" + y[1:]] = _axis(yd, x, dy, y_matches)
    return axes


def pairs(
    sets: list[tuple[str, np.ndarray]], labels: tuple[str, ...], title: str, focus: int | None
) -> figures.go.Figure:
    """Sets of points (inputs, then outputs) in their first three dimensions, seen two at a time.

    The tour draws these flat, where the Recap page turns them in 3-D: a 3-D scene costs a browser
    without a graphics card 0.5 s to build (WebGL in software), and the tour builds it anew on
    every visit to the step; three flat views show every distance a pair of dimensions holds,
    on a phone too. The ``focus`` token's input and output are enlarged and joined by a dashed
    line."""
    symbols = ("circle", "diamond")
    text = [figures.plain(t) for t in labels]
    data: list[dict[str, object]] = []
    for k, ((name, pts), color) in enumerate(zip(sets, figures.PALETTE, strict=False)):
        dot: dict[str, object] = {"size": 8 if k == 0 else 7, "color": color, "symbol": symbols[k % 2]}
        data += _flat(name, np.asarray(pts, dtype=np.float64), mode="markers", text=text, marker=dot)
    if focus is not None and 0 <= focus < len(labels) and len(sets) > 1:
        pts = np.array([np.asarray(p, dtype=np.float64)[focus] for _, p in sets])
        marker: dict[str, object] = {
            "size": 11,
            "color": list(figures.PALETTE[: len(sets)]),
            "symbol": list(symbols[: len(sets)]),
            "line": {"color": figures.FOCUS, "width": 2},
        }
        line = {"color": figures.FOCUS, "width": 2, "dash": "dash"}
        who = figures.plain(labels[focus])
        data += _flat(
            f"{who}, followed",
            pts,
            mode="lines+markers",
            text=[who, f"z for {who}"],
            marker=marker,
            line=line,
        )
    legend = {"x": _RIGHT[0] + 0.02, "y": 1, "xanchor": "left", "yanchor": "top"}
    return figures.figure(data, figures.layout(title, PAIRS_HEIGHT, legend=legend, **_axes()))


def recap_weights(f: Figure) -> Drawn:
    """A = softmax(XXᵀ); before the reveal the scores Ω = XXᵀ it is made from, A not yet drawn."""
    v: RecapView = f.data
    T, n = v.labels, len(v.labels)
    if f.hide:
        om = v.collapse.scores
        title = "Scores Ω = XXᵀ (A not drawn yet)"
        fig = figures.heatmap(om, T, T, title=title, focus=v.query, cell=v.key)
        return Drawn(fig, matrix_table(om, T, T), sized(title, n, n))
    relative = weights_scale(n)
    fig = figures.heatmap(
        v.collapse.weights, T, T, title=f.name, focus=v.query, cell=v.key, relative=relative
    )
    name = scaled_name(sized(f.name, n, n), relative)
    return Drawn(fig, matrix_table(v.collapse.weights, T, T), name, scale_note(n, relative))


def recap_huddle(f: Figure) -> Drawn:
    """The Recap's inputs and outputs, flat, two dimensions at a time (:func:`pairs`), the followed
    token's pair joined."""
    v: RecapView = f.data
    T, c = v.labels, v.collapse
    groups = [("inputs X", v.inputs)] + ([] if f.hide else [("outputs Z = AX", c.context)])
    title = "Inputs X (the outputs Z = AX not drawn yet)" if f.hide else f.name
    fig = pairs(groups, T, title, v.query)
    dims = range(1, min(3, v.width) + 1)
    outputs = {} if f.hide else {
        **{f"z{d}": c.context[:, d - 1] for d in dims},
        "nearest input to z": list(c.nearest),
    }  # fmt: skip
    table = pd.DataFrame(
        {**{f"x{d}": v.inputs[:, d - 1] for d in dims}, **outputs},
        index=pd.Index(list(T), name="token"),
    )
    return Drawn(
        fig,
        printed(table),
        f"{f.name}, {fmt.count(len(T), 'token')} each, in their first {fmt.count(len(dims), 'dimension')}",
    )


def _dims(prefix: str, width: int) -> list[str]:
    return [f"{prefix}{d}" for d in range(1, width + 1)]


def tm_queries(f: Figure) -> Drawn:
    """Q, a row per token, the followed token's row outlined."""
    v: ThreeView = f.data
    q, T = v.trace.queries, v.labels
    if f.hide:  # the matrix each embedding goes through: Q's shape is the question
        w = v.weight_set.w_query
        rows, cols = _dims("in", w.shape[0]), _dims("out", w.shape[1])
        title = "W_q, the query matrix (Q = XW_q not drawn yet)"
        fig = figures.heatmap(
            w, rows, cols, title=title, x_title="output dimension", y_title="input dimension"
        )
        table = matrix_table(w, rows, cols, row_title="input", col_title="output")
        return Drawn(fig, table, sized(title, len(rows), len(cols), "row", "column"))
    cols = _dims("q", q.shape[1])
    fig = figures.heatmap(q, T, cols, title=f.name, x_title="dimension", y_title="token", focus=v.focus_row)
    table = matrix_table(q, T, cols, row_title="token", col_title="dimension")
    return Drawn(fig, table, sized(f.name, len(T), len(cols), "token", "dimension"))


def tm_asymmetry(f: Figure) -> Drawn:
    """Three matrices' Ω − Ωᵀ heatmap, drawn as its page draws it (``topics.three_matrices.figures``;
    one heatmap of its three, since a 32 × 32 heatmap takes tens of milliseconds to build)."""
    v: ThreeView = f.data
    t = v.labels
    if f.hide:  # the scores Ω, the asked pair's two cells covered, and their repeated words' mirrors
        j, k = v.focus_row or 0, v.cell_key or 0
        pair = mirrored([(j, k), (k, j)], np.hstack((v.trace.queries, v.trace.keys)))
        om, text = covered(v.trace.scores, pair)
        title = "Scores Ω = QKᵀ (the asked pair covered)"
        fig = figures.heatmap(om, t, t, title=title, text=text, focus=v.focus_row, cell=v.cell_key)
        table = covered_table(matrix_table(v.trace.scores, t, t), pair)
        return Drawn(fig, table, sized(title, len(t), len(t)))
    fig = figures.heatmap(
        v.asymmetry, t, t, title="Ω − Ωᵀ", diverging=True, focus=v.focus_row, cell=v.cell_key
    )
    return Drawn(fig, matrix_table(v.asymmetry, t, t), sized(f.name, len(t), len(t)))


def tm_context(f: Figure) -> Drawn:
    """Three matrices' weights heatmap; the table works the followed row's z = Σ_j a_j v_j out, its
    last row the sums (the weights' 1, and z in both the values' and the products' columns), each
    number to 4 decimals as the page prints them. Past ``TEXT_MAX`` tokens each row is coloured
    from 0 to its largest weight (:func:`drawn.weights_scale`)."""
    v: ThreeView = f.data
    assert v.focus is not None
    a, values = v.focus.weights, v.trace.values
    parts = a[:, None] * values  # [n, d_v] each token's share of z
    cols = _dims("v", values.shape[1])
    numbers = np.vstack([np.column_stack([a, values, parts]), [a.sum(), *v.focus.context, *v.focus.context]])
    table = pd.DataFrame(
        [[figures.cell_text(x) for x in row] for row in numbers],
        index=pd.Index([*figures.distinct(list(v.labels)), "z = sum"], name="key token"),
        columns=["weight a", *cols, *(f"a·{c}" for c in cols)],
    )
    t, n = v.labels, len(v.labels)
    relative = weights_scale(n)
    fig = figures.heatmap(  # as topics.three_matrices.figures draws it
        v.trace.weights,
        t,
        t,
        title="Weights A = softmax of the scaled scores",
        focus=v.focus_row,
        cell=v.cell_key,
        relative=relative,
    )
    who = t[v.focus.row]
    return Drawn(
        fig,
        table,
        scaled_name(sized(f.name, n, n), relative),
        scale_note(n, relative),
        table_name=f"z for {who} worked out: each key's weight a times its value v, summed",
    )


def learn_loss(f: Figure) -> Drawn:
    """Learning to attend's loss curves, every mode, the step read marked."""
    v: LearningView = f.data
    fig = learning_figures.loss_curves(v.runs, MODE_LABELS, step=v.step, entropy_floor=v.floor)
    table = pd.DataFrame(
        {
            "loss at step 0": [r.first_loss for r in v.table],
            f"loss at step {v.step}": [r.last_loss for r in v.table],
            "rows right": [r.rows for r in v.table],
        },
        index=pd.Index([MODE_LABELS[r.mode] for r in v.table], name="mode"),
    )
    return Drawn(fig, printed(table))


def learn_attention(f: Figure) -> Drawn:
    """Learning to attend's attention heatmap at the step shown, the focused row and cell outlined."""
    v: LearningView = f.data
    t, n = v.settings.labels, len(v.settings.labels)
    relative = weights_scale(n)
    if f.hide:  # the contested rows, tokens 1 and 2, covered: how many rows are right is asked
        rows = sorted({0, min(1, n - 1)})  # with a repeated word's rows: they hold the same weights
        cells = mirrored([(i, j) for i in rows for j in range(n)], v.settings.embeddings)
        m, text = covered(v.attention, cells)
        fig = figures.heatmap(m, t, t, title="Attention A (rows 1 and 2 covered)", text=text, zmin=0, zmax=1)
        table = covered_table(matrix_table(v.attention, t, t), cells)
        return Drawn(fig, table, sized(f.name, n, n))
    fig = figures.heatmap(  # as topics.learning.figures draws it, the one heatmap of its four
        v.attention,
        t,
        t,
        title="Attention A",
        zmin=0,
        zmax=1,
        focus=v.settings.focus,
        cell=v.cell_key,
        relative=relative,
    )
    name = scaled_name(sized(f.name, n, n), relative)
    return Drawn(fig, matrix_table(v.attention, t, t), name, scale_note(n, relative))


DRAWINGS: dict[str, Draw] = {
    "recap_weights": recap_weights,
    "recap_huddle": recap_huddle,
    "tm_queries": tm_queries,
    "tm_asymmetry": tm_asymmetry,
    "tm_context": tm_context,
    "learn_loss": learn_loss,
    "learn_attention": learn_attention,
}
