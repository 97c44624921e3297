"""Masking's focus fragment (issue 25): what the focus and cell controls change is the focused
query and the cell panel alone, so the page builds the view without them and reruns only
``view.focused`` and what draws it; the charts it draws are the builders' charts, from a cache."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from core import tokens
from tests.app.conftest import assert_clean, open_page, widget
from tests.masking.test_masking_properties import settings_
from topics.masking import charts, view
from topics.masking.figures import difference_chart, softmax_chart, stage_chart
from ui import figures
from ui.figures import Chart

PAGE = "topics/masking/page.py"
FOCUS_FIELDS = {"focus", "cell_key", "cell", "cell_paths"}


def _same(a: object, b: object) -> bool:
    """Equal values, arrays and NaN included: the same pickle."""
    return pickle.dumps(a) == pickle.dumps(b)


@settings(max_examples=25, deadline=None)
@given(settings_(), st.data())
def test_the_focus_and_cell_change_nothing_but_the_focus_fields(s: view.Settings, data) -> None:
    n = len(s.labels)
    focus = data.draw(st.integers(0, n - 1))
    cell = data.draw(st.none() | st.integers(0, n - 1))
    bare = view.build(dataclasses.replace(s, focus=None, cell=None))
    full = view.build(dataclasses.replace(s, focus=focus, cell=cell))
    assert bare.focus is None and bare.cell is None and full.focus is not None and full.cell is not None
    for f in dataclasses.fields(view.View):
        if f.name not in FOCUS_FIELDS:
            assert _same(getattr(bare, f.name), getattr(full, f.name)), f.name
    again = view.focused(bare, focus, cell)  # what the fragment computes from the page's view
    for name in FOCUS_FIELDS:
        assert _same(getattr(again, name), getattr(full, name)), name
    assert view.focused(full, None, cell).focus is None


def _drawn(chart: object) -> None:
    """A script for ``AppTest.from_function``: one chart drawn as a page draws it."""
    import streamlit as st

    from ui import figures

    st.session_state[figures.values_key("", "c")] = True  # its "Values as a table" open
    figures.show(chart, key="c")


def _protos(at: AppTest) -> list[tuple[str, bytes]]:
    """The charts, tables, downloads and expanders the script drew, as Streamlit sends them."""
    out = [("expander", e.label.encode()) for e in at.expander]
    for kind in ("bidi_component", "table", "download_button"):
        for node in at.get(kind):
            proto = type(node.proto)()
            proto.CopyFrom(node.proto)
            if kind == "download_button":
                proto.ClearField("deferred_file_id")  # a fresh id for each on-demand file
            out.append((kind, proto.SerializeToString()))
    return out


def test_a_built_chart_draws_exactly_what_its_chart_draws():
    v = view.build(view.Settings(focus=1, cell=0, fill="zero"))
    assert v.softmax.weights is not None
    plain = pd.DataFrame({"x": ["1", "2"]})  # a RangeIndex, which st.table hides
    cases = [
        stage_chart("naive", 4, v.naive, v.labels, focus=1, cell=0),
        difference_chart(v.difference, v.cells, v.labels, v.limit, title=v.grid_title, focus=1, cell=0),
        softmax_chart(v.logits, v.softmax.weights),
        Chart(figures.bars([0.5, 0.5], ["a", "b"]), "Two bars", plain),
    ]
    for chart in cases:
        a = AppTest.from_function(_drawn, args=(chart,)).run()
        b = AppTest.from_function(_drawn, args=(figures.built(chart),)).run()
        assert _protos(a) == _protos(b) and len(_protos(a)) == 4, chart.name
        assert chart.table is not None
        assert figures._arrow_csv(figures.built(chart).table) == figures._csv(chart.table), chart.name


def test_the_cached_charts_are_the_builders_charts():
    v = view.build(view.Settings(focus=2, cell=1))
    for path, shown in (("naive", v.naive), ("efficient", v.efficient)):
        chart = stage_chart(path, v.stage, shown, v.labels, relative="row", focus=2, cell=1)
        got = charts.stage(v, path, "row", "light")
        assert got.spec == figures.spec_of(chart.figure) and got.name == chart.name
    grid = difference_chart(v.difference, v.cells, v.labels, v.limit, title=v.grid_title, focus=2, cell=1)
    assert charts.grid(v, "light").spec == figures.spec_of(grid.figure)


def test_the_focus_controls_stand_where_they_stood_and_a_pick_draws_what_a_link_draws():
    at = open_page(PAGE)
    keys = [w.key for w in at.sidebar if getattr(w, "key", None)]
    assert keys[-5:] == ["stage", "fill", "mask_focus", "mask_cell", "mask_scale"]
    widget(at, "mask_focus").set_value(tokens.TOKENS.index("starts")).run()
    widget(at, "mask_cell").set_value(1).run()
    assert_clean(at)
    linked = open_page(PAGE, {"mask_focus": "starts", "mask_cell": "journey"})
    assert [m.value for m in at.markdown] == [m.value for m in linked.markdown]
    assert any(m.value.startswith("**One cell, step by step: starts → journey") for m in at.markdown)
    assert _protos(at) == _protos(linked)
    assert np.all([c.value for c in at.caption] == [c.value for c in linked.caption])
