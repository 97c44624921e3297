"""The Overview's chart, built once per sentence, scale and theme, and kept for every reader.

The Overview reruns without a change of its own (a theme switch, the sentence box's Enter, a
return from another page); its heatmap and the table of its values were rebuilt each time. A
resource cache keeps them, uncopied: ``ui.figures.show`` reads a chart without changing it.
"""

from __future__ import annotations

import numpy as np

from topics.overview import figures, view
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, built


def _worst() -> list[tuple[object, ...]]:
    """The largest entries: the longest sentence on each scale (a relative scale adds its colour bar)."""
    labels, x = cache.largest_sentence()
    return [(labels, x, False, relative, "dark") for relative in (None, "matrix", "row")]


# 32 × 32 weights with their cell text, and the table of them: 385 KB held at 32 tokens.
@cache.resource(entry_bytes=448 * KB, entries=4, worst=_worst)
def weights_chart(
    labels: tuple[str, ...], embeddings: np.ndarray, is_book: bool, relative: Relative | None, scheme: str
) -> Built:
    """:func:`topics.overview.figures.weights` at the sentence, built; ``scheme`` is the theme it is
    drawn in (``ui.theme.active().mode``): its colour scale is chosen when it is built."""
    return built(figures.weights(view.build(view.Settings(labels, embeddings, is_book)), relative))
