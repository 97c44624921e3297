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

import pytest

from tests.reproduce import pages as P
from tests.reproduce.run import problems, run

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
