"""The tour as a tutor runs it (issue 35): the figure is on screen before every guess with only the
answer covered, no answer's value is shown anywhere before its reveal, and the number judge is fair
(symmetric, stated, with the guess repeated as typed)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from core import sentence
from topics import PAGES, page_of
from topics.read_along import view
from topics.read_along.drawings import draw
from topics.read_along.drawings.drawn import Drawn
from topics.read_along.step import Question
from topics.read_along.steps import STEPS

OTHER = "the cat sat on the mat because it was warm"  # a reader's own sentence, as the issue tried
REPEATS = "the cat the cat sat on the mat"  # the asked tokens of steps 4 and 7 repeat (issue 43)
SIDEBAR = " ".join(p.title for p in PAGES)  # the navigation names every page, at every step


def _drawn_text(d: Drawn) -> str:
    spec = "" if d.figure is None else json.dumps(d.figure.to_plotly_json(), default=str, ensure_ascii=False)
    return " ".join([spec, d.table.to_csv(), d.name, d.note or "", d.table_name or ""])


def _shown(s: sentence.Sentence) -> list[tuple[str, Question | None, str, str]]:
    """Each step: its key, question, what it shows before the reveal, and what it adds after."""
    out = []
    for d in STEPS:
        step = d.make(s)
        f, q = step.figure, step.question
        link = " ".join(f"{k}={v}" for k, v in step.link.items())  # the step's own link and its page
        before = [SIDEBAR, d.title, step.text, page_of(d.topic).title, link]
        after = [f.highlight, f.name, _drawn_text(draw(f)), step.code.text() if step.code else ""]
        if q is None:
            before += after
            after = []
        else:
            before += [q.prompt, q.hint, q.rule, f.covered, _drawn_text(draw(replace(f, hide=True)))]
            before += [step.code.text(hide=True) if step.code else ""]  # the book's code, covered
            after += [q.answer_text, q.explanation]
        out.append((d.key, q, " ".join(before), " ".join(after)))
    return out


@pytest.mark.parametrize("text", [sentence.BOOK_TEXT, OTHER, REPEATS], ids=["book", "other", "repeats"])
def test_no_answer_is_on_screen_before_its_reveal(text):
    """Walk the tour: each question's giveaway values are absent from its step before the reveal
    (the sidebar's page names, title, text, prompt, hint, the covered figure's spec and table, the
    step's link and its page's name) and from every earlier step, answered."""
    s = sentence.book() if text == sentence.BOOK_TEXT else sentence.build(text)
    seen = ""
    asked = 0
    for key, q, before, after in _shown(s):
        if q is not None:
            asked += 1
            assert q.secrets or q.is_choice, key  # a number always names its value
            for secret in q.secrets:  # as printed, or as a figure's raw number
                for form in {secret, secret.replace(",", "")}:
                    found = re.search(rf"(?<![\d.]){re.escape(form)}(?![\d])", seen + before)
                    assert found is None, (key, secret)
        seen += before + after
    assert asked >= 10


@pytest.mark.parametrize("key", ["asymmetry", "tied_limit"])
@pytest.mark.parametrize("text", [REPEATS, "journey starts journey starts with one step"])
def test_a_repeated_words_mirror_cells_are_covered_too(key, text):
    """A repeated word has the same embedding, so its row and column repeat the asked token's
    numbers: every cell holding a covered cell's number is covered, in the heatmap and its table."""
    step = next(d for d in STEPS if d.key == key).make(sentence.build(text))
    hidden = draw(replace(step.figure, hide=True))
    v = step.figure.data
    m = v.trace.scores if key == "asymmetry" else v.attention
    covered = hidden.table.to_numpy(dtype=str) == "?"
    if key == "asymmetry":  # the asked scores, wherever they stand
        same = np.isin(m, m[covered])
    else:  # the asked rows of weights, wherever a row repeats one
        rows = np.flatnonzero(covered.all(axis=1))
        same = np.array([[any(np.array_equal(r, m[i]) for i in rows)] * len(r) for r in m])
    assert same.sum() > 2 * (2 if key == "asymmetry" else m.shape[1])  # the sentence does repeat them
    np.testing.assert_array_equal(covered, same)
    assert hidden.figure is not None
    spec = json.dumps(hidden.figure.to_plotly_json(), default=str)  # the heatmap prints "?" there too
    assert spec.count('"?"') >= covered.sum()
    assert "repeated words" in step.figure.covered


def test_a_hidden_answers_neighbours_and_labels_are_covered():
    """Step 21's next row (2²⁰ tokens, next door to the asked window) held the cards to buy, and step
    10's chart labelled the hidden curve where it leaves the chart ("↓ 5.4e-10 at 2,048")."""
    steps = {d.key: d.make(sentence.book()) for d in STEPS if d.key in ("frontier", "gradient")}
    frontier = steps["frontier"].figure
    shown = draw(frontier).table["cards to buy"]
    answer = str(shown[[i for i in shown.index if "current" in i]].iloc[0])  # 26 at the book's settings
    cards = draw(replace(frontier, hide=True)).table["cards to buy"].astype(str).tolist()
    assert "?" in cards and answer not in cards, cards
    gradient = steps["gradient"].figure
    shown_fig, hidden_fig = draw(gradient).figure, draw(replace(gradient, hide=True)).figure
    assert shown_fig is not None and hidden_fig is not None
    labels = [str(a.text) for a in shown_fig.layout.annotations]
    hidden = [str(a.text) for a in hidden_fig.layout.annotations]
    assert any(t.startswith("↓") for t in labels) and not any(t.startswith("↓") for t in hidden), hidden


@pytest.mark.parametrize("d", [d for d in STEPS if d.asks], ids=[d.key for d in STEPS if d.asks])
def test_every_prediction_step_shows_a_figure_or_table_before_its_reveal(d):
    step = d.make(sentence.book())
    assert step.question is not None and step.figure.covered, d.key
    hidden, shown = draw(replace(step.figure, hide=True)), draw(step.figure)
    assert hidden.figure is not None or len(hidden.table), d.key
    nothing = step.figure.covered.startswith("nothing")  # the figure does not hold the answer
    assert nothing or _drawn_text(hidden) != _drawn_text(shown), d.key  # something is covered


def _numbers() -> list[tuple[str, Question]]:
    out = []
    for text in (sentence.BOOK_TEXT, OTHER):
        s = sentence.book() if text == sentence.BOOK_TEXT else sentence.build(text)
        for d in STEPS:
            q = d.make(s).question
            if q is not None and not q.is_choice:
                out.append((f"{d.key}-{len(s.labels)}", q))
    return out


NUMBERS = _numbers()


@pytest.mark.parametrize(("key", "q"), NUMBERS, ids=[k for k, _ in NUMBERS])
def test_guesses_either_side_of_a_numeric_answer_get_the_same_verdict(key, q):
    """0.5% and 2.5% above and below every numeric answer: the same verdict on each side."""
    a = float(q.answer)
    for share in (0.005, 0.025):
        above, below = q.judge(a * (1 + share)), q.judge(a * (1 - share))
        assert above.right == below.right, (key, share)
    assert q.judge(a).right is True
    assert q.rule and ("%" in q.rule or "whole number" in q.rule), key


@settings(max_examples=60, deadline=None)
@given(
    answer=hs.floats(0.01, 1e7),
    share=hs.floats(0, 0.2),
    whole=hs.booleans(),
)
def test_the_judge_is_symmetric_around_the_answer(answer, share, whole):
    a = float(round(answer)) if whole else answer
    q = Question("?", (), a, str(a), "", tolerance=0.05, relative=not whole, whole=whole)
    assert q.right(a * (1 + share)) == q.right(a * (1 - share)) or whole


def test_a_verdict_repeats_the_guess_as_typed_with_its_plural():
    q = Question("How many?", (), 2.0, "2 bytes", "", tolerance=0.05, relative=True, unit=("byte", "bytes"))
    assert "you said 1 byte;" in q.judge(1).headline
    assert "you said 1.006 bytes" in q.judge(1.006).headline
    assert q.judge(1.95).right and q.judge(2.05).right and not q.judge(2.2).right
    rows = Question("Rows?", (), 5.0, "5 of 6", "", whole=True, unit=("row", "rows"))
    assert rows.judge(4.6).right and rows.judge(5.4).right and not rows.judge(4.4).right
    assert "4.4 rows (rounded to 4)" in rows.judge(4.4).headline
    assert "whole number" in rows.rule and "5%" in q.rule


def test_the_end_sums_up_the_six_ideas_and_lists_the_misses():
    asked = view.asking()
    tally = {k: i % 3 != 0 for i, k in enumerate(asked)}
    end = view.summary(tally)
    assert len(end.ideas) == 6 and all(1 <= i.step <= len(STEPS) for i in end.ideas)
    assert [m.step for m in end.missed] == [STEPS.index(next(d for d in STEPS if d.key == k)) + 1
                                            for k in asked if not tally[k]]  # fmt: skip
    right = sum(tally.values())
    assert f"{right} of {len(asked)}" in end.heading
    assert view.tally_text({"a": True, "b": False}, 20).startswith("1 of 2 predictions right")
