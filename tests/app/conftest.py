"""AppTest helpers: open any registered page, optionally from a URL's query string."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.app_test import calc_hash

from topics import PAGES

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")


def open_page(
    page: str, query: Mapping[str, str | Sequence[str]] | None = None, timeout: float = 60
) -> AppTest:
    """A fresh session of ``streamlit_app.py`` opened on the page script ``page``
    (``"topics/recap/page.py"``) with ``query``, as a shared link opens it: one run.

    AppTest identifies a page by the hash ``st.Page`` gives its ``url_path``, and learns it only
    from a first run (``switch_page``'s docstring), which would run the Overview first in every
    session. The hash is computed here instead, and checked against the page that ran.
    """
    url_path = next(p.url_path for p in PAGES if p.path == page)
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update({k: v if isinstance(v, str) else list(v) for k, v in (query or {}).items()})
    at._page_hash = calc_hash(url_path)
    at.run()
    assert at._finished_page_script_hash == calc_hash(url_path), f"AppTest did not open {page}"
    return at


WIDGET_KINDS = (
    "selectbox",
    "radio",
    "slider",
    "select_slider",
    "number_input",
    "toggle",
    "text_input",
    "checkbox",
)


def widget(at: AppTest, key: str):
    """The widget whose ``key`` is ``key``, wherever it sits (sidebar or body)."""
    for kind in WIDGET_KINDS:
        for w in getattr(at, kind):
            if w.key == key:
                return w
    raise KeyError(key)


def metrics(at: AppTest) -> dict[str, str]:
    """Every ``st.metric`` on the page, label -> value."""
    return {m.label: m.value for m in at.metric}


def assert_clean(at: AppTest) -> None:
    """No exception element and no error box on the page."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture
def page():
    return open_page


def all_match(label: str, rows: int) -> bool:
    """A checks expander's title counts ``rows`` rows and none that differs."""
    from ui import checks

    counts = checks.parse_title(label)
    return sum(counts.values()) == rows and counts[checks.Verdict.DIFFERS] == 0
