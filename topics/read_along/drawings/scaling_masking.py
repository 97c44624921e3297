"""Drawings of the √d_k and masking steps (``steps/scaling_masking.py``): each is the topic page's
own figure (``topics/scaling/figures.py``, ``topics/masking/figures.py``), with the one element the
step talks about outlined."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.masking import figures as masking_figures
from topics.read_along.drawings.drawn import (
    Draw,
    Drawn,
    covered,
    covered_table,
    label_background,
    matrix_table,
    outline,
    printed,
    scale_note,
    scaled_name,
    sized,
    text_table,
    weights_scale,
    without,
)
from topics.read_along.step import Figure
from topics.read_along.steps.scaling_masking import Marked, Widths, median_text, spread_text
from topics.scaling import figures as scaling_figures
from topics.scaling.view import View as ScalingView
from ui import figures
from ui import format as fmt

LABEL_ROOM = 0.1  # a bar's outline reaches over its value label, so a bar of 0.03 is still seen


def _outline_bar(fig: go.Figure, x: float, top: float) -> None:
    """The bar at ``x`` outlined up to ``top``, in the focus colour outside and the background's
    inside, as the heatmaps' cells (:func:`drawn.outline`)."""
    for colour, width in outline():
        rect = dict(type="rect", xref="x", yref="y", x0=x - 0.5, x1=x + 0.5, y0=0, y1=top, layer="above")
        fig.add_shape(**rect, line=dict(color=colour, width=width))


def _circle(fig: go.Figure, x: float, y: float, label: str) -> go.Figure:
    """A point of a log-log chart circled twice (the focus colour outside, the background's inside,
    as the heatmaps' outlines), with ``label`` beside it on the background; the legend leaves it out."""
    (outer, _), (inner, _) = outline()
    for colour, size, width in ((outer, 22, 3), (inner, 17, 1.5)):
        fig.add_trace(
            go.Scatter(
                x=[x],
                y=[y],
                mode="markers",
                marker=dict(symbol="circle-open", size=size, color=colour, line=dict(width=width)),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    fig.add_annotation(
        x=float(np.log10(x)),
        y=float(np.log10(y)),
        text=label,
        showarrow=True,
        arrowhead=0,
        ax=-40 if x > 100 else 40,
        ay=-36,
        bgcolor=label_background(),
        font=dict(size=12),
    )
    return fig


def scaling_spread(f: Figure) -> Drawn:
    """The spread of q·k against d_k; before the reveal, the three widths in play as a table (the
    chart's axis would name the answer)."""
    w: Widths = f.data
    if f.hide:
        table = pd.DataFrame(
            {
                "what it is": [what for _, _, what in w.widths],
                "on your sentence": [n for _, n, _ in w.widths],
            },
            index=pd.Index([name for name, _, _ in w.widths], name="width"),
        )
        return Drawn(None, table.astype(str), "The three sizes in play")
    v: ScalingView = w.view
    c, here = v.curves, v.here
    assert here is not None
    fig = scaling_figures.std_figure(
        c.d_k, c.sqrt_d_k, c.std, c.std_se, c.std_scaled, selected=v.settings.d_k
    )
    _circle(fig, v.settings.d_k, here.std, f"{spread_text(v)} at d_k = {v.settings.d_k:,}")
    table = pd.DataFrame(
        {"√d_k": c.sqrt_d_k, "std of q·k": c.std, "± one se": c.std_se, "std of q·k/√d_k": c.std_scaled},
        index=pd.Index(c.d_k, name="d_k"),
    )
    return Drawn(fig, printed(table))


def scaling_bars(f: Figure) -> Drawn:
    """The page's weight bars, the largest outlined; the table has each weight as its bar prints it
    (the figure's own text: a weight of 10⁻²⁷ reads so, never 0) and its log10."""
    v: ScalingView = f.data
    fig = scaling_figures.weight_bars(v)
    printed_weights = [str(t) for t in fig.data[0].hovertext]
    j = int(np.argmax(v.log10_weights))
    top, height = j + 1, 10 ** v.log10_weights[j]  # the bars stand at 1..n
    _outline_bar(fig, top, height)
    n = len(v.scores)
    table = pd.DataFrame(
        {"score": v.scores, "weight α": printed_weights, "log10 weight": v.log10_weights},
        index=pd.Index([f"k{j}" for j in range(1, n + 1)], name="key"),
    )
    return Drawn(fig, printed(table), f"{f.name}: the weights of {fmt.count(n, 'key')} as bars")


def scaling_jacobian(f: Figure) -> Drawn:
    v: ScalingView = f.data
    c, here, s = v.curves, v.here, v.settings
    assert here is not None
    fig = scaling_figures.jacobian_figure(
        c.d_k, c.median, c.mean, selected=s.d_k, divisor=s.divisor, threshold=v.threshold, tail=s.tail
    )
    ticks = scaling_figures.DK_TICKS_NARROW  # the page's half-width ticks: level at 390 px too
    fig.update_xaxes(tickvals=list(ticks), ticktext=[f"{t:,}" for t in ticks])
    columns = {
        "median, no divisor": c.median[False],
        "mean, no divisor": c.mean[False],
        "median, ÷√d_k": c.median[True],
        "mean, ÷√d_k": c.mean[True],
    }
    if f.hide:  # the curves with the divisor only: without it is the question
        without(fig, "median, no divisor", "mean, no divisor")  # and their label where they leave the chart
        fig.layout.annotations = [a for a in fig.layout.annotations if a.font.color != scaling_figures.RAW]
        columns = {k: x for k, x in columns.items() if "no divisor" not in k}
    else:
        summary = here.summary(s.divisor)
        _circle(fig, s.d_k, summary.median, f"median {median_text(v)}")
    table = pd.DataFrame(columns, index=pd.Index(c.d_k, name="d_k"))
    return Drawn(fig, printed(table))


def masking_stage(f: Figure) -> Drawn:
    """A stage of the efficient path, tabled as the page prints it (4 decimals, "−∞" for the fill).
    A stage of weights (finite, none negative) past ``TEXT_MAX`` tokens is coloured row by row
    (:func:`drawn.weights_scale`): the page's own call with that one argument more; scores never."""
    d: Marked = f.data
    v, T, n = d.view, d.view.labels, len(d.view.labels)
    m = v.efficient.matrix
    if f.hide and not (m >= 0).all():  # scores with −∞: before the reveal, the scores unmasked
        m = v.runs.causal[0].matrix
        title = "Scores Ω, before any cell is filled"
        fig = masking_figures.stage_heatmap(m, T, focus=d.row, cell=d.col)
        fig.update_layout(title=dict(text=title, x=0, xanchor="left", font=dict(size=15)), margin_t=40)
        return Drawn(fig, matrix_table(m, T, T), sized(title, n, n))
    if f.hide:  # weights: the future of every row covered (any row's would answer)
        cells = [(i, j) for i in range(n) for j in range(i + 1, n)]
        shown, text = covered(m, cells)
        fig = figures.heatmap(shown, T, T, text=text, focus=d.row, cell=d.col)
        fig.update_layout(title=dict(text=f.name, x=0, xanchor="left", font=dict(size=15)), margin_t=40)
        return Drawn(fig, covered_table(matrix_table(m, T, T), cells), sized(f.name, n, n))
    weights = bool(np.isfinite(m).all() and (m >= 0).all())
    relative = weights_scale(n) if weights else None
    if relative is None:
        fig = masking_figures.stage_heatmap(m, T, focus=d.row, cell=d.col)
    else:  # as stage_heatmap draws it, on the relative scale
        fig = figures.heatmap(m, T, T, focus=d.row, cell=d.col, relative=relative)
    fig.update_layout(title=dict(text=f.name, x=0, xanchor="left", font=dict(size=15)), margin_t=40)
    return Drawn(
        fig, matrix_table(m, T, T), scaled_name(sized(f.name, n, n), relative), scale_note(n, relative)
    )


def masking_softmax(f: Figure) -> Drawn:
    """The page's counterexample row and its softmax, one bar outlined."""
    d: Marked = f.data
    v = d.view
    w = v.softmax.weights
    assert w is not None
    fig = masking_figures.softmax_bars(v.logits, w)
    _outline_bar(fig, d.col, float(w[d.col]) + LABEL_ROOM)
    labels = [f"x{i + 1}" for i in range(len(w))]
    table = pd.DataFrame({"logit": v.logits, "softmax": w}, index=pd.Index(labels, name="entry"))
    return Drawn(fig, table)


def masking_difference(f: Figure) -> Drawn:
    """The page's difference grid; the table holds the cells as the page prints them (a bound as ≈0)."""
    d: Marked = f.data
    v, T = d.view, d.view.labels
    if f.hide:  # one way's weights; the other's, and their difference, are the question
        m = v.runs.causal[-1].matrix
        title = "The −∞ way's weights (the other way's not drawn yet)"
        fig = figures.heatmap(m, T, T, title=title, focus=d.row, cell=d.col)
        return Drawn(fig, matrix_table(m, T, T), sized(title, len(T), len(T)))
    title = v.grid_title.replace("after step 4", "after each way's last stage")
    fig = masking_figures.difference_grid(
        v.difference, v.cells, T, v.limit, title=title, focus=d.row, cell=d.col
    )
    return Drawn(fig, text_table(v.cells, T, T), sized(f.name, len(T), len(T)))


DRAWINGS: dict[str, Draw] = {
    "scaling_spread": scaling_spread,
    "scaling_bars": scaling_bars,
    "scaling_jacobian": scaling_jacobian,
    "masking_stage": masking_stage,
    "masking_softmax": masking_softmax,
    "masking_difference": masking_difference,
}
