"""The read-along's drawings, one registry for every part of the tour: a step's ``Figure.kind``
names its drawing here. Each part keeps its drawings beside the topics it walks through."""

from __future__ import annotations

from dataclasses import replace

from topics.read_along.drawings import cost_next, dropout_heads, foundations, scaling_masking
from topics.read_along.drawings.drawn import Draw, Drawn
from topics.read_along.step import Figure

DRAWINGS: dict[str, Draw] = {
    **foundations.DRAWINGS,
    **scaling_masking.DRAWINGS,
    **dropout_heads.DRAWINGS,
    **cost_next.DRAWINGS,
}


def draw(f: Figure) -> Drawn:
    """The step's figure, its name (the step's ``Figure.name`` unless the drawing says more) and its
    values table. A covered cell has no fill, so its "?" is inked against the page's background
    (``ui.figures.grid``)."""
    drawn = DRAWINGS[f.kind](f)
    return drawn if drawn.name else replace(drawn, name=f.name)
