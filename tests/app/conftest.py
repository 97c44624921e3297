"""AppTest helpers: open any registered page, optionally from a URL's query string."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")


def open_page(
    page: str, query: Mapping[str, str | Sequence[str]] | None = None, timeout: float = 60
) -> AppTest:
    """Run ``streamlit_app.py``, then the page script ``page`` (``"topics/recap/page.py"``) with ``query``."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    at.query_params.clear()
    at.query_params.update({k: v if isinstance(v, str) else list(v) for k, v in (query or {}).items()})
    return at.switch_page(page).run()


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
