"""The √d_k and masking steps of the read-along: each question's answer is the topic view's value at
the reader's sentence (the Divide by √d_k page's study, the Masking the future page's paths), at the
book's sentence and where the answer or its wording flips; and every number the steps state is
one those views hold, formatted as the pages format it."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from core import sentence as core_sentence
from core import weights as core_weights
from core.sentence import Sentence
from tests.prose import unexplained
from tests.strategies import sentences
from topics.masking import view as masking
from topics.read_along.drawings import draw
from topics.read_along.step import Step
from topics.read_along.steps import scaling_masking as part
from topics.scaling import text as scaling_text
from topics.scaling import view as scaling
from ui import format as fmt

BOOK = core_sentence.book()
ONE = core_sentence.build("word")
TWO = core_sentence.build("a b")  # n = 2 = d_k: √n is √d_k's number
SAME = core_sentence.build("the the the")  # a repeated word: three tied rows
WIDE = core_sentence.build("the cat sat on the mat", 16)
# Section 3.4's weights on 16-wide inputs of ±9.99: the naive path loses row 1's visible weights
# (tests/masking/test_masking_noise.py), so the two ways differ by more than rounding.
BROKEN_EDITS = "a-999b999c999d-999e999f999h-999i999_a999b999c999d999e-999f999g999h999j999"
# What the steps say that no view computes: section numbers, code (`keys.shape[-1]**0.5`), N(0, 1),
# e^0 = 1, the logits' own "0" and the options' "0".
CONSTANTS = ("3.4", "3.5", "-1", "0.5", "0", "1", "4")


@functools.cache  # the page's study does not depend on the sentence: one a setting per run
def scaling_view(d_k: int, divisor: bool) -> scaling.View:
    """The page's view as the page builds it at the steps' setting (the step's own reference is not
    shown, so any will do: the smallest)."""
    refs = scaling.references(draws=part.REFERENCE_DRAWS)
    return scaling.build(scaling.Settings(d_k=d_k, divisor=divisor, draws=part.DRAWS), reference=lambda: refs)


def masking_view(s: Sentence, **kw) -> masking.View:
    return masking.build(masking.Settings(labels=s.labels, x=s.embeddings, **kw))


def said(step: Step) -> list[str]:
    """Every string a step shows: its paragraph, question, answer, explanation and highlight."""
    out = [step.text, step.figure.highlight, step.figure.name]
    q = step.question
    if q is not None:
        out += [q.prompt, *q.options, q.answer_text, q.explanation]
    return out


def estimate(v: scaling.View, divisor: bool | None = None) -> dict[str, str]:
    """The page's own rounding (``topics.scaling.text``) of the study's figures at the view's d_k."""
    here = v.here
    assert here is not None
    m = here.summary(v.settings.divisor if divisor is None else divisor)
    return {
        "std": scaling_text.estimate(here.std, here.std_se),
        "median": scaling_text.estimate(m.median, m.median_se),
        "live": scaling_text.share(m.live_share, m.live_se),
    }


# --- the square root of which width --------------------------------------------------------------


@pytest.mark.parametrize("s", [BOOK, TWO, WIDE, ONE], ids=["book", "n=2", "wide", "one"])
def test_the_width_is_the_keys_width_the_view_divides_by(s):
    step = part.which_width(s)
    v = scaling_view(2, True)  # d_out of W_key: the book's keys are 2 wide at any sentence width
    q = step.question
    assert q is not None and not q.is_choice and q.answer == 2.0  # √(4 · 2) / √2
    assert "d_k" not in q.prompt.split(":")[-1] and "√" not in q.prompt  # the page's name does not answer it
    assert q.answer_text.startswith("2 times") and "√8 / √2 = 2" in q.answer_text
    assert f"√2 = {fmt.num(v.sqrt_d_k)}" in q.explanation and "1.4142" in q.explanation
    assert q.right(2.05) and not q.right(4)
    assert f"measures {estimate(v)['std']} over {v.draws:,} draws" in q.explanation
    assert f"n = {s.n} token" in step.text and f"d_in = {s.width} numbers" in step.text
    assert ("as well" in q.explanation) == (s.n == 2)  # √n = √2 too: said, and still not the answer
    assert step.link == {"d_k": "2", "draws": str(part.DRAWS)}


# --- saturation and the gradient -----------------------------------------------------------------


def test_without_the_divisor_one_key_takes_the_weight_of_the_pages_draw():
    step = part.saturation(BOOK)
    v = scaling_view(768, False)
    top = int(np.argmax(v.log10_weights))
    assert f"key k{top + 1} takes all the weight but {fmt.sci(10**v.log10_rest)}" in step.text
    assert f"from {fmt.num(min(v.scores))} to {fmt.num(max(v.scores))}" in step.text
    assert f"√768 = {fmt.num(v.sqrt_d_k)}" in step.text
    assert ("turned into a step" in step.text) == (v.log10_rest < np.log10(v.threshold))
    assert step.link == {"d_k": "768", "draws": str(part.DRAWS), "divisor": "false"}


def test_the_gradient_fades_by_the_studys_own_figures():
    step = part.gradient(BOOK)
    off, on = scaling_view(768, False), scaling_view(768, True)
    q = step.question
    assert q is not None
    raw, scaled = off.summary, on.summary
    assert raw is not None and scaled is not None
    gap = scaled.median - raw.median
    assert gap > off.z_tolerance * np.hypot(raw.median_se, scaled.median_se)  # smaller, beyond noise
    assert q.options[int(q.answer)].startswith("Smaller")
    without, with_ = estimate(off)["median"], estimate(on)["median"]
    assert q.answer_text == f"smaller: {without} without the divisor"
    assert with_ in q.prompt and f"{without} without the divisor against {with_} with it" in q.explanation
    assert f"{estimate(off)['live']} of draws" in q.explanation and estimate(on)["live"] in q.explanation
    assert estimate(off)["std"] in q.explanation
    assert f"Circled: the median without the divisor at d_k = 768, {without}" in step.figure.highlight


def test_the_scaling_steps_draw_within_budget_from_a_warm_study():
    """The study of 19 d_k is cached per process: a second visit only draws."""
    for make in (part.which_width, part.saturation, part.gradient):
        draw(make(BOOK).figure)
    assert part._study.cache_info().currsize == 1  # one study serves the three steps


# --- which triangle ------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [BOOK, SAME, ONE], ids=["book", "repeated", "one"])
def test_the_triangle_is_where_the_views_scores_are_minus_infinity(s):
    step = part.which_triangle(s)
    v = masking_view(s, stage=2)
    hidden = np.isneginf(v.efficient.matrix)
    np.testing.assert_array_equal(hidden, np.triu(np.ones((s.n, s.n), dtype=bool), k=1))
    q = step.question
    assert q is not None and q.answer == 0 and q.options[0].startswith("Above the diagonal")
    if s.n > 1:
        assert f"marks the {int(hidden.sum())} cells above the diagonal" in q.explanation
        assert q.answer_text == "above the diagonal"
        assert step.link == {"stage": "2", "mask_focus": s.labels[0], "mask_cell": s.labels[1]}
    else:
        assert "nothing above the diagonal" in q.explanation and not hidden.any()
    if s is BOOK:
        assert "the 15 cells" in q.explanation


# --- a zero score ----------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [BOOK, SAME, WIDE], ids=["book", "repeated", "wide"])
def test_a_zero_score_gets_the_weight_the_views_zero_fill_gives(s):
    step = part.zero_score(s)
    v = masking_view(s, fill="zero")
    q = step.question
    assert q is not None
    weight, leak = float(v.masked[0, 1]), float(v.future["zero"][0])
    assert weight > 0 and q.answer == 1 and q.options[1] == "More than 0"
    assert q.answer_text == f"more than 0: {fmt.num(weight)}"
    assert f"hands {fmt.num(leak)} of its attention to the {s.n - 1} later tokens" in q.explanation
    assert v.future["-inf"][0] == 0 and "against 0 with −∞" in q.explanation
    if s is BOOK:
        assert q.answer_text == "more than 0: 0.1606" and "hands 0.8029" in q.explanation
    assert step.link["fill"] == masking.FILL_LABELS["zero"]


def test_one_token_has_no_future_so_the_counterexample_row_asks_instead():
    step = part.zero_score(ONE)
    v = masking_view(ONE, fill="zero")
    w = v.softmax.weights
    assert w is not None
    q = step.question
    assert q is not None and q.answer == 1 and step.figure.kind == "masking_softmax"
    assert q.answer_text == f"more than 0: {fmt.num(w[3])}" == "more than 0: 0.0311"
    assert fmt.vec(v.logits, 1) in q.prompt and v.logits[3] == 0


# --- two ways --------------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [BOOK, ONE, WIDE], ids=["book", "one", "wide"])
def test_the_two_ways_agree_to_the_bound_the_view_states(s):
    step = part.two_ways(s)
    v = masking_view(s)
    q = step.question
    assert q is not None and not len(v.broken) and q.answer == 0
    assert np.abs(v.sealed).max() <= v.limit
    bound = fmt.noise(v.largest, v.limit)
    assert q.answer_text == f"yes: the largest difference is {bound}" and "cancels" in q.explanation
    if s is BOOK:
        assert bound == "below 4e-15 (float64 rounding)"
    if s is ONE:
        assert bound == "0 (exactly)" and step.figure.highlight == "The only cell is exactly 0."


def test_where_float64_breaks_the_naive_way_the_answer_is_no(monkeypatch):
    s = core_sentence.build("a b", 10, BROKEN_EDITS)

    def section_3_4(s: Sentence, **kw) -> masking.View:  # the weights under which float64 breaks it
        return masking.build(
            masking.Settings(labels=s.labels, x=s.embeddings, weights=core_weights.section_3_4(), **kw)
        )

    monkeypatch.setattr(part, "masking_view", section_3_4)
    step = part.two_ways(s)
    v = section_3_4(s)
    q = step.question
    assert q is not None and len(v.broken) and q.answer == 1
    assert q.answer_text == f"no: the largest difference is {v.largest_text}" and "row 1" in q.explanation
    draw(step.figure)  # the 0/0 cells are tabled as text, never as NaN


# --- every number from the views, at any sentence --------------------------------------------------


def stated(s: Sentence) -> list[str]:
    """The views' values at ``s``, formatted as the pages format them: what the steps may state."""
    out = [str(s.n), str(s.width), *s.labels, *(fmt.md(t) for t in s.labels)]
    for d_k, divisor in ((2, True), (768, False), (768, True)):
        v = scaling_view(d_k, divisor)
        out += [str(d_k), f"{d_k:,}", fmt.num(v.sqrt_d_k), f"{v.draws:,}", str(v.settings.n_keys - 1)]
        out += [*estimate(v).values(), fmt.num(min(v.scores)), fmt.num(max(v.scores))]
        out += [fmt.sci(10**v.log10_rest), fmt.sci(v.threshold, 0), f"k{int(np.argmax(v.log10_weights)) + 1}"]
    zero, causal, stage2 = masking_view(s, fill="zero"), masking_view(s), masking_view(s, stage=2)
    out += [fmt.num(x) for x in zero.masked.ravel()] + [fmt.num(x) for x in zero.future["zero"]]
    out += [str(int(np.isneginf(stage2.efficient.matrix).sum())), str(s.n - 1), causal.largest_text]
    out += [fmt.noise(causal.largest, causal.limit), fmt.vec(zero.logits, 1), *causal.cells[0]]
    w = zero.softmax.weights
    out += [fmt.num(x) for x in (w if w is not None else ())]
    out += [part.weight_text(x) for x in causal.runs.naive[2].matrix.sum(axis=-1)]  # rows renormalised
    out += [str(core_weights.section_3_5().seed), str(core_weights.section_3_4().seed)]
    return out


def claims_hold(s: Sentence, steps: dict[str, Step]) -> None:
    """Each step's claim, checked on the views' raw arrays."""
    width, triangle, zero, ways = (
        steps[k] for k in ("which_width", "which_triangle", "zero_score", "two_ways")
    )
    assert width.question is not None and width.question.answer == 2.0  # the spread's factor, √4
    m = masking_view(s, stage=2).efficient.matrix
    np.testing.assert_array_equal(np.isneginf(m), np.triu(np.ones((s.n, s.n), dtype=bool), k=1))
    assert triangle.question is not None and triangle.question.answer == 0
    if s.n > 1:
        w = masking_view(s, fill="zero").masked[0, 1]
        assert zero.question is not None and zero.question.answer == int(w > 0)
    v = masking_view(s)
    assert ways.question is not None and ways.question.answer == int(bool(len(v.broken)))
    if not len(v.broken):
        assert np.abs(v.sealed).max() <= v.limit


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences())
def test_every_number_the_steps_state_is_a_views_value(s):
    steps = {d.key: d.make(s) for d in part.STEPS}
    pool = stated(s)
    for step in steps.values():
        for text in said(step):
            assert not unexplained(text, pool, CONSTANTS), (text, unexplained(text, pool, CONSTANTS))
    claims_hold(s, steps)
