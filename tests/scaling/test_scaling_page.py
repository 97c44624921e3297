"""The running "Divide by √d_k" page: it shows its view, binds every control to the URL, says what it
cuts, and shrugs off hostile URLs.

The numbers themselves are the view's (test_scaling_view.py); here each page state is compared
with :func:`topics.scaling.view.build` at the settings its widgets hold, so a page that drew
anything but its view would fail. One AppTest session per distinct state.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, assert_clean, chart_names, charts, metrics, open_values, widget
from topics.scaling import checks, figures, script, study, text, view
from ui import checks as checks_ui

PAGE = "topics/scaling/page.py"
BRUTE = "Brute force: q and keys"  # the sampler's label, as a URL holds it


def open_page(query: dict[str, str] | None = None, *, script_open: bool = False) -> AppTest:
    """The page from a link with ``query``; with ``script_open``, its Reproduce expander open too."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.query_params.clear()
    at.query_params.update(query or {})
    if script_open:
        at.session_state["reproduce_scaling"] = True
    return at.switch_page(PAGE).run()


def settings_of(at: AppTest) -> view.Settings:
    """The view's settings as the page's widgets hold them."""
    keys = ("d_k", "divisor", "draws", "keys", "dk_seed", "sampler", "dk_tail")
    return view.Settings(*(widget(at, k).value for k in keys))


def readouts(v: view.View) -> dict[str, str]:
    """The metrics the page must show for ``v``."""
    return {r.label: r.value for r in v.words.readouts}


def chart_titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in charts(at)]


def shows_its_view(at: AppTest, build) -> view.View:
    """The page ran cleanly and shows the view of its widgets' settings: every metric, four charts."""
    assert_clean(at)
    v = build(settings_of(at))
    assert metrics(at) == readouts(v)
    assert len(chart_titles(at)) == 4
    return v


@pytest.fixture(scope="module")
def build():
    """The view as the page builds it, from the page's own caches (AppTest runs in this process, so
    after a run every call is a cache hit); test_scaling_view.py holds them to the plain functions."""

    def make(s: view.Settings | None = None) -> view.View:
        return view.build(
            s or view.Settings(),
            study=study.whole_study,
            draw=study.one_draw,
            reference=study.references,
            post_setting=study.post_study,
        )

    return make


@pytest.fixture(scope="module")
def default() -> AppTest:
    return open_page(script_open=True)


def test_the_default_page_draws_its_view_the_table_the_prose_the_checks_and_the_script(default, build):
    at = default
    v = shows_its_view(at, build)
    assert v == build()  # the defaults of the controls are the view's
    assert chart_titles(at)[0] == "One draw's weights at d_k = 64"
    tables = [t.value for t in at.table]  # the charts' values (in expanders), then the reference
    assert tables[-1].equals(checks.reference_table(v))
    assert len(at.latex) == 2  # the variance derivation and the Jacobian
    captions = [c.value for c in at.caption]
    w = v.words
    assert {w.draws_caption, w.reference_caption, w.rounding_note, w.cutoffs} <= set(captions)
    prose = " ".join(md.value for md in at.markdown)
    assert w.table_prose in prose
    # Named by what it is, for a learner who never read the post (issue 24).
    headings = " ".join(h.value for h in at.header) + " " + prose + " " + " ".join(captions)
    assert "Beside the post" not in headings and "figure 0" not in headings
    assert not at.info  # no draw budget or brute-force note at the defaults
    (box,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    assert box.label == checks_ui.title(checks.post_checks(v)) and "0 differ" in box.label
    assert checks_ui.table_markdown(checks.post_checks(v)) in [md.value for md in box.markdown]
    # The Reproduce expander, opened: the script of the view on screen, and its download.
    (box,) = [e for e in at.expander if e.label == "Reproduce in NumPy"]
    made = script.divide_by_sqrt_dk(64, True, 500, 6, 0, "exact")
    assert [c.value for c in box.code] == [made.code.rstrip("\n")]  # st.code drops the final newline
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_scaling_download"]
    assert made.filename in button.proto.label


def test_every_chart_is_named_and_its_values_are_a_table_under_it(default, build):
    """Issue 23: each chart's name reaches the page (a screen reader's label) and its values sit in a
    table under "Values as a table: <name>", the view's own, in the order the charts are drawn."""
    charts = figures.charts(build(settings_of(default)))
    names = chart_names(default)
    boxes = {e.label: e for e in open_values(open_page()).expander}
    for chart in charts.values():
        assert chart.name in names
        box = boxes[f"Values as a table: {chart.name}"]
        (shown,) = box.table
        assert chart.table is not None and shown.value.equals(chart.table)


def test_every_control_moves_the_page_to_its_own_view(build):
    at = open_page({"draws": "100"})  # brute force over the grid in about a second
    before = shows_its_view(at, build)
    for key, value in (
        ("d_k", 768),
        ("draws", 1_000),
        ("keys", 12),
        ("dk_seed", 1),
        ("sampler", "brute"),
        ("divisor", False),
    ):
        widget(at, key).set_value(value).run()
        now = shows_its_view(at, build)
        assert readouts(now) != readouts(before), key
        before = now
    widget(at, "dk_tail").set_value(True).run()
    assert_clean(at)
    assert "Largest entry of the softmax Jacobian, the whole tail" in chart_titles(at)


def test_brute_force_over_budget_says_where_it_stops_and_shows_dashes_past_it(build):
    at = open_page({"draws": "100000", "keys": "2", "sampler": BRUTE})
    v = shows_its_view(at, build)
    assert [i.value for i in at.info] == [text.brute_note(v)]
    assert "Brute force stops at d_k = 32" in text.brute_note(v)
    widget(at, "d_k").set_value(65536).run()
    assert shows_its_view(at, build).here is None
    assert metrics(at)["Median largest |J|"] == "—"
    assert metrics(at)["Live draws (largest |J| ≥ 1e-3)"] == "—"


def test_a_url_with_every_bound_key_renders_that_view(build):
    query = {
        "d_k": "768",
        "divisor": "false",
        "draws": "200",
        "keys": "3",
        "dk_seed": "7",
        "sampler": BRUTE,
        "dk_tail": "true",
    }
    at = open_page(query)
    assert settings_of(at) == view.Settings(768, False, 200, 3, 7, "brute", True)
    shows_its_view(at, build)


def test_draws_times_keys_over_the_score_budget_runs_fewer_draws_and_says_why(build):
    at = open_page({"draws": "100000", "keys": "64"})
    v = shows_its_view(at, build)
    assert widget(at, "draws").value == 100_000  # the control and the URL keep what was asked
    assert v.draws == 5_000
    assert [i.value for i in at.info] == [text.capped_note(v)]
    assert text.draws_caption(v) in [c.value for c in at.caption]
    widget(at, "keys").set_value(5).run()  # 500,000 scores: within the budget
    assert shows_its_view(at, build).draws == 100_000
    assert not at.info


GARBAGE = ["", "nan", "inf", "-1", "1e999", "99999999999999999999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(default, junk):
    at = open_page(dict.fromkeys(("d_k", "divisor", "draws", "keys", "dk_seed", "sampler", "dk_tail"), junk))
    assert_clean(at)
    assert metrics(at) == metrics(default)
    assert chart_titles(at) == chart_titles(default)
