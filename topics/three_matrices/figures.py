"""The heatmaps of "Three matrices": Ω, Ω − Ωᵀ and A, each with the focused query's row and the
chosen cell picked out, and every cell a click away from the cell panel."""

from __future__ import annotations

import plotly.graph_objects as go

from topics.three_matrices.view import View
from ui import figures


def heatmaps(v: View) -> dict[str, go.Figure]:
    """Figure 01's three heatmaps, by the widget key the page draws each under."""
    t, f, c = v.labels, v.focus_row, v.cell_key
    return {
        "fig01_scores": figures.heatmap(v.trace.scores, t, t, title="Scores Ω", focus=f, cell=c),
        "fig01_asym": figures.heatmap(v.asymmetry, t, t, title="Ω − Ωᵀ", diverging=True, focus=f, cell=c),
        "fig01_weights": figures.heatmap(
            v.trace.weights, t, t, title="Weights A = softmax(Ω/√d_k)", focus=f, cell=c
        ),
    }
