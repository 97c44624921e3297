"""Recap's kept charts (``topics/recap/study.py``) are the charts of the settings on screen, and the
3-D scene, kept without the key, is the same whatever the key."""

from __future__ import annotations

import plotly.io as pio
import pytest

from core import tokens
from topics.recap import figures, study, view
from ui import cache
from ui.figures import Built, Chart, built


def same(kept: Built, chart: Chart) -> None:
    want = built(chart)
    assert pio.to_json(kept.spec, validate=False) == pio.to_json(want.spec, validate=False)
    assert kept.name == want.name
    assert (kept.table is None) == (want.table is None)
    if kept.table is not None and want.table is not None:
        assert kept.table.equals(want.table)


SENTENCES = [(tokens.TOKENS, tokens.inputs()), cache.largest_sentence()]


@pytest.mark.parametrize(("labels", "x"), SENTENCES)
@pytest.mark.parametrize("relative", [None, "row"])
def test_the_kept_heatmaps_are_the_heatmaps_of_the_settings_on_screen(labels, x, relative):
    query, key = labels[1], labels[-1]
    kept = study.heatmaps(tuple(labels), x, query, key, relative, "light")
    fresh = figures.heatmaps(view.build(view.Settings(tuple(labels), x, query, key)), relative)
    assert kept.keys() == fresh.keys()
    for name, chart in fresh.items():
        same(kept[name], chart)


@pytest.mark.parametrize(("labels", "x"), SENTENCES)
def test_the_kept_scene_is_the_scene_whatever_the_key(labels, x):
    query = labels[1]
    kept = study.collapse(tuple(labels), x, query, "light")
    for key in (labels[0], labels[-1]):
        same(kept, figures.collapse(view.build(view.Settings(tuple(labels), x, query, key))))
