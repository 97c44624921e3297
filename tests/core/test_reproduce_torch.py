"""Every page's "Reproduce in PyTorch" script, run with PyTorch and held against the page's numbers.

For each page with the book's tensors: the default view and random legal settings (drawn from the
controls' own ranges, seeded, so a failure reproduces). Each script is generated from the same
settings the page would have, run as ``__main__`` in one fresh interpreter (``tests/reproduce/
runner.py``, so torch is imported once), and what it prints is parsed and compared with the page's
values computed by ``core`` exactly as the page computes them: equal at the printed precision
(PyTorch's 4 decimals, or 5 significant digits where it switches to scientific notation), and
bit for bit where a script prints a bare Python number. Values that are float64 rounding noise on
the page (the two masking paths' difference, an unmasked shuffle's gap) must be noise in the
script too: their last bits depend on the kernels. Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from core import book
from tests.reproduce import pages as P
from tests.reproduce import printed
from tests.reproduce.run import excess, problems, run

torch = pytest.importorskip("torch")

SEED = 17  # the number: the random settings are the same on every run
RANDOM = 3  # random legal settings per page, beside its default view

DEFAULTS = {
    "recap": P.recap,
    "three-matrices": P.three_matrices,
    "masking": P.masking_case,
    "dropout (PyTorch random numbers)": lambda: P.dropout_case(generator="torch"),
    "multi-head": P.multihead,
    "multi-head GPT-2 small preset": P.gpt2_small,
    "recap, a reader's 9-token 16-wide sentence": lambda: P.recap(0, 8, *P.reader_sentence()[:2]),
    "three-matrices, a reader's sentence": lambda: P.three_matrices(
        P.reader_sentence()[2], "three", *P.reader_sentence()[:2], pair=(0, 8)
    ),
    "masking, a reader's sentence": lambda: P.masking_case(
        P.reader_sentence()[2], 3, "zero", P.LOGITS, *P.reader_sentence()[:2]
    ),
}
RANDOMS = {
    "recap": P.recap_random,
    "three-matrices": P.three_matrices_random,
    "masking": P.masking_random,
    "dropout": lambda rng: P.dropout_random(rng, "torch"),
    "multi-head": P.multihead_random,
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


def test_the_book_run_prints_the_books_tensor():
    """Dropout at the book's settings (PyTorch random numbers, seed 123, p = 0.5): the first draw is
    the tensor section 3.5.2 prints, digit for digit."""
    case = P.dropout_case(0.5, True, 123, 10_000, "torch")
    (result,) = run([case])
    assert not problems(case, result)
    rows = printed.parse(result["stdout"])["One draw after dropout"].numbers
    assert ["[" + ", ".join(row) + "]" for row in rows] == list(book.FIGURE_04["book_dropped"])


def test_a_script_runs_alone_in_a_fresh_isolated_python(tmp_path):
    """The runner is only a speed-up: a script run as a file, ``python -I`` (no site-packages of
    the user, no current directory, so no app), prints the same."""
    case = P.recap()
    path = tmp_path / case.script.filename
    path.write_text(case.script.code, encoding="utf-8")
    alone = subprocess.run(
        [sys.executable, "-I", str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
        timeout=600,
    )
    (batched,) = run([case])
    assert alone.stdout == batched["stdout"]
    assert not problems(case, batched)


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
