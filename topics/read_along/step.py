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


@dataclass(frozen=True)
class Judgement:
    """A guess compared with the computed answer."""

    right: bool | None  # None: no guess was given, the answer is just shown
    headline: str  # "Right." / "Not quite." / "The answer:" and the answer itself
    explanation: str  # two or three sentences: why, at these settings


@dataclass(frozen=True)
class Question:
    """A prediction, asked before the step's figure is shown.

    A choice has ``options`` and ``answer`` is the index of the right one; a number has no
    options, and a guess within ``tolerance`` of ``answer`` is right. ``answer_text`` is the
    answer as the page prints it.
    """

    prompt: str
    options: tuple[str, ...]
    answer: float  # the right option's index, or the number
    answer_text: str
    explanation: str
    tolerance: float = 0.0  # for a number: |guess - answer| <= tolerance is right
    unit: str = ""  # for a number, after the input ("bytes")
    whole: bool = False  # a number that counts (rows, bytes): the input takes integers only

    @property
    def is_choice(self) -> bool:
        return bool(self.options)

    def judge(self, guess: float | None) -> Judgement:
        """The verdict on ``guess`` (an option's index, or a number; None when none was given)."""
        if guess is None:
            return Judgement(None, f"The answer: {self.answer_text}.", self.explanation)
        if self.is_choice:
            right = int(guess) == int(self.answer)
            said = self.options[int(guess)]
        else:
            right = abs(float(guess) - float(self.answer)) <= self.tolerance
            said = f"{guess:g}{' ' + self.unit if self.unit else ''}"
        if right:
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


@dataclass(frozen=True)
class Step:
    """One step: a paragraph (about 80 words at most), one figure, at most one question."""

    text: str  # Markdown
    figure: Figure
    question: Question | None = None
    link: Mapping[str, str] = field(default_factory=dict)  # the topic page's own URL keys for this view


@dataclass(frozen=True)
class StepDef:
    """A step in the table of contents: its title and topic are fixed, its content is built from
    the reader's sentence only when the step is shown."""

    key: str  # stable: a guess is remembered under it
    topic: str  # the topic folder (``topics/<topic>``) whose page the step opens
    title: str
    make: Callable[[Sentence], Step]
