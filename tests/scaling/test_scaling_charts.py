"""The kept charts draw exactly what the page's builders draw, at each setting, and a different
setting is never served another's charts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from topics.scaling import charts, figures, study, view
from ui.figures import built


def _view(s: view.Settings) -> view.View:
    return view.build(s, study=study.run_study, draw=study.one_draw, reference=study.references)


def _same(kept, fresh) -> None:
    assert kept.keys() == fresh.keys()
    for key, chart in fresh.items():
        want = built(chart)
        assert (kept[key].name, kept[key].json) == (want.name, want.json), key
        assert kept[key].table.equals(want.table), key


@pytest.mark.parametrize(
    "s",
    [
        view.Settings(),
        view.Settings(d_k=4096, divisor=False, n_keys=64, tail=True),
        view.Settings(d_k=16, seed=7, draws=100, sampler="brute"),
    ],
)
def test_the_kept_charts_are_the_builders_charts(s):
    v = _view(s)
    _same(charts.charts(v, "light"), figures.charts(v))


def test_each_setting_is_its_own_entry():
    a = _view(view.Settings(draws=100))
    kept = charts.charts(a, "light")
    for change in ({"d_k": 256}, {"divisor": False}, {"seed": 5}):
        b = _view(replace(a.settings, **change))
        _same(charts.charts(b, "light"), figures.charts(b))
        assert charts.charts(b, "light")["fig02_bars"].json != kept["fig02_bars"].json
