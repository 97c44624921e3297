"""Figure builders for the multi-head page: W_q's stripes, one heatmap per head, the speed-up.

The stripes figure draws each head's columns in its own hue (the post's picture: every head's
weights sit side by side in adjacent column groups). Matrices wider than ``max_cells`` are
thinned to every k-th row and column within each head, so the bands stay exact however large
the matrix.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.mha_speed import Timing
from ui import figures

HEAD_HUES = (*figures.PALETTE, "#b7791f", "#d53f8c")
MAX_CELLS = 96  # per axis; beyond it a matrix is shown block by block


def _blocks(size: int, parts: int) -> list[slice]:
    """``size`` indices cut into at most ``parts`` nearly equal consecutive slices."""
    parts = max(1, min(size, parts))
    edges = np.linspace(0, size, parts + 1).round().astype(int)
    return [slice(a, b) for a, b in itertools.pairwise(edges) if b > a]


def sample(m: np.ndarray, row_blocks: list[slice], col_blocks: list[slice]) -> np.ndarray:
    """The first entry of each (row block, column block): a big matrix thinned for the screen.

    Thinning, not averaging: the mean of a block of random weights is near zero everywhere and
    its maximum near the bound everywhere, and either would draw flat bands with no texture.
    """
    m = np.asarray(m, dtype=np.float64)
    return m[np.ix_([r.start for r in row_blocks], [c.start for c in col_blocks])]


def _span(s: slice) -> str:
    return f"{s.start + 1}" if s.stop - s.start == 1 else f"{s.start + 1}–{s.stop}"


def striped_matrix(
    m: np.ndarray,
    head_width: int,
    *,
    row_labels: Sequence[str] | None = None,
    title: str | None = None,
    max_cells: int = MAX_CELLS,
    height: int = 320,
) -> go.Figure:
    """A matrix whose consecutive groups of ``head_width`` columns belong to head 1, 2, ...

    Colour intensity is |value| in the head's hue; hover shows the signed value. A matrix larger
    than ``max_cells`` a side is thinned to every k-th row and column within each head, so the
    head boundaries stay exact. Vertical lines mark them.
    """
    m = np.asarray(m, dtype=np.float64)
    rows, cols = m.shape
    head_width = max(1, min(head_width, cols))
    heads = max(1, cols // head_width)
    row_blocks = _blocks(rows, max_cells)
    col_parts = max(1, max_cells // heads)
    thinned = len(row_blocks) < rows or col_parts < head_width
    if row_labels is not None and len(row_blocks) == rows:
        ys = list(row_labels)
    else:
        ys = [_span(r) for r in row_blocks]
    vmax = float(np.abs(m).max()) or 1.0
    fig = go.Figure()
    x0 = 0
    for h in range(heads):
        col_blocks = [
            slice(h * head_width + s.start, h * head_width + s.stop) for s in _blocks(head_width, col_parts)
        ]
        shown = sample(m, row_blocks, col_blocks)  # [rows', cols'], every entry when not thinned
        z = np.abs(shown)
        hue = HEAD_HUES[h % len(HEAD_HUES)]
        fig.add_trace(
            go.Heatmap(
                z=z,
                x=[x0 + i + 0.5 for i in range(z.shape[1])],
                y=ys,
                customdata=[[_span(c) for c in col_blocks] for _ in ys],
                text=[[f"{v:.4f}" for v in row] for row in shown],
                texttemplate="%{text}" if rows * cols <= 60 else None,
                colorscale=[[0.0, "#ffffff"], [1.0, hue]],
                zmin=0.0,
                zmax=vmax,
                showscale=False,
                xgap=0 if thinned else 1,
                ygap=0 if thinned else 1,
                name=f"head {h + 1}",
                hovertemplate=f"head {h + 1}<br>row %{{y}}, column %{{customdata}}<br>"
                + "%{text}"
                + "<extra></extra>",
            )
        )
        if h:
            fig.add_vline(x=x0, line=dict(color="#2d3748", width=1.5))
        if heads > 1:
            fig.add_annotation(
                x=x0 + z.shape[1] / 2,
                y=1.0,
                yref="paper",
                yanchor="bottom",
                text=f"h{h + 1}",
                showarrow=False,
                font=dict(color=hue, size=12),
            )
        x0 += z.shape[1]
    fig.update_xaxes(showticklabels=False, range=[0, x0], showgrid=False, zeroline=False)
    fig.update_yaxes(autorange="reversed", type="category", showgrid=False)
    fig = figures._layout(fig, title, height)
    fig.update_layout(margin=dict(t=60 if title else 30))
    return fig


def head_grid(
    weights: np.ndarray, labels: Sequence[str], *, per_row: int = 4, title: str | None = None
) -> go.Figure:
    """One attention heatmap per head, ``weights`` [H, n, n], sharing the 0-1 colour scale."""
    w = np.asarray(weights, dtype=np.float64)
    h = w.shape[0]
    cols = min(h, per_row)
    rows = math.ceil(h / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[f"head {i + 1}" for i in range(h)],
        horizontal_spacing=0.06,
        vertical_spacing=95 / (80 + 260 * rows),
    )
    show_text = h <= 4
    for i in range(h):
        text = [[figures._cell(v, 2) for v in row] for row in w[i]]
        fig.add_trace(
            go.Heatmap(
                z=w[i],
                x=list(labels),
                y=list(labels),
                zmin=0.0,
                zmax=1.0,
                colorscale=figures.SEQUENTIAL,
                showscale=False,
                xgap=1,
                ygap=1,
                text=text,
                texttemplate="%{text}" if show_text else None,
                hovertemplate=f"head {i + 1}<br>%{{y}} → %{{x}}: %{{z:.4f}}<extra></extra>",
            ),
            row=i // cols + 1,
            col=i % cols + 1,
        )
    fig.update_yaxes(autorange="reversed", tickfont=dict(size=10))
    fig.update_xaxes(tickfont=dict(size=9), tickangle=-45)
    fig = figures._layout(fig, title, 80 + 260 * rows)
    fig.update_layout(margin=dict(t=80 if title else 30))
    return fig


def speedup_plot(timings: Sequence[Timing], *, title: str | None = None, height: int = 360) -> go.Figure:
    """Speed-up of the split class (wrapper time / split time) against heads, one line per n."""
    fig = go.Figure()
    done = [t for t in timings if t.speedup is not None]
    for i, (n, b) in enumerate(sorted({(t.case.n, t.case.batch) for t in done})):
        pts = sorted((t for t in done if (t.case.n, t.case.batch) == (n, b)), key=lambda t: t.case.heads)
        fig.add_trace(
            go.Scatter(
                x=[t.case.heads for t in pts],
                y=[t.speedup for t in pts],
                mode="lines+markers",
                name=f"n = {n:,}" + (f", batch {b}" if b > 1 else ""),
                line=dict(color=figures.PALETTE[i % len(figures.PALETTE)]),
                hovertemplate="H = %{x}: %{y:.2f}×<extra>" + f"n = {n:,}" + "</extra>",
            )
        )
    fig.add_hline(y=1.0, line=dict(color=figures.MUTED, dash="dash"), annotation_text="same speed")
    fig.update_xaxes(title="heads H", type="log", tickvals=sorted({t.case.heads for t in done}) or None)
    fig.update_yaxes(title="speed-up of the split class (×)", type="log")
    fig.update_layout(legend=dict(orientation="h", y=1.12, x=0))
    return figures._layout(fig, title, height)
