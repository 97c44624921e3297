"""Every reader on "What n² costs" (issue 23): each chart is named by what it shows at the settings
and carries its values, exact, as a table; lines told apart by colour differ by dash too; the
current-n marker is ringed in the page's background, whichever theme is on screen."""

from __future__ import annotations

import itertools

import pytest

from topics.cost import figures, view
from topics.cost import format as cf
from ui import theme

SETTINGS = [view.Settings(), view.Settings(n=100, bytes_per_score=4, gpu="B200 (180 GB)", heads=8, layers=12)]


@pytest.mark.parametrize("s", SETTINGS)
def test_the_memory_chart_is_named_by_its_settings_and_tables_exact_bytes(s):
    v = view.build(s)
    chart = figures.memory(v)
    assert (
        f"At n = {v.n:,}: {cf.binary_size(v.row.nbytes)}, {v.row.cards_to_buy:,} {v.gpu.name}" in chart.name
    )
    assert f"{s.heads} head" in chart.name and f"{s.layers} layer" in chart.name
    t = chart.table
    assert t is not None and t.index.name == "line"
    lines = t.loc["score matrices"]
    ns = [int(x.replace(",", "")) for x in lines["n (tokens)"]]
    assert v.n in ns and all(n == v.n or n & (n - 1) == 0 for n in ns) and 2**21 in ns
    at = dict(zip(v.ladder, v.ladder_bytes, strict=True))
    assert list(lines["bytes"]) == [f"{at[n]:,}" for n in ns]
    cards = t.drop(index="score matrices")
    assert list(cards["bytes"]) == [f"{g.memory_bytes:,}" for g in v.gpus]
    assert list(cards.index) == [f"memory of one {g.name}" for g in v.gpus]


@pytest.mark.parametrize("s", SETTINGS)
def test_the_flops_chart_is_named_by_its_settings_and_tables_exact_counts(s):
    v = view.build(s)
    chart = figures.flops(v)
    assert f"d_in = {v.d_in:,} and d_k = {v.d_k:,}" in chart.name
    assert f"wins from n = {v.crossover:,}" in chart.name
    t = chart.table
    assert t is not None
    macs = dict(zip(v.ladder, v.ladder_macs, strict=True))
    ns = [int(x.replace(",", "")) for x in t.index]
    assert v.n in ns
    assert list(t["projections Q, K, V"]) == [f"{macs[n].linear:,}" for n in ns]
    assert list(t["QKᵀ + AV"]) == [f"{macs[n].quadratic:,}" for n in ns]


def test_lines_of_different_colours_differ_by_dash():
    v = view.build(view.Settings())
    for spec in (figures.memory_spec(v), figures.flops_spec(v)):
        lines = [t["line"] for t in spec["data"] if t["mode"] == "lines"]
        lines += [s["line"] for s in spec["layout"].get("shapes", [])]
        for a, b in itertools.combinations(lines, 2):
            if a["color"] != b["color"]:
                assert a.get("dash", "solid") != b.get("dash", "solid"), (a, b)


def test_the_current_n_marker_is_ringed_in_the_themes_background(monkeypatch):
    for palette in (theme.LIGHT, theme.DARK):
        monkeypatch.setattr(theme, "active", lambda p=palette: p)
        (marker,) = [
            t for t in figures.memory_spec(view.build(view.Settings()))["data"] if t["mode"] == "markers"
        ]
        assert marker["marker"]["line"]["color"] == palette.background
