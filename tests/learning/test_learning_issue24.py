"""Issue 24's items on Learning to attend, each read from the view the page draws.

Item 6: the step named on the page is the step its numbers belong to, at every (steps, step) pair.
Item 7: a repeated word has one embedding, so its rows tie in every mode; every count of rows that
can be right accounts for that (at the 13-token example, tied weights get at most 9 of 13).
"""

from __future__ import annotations

import numpy as np
import pytest

from core import sentence
from topics.learning import view

THIRTEEN = sentence.build("the cat sat on the mat and the dog sat on the log")


def build(**kwargs) -> view.View:
    return view.build(view.Settings(THIRTEEN.labels, THIRTEEN.embeddings, **kwargs))


@pytest.fixture(scope="module")
def thirteen() -> view.View:
    return build(steps=500, step=500)


def test_the_last_step_is_shown_as_itself_off_the_snapshot_grid(thirteen):
    """Item 6: 500 steps on 13 tokens record every 11 steps; step 500 is still recorded (the last)."""
    v = thirteen
    assert v.every == 11 and v.step == 500
    run = v.runs[v.settings.mode]
    assert v.loss == run.losses[500]
    np.testing.assert_array_equal(v.attention, run.attention[list(run.recorded).index(500)])
    assert v.prose.at_step == "at step 500" and v.prose.step is None


@pytest.mark.parametrize(("steps", "step"), [(1_000, 333), (500, 499), (200, 7)])
def test_a_step_between_snapshots_is_named_as_the_step_shown(steps, step):
    v = build(steps=steps, step=step)
    run = v.runs[v.settings.mode]
    assert v.step in run.recorded and v.step <= step
    assert v.prose.at_step == f"at step {v.step}"
    assert v.prose.step is not None and f"{step}" in v.prose.step
    assert f"step {v.step}" in v.prose.step


def test_tied_weights_get_at_most_9_of_13_rows_with_repeated_words(thirteen):
    """Item 7: “the” asks for three words and “sat” for two, one word each row can get: 10 of 13 in
    any mode; and tied weights lose one more to a cycle of the words' arrows."""
    v = thirteen
    assert v.tied_bound == 9 and v.evidence_of("tied").most == 9
    assert v.ties_bound == 10
    assert v.evidence_of("three").most == 10  # past the linear program's 8 tokens: the ties' bound
    for e in v.evidence:
        assert e.this_run <= e.best and (e.most is None or e.best <= e.most)
    assert "at most **9 of 13**" in v.prose.cycle
    assert "“the”" in v.prose.cycle and "10 of 13" in v.prose.cycle
