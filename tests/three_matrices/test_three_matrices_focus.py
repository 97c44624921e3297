"""Three matrices' focus fragment (issue 25): the focus and cell controls change the focused query
and the cell panel alone, so the page builds the view without them and reruns only
``view.focused`` and what draws it; the heatmaps it draws are the builders', from a cache."""

from __future__ import annotations

import dataclasses
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from core.attention import MODES
from tests.app.conftest import assert_clean, open_page, widget
from tests.app.conftest import charts as sent_charts
from tests.strategies import sentences
from tests.three_matrices.test_three_matrices_properties import sources
from topics.three_matrices import charts, figures, view
from ui import figures as figures_ui

PAGE = "topics/three_matrices/page.py"
FOCUS_FIELDS = {"focus", "cell_key", "cell"}


@settings(max_examples=25, deadline=None)
@given(sentences(), st.sampled_from(MODES), sources, st.data())
def test_the_focus_and_cell_change_nothing_but_the_focus_fields(s, mode, ws, data) -> None:
    focus = data.draw(st.integers(0, s.n - 1))
    cell = data.draw(st.none() | st.integers(0, s.n - 1))
    bare = view.build(view.Settings(s.labels, s.embeddings, s.is_book, ws, mode))
    full = view.build(view.Settings(s.labels, s.embeddings, s.is_book, ws, mode, focus, cell))
    assert bare.focus is None and full.focus is not None and full.cell is not None
    for f in dataclasses.fields(view.View):
        if f.name not in FOCUS_FIELDS:
            assert pickle.dumps(getattr(bare, f.name)) == pickle.dumps(getattr(full, f.name)), f.name
    again = view.focused(bare, focus, cell)
    for name in FOCUS_FIELDS:
        assert pickle.dumps(getattr(again, name)) == pickle.dumps(getattr(full, name)), name


def test_the_cached_heatmaps_are_the_builders_heatmaps():
    v = view.build(view.Settings(focus=2, cell=1, mode="tied"))
    built = charts.heatmaps(v, "matrix", "light")
    for key, chart in figures.heatmaps(v, "matrix").items():
        assert built[key].spec == figures_ui.spec_of(chart.figure) and built[key].name == chart.name


def test_the_focus_controls_stand_where_they_stood_and_a_pick_draws_what_a_link_draws():
    at = open_page(PAGE)
    keys = [w.key for w in at.sidebar if getattr(w, "key", None)]
    assert keys[-5:] == ["mode", "weights", "focus", "cell", "scale"]
    widget(at, "focus").set_value(2).run()
    widget(at, "cell").set_value(1).run()
    assert_clean(at)
    linked = open_page(PAGE, {"focus": "starts", "cell": "journey"})
    assert [m.value for m in at.markdown] == [m.value for m in linked.markdown]
    assert any(m.value.startswith("**One cell, step by step: starts → journey") for m in at.markdown)

    def z(page):  # Z = AV, its focused row marked
        return [m.value for m in page.markdown if m.value.startswith("<table>") and "▸ starts" in m.value]

    assert len(z(at)) == 1 and z(at) == z(linked)
    specs = [c.proto.spec for c in sent_charts(at)]
    assert specs == [c.proto.spec for c in sent_charts(linked)] and len(specs) == 3
