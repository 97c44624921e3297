"""Every number and sentence the Class page shows, from the class's first guesses: pure, no Streamlit.

The questions are the tour's own (``topics.read_along``), built at the class's sentence, so the
answer marked and the hint quoted are the ones the learners' tour shows. This topic reads the
tour's steps as the tour reads the other topics' views; it imports no page.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from core.sentence import Sentence
from topics.read_along.step import Question, StepDef, typed
from topics.read_along.steps import STEPS
from ui.class_store import Guess

BINS = 7  # a number's guesses: the right band in the middle, three bands each side, and beyond


@dataclass(frozen=True)
class StepRow:
    number: int  # the step's place in the tour, 1-based
    key: str
    title: str
    answered: int
    right: int

    @property
    def share(self) -> str:
        return f"{self.right / self.answered:.0%}" if self.answered else "–"


@dataclass(frozen=True)
class Split:
    """The first guesses at one step: a bar per option (or per band of numbers)."""

    title: str
    labels: tuple[str, ...]
    counts: tuple[int, ...]
    answer: int  # the bar holding the answer
    answered: int
    summary: str  # the split in words, for the chart's caption and a screen reader
    wrong: str | None  # the most common wrong guess, with the tour's hint
    unmarked: str = ""  # the split in words without the answer: the projector's caption


def asking(steps: Sequence[StepDef] = STEPS) -> list[tuple[int, StepDef]]:
    return [(i, d) for i, d in enumerate(steps, 1) if d.asks]


def learners_path(code: str, sentence: str | None) -> str:
    """The tour's address for a class's learners: its code, and the class's sentence if it has one."""
    return "/read-along?" + urlencode({"class": code} | ({"text": sentence} if sentence else {}))


def step_title(key: str, steps: Sequence[StepDef] = STEPS) -> str:
    """``Step 4: <title>`` for the step ``key`` of the tour."""
    return next(f"Step {i}: {d.title}" for i, d in enumerate(steps, 1) if d.key == key)


def rows(guesses: Sequence[Guess], steps: Sequence[StepDef] = STEPS) -> list[StepRow]:
    """Per prediction of the tour: how many answered, and how many were right at the first try."""
    answered = Counter(g.step for g in guesses)
    right = Counter(g.step for g in guesses if g.right)
    return [StepRow(i, d.key, d.title, answered[d.key], right[d.key]) for i, d in asking(steps)]


def question(key: str, s: Sentence, steps: Sequence[StepDef] = STEPS) -> Question | None:
    d = next((d for d in steps if d.key == key), None)
    return None if d is None else d.make(s).question


def _room(q: Question) -> float:
    a = float(q.answer)
    room = q.tolerance * abs(a) if q.relative else q.tolerance
    if q.whole:
        room = 0.5
    return room if room > 0 else max(abs(a) * 0.05, 0.5)


def bands(q: Question) -> list[tuple[float, float]]:
    """A number's bands: the right one (the answer ± what counts) in the middle, then bands as wide
    on either side, the outer two open-ended."""
    a, w = float(q.answer), 2 * _room(q)
    half = BINS // 2
    edges = [a - w / 2 + k * w for k in range(-half, half + 2)]
    return [
        (-math.inf if i == 0 else edges[i], math.inf if i == BINS - 1 else edges[i + 1]) for i in range(BINS)
    ]


def _band_label(lo: float, hi: float) -> str:
    if lo == -math.inf:
        return f"below {typed(round(hi, 6))}"
    if hi == math.inf:
        return f"{typed(round(lo, 6))} or more"
    return f"{typed(round(lo, 6))} to {typed(round(hi, 6))}"


def split(title: str, q: Question, guesses: Sequence[Guess]) -> Split:
    if q.is_choice:
        labels = tuple(q.options)
        counts = [0] * len(labels)
        for g in guesses:
            if 0 <= int(g.guess) < len(labels):
                counts[int(g.guess)] += 1
        answer = int(q.answer)
        wrong_counts: Counter[float] = Counter(float(int(g.guess)) for g in guesses if not g.right)
        said = {k: q.options[int(k)] for k in wrong_counts}
    else:
        bs = bands(q)
        labels = tuple(_band_label(lo, hi) for lo, hi in bs)
        counts = [0] * len(bs)
        for g in guesses:
            counts[next(i for i, (lo, hi) in enumerate(bs) if lo <= g.guess < hi or hi == math.inf)] += 1
        answer = BINS // 2
        wrong_counts = Counter(g.guess for g in guesses if not g.right)
        said = {k: q.said(k) for k in wrong_counts}
    n = len(guesses)
    parts = [f"{c} said {label}" for label, c in zip(labels, counts, strict=True) if c]
    unmarked = f"{n} first guess{'es' * (n != 1)}: " + "; ".join(parts) + "." if n else ""
    summary = f"{unmarked} The answer is {q.answer_text}." if n else "No first guesses at this step yet."
    wrong = None
    if wrong_counts:
        top, times = wrong_counts.most_common(1)[0]
        wrong = f"The most common wrong guess: {said[top]} ({times} of {n}). The tour's hint for it: {q.hint}"
    return Split(title, labels, tuple(counts), answer, n, summary, wrong, unmarked or summary)


def roll_text(joined: int, active: int) -> str:
    return (
        f"{joined} learner{'s' * (joined != 1)} joined, {active} active in the last five minutes."
        if joined
        else "No learner has joined yet: share the link or the QR code."
    )
