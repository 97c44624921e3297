"""Learning to attend's Reproduce cases: settings a reader can reach, and the view the page draws.

:func:`random_settings` draws every control from its own options (``topics.learning.view``'s
ladders, the training module's targets and optimisers, figure 01's modes); :func:`case` builds the
script for a view with ``topics/learning/script.py`` and reads what it must print from the view's
fields, never re-deriving them.
"""

from __future__ import annotations

import random

from core.attention import MODES
from core.reproduce import Script
from tests.reproduce.case import Case, weight_set
from topics.learning import script, training, view


def random_settings(rng: random.Random, labels=None, x=None) -> view.Settings:
    """Legal settings drawn from the controls' own ranges (on the book's sentence unless given)."""
    base = view.Settings() if labels is None else view.Settings(labels, x)
    n = len(base.labels)
    kind = rng.choice(training.TARGETS)
    steps = rng.choice(view.STEPS)
    every = training.record_every(steps, n)
    return view.Settings(
        base.labels,
        base.embeddings,
        target=kind,
        token=rng.randrange(n) if kind == "token" else 0,
        mode=rng.choice(MODES),
        optimiser=rng.choice(training.OPTIMISERS),
        lr=rng.choice(view.RATES),
        steps=steps,
        step=steps if rng.random() < 0.5 else rng.randrange(0, steps + 1, every),
        width=rng.choice(view.WIDTHS),
        weights=weight_set(rng),
        focus=rng.choice((None, rng.randrange(n))),
    )


def script_of(v: view.View) -> Script:
    """The script the page's expander shows for ``v`` (without the nudge probe's note)."""
    s = v.settings
    return script.build(
        s.labels, s.embeddings, v.ws, s.target, v.token, s.mode, s.optimiser, s.lr, s.steps, v.step
    )


def case(v: view.View) -> Case:
    """The script for ``v`` and, per label it prints, the value the page shows."""
    s = v.settings
    expected: dict[str, object] = {}
    for run in v.table:
        expected[f"{run.mode}, loss at step 0 and at step {s.steps}"] = [run.first_loss, run.last_loss]
        expected[f"{run.mode}, diverged at step"] = run.diverged_at
        expected[f"{run.mode}, rows right at step {s.steps}"] = run.rows
    shown = f"{s.mode} at step {v.step}"
    expected[f"{shown}, loss"] = v.loss
    expected[f"{shown}, rows right"] = v.rows_right
    expected[f"{shown}, attention A"] = v.attention
    expected[f"{shown}, scores omega"] = v.scores
    expected[f"{shown}, score error"] = v.score_error
    expected["Target"] = v.target
    settings = {
        "target": s.target,
        "token": v.token,
        "mode": s.mode,
        "optimiser": s.optimiser,
        "lr": s.lr,
        "steps": s.steps,
        "step": v.step,
        "weights": v.ws.label,
        "n": v.n,
    }
    return Case("learning", settings, script_of(v), expected)
