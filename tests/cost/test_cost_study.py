"""The cost page's cached charts (``topics/cost/study.py``) are the charts of the settings on screen:
each is keyed on only the settings it draws, so a setting it ignores must not change it."""

from __future__ import annotations

import json

import plotly.io as pio
import pytest

from topics.cost import arithmetic, figures, study, view
from topics.cost.view import Settings

SETTINGS = [
    Settings(),
    Settings(
        n=1024, bytes_per_score=4, gpu=arithmetic.GPU_NAMES[-1], heads=8, layers=3, t0_ms=view.BASELINE_MS[0]
    ),
    Settings(n=6, d_in=3, d_k=2, heads=128, layers=128, bytes_per_score=1),
]


def spec(chart) -> str:
    return json.dumps(json.loads(pio.to_json(chart.figure)), sort_keys=True)


@pytest.mark.parametrize("s", SETTINGS)
def test_the_kept_charts_are_the_charts_of_the_settings_on_screen(s):
    v = view.build(s)
    for kept, built in (
        (study.memory_chart(s, "light"), figures.memory(v)),
        (study.flops_chart(s, "light"), figures.flops(v)),
    ):
        assert spec(kept) == spec(built)
        assert kept.name == built.name
        assert kept.table is not None and built.table is not None and kept.table.equals(built.table)
