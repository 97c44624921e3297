"""Every page's "Reproduce in PyTorch" script, run with PyTorch and held against the page's numbers.

For each page with the book's tensors: the default view and random legal settings (drawn from the
controls' own ranges, seeded, so a failure reproduces). Each script is generated from the same
settings the page would have, run as ``__main__`` in one fresh interpreter (``tests/reproduce/
runner.py``, so torch is imported once), and what it prints is parsed and compared with the page's
values computed by ``core`` exactly as the page computes them: equal at the printed precision
(PyTorch's 4 decimals, or 5 significant digits where it switches to scientific notation), and
bit for bit where a script prints a bare Python number. Values that are float64 rounding noise on
the page (an unmasked shuffle's gap) must be noise in the
script too: their last bits depend on the kernels. Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.reproduce import pages as P
from tests.reproduce import printed
from tests.reproduce.run import excess, problems, run

torch = pytest.importorskip("torch")

SEED = 17  # the number: the random settings are the same on every run
RANDOM = 3  # random legal settings per page, beside its default view

DEFAULTS = {
    "what-comes-next": P.what_comes_next,
}
RANDOMS = {
    "what-comes-next": P.what_comes_next_random,
}
IDS = [f"{name}, default" for name in DEFAULTS] + [
    f"{name}, random {i + 1}" for i in range(RANDOM) for name in RANDOMS
]


@pytest.fixture(scope="module")
def batch() -> dict[str, tuple[P.Case, dict]]:
    rng = random.Random(SEED)
    cases = [make() for make in DEFAULTS.values()]
    cases += [make(rng) for _ in range(RANDOM) for make in RANDOMS.values()]
    return dict(zip(IDS, zip(cases, run(cases), strict=True), strict=True))


@pytest.mark.parametrize("name", IDS)
def test_the_script_prints_the_pages_numbers(batch, name):
    case, result = batch[name]
    found = problems(case, result)
    assert not found, "\n".join(found[:20])


# --- Learning to attend: the same algorithm, other float64 operations -----------------------


@pytest.fixture(scope="module")
def learning_batch() -> list[tuple[P.Case, object, dict]]:
    rng = random.Random(SEED)
    made = [P.learning_case()] + [P.learning_random(rng) for _ in range(RANDOM + 1)]
    made += [P.learning_case("first", 0, "tied", "gd", 0.5, 200)]  # a stable run, for sure
    results = run([case for case, _ in made])
    return [(case, drift, result) for (case, drift), result in zip(made, results, strict=True)]


def test_learning_scripts_run_and_print_what_the_page_shows(learning_batch):
    for case, _, result in learning_batch:
        assert result["error"] is None, result["error"]
        assert set(printed.parse(result["stdout"])) == set(case.expected), case.name


def test_a_stable_run_prints_the_pages_numbers(learning_batch):
    """Where the page's nudge probe finds the run stable (a one-ulp nudge of the starting weights
    moves nothing printed by more than 1e-9), PyTorch's run, which rounds in another order, ends on
    the page's numbers: no printed number is further off than printing rounds, beyond 1e-9 of its
    block's scale (scores that converge to 1e-15 print as noise in both)."""
    stable = [(case, result) for case, drift, result in learning_batch if drift.stable]
    assert len(stable) >= 2
    for case, result in stable:
        assert excess(case, result) <= 1e-9, (case.name, excess(case, result))


def test_an_amplifying_run_is_called_so_and_the_difference_is_measured(learning_batch, record_property):
    """Where the probe finds the run amplifying rounding, the page says so and PyTorch's run may end
    elsewhere: measured here, and reported, not bounded (it depends on the CPU's float64 kernels)."""
    for case, drift, result in learning_batch:
        gap = excess(case, result)
        record_property(f"learning drift {case.settings}", f"probe {drift}, torch {gap:.2e}")
        if not drift.stable:
            assert np.isfinite(drift.loss) or drift.diverged
