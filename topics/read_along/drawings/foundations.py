"""Drawings of the foundations' steps (``steps/foundations.py``)."""

from __future__ import annotations

from topics.read_along.drawings.drawn import Draw, Drawn, matrix_table
from topics.read_along.step import Figure
from topics.recap.view import View as RecapView
from ui import figures


def recap_weights(f: Figure) -> Drawn:
    v: RecapView = f.data
    T = v.labels
    fig = figures.heatmap(v.collapse.weights, T, T, title=f.name, focus=v.query, cell=v.key)
    return Drawn(fig, matrix_table(v.collapse.weights, T, T))


DRAWINGS: dict[str, Draw] = {"recap_weights": recap_weights}
