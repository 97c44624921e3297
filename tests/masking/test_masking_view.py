"""Masking the future's view: every number the page shows, for the settings a reader can reach."""

import numpy as np
import pytest

from core import attention, book, masking, tokens, weights
from core import sentence as core_sentence
from topics.masking import checks, text, view
from topics.masking.view import Settings, build
from ui import format as fmt

DEFAULT = build(Settings())


def _rows(m):
    return tuple(fmt.vec(r) for r in m)


def test_the_default_view_shows_every_figure03_number():
    v, q = DEFAULT, book.FIGURE_03
    # The naive path masks a post-softmax weight, the efficient one a pre-scale score.
    assert fmt.num(v.naive_first) == q["naive_first_entry"] == "0.1921"
    assert fmt.num(v.efficient_first) == q["efficient_first_entry"] == "0.2899"
    assert v.largest < 1e-15 and "e-" in v.largest_text  # float64 noise, in scientific notation
    for row, quoted in enumerate(q["masked_rows"]):
        assert fmt.vec(np.atleast_1d(v.masked[row, : row + 1])) == f"[{quoted.strip('[]')}]"
    assert v.prose.startswith("Row 1 collapses to 1.0000")
    assert "[0.5517, 0.4483]" in v.prose and "[0.3800, 0.3097, 0.3103]" in v.prose
    assert fmt.num(v.future["zero"][0]) == q["zero_fill_future"] == "0.8029"
    assert v.future["zero"][-1] == 0 and (v.future["-inf"] == 0).all()  # the last token has no future
    assert v.softmax.weights is not None and fmt.vec(v.softmax.weights) == q["softmax_counterexample"]
    assert v.box_warning == "" and v.softmax.note == "" and v.undefined == ""
    assert v.weights.label == "Section 3.5 (sa_v2, seed 789)" and v.focus is None


def test_every_printed_matrix_of_section_3_5_and_the_checks_pass():
    b, printed = DEFAULT.book, book.SECTION_3_5_1
    assert _rows(b.naive[1].matrix) == printed["attn_weights"]
    assert _rows(b.naive[2].matrix) == printed["masked_simple"]
    assert _rows(b.naive[3].matrix) == printed["masked_weights"]
    assert _rows(b.efficient[1].matrix) == printed["masked_scores"]  # "-inf" printed as torch does
    assert _rows(b.efficient[3].matrix) == printed["masked_weights"]
    assert _rows(b.causal_context) == printed["causal_attention_output"]
    rows = checks.book_checks(b)
    assert len(rows) >= 8 and all(c.ok for c in rows), [c.label for c in rows if not c.ok]


@pytest.mark.parametrize("fill", ["-inf", "zero"])
def test_every_stage_shows_that_step_of_both_paths(fill):
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    naive = masking.naive_path(tr.scores, tr.divisor)
    efficient = masking.efficient_path(tr.scores, tr.divisor, view.FILLS[fill])
    for stage in range(1, masking.STAGES + 1):
        v = build(Settings(stage=stage, fill=fill))
        assert (v.naive.name, v.efficient.name) == (naive[stage - 1].name, efficient[stage - 1].name)
        np.testing.assert_array_equal(v.naive.matrix, naive[stage - 1].matrix)
        np.testing.assert_array_equal(v.efficient.matrix, efficient[stage - 1].matrix)
        assert v.naive_first == DEFAULT.naive_first  # the same at every step
        minus_inf = int(np.isneginf(v.efficient.matrix).sum())
        assert minus_inf == (15 if fill == "-inf" and stage in (2, 3) else 0), stage
        if fill == "zero":
            assert fmt.num(v.future[fill][0]) == "0.8029"
            assert v.largest > 0.1 and v.largest_text == fmt.num(v.largest)  # the leak, in 4 decimals
        else:
            assert (v.future[fill] == 0).all() and v.largest < 1e-15


def test_the_weight_set_moves_the_paths_but_not_the_checks():
    v = build(Settings(weights=weights.section_3_4()))
    assert fmt.num(v.efficient_first) != "0.2899"
    assert v.weights.label.startswith("Section 3.4")
    assert v.book is DEFAULT.book  # the checks stay at the book's settings
    wide = build(Settings(x=core_sentence.build("a b c", 16).embeddings, labels=("a", "b", "c")))
    assert wide.weights.w_query.shape == (16, 2)  # the set, drawn again for a 16-wide sentence


def test_the_prose_under_the_stages_follows_the_fill_and_the_weights():
    # Issue 13, item 6: with the fill at 0 the text no longer says "Row 1 collapses to 1.0000".
    zero = build(Settings(fill="zero")).prose
    assert "Row 1 collapses" not in zero
    assert "row 1 keeps 0.1971 on the first token and hands 0.8029 to the 5 tokens after it" in zero
    assert "differ by up to 0.8029." in zero
    prose = build(Settings(weights=weights.section_3_4())).prose
    assert prose.startswith("Row 1 collapses to 1.0000")
    assert "[0.5517, 0.4483]" not in prose  # section 3.5's row 2, not these weights'
    row2 = masking.causal_weights(tokens.inputs(), weights.section_3_4())[1, :2]
    assert f"row 2 is [{row2[0]:.4f}, {row2[1]:.4f}]" in prose


@pytest.mark.parametrize(
    ("n", "says"),
    [
        (1, "With one token there is no future to mask"),
        (2, "hands"),  # one token after it, and no row 2 to speak of
    ],
)
def test_short_sentences_get_prose_that_fits(n, says):
    s = core_sentence.build(" ".join("ab"[:n]))
    v = build(Settings(labels=s.labels, x=s.embeddings, fill="zero"))
    assert says in v.prose
    if n == 2:
        assert "the one token after it" in v.prose and "row 2 keeps" not in v.prose
    sealed = build(Settings(labels=s.labels, x=s.embeddings)).prose
    if n == 1:  # nothing is masked, so nothing "half-way" differs for a reason worth a sentence
        assert (
            sealed == "With one token there is no future to mask: both paths end at the single weight 1.0000."
        )
    else:
        assert sealed.startswith("Row 1 collapses to 1.0000") and ("row 3" not in sealed)


def test_the_focused_query_reads_the_causal_weights_and_says_what_the_zero_fill_leaks():
    v = build(Settings(focus=2))
    assert v.focus is not None and v.focus.row == 2 and v.focus.extra == ""
    np.testing.assert_array_equal(v.focus.weights, DEFAULT.masked[2])
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    np.testing.assert_array_equal(v.focus.context, attention.mix(DEFAULT.masked, tr.values)[2])
    leaky = build(Settings(focus=2, fill="zero"))
    assert leaky.focus is not None
    np.testing.assert_array_equal(leaky.focus.weights, v.focus.weights)  # still the masked A
    leak = attention.mix(leaky.masked, tr.values)[2]
    share = fmt.num(leaky.future["zero"][2])
    assert (
        leaky.focus.extra
        == f"With the 0 fill it is {fmt.vec(leak)}: {share} of its attention leaks to later tokens."
    )


def test_the_last_token_has_nothing_to_leak_with_the_zero_fill():
    # Issue 24: the focus said "the future leaks in" for the last token, which has no future.
    last = build(Settings(focus=5, fill="zero"))
    assert last.focus is not None and "leaks in" not in last.focus.extra
    assert (
        last.focus.extra == "With the 0 fill it is the same: the last token has no later token to leak from."
    )
    assert last.future["zero"][5] == 0


def test_extreme_edits_make_the_naive_path_divide_zero_by_zero_and_the_view_says_so():
    payload = "a-999b999c999d-999e999f999h-999i999_a999b999c999d999e-999f999g999h999j999"
    s = core_sentence.build("a b", 10, payload)
    v = build(Settings(labels=s.labels, x=s.embeddings, weights=weights.section_3_4()))
    assert "divides 0 by 0 in row 1:" in v.undefined
    assert v.largest_text == "0/0"


@pytest.mark.parametrize(
    ("x", "limit", "readout", "cell"),
    [
        (float("nan"), 1e-15, "0/0", "0/0"),
        (0.0, 1e-15, "0 (exactly)", "0"),
        (1.1e-16, 1.2e-15, "below 2e-15 (float64 rounding)", "≈0"),
        (3e-9, 1e-15, "3.0e-9", "3.0e-9"),
        (-0.80288, 1e-15, "-0.8029", "-0.8029"),
    ],
)
def test_a_difference_is_a_bound_where_it_is_rounding_and_a_value_where_it_leaks(x, limit, readout, cell):
    assert text.difference_text(x, limit) == readout
    assert text.cell_text(x, limit) == cell


@pytest.mark.parametrize(
    ("text", "weights", "note"),
    [
        ("0 0", "[0.5000, 0.5000]", ""),
        ("-inf, 1, 2", "[0.0000, 0.2689, 0.7311]", "exactly 0"),
        ("−∞, −∞, 0", "[0.0000, 0.0000, 1.0000]", "exactly 0"),
        ("inf, 1, INF", "[0.5000, 0.0000, 0.5000]", "1/2 each"),
        ("-inf -inf", None, "0 by 0"),
        ("nan, 1", None, "NaN"),
    ],
)
def test_the_box_gives_defined_weights_or_none_and_says_why(text, weights, note):
    sm = build(Settings(logits=text)).softmax
    assert (None if sm.weights is None else fmt.vec(sm.weights)) == weights
    assert note in sm.note and (sm.note == "") == (note == "")


def test_text_that_is_not_numbers_keeps_the_last_good_input():
    v = build(Settings(logits="1, 2, three", last_good="0 0"))
    np.testing.assert_array_equal(v.logits, [0, 0])
    assert "is not a number" in v.box_warning and "last good input: 0 0" in v.box_warning


def test_a_stage_outside_1_to_4_is_refused():
    with pytest.raises(ValueError, match="stage"):
        build(Settings(stage=5))
