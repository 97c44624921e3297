"""The cached heatmaps draw exactly what the page's builders draw, at the book's sentence and at a
long one, focused or not, on either scale."""

from __future__ import annotations

import plotly.io as pio
import pytest

from topics.learning import charts, view
from topics.learning.figures import heatmaps
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
        assert kept[key].table.equals(want.table) and kept[key].index_hidden == want.index_hidden
