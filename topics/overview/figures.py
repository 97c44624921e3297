"""The Overview's one chart: the three-matrices weights at the reader's sentence, named, with its
values as a table."""

from __future__ import annotations

from topics.overview.view import View
from ui import figures
from ui import format as fmt
from ui.figures import Chart, Relative


def weights(v: View, relative: Relative | None = None) -> Chart:
    """The weights heatmap, the book's printed row outlined on the book's sentence; ``relative``
    colours it 0 to the largest weight, or to each row's (``ui.scale``)."""
    n = len(v.labels)
    size = fmt.size(n, n)
    return Chart(
        figures.heatmap(v.weights, v.labels, v.labels, title=v.title, focus=v.row, relative=relative),
        f"Attention weights A = softmax(QKᵀ/√d_k), {size}",
        figures.matrix_frame(v.weights, v.labels, v.labels),
    )
