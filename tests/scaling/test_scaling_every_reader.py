"""Every reader on "Divide by √d_k" (issue 23): each chart is named by what it shows at the
settings and carries its values as a table, and curves told apart by colour differ by dash too."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from topics.scaling import figures
from topics.scaling.view import Settings

KEYS = ("fig02_bars", "fig02_jacobian", "fig02_std", "fig02_live")


@pytest.fixture(scope="module", params=[Settings(), Settings(d_k=4_096, divisor=False, n_keys=32, tail=True)])
def charts_and_view(request, build):
    v = build(request.param)
    return figures.charts(v), v


def test_every_chart_is_named_by_its_settings_and_tables_the_views_values(charts_and_view):
    charts, v = charts_and_view
    s, c = v.settings, v.curves
    assert tuple(charts) == KEYS
    for key, chart in charts.items():
        assert f"d_k = {s.d_k:,}" in chart.name or key == "fig02_std"
        assert chart.table is not None and chart.table.index.name and all(chart.table.columns)
    bars = charts["fig02_bars"]
    assert f"weights over {s.n_keys} keys at d_k = {s.d_k:,}" in bars.name
    assert ("divided by √d_k" if s.divisor else "not divided") in bars.name
    assert list(bars.table.index) == [f"k{j}" for j in range(1, s.n_keys + 1)]
    shown = bars.figure.data[0].hovertext  # what the bars print, and hover, for each key
    assert list(bars.table["weight α"]) == list(shown)
    assert list(bars.table.iloc[:, 0]) == [f"{x:.4f}" for x in v.scores]
    top = int(np.argmax(v.log10_weights))
    assert f"the largest, k{top + 1}, is {shown[top]}." in bars.name
    for key in KEYS[1:]:
        assert list(charts[key].table.index) == [f"{d:,}" for d in c.d_k]
    jac = charts["fig02_jacobian"].table
    assert list(jac["median largest |J|, no divisor"]) == [f"{x:.2e}" for x in c.median[False]]
    assert list(jac["mean largest |J|, ÷√d_k"]) == [f"{x:.2e}" for x in c.mean[True]]
    live = charts["fig02_live"].table
    assert list(live["live, ÷√d_k"]) == [f"{x:.1%}" for x in c.live[True]]
    assert list(charts["fig02_std"].table["std of q·k/√d_k"]) == [f"{x:.4f}" for x in c.std_scaled]
    assert v.here is not None
    assert f"{v.here.summary(True).median:.2e} with the divisor" in charts["fig02_jacobian"].name
    assert ("the whole tail" in charts["fig02_jacobian"].name) is s.tail


def test_curves_of_different_colours_differ_by_dash_and_the_divisors_by_marker(charts_and_view):
    charts, _ = charts_and_view
    for key in KEYS[1:]:
        lines = [t for t in charts[key].figure.data if "lines" in t.mode]
        for a, b in itertools.combinations(lines, 2):
            if a.line.color != b.line.color:
                assert a.line.dash != b.line.dash, (key, a.name, b.name)
        marked = {
            t.marker.color or t.line.color: t.marker.symbol
            for t in charts[key].figure.data
            if "markers" in t.mode
        }
        assert len(marked) == 2 and len(set(marked.values())) == 2, (key, marked)


def test_a_view_past_brute_forces_reach_says_so_in_the_names(build):
    v = build(Settings(d_k=65_536, sampler="brute", draws=100))
    if v.here is not None:
        pytest.skip("brute force reaches the largest d_k at this budget")
    charts = figures.charts(v)
    assert "does not reach d_k = 65,536" in charts["fig02_jacobian"].name
    assert all(c.table is not None and len(c.table) == len(v.curves.d_k) for c in list(charts.values())[1:])
