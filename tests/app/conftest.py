"""AppTest helpers: open any registered page, optionally from a URL's query string."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.app_test import calc_hash

from topics import PAGES
from ui.chart import COMPONENT

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")


def open_page(
    page: str,
    query: Mapping[str, str | Sequence[str]] | None = None,
    timeout: float = 60,
    state: Mapping[str, object] | None = None,
) -> AppTest:
    """A fresh session of ``streamlit_app.py`` opened on the page script ``page``
    (``"topics/recap/page.py"``) with ``query``, as a shared link opens it: one run. ``state`` is
    session state set before that run (an expander's key, as a click on it sets it).

    AppTest identifies a page by the hash ``st.Page`` gives its ``url_path``, and learns it only
    from a first run (``switch_page``'s docstring), which would run the Overview first in every
    session. The hash is computed here instead, and checked against the page that ran.
    """
    at = session(page, query, timeout, state)
    at.run()
    assert at._finished_page_script_hash == at._page_hash, f"AppTest did not open {page}"
    return at


def session(
    page: str,
    query: Mapping[str, str | Sequence[str]] | None = None,
    timeout: float = 60,
    state: Mapping[str, object] | None = None,
) -> AppTest:
    """The session :func:`open_page` opens, before its run: what the test harness itself logs
    (AppTest sets session state outside a script: "missing ScriptRunContext") is logged here."""
    url_path = next(p.url_path for p in PAGES if p.path == page)
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update({k: v if isinstance(v, str) else list(v) for k, v in (query or {}).items()})
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at._page_hash = calc_hash(url_path)
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


@dataclass(frozen=True)
class SentChart:
    """One chart as the page sent it to the chart element (``ui.chart``): its element id (which
    ends with its key), its accessible name, the spec's JSON as the element receives it, and the
    rest of what the element was told (height, PNG/SVG file name, whether a click picks a cell)."""

    id: str
    alt: str
    spec: str
    head: dict


@dataclass(frozen=True)
class Drawn:
    """A chart element in an AppTest run; ``proto`` holds what it was sent (:class:`SentChart`)."""

    proto: SentChart


def charts(at: AppTest) -> list[Drawn]:
    """Every chart the page drew, in order: each chart element's payload (``ui.chart.payload``:
    a line of JSON, then the spec) read back. AppTest does not run a custom component's
    JavaScript; it keeps what the server sent, which is what the browser receives."""
    out = []
    for node in at.get("bidi_component"):
        if node.proto.component_name != COMPONENT:
            continue
        head, spec = node.proto.bytes.decode().split("\n", 1)
        meta = json.loads(head)
        out.append(Drawn(SentChart(node.proto.id, meta["name"], spec, meta)))
    return out


def heatmap_titled(at: AppTest, title: str) -> dict:
    """The first heatmap trace of the chart titled ``title``, as the page sent it."""
    for chart in charts(at):
        spec = json.loads(chart.proto.spec)
        if (spec["layout"].get("title") or {}).get("text") == title:
            return next(t for t in spec["data"] if t.get("type") == "heatmap")
    raise KeyError(title)


def chart_names(at: AppTest) -> list[str]:
    """Each chart's accessible name as the page sent it (the chart element's ``name``), in order."""
    return [chart.proto.alt for chart in charts(at)]


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


PANEL_TITLE = "**One cell, step by step"


def panel_text(at) -> str:
    """The cell panel's text as drawn, from its title on (its page's own notes included)."""
    texts = [m.value for m in at.markdown]
    start = next(i for i, t in enumerate(texts) if t.startswith(PANEL_TITLE))
    return "\n".join(texts[start:])


def clicked(
    chart: str,
    focus_key: str,
    cell_key: str,
    point: dict,
    by_label: bool = False,
    cell_before: int | None = None,
) -> None:
    """A script for ``AppTest.from_function``: a page's focus and cell controls under a chart whose
    element reports ``point`` clicked (its ``customdata`` as the element's ``click``), the chart's
    ``ui.cell.picker`` run once as Streamlit runs ``on_click_change`` before a rerun.
    ``by_label``: the controls hold token labels (Recap's query and
    key), not indices. ``cell_before``: a cell picked before the click."""
    import streamlit as st

    from ui import cell as cell_ui
    from ui import controls
    from ui.focus import focus_control

    labels = ("Your", "journey", "starts", "with", "one", "step")
    st.session_state[chart] = {"click": point.get("customdata")}  # None: a click on no cell
    if not st.session_state.get("done"):
        st.session_state["done"] = True
        if cell_before is not None:
            st.session_state[cell_key] = cell_before
        names = labels if by_label else None
        cell_ui.picker(chart, focus_key, cell_key, rows=names, cols=names)()
    if by_label:
        controls.select("Query token", labels, key=focus_key, default="journey")
        controls.select("Key token", labels, key=cell_key, default="starts")
    else:
        focus_control(labels, key=focus_key)
        cell_ui.cell_control(labels, key=cell_key)


VALUES_LABEL = "Values as a table: "


def open_values(at: AppTest) -> AppTest:
    """Open every "Values as a table" expander on the page, as a reader's clicks do, and run the
    page again: a closed one draws nothing (``ui.figures.values``). Its key is the end of its
    element id (``$$ID-<hash>-<key>``)."""
    for box in at.expander:
        if box.label.startswith(VALUES_LABEL) and box.proto.id:
            at.session_state[box.proto.id.split("-", 2)[2]] = True
    at.run()
    return at
