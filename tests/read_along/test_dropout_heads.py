"""The dropout and multi-head steps of the tour: each answer is the topic view's value, at the book's
sentence and where it could flip, every number the steps state is one the views hold, and each claim
holds on the views' raw arrays."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from core import multihead as mh
from core import sentence
from core.sentence import Sentence, example_batch
from tests.prose import unexplained
from tests.strategies import sentences
from topics.dropout import view as drop
from topics.multihead import view as heads
from topics.read_along.step import Step
from topics.read_along.steps import dropout_heads as part
from ui import format as fmt

BOOK = sentence.book()
ONE = sentence.build("journey", 3)  # one token: row 1 is the whole matrix
TWO = sentence.build("the cat", 5)  # as many tokens as the first split setting has heads
THREE = sentence.build("the cat sat", 4)  # as many tokens as its heads are wide
REPEAT = sentence.build("the the the the", 3)  # one embedding four times
LONG = sentence.build(" ".join(f"w{i}" for i in range(32)), 16)
EDGES = (BOOK, ONE, TWO, THREE, REPEAT, LONG)
STEP = {d.key: d for d in part.STEPS}
SECTION_3_5 = ("1", "0", "3.5")  # "section 3.5.2" reads as the number 3.5
CODE = re.compile(r"`[^`]*`")  # the book's code, quoted: its literals are the code's, not computed


def book_draw(s: Sentence) -> drop.View:
    """The Dropout view at the book's settings: PyTorch's generator, seed 123, p = 0.5, scaled."""
    return _dropout(s.text, s.width, s.edits, "torch", part.ONE_DRAW)


def numpy_draws(s: Sentence) -> drop.View:
    """The same at NumPy's generator and the page's smallest draw count."""
    return _dropout(s.text, s.width, s.edits, "numpy", 1_000)


@functools.lru_cache(maxsize=64)
def _dropout(text: str, width: int, edits: tuple, generator: drop.Generator, draws: int) -> drop.View:
    s = sentence.build(text, width)
    assert s.edits == edits  # the strategies' sentences carry no edits
    return drop.build(drop.Settings(s.labels, s.embeddings, 0.5, True, generator, 123, draws))


def heads_view(s: Sentence, kind: mh.Kind, h: int, d: int) -> heads.View:
    return heads.build(heads.Settings(s.labels, s.embeddings, "Custom", kind, h, s.width, d, 123))


def prose(step: Step) -> str:
    """Everything a step says, its quoted code left out."""
    q = step.question
    assert q is not None
    parts = (step.text, q.prompt, *q.options, q.answer_text, q.explanation, step.figure.highlight)
    return CODE.sub(" ", " ".join(parts))


# --- dropout: the answers are the Dropout view's ---------------------------------------------


@pytest.mark.parametrize("s", [BOOK, ONE, LONG], ids=["book", "one token", "32 tokens"])
def test_the_factor_is_the_views_survivor_factor(s):
    step = STEP["dropout_factor"].make(s)
    v = book_draw(s)
    assert step.question is not None
    assert step.question.answer == v.survivor_factor == 2.0
    assert drop.text.worked_factor(v.keep, v.factor) in step.question.answer_text
    assert step.question.judge(2).right and not step.question.judge(0.5).right


@pytest.mark.parametrize("s", [BOOK, ONE, LONG], ids=["book", "one token", "32 tokens"])
def test_the_factor_step_says_which_zeros_are_the_masks_and_which_were_dropped(s):
    """It said "the zeros are the ones dropped", though 15 of the book's are the causal mask's."""
    v, covered = book_draw(s), STEP["dropout_factor"].make(s).figure.covered
    hidden = np.triu(np.ones(v.first.shape, dtype=bool), k=1)
    zeros_dropped = int(((v.first == 0) & ~hidden).sum())  # the draw's zeros on or below the diagonal
    if s.n > 1:
        assert f"{zeros_dropped} of the {int((~hidden).sum())} weights" in covered
    else:
        assert ("its one weight was dropped" in covered) == (zeros_dropped == 1)
    assert (f"the {int(hidden.sum())} zeros above the diagonal are the causal mask's" in covered) == (s.n > 1)
    assert "the zeros are the ones dropped" not in covered
    if s is BOOK:
        assert "the 15 zeros above the diagonal are the causal mask's; 9 of the 21 weights" in covered


def test_the_factor_step_shows_the_books_printed_draw():
    v = book_draw(BOOK)
    assert v.book_draw and np.allclose(v.first, v.checks.run, atol=1e-6)  # the tensor the book prints
    step = STEP["dropout_factor"].make(BOOK)
    assert "exactly the tensor section 3.5.2 prints" in step.text
    assert "“Your” → “Your”, 1.0000 × 2 = 2.0000" in step.question.explanation  # type: ignore[union-attr]
    assert "exactly" in STEP["dropout_factor"].make(TWO).text and not book_draw(TWO).book_draw


@pytest.mark.parametrize("s", EDGES, ids=["book", "one", "two", "three", "repeat", "long"])
def test_one_draw_answers_from_the_views_row_sums(s):
    v = book_draw(s)
    step = STEP["dropout_one_draw"].make(s)
    q = step.question
    assert q is not None
    all_one = np.allclose(v.row_sums, 1.0, rtol=0, atol=part.SUMS_TO_ONE)
    assert q.answer == (0 if all_one else 1) == 1  # row 1 is 0 or 2, so never every row
    assert fmt.num(v.row_sums[0]) in q.explanation
    assert step.link["drop_focus"] == v.labels[v.dead_rows[0] - 1 if v.dead_rows else 0]


def test_one_draw_names_the_books_dead_row():
    v = book_draw(BOOK)
    assert v.dead_rows == (2,)
    q = STEP["dropout_one_draw"].make(BOOK).question
    assert q is not None and "Row 2, “journey”, lost every weight" in q.explanation
    assert q.answer_text == "no: the sums run from 0.0000 to 2.0000"


@pytest.mark.parametrize("s", [BOOK, ONE, LONG], ids=["book", "one token", "32 tokens"])
def test_the_average_is_the_views_expectation_with_its_monte_carlo_mean(s):
    v = numpy_draws(s)
    q = STEP["dropout_average"].make(s).question
    assert q is not None
    assert q.answer == v.expectation == 1.0
    assert drop.estimate(v.mean_row_sum, v.mean_row_sum_se) in q.answer_text
    lo, hi = drop.sampling.sampling_band(v.expectation, v.std, v.draws)  # 4 standard errors
    assert lo <= v.mean_row_sum <= hi
    assert q.judge(1).right and not q.judge(0.5).right  # 0.5: the average without the factor


# --- multi-head: the answers are the Multi-head view's ----------------------------------------


@pytest.mark.parametrize("s", [BOOK, ONE, LONG], ids=["book", "one token", "32 tokens"])
def test_d_out_is_per_head_in_the_wrapper_and_the_total_when_split(s):
    w, v = heads_view(s, "wrapper", 2, 2), heads_view(s, "split", 2, 2)
    q = STEP["heads_d_out"].make(s).question
    assert q is not None and v.output_split is not None
    assert q.options[int(q.answer)] == f"Wrapper {w.output_wrapper[-1]}, split {v.output_split[-1]}"
    assert (w.output_wrapper, v.output_split) == ((2, s.n, 4), (2, s.n, 2))  # the book's [2, 6, 4], [2, 6, 2]
    assert f"head_dim = d_out / num_heads = {v.head_dim}" in q.explanation


@pytest.mark.parametrize("n", range(1, 33))
def test_the_shape_after_transpose_is_the_traces_at_every_length(n):
    s = sentence.build(" ".join(f"w{i}" for i in range(n)), 3)
    h, d = part.split_settings(n)
    v = heads_view(s, "split", h, d)
    assert v.run is not None
    after = next(st.shape for st in v.run.steps if st.name == "heads first")
    assert after == (2, h, n, d // h)
    q = STEP["heads_shapes"].make(s).question
    assert q is not None
    assert q.options[int(q.answer)].startswith("(b, num_heads, num_tokens, head_dim)")
    assert q.options[int(q.answer)].endswith(heads.shape(after))
    assert sum(o.endswith(heads.shape(after)) for o in q.options) == 1, "two options name the same shape"
    moved = next(st.contiguous for st in v.run.steps if st.name == "heads first")  # the trace's column
    f = STEP["heads_shapes"].make(s).figure  # its captions say what the column means, by the trace
    text = f.covered + f.highlight
    assert "“contiguous” column says whether" in text
    assert f"after `.transpose(1, 2)`, {'yes too' if moved else 'no: a transpose'}" in text


@pytest.mark.parametrize("s", EDGES, ids=["book", "one", "two", "three", "repeat", "long"])
def test_one_big_projection_is_every_head_projected_on_its_own(s):
    h, d = part.split_settings(s.n)
    st = part._heads_settings(s, "split", h, d)
    same = part.sameness(s, st)
    q = STEP["heads_same"].make(s).question
    assert q is not None and q.answer == 0 and same.gap <= same.limit
    # The oracle: core's per-head loop (a CausalAttention per head over the same columns, then
    # out_proj) gives the class's output.
    params = mh.init_split(st.config, 123)
    batch = example_batch(s.embeddings, s.width)
    whole = mh.forward(batch, params).output
    assert np.allclose(mh.per_head_loop(batch, params), whole, rtol=0, atol=1e-12)


def test_a_head_projected_with_the_wrong_columns_differs():
    """The comparison can fail: head 2's own projection is not head 1's columns."""
    h, d = part.split_settings(BOOK.n)
    st = part._heads_settings(BOOK, "split", h, d)
    params = mh.init_split(st.config, 123)
    batch = example_batch(BOOK.embeddings, BOOK.width).astype(np.float64)
    head_1 = heads.head_projections("split", 3, d, h, 123, BOOK.n, BOOK.embeddings, 0)
    wrong = part.own_projection(batch, params.qkv.query, slice(d // h, 2 * d // h))
    assert np.abs(wrong - head_1.queries).max() > 1e-3


# --- every number stated is the views', every claim holds on their arrays ---------------------


def dropout_numbers(v: drop.View) -> list[str]:
    cells = [fmt.num(x) for x in (*v.weights.ravel(), *v.first.ravel(), *v.row_sums)]
    kept = np.argwhere(np.tril(v.first_keep))
    operands = [
        drop.operand(float(v.weights[i, j]), v.survivor_factor, float(v.first[i, j])) for i, j in kept
    ]
    return [
        *cells,
        *operands,
        drop.text.rate(v.p),
        f"{v.survivor_factor:.4g}",
        drop.text.worked_factor(v.keep, v.factor),
        f"{v.keep:g}",
        f"{v.expectation:g}",
        f"{v.draws:,}",
        drop.estimate(v.mean_row_sum, v.mean_row_sum_se),
        str(drop.BOOK_DROPOUT_SEED),
        *(str(r) for r in v.dead_rows),
    ]


def heads_numbers(v: heads.View, s: Sentence) -> list[str]:
    c, hd = v.config, v.head_dim or 0
    last = c.num_heads - 1
    return [
        str(x)
        for x in (c.d_in, c.d_out, c.num_heads, hd, s.n, heads.BATCH, v.output_wrapper[-1], last * hd + 1)
    ] + [heads.shape(v.output_wrapper), heads.shape(v.output_split), f"{c.num_heads * hd}"]


def check_dropout_claims(s: Sentence) -> None:
    v = book_draw(s)
    factor, draw = STEP["dropout_factor"].make(s), STEP["dropout_one_draw"].make(s)
    for step in (factor, draw):
        assert not unexplained(prose(step), dropout_numbers(v), SECTION_3_5), step.text
    at = part.survivor(v)
    if at is not None:  # the outlined survivor was kept and doubled
        i, j = at
        assert v.first_keep[i, j] and j <= i and v.first[i, j] == pytest.approx(2 * v.weights[i, j])
    assert v.row_sums[0] in (0.0, 2.0)  # "row 1 ... ends as 0 or 2"
    for r in v.dead_rows:  # "lost every weight"
        assert not v.first[r - 1].any()
    q = draw.question
    assert q is not None and f"{fmt.num(v.row_sums.min())} to {fmt.num(v.row_sums.max())}" in q.answer_text
    m = numpy_draws(s)
    average = STEP["dropout_average"].make(s)
    assert not unexplained(prose(average), dropout_numbers(m), ("1",)), average.text
    assert abs(m.mean_row_sum - 1.0) <= 5 * m.mean_row_sum_se  # "keeps its sum of 1 on average"


def check_heads_claims(s: Sentence) -> None:
    w, v = heads_view(s, "wrapper", 2, 2), heads_view(s, "split", 2, 2)
    step = STEP["heads_d_out"].make(s)
    stated = heads_numbers(w, s) + heads_numbers(v, s)
    assert not unexplained(prose(step), stated, ("3.6",)), step.text
    h, d = part.split_settings(s.n)
    v = heads_view(s, "split", h, d)
    assert v.head_dim == d // h and s.n not in (h, d // h)  # no two axes of a shape tie
    same = part.sameness(s, part._heads_settings(s, "split", h, d))
    assert same.gap <= same.limit  # "the same numbers"
    for key in ("heads_shapes", "heads_same"):
        step = STEP[key].make(s)
        stated = [*heads_numbers(v, s), fmt.noise(same.gap, same.limit)]
        assert v.run is not None
        stated += [heads.shape(st.shape) for st in v.run.steps]
        assert not unexplained(prose(step), stated, ("3.6",)), step.text


@pytest.mark.parametrize("s", EDGES, ids=["book", "one", "two", "three", "repeat", "long"])
def test_the_claims_at_the_edges(s):
    check_dropout_claims(s)
    check_heads_claims(s)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences())
def test_every_number_is_the_views_and_every_claim_holds(s):
    check_dropout_claims(s)
    check_heads_claims(s)
