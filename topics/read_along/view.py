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

from collections.abc import Mapping
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

    @property
    def predictions(self) -> int:
        """How many steps of the tour ask for a prediction."""
        return len(asking())


def asking(steps: tuple[StepDef, ...] = STEPS) -> tuple[str, ...]:
    """The keys of the steps that ask for a prediction (the same at every sentence)."""
    return tuple(d.key for d in steps if d.asks)


def tally_text(tally: Mapping[str, bool], total: int) -> str:
    """ "3 of 4 predictions right (of the tour's 20)": first tries, from the first reveal on."""
    right = sum(tally.values())
    return (
        f"{right} of {len(tally)} prediction{'s' * (len(tally) != 1)} right at the first try "
        f"(of the tour's {total})"
    )


@dataclass(frozen=True)
class Link:
    """A sentence and the step it sends the reader back to."""

    text: str
    label: str
    step: int  # 1-based


# The six ideas of the chapter and the step that taught each (by its key).
IDEAS = (
    (
        "asymmetry",
        "**Why the matrices.** W_q and W_k give each token a query apart from its key, so a score "
        "can read differently each way and training has dials to turn; W_v picks the space the "
        "outputs live in, rather than averaging the embeddings themselves.",
    ),
    (
        "gradient",
        "**Why √d_k.** A score sums d_k products, so its spread grows like √d_k; dividing by it keeps "
        "the softmax from saturating and its gradient from fading.",
    ),
    (
        "two_ways",
        "**Why −∞ before the softmax.** e^(−∞) is exactly 0, so one softmax gives the future no weight: "
        "no second normalisation, and no row sum that could be 0 to divide by.",
    ),
    (
        "dropout_factor",
        "**Why 1/(1 − p).** Dropout keeps a weight with probability 1 − p; multiplying the survivors by "
        "1/(1 − p) keeps every weight, and each row's sum, right on average.",
    ),
    (
        "heads_d_out",
        "**How heads split d_out.** In the split class d_out is the total width, cut into num_heads "
        "heads of d_out / num_heads each by a view, with no copy; the wrapper's d_out is one head's.",
    ),
    (
        "n_squared",
        "**Why n².** Every query scores every key, so the scores fill an n × n matrix: twice the "
        "context, four times the memory.",
    ),
)


@dataclass(frozen=True)
class Summary:
    heading: str
    ideas: tuple[Link, ...]
    missed_heading: str
    missed: tuple[Link, ...]


def summary(tally: Mapping[str, bool], steps: tuple[StepDef, ...] = STEPS) -> Summary:
    """The last step's close: the six ideas with a link each to the step that taught it, and each
    prediction not right at the first try (or not yet made), with a link back."""
    at = {d.key: (i, d) for i, d in enumerate(steps, 1)}
    ideas = tuple(Link(text, f"Step {at[k][0]}: {at[k][1].title}", at[k][0]) for k, text in IDEAS)
    keys = asking(steps)
    right = sum(tally.get(k, False) for k in keys)
    missed = tuple(
        Link(
            "", f"Step {at[k][0]}: {at[k][1].title}" + ("" if k in tally else " (not yet answered)"), at[k][0]
        )
        for k in keys
        if not tally.get(k, False)
    )
    heading = f"The six ideas of chapter 3 · {right} of {len(keys)} predictions right at the first try"
    said = "**Predictions to look at again:**" if missed else "**Every prediction right at the first try.**"
    return Summary(heading, ideas, said, missed)


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
