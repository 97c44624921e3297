"""Drawings of the √d_k and masking steps (``steps/scaling_masking.py``): each is the topic page's
own figure (``topics/scaling/figures.py``, ``topics/masking/figures.py``), with the one element the
step talks about outlined."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from topics.masking import figures as masking_figures
from topics.read_along.drawings.drawn import Draw, Drawn, matrix_table
from topics.read_along.step import Figure
from topics.read_along.steps.scaling_masking import Marked, median_text, spread_text
from topics.scaling import figures as scaling_figures
from topics.scaling.view import View as ScalingView
from ui import format as fmt
from ui.figures import FOCUS

LABEL_ROOM = 0.1  # a bar's outline reaches over its value label, so a bar of 0.03 is still seen


def _outline_bar(fig: go.Figure, x: float, top: float) -> None:
    """The bar at ``x`` outlined up to ``top``, dark outside and white inside as the heatmaps' cells."""
    for colour, width in ((FOCUS, 4.0), ("#ffffff", 1.0)):
        rect = dict(type="rect", xref="x", yref="y", x0=x - 0.5, x1=x + 0.5, y0=0, y1=top, layer="above")
        fig.add_shape(**rect, line=dict(color=colour, width=width))


def _circle(fig: go.Figure, x: float, y: float, label: str) -> go.Figure:
    """A point of a log-log chart circled twice (dark outside, white inside, as the heatmaps'
    outlines), with ``label`` beside it; the legend leaves it out."""
    for colour, size, width in ((FOCUS, 22, 3), ("#ffffff", 17, 1.5)):
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
        bgcolor="rgba(255,255,255,0.85)",
        font=dict(size=12),
    )
    return fig


def scaling_spread(f: Figure) -> Drawn:
    v: ScalingView = f.data
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
    return Drawn(fig, table)


def scaling_bars(f: Figure) -> Drawn:
    v: ScalingView = f.data
    fig = scaling_figures.weight_bars(v)
    j = int(np.argmax(v.log10_weights))
    top, height = j + 1, 10 ** v.log10_weights[j]  # the bars stand at 1..n
    _outline_bar(fig, top, height)
    n = len(v.scores)
    table = pd.DataFrame(
        {"score": v.scores, "log10 weight": v.log10_weights},
        index=pd.Index([f"k{j}" for j in range(1, n + 1)], name="key"),
    )
    return Drawn(fig, table)


def scaling_jacobian(f: Figure) -> Drawn:
    v: ScalingView = f.data
    c, here, s = v.curves, v.here, v.settings
    assert here is not None
    fig = scaling_figures.jacobian_figure(
        c.d_k, c.median, c.mean, selected=s.d_k, divisor=s.divisor, threshold=v.threshold, tail=s.tail
    )
    ticks = scaling_figures.DK_TICKS_NARROW  # the page's half-width ticks: level at 390 px too
    fig.update_xaxes(tickvals=list(ticks), ticktext=[f"{t:,}" for t in ticks])
    summary = here.summary(s.divisor)
    _circle(fig, s.d_k, summary.median, f"median {median_text(v)}")
    table = pd.DataFrame(
        {
            "median, no divisor": c.median[False],
            "mean, no divisor": c.mean[False],
            "median, ÷√d_k": c.median[True],
            "mean, ÷√d_k": c.mean[True],
        },
        index=pd.Index(c.d_k, name="d_k"),
    )
    return Drawn(fig, table)


def _cells(m: np.ndarray) -> list[list[str]]:
    """Cells as the page prints them: 4 decimals, and −∞ for the fill."""
    return [["−∞" if np.isneginf(x) else fmt.num(x) for x in row] for row in m]


def masking_stage(f: Figure) -> Drawn:
    """A stage of the efficient path; a stage with −∞ is tabled as the page prints it ("−∞")."""
    d: Marked = f.data
    v, T = d.view, d.view.labels
    m = v.efficient.matrix
    fig = masking_figures.stage_heatmap(m, T, focus=d.row, cell=d.col)
    fig.update_layout(title=dict(text=f.name, x=0, xanchor="left", font=dict(size=15)), margin_t=40)
    table = matrix_table(m, T, T) if np.isfinite(m).all() else matrix_table(np.array(_cells(m)), T, T)
    return Drawn(fig, table)


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
    fig = masking_figures.difference_grid(
        v.difference, v.cells, T, v.limit, title=v.grid_title, focus=d.row, cell=d.col
    )
    return Drawn(fig, matrix_table(np.array(v.cells, dtype=object), T, T))


DRAWINGS: dict[str, Draw] = {
    "scaling_spread": scaling_spread,
    "scaling_bars": scaling_bars,
    "scaling_jacobian": scaling_jacobian,
    "masking_stage": masking_stage,
    "masking_softmax": masking_softmax,
    "masking_difference": masking_difference,
}
