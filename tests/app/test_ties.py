"""A tie reads as a tie on every page with a focused query (issue 38, item 1).

With ``?text=go go go go go``, Masking and Dropout once said "Its row … gives most weight to *go*
(0.3333)" of a row whose every live weight was 1/3, and Learning to attend the same of a five-way
tie at 0.2000. Every page now writes that sentence with :func:`ui.format.most_weight`, in its view.
Here the views themselves are called, on random sentences full of repeated words (a repeated
word has one embedding, so its keys tie exactly), for every query, and the sentence each view
wrote is read against the row the heatmap prints.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.sentence import MAX_WIDTH, MIN_WIDTH, build
from topics.dropout import view as dropout
from topics.learning import reach, training
from topics.learning import view as learning
from topics.masking import view as masking
from topics.three_matrices import view as three
from ui import format as fmt

CHEAP = training.TrainConfig(lr=0.05, steps=40, record_every=40)


@st.composite
def repeating(draw: st.DrawFn):
    """A sentence of 2 to 7 tokens drawn from three words, so most sentences repeat one."""
    words = draw(st.lists(st.sampled_from(("go", "stop", "now")), min_size=2, max_size=7))
    return build(" ".join(words), draw(st.integers(MIN_WIDTH, min(MAX_WIDTH, 6))))


def check(sentence: str, row: np.ndarray, labels: tuple[str, ...]) -> None:
    """``sentence`` names one key as taking most weight only when that key alone prints largest."""
    printed = [fmt.num(w) for w in row]
    top = max(printed, key=float)
    shared = printed.count(top) > 1
    exactly_shared = np.count_nonzero(row == row.max()) > 1
    assert not ((shared or exactly_shared) and "gives most weight" in sentence), (sentence, printed)
    if "gives most weight to" in sentence:
        assert f"*{fmt.md(labels[int(np.argmax(row))])}*" in sentence, (sentence, printed)
    if "alike" in sentence:
        assert len(set(printed)) == 1, (sentence, printed)
    if "shares its most weight" in sentence:
        assert 1 < printed.count(top) < len(row), (sentence, printed)
        assert f"{top} each" in sentence


@settings(max_examples=15, deadline=None)
@given(repeating(), st.sampled_from(("none", "tied", "three")))
def test_three_matrices_reads_a_tie_as_a_tie(s, mode):
    v = three.build(three.Settings(s.labels, s.embeddings, s.is_book, mode=mode))
    for q in range(s.n):
        f = three.focused(v, q, None).focus
        assert f is not None
        check(f.most, f.weights, s.labels)


@settings(max_examples=15, deadline=None)
@given(repeating())
def test_masking_reads_a_tie_as_a_tie(s):
    v = masking.build(masking.Settings(s.labels, s.embeddings))
    for q in range(s.n):
        f = masking.focused(v, q, None).focus
        assert f is not None
        check(f.most, f.weights, s.labels)


@settings(max_examples=10, deadline=None)
@given(repeating(), st.sampled_from((0.0, 0.0, 0.5)), st.integers(0, 99))
def test_dropout_reads_a_tie_as_a_tie(s, p, seed):
    """At p = 0 the draw keeps every weight, so a repeated word's ties survive into it."""
    v = dropout.build(dropout.Settings(s.labels, s.embeddings, p=p, seed=seed, draws=dropout.DRAWS[0]))
    for q in range(s.n):
        f = dropout.focused(v, q, None).focus
        assert f is not None
        check(f.most, f.weights, s.labels)


def cheap_limits(kind, token, width, x):
    """The evidence with a one-start, 40-step search: the focus sentence does not read it."""
    target = training.target_pattern(kind, len(x), token)
    return reach.search(x, target, width, starts=1, config=CHEAP), reach.linear_reach(x, target)


@settings(max_examples=8, deadline=None)
@given(repeating(), st.sampled_from(("uniform", "previous", "first")))
def test_learning_reads_a_tie_as_a_tie(s, target):
    v = learning.base(
        learning.Settings(s.labels, s.embeddings, target, steps=100, step=100), limits=cheap_limits
    )
    for q in range(s.n):
        f = learning.focused(v, q, None)
        assert f.focus_most is not None and f.focus_weights is not None
        check(f.focus_most, f.focus_weights, s.labels)


def test_the_audits_sentence_reads_as_ties_on_every_page():
    """The audit's own setting, ``go go go go go``: the rows it quoted."""
    s = build("go go go go go", 3)
    masked = masking.focused(masking.build(masking.Settings(s.labels, s.embeddings)), 2, None).focus
    assert (
        masked is not None
        and "shares its most weight, 0.3333 each, between *go*, *go²* and *go³*" in masked.most
    )
    drawn = dropout.focused(dropout.build(dropout.Settings(s.labels, s.embeddings, p=0.0)), 2, None).focus
    assert drawn is not None and "shares its most weight, 0.3333 each" in drawn.most
    uniform = learning.Settings(s.labels, s.embeddings, "uniform", steps=100, step=100)
    learned = learning.focused(learning.base(uniform, limits=cheap_limits), 1, None)
    assert learned.focus_most == "Its row of A weighs all five keys alike (0.2000 each)."


def test_the_reader_above_rejects_the_old_sentence():
    """:func:`check` is not vacuous: the sentence the audit found fails it."""
    row, labels = np.array([1 / 3, 1 / 3, 1 / 3, 0.0, 0.0]), ("go", "go²", "go³", "go⁴", "go⁵")
    with pytest.raises(AssertionError):
        check("Its row of the masked A gives most weight to *go* (0.3333).", row, labels)
    with pytest.raises(AssertionError):
        check("Its row of A weighs all five keys alike (0.3333 each).", row, labels)
    check(fmt.most_weight(row, labels), row, labels)
