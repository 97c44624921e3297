"""The Overview's kept chart (``topics/overview/study.py``) is the chart of the sentence on screen."""

from __future__ import annotations

import plotly.io as pio
import pytest

from core import tokens
from topics.overview import figures, study, view
from ui import cache
from ui.figures import built


@pytest.mark.parametrize(
    ("labels", "x", "is_book"), [(tokens.TOKENS, tokens.inputs(), True), (*cache.largest_sentence(), False)]
)
@pytest.mark.parametrize("relative", [None, "matrix"])
def test_the_kept_chart_is_the_chart_of_the_sentence_on_screen(labels, x, is_book, relative):
    kept = study.weights_chart(tuple(labels), x, is_book, relative, "light")
    want = built(figures.weights(view.build(view.Settings(tuple(labels), x, is_book)), relative))
    assert pio.to_json(kept.spec, validate=False) == pio.to_json(want.spec, validate=False)
    assert kept.table is not None and want.table is not None
    assert kept.name == want.name and kept.table.equals(want.table)
