"""Hostile URLs: at least 1,000 generated query strings spread over every page, through AppTest.

Each example is a fresh session that opens the page through ``st.navigation`` with the
generated query, as a shared link does; the run must raise nothing, show no error, and leave
every bound control in a valid state. The keys come from the page's row in ``ui.pages``, old
names included, so the upgrade of a legacy link is fuzzed too.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from streamlit.testing.v1 import AppTest

from tests import hostile
from tests.app.conftest import WIDGET_KINDS, open_page
from topics import PAGES

EXAMPLES_PER_PAGE = max(100, math.ceil(1000 / len(PAGES)))


def bound_widgets(at: AppTest) -> list:
    return [w for kind in WIDGET_KINDS for w in getattr(at, kind) if getattr(w, "key", None)]


def assert_valid(w) -> None:
    kind = type(w).__name__
    if kind in ("Selectbox", "Radio"):
        assert w.index is not None and 0 <= w.index < len(w.options), (w.key, w.index)
    elif kind == "Slider":
        values = w.value if isinstance(w.value, tuple) else (w.value,)
        if w.proto.options:  # a select_slider
            assert all(str(v) in w.options or v in w.options for v in values), (w.key, w.value)
        else:
            assert all(w.proto.min <= float(v) <= w.proto.max for v in values), (w.key, w.value)
    elif kind == "NumberInput":
        v = float(w.value)
        assert math.isfinite(v)
        assert (not w.proto.has_min or v >= w.proto.min) and (not w.proto.has_max or v <= w.proto.max), w.key
    elif kind == "Checkbox":
        assert w.value in (True, False)
    elif kind == "TextInput":
        assert isinstance(w.value, str)


@pytest.mark.parametrize("info", PAGES, ids=[p.url_path for p in PAGES])
def test_generated_hostile_urls_never_break_a_page(info):
    keys = sorted({*info.keys, *info.legacy})  # today's keys and the old names links may still carry

    @settings(
        max_examples=EXAMPLES_PER_PAGE,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(hostile.queries(keys))
    def check(query):
        at = open_page(info.path, query)
        assert not at.exception, [e.value for e in at.exception]
        assert not at.error, [e.value for e in at.error]
        for w in bound_widgets(at):
            assert_valid(w)

    check()
