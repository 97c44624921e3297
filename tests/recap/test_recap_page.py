"""The Recap page as it runs: what it shows is the view's, its controls and its URL keys move it,
garbage in a link falls back to the default view, and its Reproduce expander holds the view's script.

The numbers themselves are tested on the view (``test_recap_view.py``); here each distinct page
state is opened once and read for everything it shows.
"""

from __future__ import annotations

import pytest

from core import sentence as core_sentence
from core import tokens
from tests.app.conftest import (
    assert_clean,
    charts,
    clicked,
    heatmap_titled,
    metrics,
    open_page,
    open_values,
    panel_text,
    widget,
)
from tests.app.test_reproduce_expander import open_with_script, script_shown
from topics.recap import script, view
from ui import checks as checks_ui
from ui import figures
from ui import format as fmt
from ui.scale import LABELS, pale_hint

PAGE = "topics/recap/page.py"
T = tokens.TOKENS


def _md(at) -> str:
    return " ".join(m.value for m in at.markdown)


@pytest.fixture(scope="module")
def default():
    at = open_page(PAGE)
    assert_clean(at)
    return at


def test_the_default_view_shows_the_posts_numbers(default):
    v = view.build(view.Settings())
    assert metrics(default) == {
        "Context vector for journey": "[0.4419, 0.6515, 0.5683]",
        "Raw affinity journey–starts": "1.4754",
        "…and starts–journey": "1.4754",
        "Weight journey → starts": "0.2333",
        "Mean pairwise distance, inputs": "0.6576",
        "Mean pairwise distance, outputs": "0.0482",
        "Outputs' spread as a share of the inputs'": "7.3%",
    }
    assert metrics(default)["Context vector for journey"] == fmt.vec(v.context_query)
    table = default.dataframe[0].value
    assert table["nearest input embedding"].tolist() == ["starts"] * 6
    assert table["output z"].tolist() == [fmt.vec(z) for z in v.collapse.context]
    text = _md(default)
    assert "36 dot products and no parameters" in text
    assert "journey gives starts a weight of **0.2333**" in text
    assert (
        "reads **0.2134**, closer to uniform, because that page divides every mode's scores by √2 = 1.4142"
        in text
    )
    assert "the weights are never far from uniform" in text and "huddle near the centre of the inputs" in text
    assert "It works, and it barely does anything." in text
    assert "toward uniform, 1/6 = 0.1667 a weight" in text
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the sources")]
    assert (
        checks_ui.parse_title(exp.label)[checks_ui.Verdict.DIFFERS] == 0
        and len(exp.markdown[-1].value.splitlines()) == 2 + 7
    )
    assert len(charts(default)) == 3


def test_the_query_and_key_controls_move_the_readouts_and_the_text():
    at = open_page(PAGE)
    widget(at, "query").set_value("step").run()
    widget(at, "key").set_value("Your").run()
    assert_clean(at)
    v = view.build(view.Settings(query="step", key="Your"))
    m = metrics(at)
    assert m["Context vector for step"] == fmt.vec(v.context_query)
    assert m["Raw affinity step–Your"] == m["…and Your–step"] == fmt.num(v.affinity) == "0.6310"
    assert f"step gives Your a weight of **{fmt.num(v.weight)}**" in _md(at)
    assert f"reads **{fmt.num(v.fig01_weight)}**" in _md(at)


def test_a_link_with_both_keys_opens_that_pair():
    at = open_page(PAGE, {"query": "step", "key": "Your"})
    assert_clean(at)
    assert (widget(at, "query").value, widget(at, "key").value) == ("step", "Your")
    assert "Raw affinity step–Your" in metrics(at)


@pytest.mark.parametrize("junk", ["", "nan", "-1", "1e999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000])
def test_garbage_in_every_key_renders_the_default_view(junk, default):
    at = open_page(PAGE, {"query": junk, "key": [junk, junk]})
    assert_clean(at)
    assert metrics(at) == metrics(default)


def test_the_reproduce_expander_holds_the_views_script_and_its_download():
    at = open_with_script(PAGE)
    assert_clean(at)
    v = view.build(view.Settings())
    made = script.recap(v.labels, v.inputs, v.query, v.key)
    assert script_shown(at) == made.code.rstrip(
        "\n"
    )  # st.code drops the final newline; the download keeps it
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_recap_download"]
    assert made.filename in button.proto.label


# Settings where the post's description of the collapse does not hold (issue #24, item 5).
PEAKED = {"text": "a b c", "emb": "a999_b999_c999"}  # each token's own score ≈ 100: weights ≈ identity
ONE_FAR = {"text": "the cat sat on the mat", "emb": "a999b999c999"}  # every row puts its weight on "the"
WIDE = {"dim": "16", "query": "Your", "key": "journey"}  # dividing by √2 moves this weight away from 1/6


def _headers(at) -> list[str]:
    return [s.value for s in at.header]


def test_with_peaked_weights_the_page_says_they_are_far_from_uniform_and_the_outputs_keep_their_spread():
    at = open_page(PAGE, PEAKED)
    assert_clean(at)
    assert metrics(at)["Outputs' spread as a share of the inputs'"] == "100.0%"
    text = _md(at)
    for false in ("never far from uniform", "huddle near", "huddle together", "barely", "closer to uniform"):
        assert false not in text, false
    assert "far from uniform" in text and "do not huddle" in text
    assert "reads **0.0000** too" in text  # a weight of 3e-41 is 0.0000 either way
    assert "The collapse" not in _headers(at)


def test_outputs_that_all_copy_one_far_token_huddle_together_away_from_the_centre():
    at = open_page(PAGE, ONE_FAR)
    assert_clean(at)
    text = _md(at)
    assert "huddle together" in text and "far from uniform" in text
    assert "near the centre" not in text and "never far from uniform" not in text
    assert "The collapse" in _headers(at)


def test_a_weight_the_divisor_moves_away_from_uniform_is_not_said_to_move_toward_it():
    at = open_page(PAGE, WIDE)
    assert_clean(at)
    v = view.build(
        view.Settings(
            embeddings=core_sentence.build(core_sentence.BOOK_TEXT, 16).embeddings,
            query="Your",
            key="journey",
        )
    )
    assert abs(v.fig01_weight - v.uniform) > abs(v.weight - v.uniform)
    text = _md(at)
    assert f"reads **{fmt.num(v.fig01_weight)}**" in text and "closer to uniform" not in text
    assert "this pair's weight moves away from it" in text


def test_the_prose_speaks_to_a_reader_who_has_not_read_the_post(default):
    assert "figure 01" not in _md(default).lower()


def test_a_cell_link_shows_the_pairs_arithmetic_with_no_divisor():
    # Issue #22's example on Recap: journey → starts, the raw affinity worked out.
    at = open_page(PAGE, {"query": "journey", "key": "starts"})
    assert_clean(at)
    panel = panel_text(at)
    for shown in (
        "**One cell, step by step: journey → starts**",
        "| 1 | 0.5500 | 0.5700 | 0.3135 |",
        "ω = 0.3135 + 0.7395 + 0.4224 = **1.4754**",
        "This page divides by nothing: the softmax takes the raw score.",
        "a_journey,starts = 4.3728 / 18.745 = **0.2333**",
        "z_journey = **[0.4419, 0.6515, 0.5683]**",
    ):
        assert shown in panel, shown
    v = view.build(view.Settings())
    assert v.cell.score in panel and v.cell.notes[0] in [m.value for m in at.markdown]
    # The metrics about the pair stay, and agree with the panel.
    m = metrics(at)
    assert m["Raw affinity journey–starts"] == "1.4754" and m["Weight journey → starts"] == "0.2333"


def test_a_16_wide_sentence_shows_all_16_products():
    at = open_page(PAGE, WIDE)
    assert_clean(at)
    (table,) = [m.value for m in at.markdown if m.value.startswith("| d |")]
    assert table in panel_text(at) and "**One cell, step by step: Your → journey**" in panel_text(at)
    assert len(table.splitlines()) == 2 + 16  # header, rule, one row per dimension


def test_a_click_sets_the_query_and_the_key_and_a_cleared_selection_changes_nothing():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(
        clicked, args=("recap_w", "query", "key", {"customdata": [0, 2, 0]}, True)
    ).run()
    assert_clean(at)
    assert at.selectbox(key="query").value == "starts" and at.selectbox(key="key").value == "Your"
    at = AppTest.from_function(clicked, args=("recap_w", "query", "key", {"x": "journey"}, True)).run()
    assert at.selectbox(key="query").value == "journey" and at.selectbox(key="key").value == "starts"


WEIGHTS, SCORES = "Weights A = softmax(Ω), row by row", "Scores Ω = XXᵀ"


@pytest.mark.parametrize(
    ("scale", "bar"), [("matrix", "the largest"), ("row", "÷ its row's<br>largest")], ids=["matrix", "row"]
)
def test_the_scale_key_colours_the_weights_and_only_the_weights(default, scale, bar):
    at = open_page(PAGE, {"recap_scale": LABELS[scale]})  # a bound radio writes its label into the link
    assert_clean(at)
    assert widget(at, "recap_scale").value == scale
    weights_map = heatmap_titled(at, WEIGHTS)
    assert weights_map["showscale"] and bar in weights_map["colorbar"]["title"]["text"]
    top = view.build(view.Settings()).collapse.weights.max() if scale == "matrix" else 1.0
    assert (weights_map["zmin"], weights_map["zmax"]) == (0.0, top)
    assert heatmap_titled(at, SCORES) == heatmap_titled(default, SCORES)  # scores are never rescaled


@pytest.mark.parametrize("junk", ["", "row", "relative", "x" * 500])
def test_a_bad_scale_key_falls_back_to_the_fixed_scale(default, junk):
    at = open_page(PAGE, {"recap_scale": junk})
    assert_clean(at)
    assert widget(at, "recap_scale").value == "fixed"
    assert heatmap_titled(at, WEIGHTS) == heatmap_titled(default, WEIGHTS)
    assert (heatmap_titled(at, WEIGHTS)["zmin"], heatmap_titled(at, WEIGHTS)["zmax"]) == (0, 1)


def test_each_chart_has_a_name_and_its_values_as_a_table():
    v = view.build(view.Settings())
    opened = open_values(open_page(PAGE))
    boxes = {e.label: e for e in opened.expander if e.label.startswith("Values as a table: ")}
    assert set(boxes) == {
        "Values as a table: Scores Ω = XXᵀ, 6 queries by 6 keys",
        "Values as a table: Attention weights A = softmax(Ω), 6 queries by 6 keys",
        "Values as a table: Inputs X and outputs Z = AX of 6 tokens as points in 3-D",
    }
    weights_table = boxes["Values as a table: Attention weights A = softmax(Ω), 6 queries by 6 keys"].table[0]
    assert weights_table.value.to_numpy().tolist() == [
        [figures.cell_text(w) for w in row] for row in v.collapse.weights
    ]
    points = (
        boxes["Values as a table: Inputs X and outputs Z = AX of 6 tokens as points in 3-D"].table[0].value
    )
    assert points["output, dim 2"].tolist() == [figures.cell_text(z) for z in v.collapse.context[:, 1]]
    assert points["input, dim 1"].tolist() == [figures.cell_text(x) for x in v.inputs[:, 0]]


def test_a_long_sentence_on_the_fixed_scale_says_why_its_weights_are_pale():
    words = " ".join(f"w{i}" for i in range(12))
    fixed = open_page(PAGE, {"text": words})
    stretched = open_page(PAGE, {"text": words, "recap_scale": LABELS["matrix"]})
    hint = pale_hint(12, None)
    assert hint is not None and hint in [c.value for c in fixed.caption]
    assert not any("pale on the fixed" in c.value for c in stretched.caption)
