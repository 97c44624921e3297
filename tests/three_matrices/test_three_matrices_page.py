"""What only a running "Three matrices" page shows: its widgets, their URL binding, that a control
moves the readouts, the Reproduce expander, the messages. Every number is the view's
(``test_three_matrices_view.py`` checks the numbers themselves)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from streamlit.testing.v1 import AppTest

from core import weights
from tests.app.conftest import (
    APP,
    all_match,
    assert_clean,
    clicked,
    heatmap_titled,
    metrics,
    open_page,
    panel_text,
    widget,
)
from topics.three_matrices import readouts, script
from topics.three_matrices.view import Settings, View, build
from ui import format as fmt
from ui.format import short_vec
from ui.scale import LABELS, pale_hint

PAGE = "topics/three_matrices/page.py"
SCORE, WEIGHT = "Score error max|Ω − Ωᵀ|", "Weight error max|A − Aᵀ|"


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._in = False

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        self._in = tag == "td"

    def handle_endtag(self, tag: str) -> None:
        self._in = False

    def handle_data(self, data: str) -> None:
        if self._in:
            self.rows[-1].append(data)


def cells(table_html: str) -> list[list[str]]:
    """The data cells of an HTML table (``ui.tables.matrix``), row by row, as printed."""
    parser = _Cells()
    parser.feed(table_html)
    return [row for row in parser.rows if row]


def _md(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def _captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


def _checks_label(at: AppTest) -> str:
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    return exp.label


def shows(at: AppTest, v: View) -> None:
    """The page on screen is the view ``v``: readouts, both tables, the prose, the caption."""
    assert_clean(at)
    assert metrics(at) == {
        SCORE: fmt.num(v.score_error),
        WEIGHT: fmt.num(v.weight_error),
        "Divisor √d_k": fmt.num(v.trace.divisor),
    }
    (weight_error,) = [m for m in at.metric if m.label == WEIGHT]
    assert weight_error.help == readouts.when_symmetric(v)
    assert at.dataframe[0].value.equals(readouts.modes_table(v))
    (ops,) = [df.value for df in at.dataframe if "operation" in df.value.columns]
    assert ops.equals(readouts.ops_table(v))
    printed = [cells(m.value) for m in at.markdown if m.value.startswith("<table>")]
    tr, ws = v.trace, v.weight_set
    shown = (tr.queries, tr.keys, tr.values, tr.context, ws.w_query, ws.w_key, ws.w_value)
    assert printed == [[[f"{x:.4f}" for x in row] for row in m] for m in shown]  # Q, K, V, Z, then W
    text = _md(at)
    assert readouts.denominators_paragraph(v) in text
    assert f"This mode runs **{readouts.count_text(v.matmuls, v.transposes)}**" in text
    assert f"Weights shown: **{v.weight_set.label}**" in _captions(at)
    assert all_match(_checks_label(at), 24)  # the checks stay at the book's settings


@pytest.fixture(scope="module")
def default() -> AppTest:
    return open_page(PAGE)


def test_the_default_page_shows_the_default_view(default):
    shows(default, build(Settings()))
    assert "Section 3.4" in _captions(default)
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the sources")]
    rows = " ".join(md.value for md in exp.markdown)
    assert "| the post | `[4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]`" in rows
    assert "| computed here | `[10.28, 13.30, 13.16, 9.30, 8.80, 10.61]`" in rows


def test_the_mode_control_moves_every_readout():
    at = open_page(PAGE)
    for mode in ("none", "tied", "three"):
        widget(at, "mode").set_value(mode).run()
        shows(at, build(Settings(mode=mode)))
        # no matrices use none of the three; tied, the keys reuse W_q and W_k goes unused
        assert _md(at).count("(unused in this mode)") == {"none": 3, "tied": 1, "three": 0}[mode]


def test_the_weight_set_control_switches_and_names_the_set():
    at = open_page(PAGE)
    widget(at, "weights").set_value("Section 3.5").run()
    shows(at, build(Settings(weights=weights.section_3_5())))
    assert "sa_v2, seed 789" in _captions(at)
    widget(at, "weights").set_value("Any seed").run()
    widget(at, "seed").set_value(789).run()
    widget(at, "init").set_value("nn.Linear").run()
    shows(at, build(Settings(weights=weights.init_weights(789, "linear"))))
    assert "nn.Linear, seed 789" in _captions(at)
    assert metrics(at)[SCORE] == fmt.num(build(Settings(weights=weights.section_3_5())).score_error)


def test_a_link_with_every_bound_key_renders_that_view():
    at = open_page(
        PAGE,
        {
            "mode": "Tied W_q = W_k",
            "weights": "Any seed",
            "seed": "789",
            "init": "nn.Linear",
            "focus": "starts",
            "cell": "one",
        },
    )
    v = build(Settings(weights=weights.init_weights(789, "linear"), mode="tied", focus=2, cell=4))
    shows(at, v)
    assert widget(at, "mode").value == "tied" and widget(at, "seed").value == 789
    assert widget(at, "focus").value == 2 and widget(at, "cell").value == 4
    assert v.focus is not None and v.cell is not None and v.cell.heading == "starts → one"
    assert f"Its context vector is **z = {short_vec(v.focus.context)}**" in _md(at)


GARBAGE = ["", "nan", "-1", "1e999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(default, junk):
    at = open_page(PAGE, {k: junk for k in ("mode", "weights", "seed", "init", "focus", "cell")})
    assert_clean(at)
    assert metrics(at) == metrics(default)


@pytest.mark.parametrize("junk", ["inf", "-inf", "1e999", "nan", "12.5", "0x10", "99999999999999999999", ""])
def test_a_seed_the_integer_input_cannot_hold_falls_back_to_the_default(junk):
    at = open_page(PAGE, {"weights": "Any seed", "seed": junk})
    assert_clean(at)
    assert widget(at, "seed").value == 123
    assert "torch.rand, seed 123" in _captions(at)
    widget(at, "seed").set_value(789).run()
    assert_clean(at)
    assert "torch.rand, seed 789" in _captions(at)


def test_the_reproduce_expander_shows_the_views_script_and_a_download():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.session_state["reproduce_three_matrices"] = True  # opened, as a click does
    at.switch_page(PAGE).run()
    assert_clean(at)
    (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    assert box.label == "Reproduce in PyTorch"
    s = Settings()
    v = build(s)
    made = script.three_matrices(v.labels, s.embeddings, v.weight_set, v.mode, v.pair)
    (code,) = [c.value for c in box.code]
    assert code == made.code.rstrip("\n")  # st.code drops the final newline; the download keeps it
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_three_matrices_download"]
    assert made.filename in button.proto.label


# Every weight source the control offers, as a link gives it (issue 24, item 8).
SOURCES = {
    "section-3.4": ({}, weights.section_3_4()),
    "section-3.5": ({"weights": "Section 3.5"}, weights.section_3_5()),
    "any-seed-rand": (
        {"weights": "Any seed", "seed": "7", "init": "torch.rand"},
        weights.init_weights(7, "rand"),
    ),
    "any-seed-linear": (
        {"weights": "Any seed", "seed": "7", "init": "nn.Linear"},
        weights.init_weights(7, "linear"),
    ),
}


@pytest.mark.parametrize("source", SOURCES)
def test_the_forward_pass_shows_the_class_that_made_the_numbers(source):
    """Section 3.4's weights are SelfAttention_v1's (nn.Parameter, ``x @ self.W_key``); nn.Linear's are
    SelfAttention_v2's (``self.W_key(x)``): the code and its caption name the class of the weights shown."""
    query, ws = SOURCES[source]
    at = open_page(PAGE, query)
    assert_clean(at)
    (code,) = [c.value for c in at.code if "def forward" in c.value]
    v1 = ws.init == "rand"
    assert ("class SelfAttention_v1" in code) == v1 and ("class SelfAttention_v2" in code) == (not v1)
    assert ("keys = x @ self.W_key" in code) == v1 and ("keys = self.W_key(x)" in code) == (not v1)
    assert ("nn.Parameter(torch.rand(d_in, d_out))" in code) == v1
    assert f"torch.manual_seed({ws.seed})" in code
    caption = _captions(at)
    assert ("`x @ self.W_key`" in caption) == v1 and ("`self.W_key(x)`" in caption) == (not v1)
    assert ("stores its weight transposed" in caption) == (not v1)


def test_the_checks_note_speaks_to_a_learner(default):
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the sources")]
    note = " ".join(c.value for c in exp.caption)
    assert note and "audit" not in note.lower()
    assert not re.search(r"figure 0\d", note, re.IGNORECASE)
    assert "computed here" in note


def test_a_cell_link_shows_the_cells_arithmetic_with_the_numbers_on_screen():
    # Issue #22's example: journey → starts at the book's defaults.
    at = open_page(PAGE, {"focus": "journey", "cell": "starts"})
    assert_clean(at)
    panel = panel_text(at)
    for shown in (
        "journey → starts",
        "| 1 | 0.4306 | 0.4361 | 0.1878 |",
        "| 2 | 1.4551 | 1.1156 | 1.6233 |",
        "ω = 0.1878 + 1.6233 = **1.8111**",
        "Divided by √d_k = √2 = 1.4142: ≈ 1.2806",
        "exp(1.2806) = 3.5990",
        "Σ exp over its keys: 16.37",
        "a_journey,starts = 3.5990 / 16.37 = **0.2199**",
        "z_journey = **[0.3061, 0.8210]**",
    ):
        assert shown in panel, shown
    v = build(Settings(focus=1, cell=2))
    assert v.cell is not None and v.cell.score in panel  # the view's panel, drawn as built


def test_without_a_focus_there_is_no_panel_and_a_focus_alone_takes_its_largest_weight(default):
    assert not any(m.value.startswith("**One cell") for m in default.markdown)
    at = open_page(PAGE, {"focus": "step"})
    v = build(Settings(focus=5))
    assert v.cell is not None and v.cell_key == int(v.trace.weights[5].argmax())
    assert v.cell.heading in panel_text(at)


def test_a_click_sets_the_focus_and_the_cell_and_a_cleared_selection_changes_nothing():
    at = AppTest.from_function(clicked, args=("chart", "focus", "cell", {"customdata": [0, 2, 1]})).run()
    assert at.selectbox(key="focus").value == 2 and at.selectbox(key="cell").value == 1
    at = AppTest.from_function(clicked, args=("chart", "focus", "cell", {"x": "journey"})).run()
    assert at.selectbox(key="focus").value == -1 and at.selectbox(key="cell").value == -1


WEIGHTS, SCORES = "Weights A = softmax(Ω/√d_k)", "Scores Ω"


@pytest.mark.parametrize(
    ("scale", "bar"), [("matrix", "the largest"), ("row", "÷ its row's<br>largest")], ids=["matrix", "row"]
)
def test_the_scale_key_colours_the_weights_and_only_the_weights(default, scale, bar):
    at = open_page(PAGE, {"scale": LABELS[scale]})  # a bound radio writes its label into the link
    assert_clean(at)
    assert widget(at, "scale").value == scale
    v = build(Settings())
    weights_map = heatmap_titled(at, WEIGHTS)
    assert weights_map["showscale"] and bar in weights_map["colorbar"]["title"]["text"]
    top = v.trace.weights.max() if scale == "matrix" else 1.0
    assert (weights_map["zmin"], weights_map["zmax"]) == (0.0, top)
    assert heatmap_titled(at, SCORES) == heatmap_titled(default, SCORES)  # scores are never rescaled


@pytest.mark.parametrize("junk", ["", "row", "relative", "x" * 500])
def test_a_bad_scale_key_falls_back_to_the_fixed_scale(default, junk):
    at = open_page(PAGE, {"scale": junk})
    assert_clean(at)
    assert widget(at, "scale").value == "fixed"
    assert heatmap_titled(at, WEIGHTS) == heatmap_titled(default, WEIGHTS)
    assert (heatmap_titled(at, WEIGHTS)["zmin"], heatmap_titled(at, WEIGHTS)["zmax"]) == (0, 1)


def test_a_long_sentence_on_the_fixed_scale_says_why_its_weights_are_pale():
    words = " ".join(f"w{i}" for i in range(12))
    fixed = open_page(PAGE, {"text": words})
    stretched = open_page(PAGE, {"text": words, "scale": LABELS["row"]})
    hint = pale_hint(12, None)
    assert hint is not None and hint in _captions(fixed)
    assert "pale on the fixed" not in _captions(stretched)
