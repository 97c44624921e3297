"""Recap's cell panel (issue #22): the followed pair's arithmetic with no projections and no
divisor, the numbers the page draws, at the book's defaults, a 16-wide sentence, the diagonal, and
any legal setting (a reader's sentence, edited embeddings, any pair)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from core import sentence
from core.cell import EXP_LIMIT
from tests.recap.test_recap_properties import recap_settings
from topics.recap import view
from ui import cell_text
from ui import format as fmt


def test_journey_to_starts_is_the_issues_example():
    p = view.build(view.Settings()).cell
    assert p.heading == "journey → starts"
    assert p.products.header == ("d", "x_journey,d", "x_starts,d", "product")
    assert p.products.rows == (
        ("1", "0.5500", "0.5700", "0.3135"),
        ("2", "0.8700", "0.8500", "0.7395"),
        ("3", "0.6600", "0.6400", "0.4224"),
    )
    assert p.score == "ω = 0.3135 + 0.7395 + 0.4224 = **1.4754**"
    assert "the embeddings score each other directly" in p.score_intro
    assert p.weight == (
        "This page divides by nothing: the softmax takes the raw score.",
        "exp(1.4754) = 4.3728",
        "The row's denominator, Σ exp over its keys: 18.745",
        "a_journey,starts = 4.3728 / 18.745 = **0.2333**",
    )
    assert [r[0] for r in p.terms.rows] == ["Your", "journey", "▸ starts", "with", "one", "step"]
    assert p.terms.header[2] == "x_j"  # the values are the inputs themselves
    assert p.context == "z_journey = **[0.4419, 0.6515, 0.5683]**"  # the post's context vector
    (note,) = p.notes
    assert "starts → journey has the same score, 1.4754; its weight, 0.2369" in note


def test_a_16_wide_sentence_lists_all_16_products():
    x = sentence.build(sentence.BOOK_TEXT, 16).embeddings
    v = view.build(view.Settings(embeddings=x, query="Your", key="journey"))
    rows = v.cell.products.rows
    assert len(rows) == 16 == cell_text.SHOWN_DIMS
    assert [r[0] for r in rows] == [str(d) for d in range(1, 17)]
    assert v.cell.score.endswith(f"= **{fmt.num(v.affinity)}**") and "other products" not in v.cell.score
    assert v.cell.score.count(" + ") + v.cell.score.count(" − ") == 15


def test_a_cell_on_the_diagonal_is_a_squared_length():
    v = view.build(view.Settings(query="step", key="step"))
    (note,) = v.cell.notes
    assert note.startswith("A cell on the diagonal") and "0.9450" in note  # 0.05² + 0.80² + 0.55²
    assert v.cell.heading == "step → step"


@settings(max_examples=60, deadline=None)
@given(recap_settings())
def test_the_panels_numbers_are_the_pages_matrices(s: view.Settings) -> None:
    v = view.build(s)
    p, c, x, q, k = v.cell, v.collapse, v.inputs, v.query, v.key
    # The score: every product of the two embeddings, summed into the score the heatmap prints.
    assert p.products.rows == tuple(
        (str(d + 1), fmt.num(x[q, d]), fmt.num(x[k, d]), fmt.num(x[q, d] * x[k, d])) for d in range(v.width)
    )
    assert p.score.endswith(f"= **{fmt.num(c.scores[q, k])}**")
    assert fmt.num(c.scores[q, k]) == fmt.num(v.affinity)
    # The weight: no divisor, the row's exponentials (shifted only past overflow), the heatmap's weight.
    first, *_, last = p.weight
    assert first == "This page divides by nothing: the softmax takes the raw score."
    top = c.scores[q].max()
    shift = top if top > EXP_LIMIT else 0.0
    exps = np.exp(c.scores[q] - shift)
    errors, total = cell_text.row_errors(c.scores[q], shift)  # float32's, for the digits it holds
    exp, share = cell_text.exp_text(exps[k], errors[k]), fmt.num(c.weights[q, k])
    denominator, sign = cell_text.division(exp, exps.sum(), total, share)  # closes: test_cell_divisions
    assert last == f"a_{fmt.md(v.labels[q])},{fmt.md(v.labels[k])} = {exp} / {denominator} {sign} **{share}**"
    assert fmt.num(c.weights[q, k]) == fmt.num(v.weight)
    # The context: the row's weights times the inputs, summed into the output the table prints.
    listed = {r[0].removeprefix("▸ "): r[1:] for r in p.terms.rows}
    assert len(listed) == min(v.n, cell_text.SHOWN_KEYS)
    for j, label in enumerate(v.labels):
        if fmt.md(label) in listed:
            w = c.weights[q, j]
            assert listed[fmt.md(label)] == (
                fmt.num(w),
                fmt.short_vec(x[j], show=cell_text.TERM_WIDTH),
                fmt.short_vec(w * x[j], show=cell_text.TERM_WIDTH),
            )
    assert fmt.md(v.labels[k]) in listed
    assert p.context.endswith(f"**{fmt.short_vec(c.context[q])}**")
    # The note: the mirror cell's score is the same, its weight the heatmap's.
    (note,) = p.notes
    assert fmt.num(c.scores[k, q]) in note
    if q != k:
        assert f"its weight, {fmt.num(c.weights[k, q])}," in note
