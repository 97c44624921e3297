"""The heatmaps of "Three matrices": Ω, Ω − Ωᵀ and A, each with the focused query's row and the
chosen cell picked out, and every cell a click away from the cell panel."""

from __future__ import annotations

from topics.three_matrices.view import View
from ui import figures
from ui.figures import Chart, Relative


def heatmaps(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The three heatmaps (scores, their asymmetry, weights), by the widget key the page draws each
    under, each with its name and its values as a table. ``relative`` colours the weights only."""
    t, f, c, n = v.labels, v.focus_row, v.cell_key, len(v.labels)
    size = f"{n} queries by {n} keys"
    ops = (
        ("fig01_scores", v.trace.scores, "Scores Ω", f"Scores Ω = QKᵀ, {size}", False),
        ("fig01_asym", v.asymmetry, "Ω − Ωᵀ", f"Asymmetry of the scores Ω − Ωᵀ, {size}", True),
        (
            "fig01_weights",
            v.trace.weights,
            "Weights A = softmax(Ω/√d_k)",
            f"Attention weights A, {size}",
            False,
        ),
    )
    return {
        key: Chart(
            figures.heatmap(
                m, t, t, title=title, diverging=signed, focus=f, cell=c,
                relative=relative if key == "fig01_weights" else None,
            ),
            name,
            figures.matrix_frame(m, t, t),
        )
        for key, m, title, name, signed in ops
    }  # fmt: skip
