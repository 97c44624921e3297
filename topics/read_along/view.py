"""Every number and sentence "Read along" shows: one step of the guided walk through chapter 3.

The tour is a list of steps (``steps/``), in the chapter's order. A step is built from the reader's
sentence by the same view function its topic's page runs (``topics/<topic>/view.py``), so a number
on a step is the number that page shows at the same settings; only the read-along's own framing is
written in ``steps/``. This is the one topic that reads the others: it imports their views (and,
for the drawing, their figures), never their pages.

A step may ask the reader to predict before it reveals: learners who predict before they see data
remember it better (Kim, Reinecke and Hullman, CHI 2017). The answer is computed at the reader's
settings like every other number, and :meth:`step.Question.judge` compares the guess with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.sentence import Sentence
from topics.read_along.step import Step, StepDef
from topics.read_along.steps import STEPS


@dataclass(frozen=True)
class Tour:
    """The step on screen and where it sits in the tour."""

    number: int  # 1-based
    total: int
    titles: tuple[str, ...]
    definition: StepDef
    step: Step

    @property
    def progress(self) -> str:
        return f"step {self.number} of {self.total}"


def nearest(raw: str, total: int) -> tuple[int, str | None]:
    """The step a link's ``step`` value asks for, and what was wrong with it (None if nothing).

    A number is rounded and clipped to 1..``total``, so ``step=99`` opens the last step and
    ``step=0`` the first; anything that is not a number opens the first step.
    """
    try:
        x = float(raw.strip())
    except ValueError:
        return 1, f"“{raw[:40]}” is not a step number, so the tour starts at step 1."
    if x != x:  # NaN
        return 1, "That step number is not a number, so the tour starts at step 1."
    at = 1 if x < 1 else total if x > total else round(x)
    if at == x:
        return at, None
    return at, f"There is no step {raw[:40]}: the tour has steps 1 to {total}, so this is step {at}."


def build(number: int, s: Sentence, steps: tuple[StepDef, ...] = STEPS) -> Tour:
    """Step ``number`` (1-based) at the reader's sentence ``s``; only that step is computed."""
    if not 1 <= number <= len(steps):
        raise ValueError(f"step must be 1 to {len(steps)}, got {number}")
    d = steps[number - 1]
    return Tour(number, len(steps), tuple(x.title for x in steps), d, d.make(s))
