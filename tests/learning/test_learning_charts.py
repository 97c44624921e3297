"""The cached heatmaps and loss curves draw exactly what the page's builders draw, at the book's
sentence and at a long one, focused or not, on either scale, at every step."""

from __future__ import annotations

from dataclasses import replace

import plotly.io as pio
import pytest

from topics.learning import charts, view
from topics.learning.figures import heatmaps, loss_chart
from ui import cache
from ui.figures import built


@pytest.mark.parametrize("long", [False, True])
@pytest.mark.parametrize(("focus", "cell"), [(None, None), (2, 0)])
@pytest.mark.parametrize("relative", [None, "row"])
def test_a_cached_heatmap_is_the_builders_heatmap(long, focus, cell, relative):
    s = view.Settings(*cache.largest_sentence(), steps=100) if long else view.Settings(steps=100)
    v = view.focused(view.base(s), focus, cell)
    fresh = heatmaps(v, relative)
    kept = charts.heatmaps(v, relative, "light")
    assert kept.keys() == fresh.keys()
    for key, chart in fresh.items():
        want = built(chart)
        assert kept[key].name == want.name
        assert pio.to_json(kept[key].spec, validate=False) == pio.to_json(want.spec, validate=False)
        table, wanted = kept[key].table, want.table
        assert table is not None and wanted is not None and table.equals(wanted)


@pytest.mark.parametrize("long", [False, True])
def test_the_kept_loss_curves_marked_at_each_step_are_the_builders_chart(long):
    """The curves are kept whatever the step; the chart drawn at each step, its marker, name and
    table, is the one the builder draws at that step."""
    s = view.Settings(*cache.largest_sentence(), steps=200) if long else view.Settings(steps=200)
    for step in (0, 100, 200):
        v = view.base(replace(s, step=step))
        want = built(loss_chart(v))
        kept = charts.loss(v, "light")
        assert kept.name == want.name and f"step {v.step:,} marked" in kept.name
        assert pio.to_json(kept.spec, validate=False) == pio.to_json(want.spec, validate=False)
        assert kept.table is not None and want.table is not None and kept.table.equals(want.table)
