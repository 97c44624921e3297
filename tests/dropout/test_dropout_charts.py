"""The cached charts draw exactly what the page's builders draw, and a different view is never served
another's charts."""

from __future__ import annotations

from dataclasses import replace

import plotly.io as pio
import pytest

from topics.dropout import charts, view
from topics.dropout import figures as dfig
from ui import cache
from ui.figures import built


def _same(kept, fresh) -> None:
    assert kept.keys() == fresh.keys()
    for key, chart in fresh.items():
        want = built(chart)
        assert kept[key].name == want.name
        assert pio.to_json(kept[key].spec, validate=False) == pio.to_json(want.spec, validate=False)
        assert kept[key].table.equals(want.table)


@pytest.mark.parametrize("long", [False, True])
@pytest.mark.parametrize(("focus", "cell", "relative"), [(None, None, None), (3, 1, "row")])
def test_the_cached_charts_are_the_builders_charts(long, focus, cell, relative):
    s = view.Settings(*cache.largest_sentence(), draws=200) if long else view.Settings(draws=200)
    v = view.build(replace(s, focus=focus, cell=cell, relative=relative))
    _same(charts.heatmaps(v, relative, "light"), dfig.heatmaps(v, relative))
    _same(charts.draws(v, "light"), dfig.draw_charts(v))


def test_another_p_or_seed_is_another_entry():
    a = view.build(view.Settings(draws=200))
    for other in (replace(a.settings, p=0.3), replace(a.settings, seed=124)):
        b = view.build(other)
        _same(charts.heatmaps(b, None, "light"), dfig.heatmaps(b, None))
        _same(charts.draws(b, "light"), dfig.draw_charts(b))
