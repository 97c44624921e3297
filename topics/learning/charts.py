"""Learning to attend's heatmaps, built once for each input and theme and kept in a bounded cache.

A rerun whose heatmap inputs have not changed (the target, whatever the step; a step the reader
has already looked at; a scale or focus switched back) draws the cached :class:`ui.figures.Built`
instead of building the heatmap again: building a 32-token heatmap and copying its spec out of
Plotly was most of the page's rerun (issue 25). A step not seen yet is built as before. The
function takes exactly what its chart shows, and ``mode``, the theme it is coloured in
(``ui.theme.active().mode``), so each theme keeps its own entries.
"""

from __future__ import annotations

import numpy as np

from topics.learning import view
from topics.learning.figures import heatmap_specs, one_heatmap
from ui import cache
from ui.cache import KB
from ui.figures import Built, Relative, built
from ui.theme import Mode


def _worst() -> list[tuple[object, ...]]:
    """The four heatmaps of a 32-token sentence, focused on the last query, in the dark theme."""
    labels, x = cache.largest_sentence()
    v = view.focused(view.base(view.Settings(labels, x)), len(labels) - 1, 0)
    return [
        (s["matrix"], labels, s["title"], s["name"], s["places"], s["weights"], s["focus"], s["cell"],
         s["diverging"], "row" if s["weights"] else None, "dark")
        for s in heatmap_specs(v).values()
    ]  # fmt: skip


# A 32-token heatmap with its table pickles to about 100 KB; the book's six tokens to 11 KB. 24
# entries: the four heatmaps at a few steps, focus moves and both themes.
@cache.data(entry_bytes=128 * KB, entries=24, worst=_worst)
def heatmap_built(
    matrix: np.ndarray,
    labels: tuple[str, ...],
    title: str,
    name: str,
    places: int,
    weights: bool,
    focus: int | None,
    cell: int | None,
    diverging: bool,
    relative: Relative | None,
    mode: Mode,
) -> Built:
    """:func:`topics.learning.figures.one_heatmap`, built (``mode`` is the theme it is coloured in)."""
    return built(one_heatmap(matrix, labels, title, name, places, weights, focus, cell, diverging, relative))


def heatmaps(v: view.View, relative: Relative | None, mode: Mode) -> dict[str, Built]:
    """The page's four heatmaps as ``v`` shows them, by widget key. Arguments go by name: Streamlit
    reads a cached function's signature once per positional argument to hash it."""
    return {key: heatmap_built(**spec, mode=mode) for key, spec in heatmap_specs(v, relative).items()}  # type: ignore[arg-type]
