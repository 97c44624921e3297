"""The heatmaps of "Three matrices": Ω, Ω − Ωᵀ and A, each with the focused query's row and the
chosen cell picked out, and every cell a click away from the cell panel."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from topics.three_matrices.view import View
from ui import figures
from ui import format as fmt
from ui.figures import Chart, Relative

KEYS = ("fig01_scores", "fig01_asym", "fig01_weights")  # the widget key each heatmap is drawn under


def shown(v: View) -> dict[str, tuple[np.ndarray, str, bool]]:
    """Each heatmap's matrix, title and whether it is signed, by its key (:data:`KEYS`)."""
    return {
        "fig01_scores": (v.trace.scores, "Scores Ω", False),
        "fig01_asym": (v.asymmetry, "Ω − Ωᵀ", True),
        "fig01_weights": (v.trace.weights, "Weights A = softmax(Ω/√d_k)", False),
    }


NAMES = {  # what each heatmap shows, for a screen reader; "{size}" is "6 queries by 6 keys"
    "fig01_scores": "Scores Ω = QKᵀ, {size}",
    "fig01_asym": "Asymmetry of the scores Ω − Ωᵀ, {size}",
    "fig01_weights": "Attention weights A, {size}",
}


def heatmap(
    key: str,
    m: np.ndarray,
    labels: Sequence[str],
    title: str,
    signed: bool,
    *,
    focus: int | None = None,
    cell: int | None = None,
    relative: Relative | None = None,
) -> Chart:
    """The heatmap drawn under ``key``, named and with its values as a table. ``relative`` colours
    the weights only."""
    t, n = list(labels), len(labels)
    fig = figures.heatmap(
        m, t, t, title=title, diverging=signed, focus=focus, cell=cell,
        relative=relative if key == "fig01_weights" else None,
    )  # fmt: skip
    return Chart(fig, NAMES[key].format(size=fmt.size(n, n)), figures.matrix_frame(m, t, t))


def heatmaps(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The three heatmaps (scores, their asymmetry, weights), by the widget key the page draws each
    under, each with its name and its values as a table. ``relative`` colours the weights only."""
    return {
        key: heatmap(key, m, v.labels, title, signed, focus=v.focus_row, cell=v.cell_key, relative=relative)
        for key, (m, title, signed) in shown(v).items()
    }
