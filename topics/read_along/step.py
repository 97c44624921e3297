"""The pieces a read-along step is made of, shared by every part of the tour (``steps/``).

A step's content is pure data: the paragraph, the figure's data and what it highlights, and the
question with its answer, all computed from the reader's sentence by the topic's own view. The
drawing of a figure lives apart, in ``drawings/``, so this module and the steps draw nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.sentence import Sentence
from topics.read_along.code import Code
from ui import format as fmt

RELATIVE = 0.05  # a ratio or a size is right within 5% of the answer, on either side


def token(label: str) -> str:
    """A token named in prose, always quoted, whatever the word: "the", "cat" (Markdown-escaped,
    so a reader's token is shown as typed)."""
    return f"“{fmt.md(label)}”"


def typed(x: float) -> str:
    """A number as the reader typed it: 1.006, 2, 36864 (never rounded to two decimals)."""
    return f"{float(x):.12g}"


@dataclass(frozen=True)
class Judgement:
    """A guess compared with the computed answer."""

    right: bool | None  # None: no guess was given, the answer is just shown
    headline: str  # "Right." / "Not quite." / "The answer:" and the answer itself
    explanation: str  # two or three sentences: why, at these settings


@dataclass(frozen=True)
class Question:
    """A prediction, asked beside the step's figure with the answer's part of it covered.

    A choice has ``options`` and ``answer`` is the index of the right one; a number has no
    options. A number is right within ``tolerance`` of ``answer`` on either side: a share of the
    answer when ``relative`` (a ratio or a size), else an absolute amount; a ``whole`` number (a
    count) is rounded to the nearest whole number first and must then be exact. ``answer_text`` is
    the answer as the page prints it; ``hint`` points at the element of the figure to look at after
    a wrong first guess; ``secrets`` are the printed values that would give the answer away, which
    nothing on screen shows before the reveal (``tests/read_along/test_tutor.py``).
    """

    prompt: str
    options: tuple[str, ...]
    answer: float  # the right option's index, or the number
    answer_text: str
    explanation: str
    hint: str = ""
    tolerance: float = 0.0
    relative: bool = False
    unit: tuple[str, str] = ("", "")  # a number's unit, singular and plural ("byte", "bytes")
    whole: bool = False  # a count (rows): rounded to the nearest whole number, then exact
    secrets: tuple[str, ...] = ()

    @property
    def is_choice(self) -> bool:
        return bool(self.options)

    @property
    def rule(self) -> str:
        """How close counts, said under the input (a choice has no tolerance to say)."""
        if self.is_choice:
            return ""
        if self.whole:
            return "Only the exact whole number counts; a decimal is rounded to the nearest whole number."
        if self.relative:
            return f"Within {self.tolerance:.0%} of the answer, either way, counts as right."
        return f"Within ±{self.tolerance:g} of the answer counts as right."

    def said(self, guess: float) -> str:
        """The guess as typed, with its unit in the right number: "1 byte", "1.99 bytes"."""
        one, many = self.unit
        word = one if float(guess) == 1 else many
        rounded = round(float(guess))
        also = f" (rounded to {rounded})" if self.whole and rounded != float(guess) else ""
        return f"{typed(guess)}{' ' + word if word else ''}{also}"

    def right(self, guess: float) -> bool:
        """Whether ``guess`` (an option's index, or a number) is right."""
        if self.is_choice:
            return int(guess) == int(self.answer)
        g, a = float(guess), float(self.answer)
        if self.whole:
            return round(g) == round(a)
        room = self.tolerance * abs(a) if self.relative else self.tolerance
        return abs(g - a) <= room * (1 + 1e-12)  # symmetric; the factor keeps a float's edge fair

    def judge(self, guess: float | None) -> Judgement:
        """The verdict on ``guess`` (an option's index, or a number; None when none was given)."""
        if guess is None:
            return Judgement(None, f"The answer: {self.answer_text}.", self.explanation)
        said = self.options[int(guess)] if self.is_choice else self.said(guess)
        if self.right(guess):
            return Judgement(True, f"Right: {self.answer_text}.", self.explanation)
        return Judgement(
            False, f"Not quite: you said {said}; the answer is {self.answer_text}.", self.explanation
        )


@dataclass(frozen=True)
class Figure:
    """What a step draws: ``kind`` names a drawing in ``drawings/`` and ``data`` is what it draws
    (usually the topic's own ``View``). ``name`` is the chart's accessible name, and ``highlight``
    says in words what the outline picks out, so the highlight never rests on colour alone."""

    kind: str
    data: Any
    name: str
    highlight: str
    covered: str = ""  # before the reveal: what is hidden, and how ("the asked cell shows ?")
    hide: bool = False  # drawn before the reveal: the drawing covers the answer's part


@dataclass(frozen=True)
class Step:
    """One step: a paragraph (about 80 words at most), one figure, at most one question."""

    text: str  # Markdown
    figure: Figure
    question: Question | None = None
    link: Mapping[str, str] = field(default_factory=dict)  # the topic page's own URL keys for this view
    code: Code | None = None  # the book's lines that compute the figure, with their live results


@dataclass(frozen=True)
class StepDef:
    """A step in the table of contents: its title and topic are fixed, its content is built from
    the reader's sentence only when the step is shown."""

    key: str  # stable: a guess is remembered under it
    topic: str  # the topic folder (``topics/<topic>``) whose page the step opens
    title: str
    make: Callable[[Sentence], Step]
    asks: bool = False  # whether the step asks for a prediction (at every sentence)
