"""Hostile URLs through AppTest: every known-bad value on every page, then generated queries.

Each example is a fresh session that opens the page through ``st.navigation`` with the query, as
a shared link does; the run must raise nothing, show no error, and leave every bound control in a
valid state. The keys are the page's own (``topics/<topic>/__init__.py``), old names included, so
the upgrade of a legacy link is fuzzed too. Generated examples are spread in proportion to a
page's keys: a page with more controls has more ways to combine bad values, and the Overview,
which binds none, needs only a few.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from streamlit.testing.v1 import AppTest

from tests import hostile
from tests.app.conftest import WIDGET_KINDS, open_page
from topics import PAGES
from ui.pages import PageInfo

EXAMPLES_PER_KEY = 2
MIN_EXAMPLES = 6  # unknown keys only, on a page that binds none


def page_keys(info: PageInfo) -> list[str]:
    return sorted({*info.keys, *info.legacy})  # today's keys and the old names links may still carry


def known_bad_queries(keys: list[str]) -> list[dict[str, str]]:
    """Every value of ``hostile.FIXED`` on the page, in as few sessions as that takes, each value
    on another key: session i gives key j ``FIXED[(i * len(keys) + j) % len(FIXED)]``."""
    keys = keys or [f"unknown{i}" for i in range(10)]  # a page that binds none: unknown keys only
    width = len(keys)
    sessions = math.ceil(len(hostile.FIXED) / width)
    return [
        {
            **{k: hostile.FIXED[(i * width + j) % len(hostile.FIXED)] for j, k in enumerate(keys)},
            "unknown": hostile.FIXED[i % len(hostile.FIXED)],
        }
        for i in range(sessions)
    ]


def check_query(info: PageInfo, query: Mapping[str, str | Sequence[str]]) -> None:
    at = open_page(info.path, query)
    assert not at.exception, (query, [e.value for e in at.exception])
    assert not at.error, (query, [e.value for e in at.error])
    for w in bound_widgets(at):
        assert_valid(w)


def bound_widgets(at: AppTest) -> list:
    """The widgets bound to the URL (a prediction on the tour has a key but stays out of the link)."""
    return [w for kind in WIDGET_KINDS for w in getattr(at, kind) if getattr(w.proto, "query_param_key", "")]


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
def test_every_known_bad_value_never_breaks_a_page(info):
    queries = known_bad_queries(page_keys(info))
    assert {v for q in queries for v in q.values()} == set(hostile.FIXED)
    assert all(isinstance(v, str) for q in queries for v in q.values())
    for query in queries:
        check_query(info, query)


@pytest.mark.parametrize("info", PAGES, ids=[p.url_path for p in PAGES])
def test_generated_hostile_urls_never_break_a_page(info):
    keys = page_keys(info)

    @settings(
        max_examples=max(MIN_EXAMPLES, EXAMPLES_PER_KEY * len(keys)),
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(hostile.queries(keys))
    def check(query):
        check_query(info, query)

    check()
