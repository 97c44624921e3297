"""The Recap's numbers, read from the view the page draws: the post's recap of section 3.3 by
default, the controls' pair, a reader's sentence, and the checks' live side on the book's."""

from __future__ import annotations

import numpy as np
import pytest

from core import book, sentence, tokens
from topics.recap import checks, view
from ui import checks as ui_checks

T, X = tokens.TOKENS, tokens.inputs()


@pytest.fixture(scope="module")
def default() -> view.View:
    return view.build(view.Settings())


def r4(x):
    return np.round(np.asarray(x, dtype=np.float64), 4)


def test_the_defaults_are_the_book_sentence_and_the_posts_pair(default):
    assert view.Settings().labels == T and np.array_equal(
        view.Settings().embeddings, sentence.book().embeddings
    )
    assert (default.labels[default.query], default.labels[default.key]) == ("journey", "starts")
    assert (default.n, default.width, default.dot_products) == (6, 3, 36)


def test_the_context_vector_for_journey(default):
    np.testing.assert_array_equal(r4(default.context_query), [0.4419, 0.6515, 0.5683])


def test_the_collapse_of_the_outputs(default):
    c = default.collapse
    assert c.spread_in is not None and c.spread_out is not None and c.spread_share is not None
    assert (round(c.spread_in, 4), round(c.spread_out, 4)) == (0.6576, 0.0482)
    assert round(100 * c.spread_share, 1) == 7.3
    assert c.nearest == ("starts",) * 6


def test_the_raw_affinity_is_one_number_read_from_either_end(default):
    assert round(default.affinity, 4) == 1.4754 and default.affinity == default.affinity_back
    np.testing.assert_array_equal(default.collapse.scores, default.collapse.scores.T)


def test_journey_to_starts_reads_0_2333_without_a_divisor_and_0_2134_with_figure_01s(default):
    assert round(default.weight, 4) == 0.2333
    assert round(default.fig01_weight, 4) == 0.2134
    assert default.fig01_d_k == 2 and default.fig01_divisor == pytest.approx(np.sqrt(2))
    assert round(default.uniform, 4) == 0.1667


def test_the_controls_pick_the_pair():
    v = view.build(view.Settings(query="step", key="Your"))
    # step · Your = 0.05·0.43 + 0.80·0.15 + 0.55·0.89 = 0.6310, read the same from either end
    assert round(v.affinity, 4) == round(v.affinity_back, 4) == 0.6310
    np.testing.assert_array_equal(v.context_query, v.collapse.context[T.index("step")])
    assert abs(v.fig01_weight - v.uniform) < abs(v.weight - v.uniform)  # the divisor flattens toward 1/6


def test_a_readers_sentence_runs_through_every_number():
    s = sentence.build("the cat sat on the mat", 5, "_b57c-125")
    v = view.build(view.Settings(s.labels, s.embeddings, "cat", "sat"))
    assert (v.n, v.width, v.dot_products) == (6, 5, 36)
    assert v.affinity == pytest.approx(float(s.embeddings[1] @ s.embeddings[2]), rel=1e-15)
    assert v.fig01_d_k == 2  # section 3.4's projections, redrawn 5 wide: d_k stays 2
    np.testing.assert_allclose(v.collapse.weights.sum(axis=1), 1, rtol=1e-15)


def test_one_token_or_one_word_repeated_has_no_spread_to_share():
    solo = sentence.build("solo")
    v = view.build(view.Settings(solo.labels, solo.embeddings, solo.labels[0], solo.labels[0]))
    assert v.collapse.spread_in is None and v.collapse.spread_out is None and v.collapse.spread_share is None
    same = sentence.build("the the the")
    v = view.build(view.Settings(same.labels, same.embeddings, same.labels[0], same.labels[1]))
    assert v.collapse.spread_in == 0 and v.collapse.spread_share is None


def test_the_checks_run_on_the_books_sentence_whatever_the_settings():
    s = sentence.build("the cat sat on the mat")
    v = view.build(view.Settings(s.labels, s.embeddings, "cat", "sat"))
    np.testing.assert_array_equal(v.checks.context_journey, view.build(view.Settings()).context_query)
    rows = checks.rows(v.checks)
    assert len(rows) == 7 and all(r.ok for r in rows), [(r.label, r.quoted, r.live) for r in rows if not r.ok]
    by_label = {r.label: r for r in rows}
    row = by_label["Weights of journey, no divisor"]
    assert row.live == book.SECTION_3_3["attn_weights_2"] and row.source == ui_checks.BOOK
    assert row.verdict is ui_checks.Verdict.ROUNDING and "0.2333" in row.note and "0.2134" in row.note


def test_every_checks_row_names_its_source_and_none_is_the_audit():
    rows = checks.rows(view.build(view.Settings()).checks)
    assert {r.source for r in rows} == {ui_checks.POST, ui_checks.BOOK}
    assert not any("audit" in text.lower() for r in rows for text in (r.label, r.note, r.source_text))
    assert "audit" not in checks.NOTE.lower()
