"""The read-along's drawings, one registry for every part of the tour: a step's ``Figure.kind``
names its drawing here. Each part keeps its drawings beside the topics it walks through."""

from __future__ import annotations

from dataclasses import replace

from topics.read_along.drawings import cost_next, dropout_heads, foundations, scaling_masking
from topics.read_along.drawings.drawn import COVER, Draw, Drawn
from topics.read_along.step import Figure
from ui import theme

DRAWINGS: dict[str, Draw] = {
    **foundations.DRAWINGS,
    **scaling_masking.DRAWINGS,
    **dropout_heads.DRAWINGS,
    **cost_next.DRAWINGS,
}


def draw(f: Figure) -> Drawn:
    """The step's figure, its name (the step's ``Figure.name`` unless the drawing says more) and its
    values table. A covered cell's "?" is printed in the theme's text colour: the cell has no fill,
    and the ink the heatmap picks for a missing fill is black, unreadable on the dark background."""
    drawn = DRAWINGS[f.kind](f)
    if f.hide and drawn.figure is not None:
        for note in drawn.figure.layout.annotations:
            if note.text == COVER:
                note.font.color = theme.active().text
    return drawn if drawn.name else replace(drawn, name=f.name)
