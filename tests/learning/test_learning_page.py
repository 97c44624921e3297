"""Learning to attend, running: the page draws its view, and its controls, URL and expander work.

The numbers themselves are tested on the view (``test_learning_view.py``); here a running page is
needed: that what it shows is the view's, that every control and URL key reaches the view, that
hostile URLs give the default view, and that the Reproduce expander shows the view's script.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from core import weights
from tests.app.conftest import APP, all_match, assert_clean, charts, metrics, open_page, widget
from topics import page_at
from topics.learning import readouts, script, training, view
from ui import format as fmt
from ui.figures import cell_notes
from ui.format import short_vec
from ui.pages import SHARED_KEYS

PAGE = "topics/learning/page.py"
SHORT: dict[str, str | list[str]] = {"steps": "200"}  # 200 steps keep the runs quick; the default runs 5,000


def table(at):
    return at.dataframe[0].value


def checks_label(at):
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    return exp.label


def captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def prose(at) -> str:
    return " ".join(m.value for m in at.markdown)


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


@pytest.fixture(scope="module")
def default_view():
    return view.build(view.Settings())


def test_the_default_page_draws_its_view(default_page, default_view):
    at, v = default_page, default_view
    assert_clean(at)
    assert table(at).equals(readouts.run_table(v))
    assert at.dataframe[1].value.equals(readouts.evidence_table(v))
    assert metrics(at) == {
        "Loss": readouts.loss_text(v.loss),
        "Rows right": f"{v.rows_right} of 6",
        "Score error max|Ω − Ωᵀ|": fmt.num(v.score_error),  # float32's digits: 1884.017
    }
    assert at.header[0].value == "Three matrices at step 5000"
    assert all(s in prose(at) for s in v.prose.verdict) and v.prose.cycle in prose(at)
    assert (v.prose.nearest or "") in prose(at)
    assert all_match(checks_label(at), 5)
    assert "Section 3.4" in captions(at)
    assert any("q_i \\cdot q_j" in la.body for la in at.latex)  # Cauchy–Schwarz
    assert len(charts(at)) == 5


@pytest.mark.parametrize(
    ("target", "mode"),
    [
        ("Previous token", "No matrices"),
        ("First token", "Tied W_q = W_k"),
        ("Last token", "Three matrices"),
        ("A token you pick", "No matrices"),
        ("Uniform", "Tied W_q = W_k"),
        ("Tokens 1 ↔ 2, others themselves", "Three matrices"),
        ("Three pairs swapped", "Tied W_q = W_k"),
    ],
)
def test_every_target_renders(target, mode):
    at = open_page(PAGE, {**SHORT, "target": target, "learn_mode": mode, "token": "with"})
    assert_clean(at)
    assert at.header[0].value == f"{mode} at step 200"
    assert all_match(checks_label(at), 5)
    assert ("the lowest cross-entropy any attention can reach" in captions(at)) == (target == "Uniform")


def test_the_picked_token_is_what_every_row_learns_to_attend_to():
    at = open_page(PAGE, {**SHORT, "target": "A token you pick"})
    widget(at, "token").set_value("one").run()
    assert_clean(at)
    assert table(at).loc["Three matrices", "rows right"] == "6 of 6"
    notes = cell_notes(json.loads(charts(at)[2].proto.spec))
    target_cells = [[a["text"] for a in notes[6 * i : 6 * i + 6]] for i in range(6)]  # row by row
    assert target_cells == [["0.0000"] * 4 + ["1.0000", "0.0000"]] * 6


def test_every_control_moves_the_readouts():
    """One session, one control at a time: each change moves the runs' table or the metrics."""
    at = open_page(PAGE, SHORT)
    changes = {
        "target": "last",
        "optimiser": "gd",
        "lr": 0.1,
        "steps": 100,
        "learn_weights": "Section 3.5",
        "learn_step": 50,
        "learn_mode": "tied",
        "learn_width": 3,
    }
    for key, value in changes.items():
        before = (table(at).copy(), metrics(at))
        widget(at, key).set_value(value).run()
        assert_clean(at)
        assert not table(at).equals(before[0]) or metrics(at) != before[1], key


def test_the_step_slider_scrubs_the_recorded_trajectory():
    at = open_page(PAGE, SHORT)
    final = metrics(at)["Loss"]
    widget(at, "learn_step").set_value(0).run()
    assert at.header[0].value == "Three matrices at step 0"
    assert metrics(at)["Loss"] == table(at).loc["Three matrices", "loss at step 0"] != final


def test_a_url_with_every_bound_key_renders_that_view():
    query: dict[str, str | list[str]] = {
        "target": "A token you pick",
        "token": "step",
        "learn_mode": "Tied W_q = W_k",
        "optimiser": "Gradient descent",
        "lr": "0.5",
        "steps": "500",
        "learn_weights": "Any seed",
        "learn_seed": "3",
        "learn_init": "torch.rand",
        "learn_step": "250",
        "learn_width": "3",
        "learn_focus": "starts",
        "learn_cell": "one",
    }
    at = open_page(PAGE, query)
    assert_clean(at)
    assert widget(at, "target").value == "token" and widget(at, "token").value == "step"
    assert widget(at, "optimiser").value == "gd" and widget(at, "lr").value == 0.5
    assert widget(at, "steps").value == 500 and widget(at, "learn_step").value == 250
    assert at.header[0].value == "Tied W_q = W_k at step 250"
    assert "torch.rand, seed 3, drawn at width 3**. Matrices are (d_in, d_out) = (3, 3)" in captions(at)
    assert "loss at step 500" in table(at).columns
    assert "is exactly what they can do at this width" in prose(at)
    v = view.build(
        view.Settings(
            target="token",
            token=5,
            mode="tied",
            optimiser="gd",
            lr=0.5,
            steps=500,
            step=250,
            width=3,
            weights=weights.init_weights(3, "rand"),
            focus=2,
            cell=4,
        )
    )
    assert widget(at, "learn_cell").value == 4 and v.cell is not None and v.cell.heading == "starts → one"
    assert any(m.value == f"**One cell, step by step: {v.cell.heading}**" for m in at.markdown)
    assert v.focus_context is not None
    assert "**Focus: starts** (query 3)" in prose(at) and short_vec(v.focus_context) in prose(at)


def test_a_step_beyond_a_shorter_run_or_off_the_record_grid_is_snapped():
    at = open_page(PAGE, {"steps": "1000", "step": "333"})  # recorded every 5 steps
    assert_clean(at)
    assert at.header[0].value == "Three matrices at step 330"
    at = open_page(PAGE, SHORT)
    widget(at, "learn_step").set_value(150).run()
    widget(at, "steps").set_value(100).run()
    assert_clean(at)
    assert at.header[0].value.endswith("at step 100")


def test_the_last_step_of_a_run_off_the_record_grid_is_named_as_itself():
    """Issue 24, item 6: 500 steps on 13 tokens record every 11 steps; step 500, the last, is shown as
    500 (the heading said 495), and an off-grid step says which step the numbers are."""
    text = "the cat sat on the mat and the dog sat on the log"
    at = open_page(PAGE, {"text": text, "steps": "500", "step": "500"})
    assert_clean(at)
    assert at.header[0].value == "Three matrices at step 500"
    assert "loss at step 500" in table(at).columns
    at = open_page(PAGE, {"text": text, "steps": "500", "step": "499"})
    assert at.header[0].value == "Three matrices at step 495"
    assert "step 499 falls between two records, so the numbers below are step 495's" in captions(at)


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 40, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]
KEYS = tuple(
    k for k in page_at("learning-to-attend").keys if k not in SHARED_KEYS
)  # the sentence: test_sentence


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(junk):
    at = open_page(PAGE, {k: junk for k in KEYS})
    assert_clean(at)
    assert at.header[0].value == "Three matrices at step 5000"
    assert table(at).loc["Tied W_q = W_k", "loss at step 5000"] == "1.1492"


def heatmap_trace(at, key: str) -> dict:
    """The heatmap trace (the coloured cells) of the chart drawn under ``key``."""
    (chart,) = [c for c in charts(at) if c.proto.id.endswith(key)]
    return next(t for t in json.loads(chart.proto.spec)["data"] if t["type"] == "heatmap")


@pytest.mark.parametrize(
    ("value", "title", "top"),
    [
        ("0 to each row's largest", "÷ its row's<br>largest", lambda v: 1.0),
        ("0 to the largest weight", "the largest", lambda v: float(v.attention.max())),
        ("0 to 1, fixed", None, lambda v: 1.0),
        ("bogus", None, lambda v: 1.0),  # an unknown value: the fixed scale, the default
    ],
)
def test_the_weights_scale_from_the_link_reaches_a_and_the_target_only(value, title, top):
    at = open_page(PAGE, {**SHORT, "learn_scale": value})
    assert_clean(at)
    v = view.build(view.Settings(steps=200, step=200))
    for key in ("learn_attention", "learn_target"):
        trace = heatmap_trace(at, key)
        bar = (trace["colorbar"].get("title") or {}).get("text")
        assert bar is None if title is None else title in str(bar), (key, bar)
        expected = top(v) if key == "learn_attention" else 1.0  # the target's largest weight is 1
        assert trace["zmin"] == 0 and trace["zmax"] == pytest.approx(expected), key
    for key in ("learn_scores", "learn_asym"):  # signed or unbounded: never relative
        assert "title" not in heatmap_trace(at, key)["colorbar"], key


def test_a_long_sentence_on_the_fixed_scale_says_why_its_weights_are_pale():
    text = " ".join(f"w{i}" for i in range(12))
    fixed = open_page(PAGE, {**SHORT, "text": text})
    assert "pale on the fixed 0–1 scale" in captions(fixed)
    relative = open_page(PAGE, {**SHORT, "text": text, "learn_scale": "0 to each row's largest"})
    assert "pale on the fixed 0–1 scale" not in captions(relative)


# --- the Reproduce expander ---------------------------------------------------------------


def with_script(query: dict[str, str | list[str]] | None = None) -> AppTest:
    """The page from a link with ``query``, its Reproduce expander open (its key set, as a click does)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.query_params.clear()
    at.query_params.update(query or {})
    at.session_state["reproduce_learning"] = True
    return at.switch_page(PAGE).run()


def expander_box(at):
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    return box


def test_a_stable_run_shows_the_views_script_and_says_it_does_not_amplify_rounding():
    at = with_script({"steps": "100", "optimiser": "Gradient descent", "lr": "0.5"})
    assert_clean(at)
    s = view.Settings(optimiser="gd", lr=0.5, steps=100, step=100)
    v = view.build(s)
    made = script.build(s.labels, s.embeddings, v.ws, "previous", 0, "three", "gd", 0.5, 100, v.step)
    box = expander_box(at)
    assert [c.value for c in box.code] == [made.code.rstrip("\n")]  # st.code drops the final newline
    assert "torch.optim.SGD" in made.code and "lr, steps, shown = 0.5, 100, 100" in made.code
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_learning_download"]
    assert made.filename in button.proto.label
    assert "does not amplify rounding" in " ".join(c.value for c in box.caption)


def test_the_default_view_says_it_amplifies_rounding():
    at = with_script()
    assert_clean(at)
    assert "amplifies rounding" in " ".join(c.value for c in expander_box(at).caption)


def test_every_target_and_optimiser_has_its_label():
    """The options on offer are the training module's, in its order (a share link carries the label)."""
    assert tuple(readouts.TARGET_LABELS) == training.TARGETS
    assert tuple(readouts.OPTIMISER_LABELS) == training.OPTIMISERS


def test_a_link_from_before_the_tour_took_step_still_opens_its_step():
    """Learning's step key was ``step`` until the read-along tour took it; old links keep working."""
    at = open_page(PAGE, {"steps": "500", "step": "250"})
    assert_clean(at)
    assert widget(at, "learn_step").value == 250
