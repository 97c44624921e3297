"""The cost page's cached charts and tables (``topics/cost/study.py``) are those of the settings on
screen: each chart is keyed on only the settings it draws, so a setting it ignores must not change it."""

from __future__ import annotations

import pytest

from topics.cost import arithmetic, figures, study, table, time_models, view
from topics.cost.view import Settings
from ui.figures import arrow, built

SETTINGS = [
    Settings(),
    Settings(
        n=1024, bytes_per_score=4, gpu=arithmetic.GPU_NAMES[-1], heads=8, layers=3, t0_ms=view.BASELINE_MS[0]
    ),
    Settings(n=6, d_in=3, d_k=2, heads=128, layers=128, bytes_per_score=1),
]


@pytest.mark.parametrize("s", SETTINGS)
def test_the_kept_charts_are_the_charts_of_the_settings_on_screen(s):
    v = view.build(s)
    for kept, chart in (
        (study.memory_chart(s, "light"), figures.memory(v)),
        (study.flops_chart(s, "light"), figures.flops(v)),
    ):
        fresh = built(chart)
        assert kept.json == fresh.json and kept.name == chart.name
        assert kept.table is not None and fresh.table is not None and kept.table.equals(fresh.table)


@pytest.mark.parametrize("s", SETTINGS)
def test_the_kept_tables_are_the_tables_of_the_settings_on_screen(s):
    v = view.build(s)
    bill, data, times = study.tables(s)
    assert bill.equals(arrow(table.frame(v))) and data == table.csv(table.frame(v))
    assert times.equals(arrow(time_models.frame(v)))
