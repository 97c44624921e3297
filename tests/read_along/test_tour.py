"""The read-along tour as a whole: every step builds, draws and asks a fair question at the
reader's sentence, the tour has the length and the predictions issue #21 asks for, and a link's
``step`` value always opens a step."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from core import sentence
from tests.strategies import sentences
from topics import ORDER, page_of
from topics.read_along import view
from topics.read_along.drawings import DRAWINGS, draw
from topics.read_along.step import StepDef
from topics.read_along.steps import STEPS

MAX_WORDS = 90  # "about 80 words at most": a paragraph, not an essay
IDS = [d.key for d in STEPS]


def words(markdown: str) -> int:
    return len(markdown.split())


def check_step(d: StepDef, s: sentence.Sentence) -> None:
    """One step at one sentence: its text, its figure, its question and its link."""
    step = d.make(s)
    assert 0 < words(step.text) <= MAX_WORDS, (d.key, words(step.text))
    assert step.figure.kind in DRAWINGS, d.key
    assert step.figure.name and step.figure.highlight, d.key
    drawn = draw(step.figure)
    values = drawn.table.select_dtypes("number").to_numpy(dtype=np.float64)
    assert np.isfinite(values).all(), d.key
    if drawn.figure is not None:
        for trace in drawn.figure.data:
            for axis in ("x", "y", "z"):
                data = getattr(trace, axis, None)
                if data is not None and np.asarray(data).dtype.kind in "fi":
                    assert np.isfinite(np.asarray(data, dtype=np.float64)).all(), (d.key, axis)
    q = step.question
    if q is not None:
        assert q.prompt and q.explanation and q.answer_text, d.key
        if q.is_choice:
            assert len(q.options) >= 2 and 0 <= q.answer < len(q.options), d.key
            assert q.judge(q.answer).right is True
            assert q.judge((int(q.answer) + 1) % len(q.options)).right is False
        else:
            assert np.isfinite(q.answer) and q.tolerance >= 0, d.key
            assert q.judge(q.answer).right is True
            assert q.judge(q.answer + 2 * q.tolerance + abs(q.answer) + 1).right is False
        assert q.judge(None).right is None
    declared = set(page_of(d.topic).keys)
    assert set(step.link) <= declared, (d.key, set(step.link) - declared)


def test_the_tour_has_20_to_40_steps_and_10_predictions():
    assert 20 <= len(STEPS) <= 40, len(STEPS)
    book = sentence.book()
    asked = [d.key for d in STEPS if d.make(book).question is not None]
    assert len(asked) >= 10, asked
    assert len(set(IDS)) == len(IDS), "two steps share a key"


def test_the_steps_follow_the_chapter():
    """Steps walk the topics in the chapter's order, never back."""
    at = [ORDER.index(d.topic) for d in STEPS]
    assert at == sorted(at), [d.topic for d in STEPS]
    # The whole layer gathers what the steps teach one by one; the Class page is a teacher's tool.
    assert {d.topic for d in STEPS} >= set(ORDER) - {"overview", "read_along", "layer", "classroom"}


@pytest.mark.parametrize("d", STEPS, ids=IDS)
def test_each_step_at_the_books_sentence(d):
    check_step(d, sentence.book())


@pytest.mark.parametrize("d", STEPS, ids=IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=sentences())
def test_each_step_at_any_sentence(d, s):
    check_step(d, s)


@pytest.mark.parametrize(
    ("raw", "expected", "said"),
    [
        ("3", 3, False),
        ("0", 1, True),
        ("-4", 1, True),
        ("999", None, True),
        ("2.6", 3, True),
        ("abc", 1, True),
        ("", 1, True),
        ("nan", 1, True),
        ("inf", None, True),
        ("1e999", None, True),
    ],
)
def test_a_links_step_opens_the_nearest_step(raw, expected, said):
    total = len(STEPS)
    at, problem = view.nearest(raw, total)
    assert at == (total if expected is None else expected)
    assert (problem is not None) == said


def test_the_view_builds_only_the_step_asked_for():
    built = []

    def make(key):
        def f(s):
            built.append(key)
            return STEPS[0].make(s)

        return f

    fake = tuple(StepDef(k, "recap", k, make(k)) for k in ("a", "b", "c"))
    t = view.build(2, sentence.book(), fake)
    assert built == ["b"] and t.number == 2 and t.total == 3 and t.titles == ("a", "b", "c")
    with pytest.raises(ValueError):
        view.build(4, sentence.book(), fake)


def test_the_readme_counts_the_tour_as_it_is():
    """The README's first paragraph on the tour states its length and its predictions."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    steps = re.search(r"the chapter in (\d+) short steps", text)
    asked = re.search(r"on (\d+) of them, a prediction", text)
    assert steps and asked
    book = sentence.book()
    assert int(steps.group(1)) == len(STEPS)
    assert int(asked.group(1)) == sum(d.make(book).question is not None for d in STEPS)


@pytest.mark.parametrize("d", STEPS, ids=IDS)
def test_no_step_names_the_posts_figures_or_an_audit(d):
    """The page test reads step 1 only; every step's words, at the book's sentence, speak to a
    learner too (tests/app/test_wording.py)."""
    from tests.app.test_wording import UNREADABLE

    step = d.make(sentence.book())
    q = step.question
    words = [d.title, step.text, step.figure.name, step.figure.highlight]
    if q is not None:
        words += [q.prompt, q.answer_text, q.explanation, *q.options]
    found = [m.group(0) for w in words for m in UNREADABLE.finditer(w)]
    assert found == [], found
