"""What a reader sees of a chart's texts, measured in the browser: each tick label, axis title,
legend entry, title and annotation inside the chart's box, no axis title over a tick label, no two
tick labels of an axis over each other, every tick label Plotly computed shown whole, and a legend
that names only what is drawn (issue 42).

``chart_faults(page)`` reads every chart on the page as drawn, once settled. A fault names its
chart (by the chart's accessible name) and the text. A 3-D scene's texts are WebGL, not SVG: its
title and legend are measured, its axes are not.
"""

from __future__ import annotations

from pathlib import Path

# whole.js reads Plotly's own layout of the drawn chart where Plotly keeps it, the graph div's
# _fullLayout and _fullData: the ticks it computed (with their labels) and the ranges it drew, so
# the test holds the page to what Plotly meant to show.
_FAULTS = (Path(__file__).parent / "whole.js").read_text()


def chart_faults(page) -> list[str]:
    """Every fault of every chart drawn on ``page`` (see the module's docstring)."""
    return page.evaluate(_FAULTS)
