"""The Reproduce oracle for Learning to attend: the script run with PyTorch, held against the view.

For the default view, random legal settings (seeded, drawn from the controls' own options), a
reader's sentence and one run known to be stable, the script is built from the same settings the
page has and run in one fresh interpreter (``tests/reproduce/runner.py``); what it prints is
compared with the fields of the same ``view.build(...)`` the page draws.

The script is the same algorithm as the page's NumPy run, not the same float64 operations
(autograd's order, Adam's ``lerp``). So the page's nudge probe (``view.probe``: the run again from
weights one ulp away) decides what may be asserted: where it finds the run stable, PyTorch must
print the page's numbers; where the run amplifies rounding, the gap is measured and reported, not
bounded (it depends on the CPU's float64 kernels). The target pattern is exact either way.
Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.learning.learning_cases import case, random_settings
from tests.reproduce import printed
from tests.reproduce.case import reader_sentence
from tests.reproduce.run import excess, run
from topics.learning import view

pytest.importorskip("torch")

SEED = 17  # the random settings are the same on every run
RANDOM = 3  # random legal settings, beside the default view, a stable run and a reader's sentence


def _settings() -> list[view.Settings]:
    rng = random.Random(SEED)
    labels, x, _ = reader_sentence()
    return [
        view.Settings(),
        *(random_settings(rng) for _ in range(RANDOM)),
        view.Settings(target="first", mode="tied", optimiser="gd", lr=0.5, steps=200, step=200),  # stable
        view.Settings(labels, x, target="pair", optimiser="gd", lr=0.1, steps=200, step=100, width=3),
    ]


@pytest.fixture(scope="module")
def batch():
    """Per setting: the view the page draws, its nudge probe, the case, and what the script printed."""
    views = [view.build(s) for s in _settings()]
    cases = [case(v) for v in views]
    return list(zip(views, [view.probe(v) for v in views], cases, run(cases), strict=True))


def test_every_script_runs_and_prints_what_the_page_shows(batch):
    for _, _, c, result in batch:
        assert result["error"] is None, result["error"]
        assert set(printed.parse(result["stdout"])) == set(c.expected), c.name


def test_the_target_pattern_is_the_pages_in_every_run(batch):
    for _, _, c, result in batch:
        shown = printed.parse(result["stdout"])["Target"]
        assert not printed.mismatches(shown, c.expected["Target"]), c.name


def test_a_stable_run_prints_the_pages_numbers(batch):
    """Where the probe finds the run stable (a one-ulp nudge of the starting weights moves nothing
    printed by more than 1e-9), PyTorch's run ends on the page's numbers: nothing printed is further
    off than printing rounds, beyond 1e-9 of its block's scale (scores that converge to 1e-15 print
    as noise in both)."""
    stable = [(c, result) for _, drift, c, result in batch if drift.stable]
    assert len(stable) >= 2
    for c, result in stable:
        assert excess(c, result) <= 1e-9, (c.name, excess(c, result))


def test_an_amplifying_run_is_called_so_and_the_difference_is_measured(batch, record_property):
    for _, drift, c, result in batch:
        gap = excess(c, result)
        record_property(f"learning drift {c.settings}", f"probe {drift}, torch {gap:.2e}")
        if not drift.stable:
            assert np.isfinite(drift.loss) or drift.diverged
    assert not batch[0][1].stable  # the default view is the amplifying kind: the page says so
