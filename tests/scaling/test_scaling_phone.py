"""Issue 23, phones: the d_k axis of every study chart keeps its labels level and apart at 390 px.

A figure does not know the width it is drawn at, so its labels must fit the narrowest: a 390 px
phone leaves a chart about 280 px of plot (16 px padding a side, the y axis's labels and title).
Nine comma labels ran together there ("2561,0244,096"); every other power of 4 is labelled now.
"""

from __future__ import annotations

import itertools
import math

import pytest

from topics.scaling import figures

PHONE_PLOT_PX = 280  # a 390 px screen, less the page's padding and the chart's y axis
CHAR_PX = 0.6 * 13  # a digit or a comma of the app's 13 px font, generously
GAP_PX = 6


def labelled_ticks(fig) -> list[tuple[float, str]]:
    x = fig.layout.xaxis
    return [(float(v), t) for v, t in zip(x.tickvals, x.ticktext, strict=True) if t]


def plot_span(fig) -> tuple[float, float]:
    """The log10 span of the x data, the least the autorange covers."""
    xs = [float(v) for t in fig.data for v in (t.x or ()) if v is not None and float(v) > 0]
    return math.log10(min(xs)), math.log10(max(xs))


@pytest.mark.parametrize("which", [0, 1, 2], ids=["jacobian", "spread", "live"])
def test_the_d_k_labels_stay_apart_in_a_phone_wide_chart(default_view, which):
    fig = figures.study_figures(default_view)[which]
    assert fig.layout.xaxis.tickangle == 0
    ticks = labelled_ticks(fig)
    assert len(ticks) >= 4  # still a scale to read
    lo, hi = plot_span(fig)
    px_per_decade = PHONE_PLOT_PX / (hi - lo)
    for (a, ta), (b, tb) in itertools.pairwise(ticks):
        apart = (math.log10(b) - math.log10(a)) * px_per_decade
        needed = (len(ta) + len(tb)) / 2 * CHAR_PX + GAP_PX
        assert apart >= needed, f"{ta} and {tb}: {apart:.0f} px apart, {needed:.0f} px needed"


def test_every_power_of_4_keeps_its_grid_line(default_view):
    for fig in figures.study_figures(default_view):
        assert list(fig.layout.xaxis.tickvals) == list(figures.DK_TICKS)
