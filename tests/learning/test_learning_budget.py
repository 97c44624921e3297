"""Learning to attend under the server's heavy-work budget (issue 25), and its focus fragment.

The training and the search each declare their working set to ``ui.budget`` before they run
(``training.fit_bytes``, ``reach.limits_bytes``); here tracemalloc measures what they really hold
at their peak, on the settings that hold the most, and the declaration must cover it. The focus
and cell controls rerun only a fragment, so everything else the page shows must be the same
whatever they are: :func:`topics.learning.view.base` leaves them out, and :func:`view.focused`
adds them to exactly the fields that show them.
"""

from __future__ import annotations

import dataclasses
import tracemalloc

import numpy as np
import pytest

from core import sentence, weights
from topics.learning import reach, training, view
from ui import budget


def _x(n: int, d: int) -> np.ndarray:
    return sentence.build(" ".join(f"a{i}" for i in range(n)), d, "").embeddings


def _peak(run) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# (tokens, embedding width, d_out, steps, target): the widest weights, the longest sentence, the
# most snapshots (a short run records every step), the most search runs (three swapped pairs).
FITS = [
    (32, 16, 6, 5_000, "swaps"),
    (32, 16, 6, 100, "previous"),
    (8, 16, 6, 5_000, "swaps"),
    (1, 3, 1, 100, "first"),
]


@pytest.mark.parametrize(("n", "d", "width", "steps", "kind"), FITS)
def test_training_declares_at_least_the_memory_it_holds(n, d, width, steps, kind):
    x = _x(n, d)
    ws = view.widen(sentence.weights_for(weights.section_3_4(), d), width)
    declared = training.fit_bytes(n, d, width, steps)
    held = _peak(lambda: training.fit(kind, 0, "adam", 0.02, steps, ws.w_query, ws.w_key, x))
    assert held <= declared < 8 * held + 512 * 1024, (held, declared)


@pytest.mark.parametrize(
    ("n", "d", "width", "kind"), [(8, 16, 6, "swaps"), (8, 3, 1, "pair"), (6, 3, 2, "previous")]
)
def test_the_search_declares_at_least_the_memory_it_holds(n, d, width, kind):
    x = _x(n, d)
    declared = reach.limits_bytes(kind, 0, width, x)
    held = _peak(lambda: reach.limits(kind, 0, width, x))
    assert held <= declared < 8 * held + 1024 * 1024, (held, declared)
    assert reach.limits_bytes(kind, 0, width, _x(reach.MAX_SEARCH_TOKENS + 1, d)) == 0  # no search


def test_the_page_takes_a_turn_of_the_budget_for_a_computation_the_cache_does_not_hold(monkeypatch):
    from topics.learning import study

    costs: list[int] = []
    turn = budget.BUDGET.turn

    def recorded(cost, notify=None):
        costs.append(cost)
        return turn(cost, notify)

    monkeypatch.setattr(budget.BUDGET, "turn", recorded)
    for cached in (study.base, study.fit, study.limits):
        cached.clear()  # type: ignore[union-attr]  # a CachedFunc
    s = view.Settings(steps=100, step=100, width=3)
    study.build(s)
    x = s.embeddings
    assert costs == [training.fit_bytes(6, 3, 3, 100), reach.limits_bytes("previous", 0, 3, x)]
    study.build(s)  # cached: no second turn
    assert len(costs) == 2


def test_nothing_but_the_focused_fields_depends_on_the_focus_or_the_cell():
    plain = view.build(view.Settings(steps=200, step=200))
    focused_fields = {
        "settings",
        "focus_weights",
        "focus_most",
        "focus_context",
        "cell_key",
        "cell_at_step",
        "cell",
    }
    for focus, cell in ((1, None), (1, 4), (5, 0)):
        v = view.build(view.Settings(steps=200, step=200, focus=focus, cell=cell))
        assert v.cell is not None and v.settings.focus == focus and v.settings.cell == cell
        for field in dataclasses.fields(view.View):
            if field.name not in focused_fields:
                a, b = getattr(plain, field.name), getattr(v, field.name)
                same = np.array_equal(a, b) if isinstance(a, np.ndarray) else repr(a) == repr(b)
                assert same, field.name
        assert view.focused(plain, focus, cell).cell == v.cell
