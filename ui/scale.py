"""How a page colours its attention weights: the fixed 0–1 scale, or a relative one.

Weights are drawn on the fixed 0–1 scale by default, so near-uniform weights look near-uniform.
That honesty costs legibility on a long sentence: at 32 tokens every weight sits near 1/32, pale on
a 0–1 scale, and the heatmap is a blank pale square. A relative scale colours from 0 to the
matrix's largest weight, or from 0 to each row's largest, and says so on its colour bar
(``ui.figures.relative_colours``); the cells still print, and hover, their own values.

The choice is a sidebar radio bound to the URL under a key the page owns (``ui.pages``).
"""

from __future__ import annotations

from typing import Final

from ui import controls
from ui.figures import Relative

CHOICES: Final[tuple[str, ...]] = ("fixed", "matrix", "row")
LABELS: Final[dict[str, str]] = {
    "fixed": "0 to 1, fixed",
    "matrix": "0 to the largest weight",
    "row": "0 to each row's largest",
}
HELP = (
    "How the weights heatmaps are coloured. On the fixed scale a weight's colour is its value, so "
    "near-uniform weights look near-uniform; on a long sentence they are all pale. The two relative "
    "scales stretch the colours to the largest weight, of the matrix or of each row; the colour bar "
    "says which, and the cells keep their own values."
)


def scale_control(key: str) -> Relative | None:
    """The sidebar's weights-scale radio; None for the fixed 0–1 scale."""
    choice = controls.radio(
        "Colour the weights", CHOICES, key=key, default="fixed", format_func=LABELS.__getitem__, help=HELP
    )
    return None if choice == "fixed" else choice  # type: ignore[return-value]


def pale_hint(n: int, relative: Relative | None, *, causal: bool = False) -> str | None:
    """A caption for a long sentence's weights: why they look pale, and the scale that shows them.
    None up to 8 tokens, and on a scale that already helps.

    On a ``causal`` page the first query sees only itself, with weight exactly 1, so the matrix's
    largest weight is 1 and colouring from 0 to it changes nothing: only each row's largest helps.
    """
    if n <= 8 or relative == "row" or (relative == "matrix" and not causal):
        return None
    pale = f"With {n} tokens, a weight averages 1/{n} = {1 / n:.4f}, pale on the fixed 0–1 scale."
    if causal:
        return (
            f"{pale} The first query sees only itself, so the largest weight is 1 and colouring from 0 "
            "to the largest changes nothing here: colour each row from 0 to its largest (sidebar) to "
            "see the differences."
        )
    return f"{pale} To see the weights' differences, colour them from 0 to the largest weight (sidebar)."
