"""The Recap's Reproduce oracle: the script run with PyTorch prints the numbers the page's view holds.

For the default view, a reader's own sentence and random legal settings (a seeded sentence from the
sentence box's range, a query and a key from its labels), the script is built from the page's
settings with ``topics/recap/script.py`` and run (``tests.reproduce.run``), and every printed value
is compared with the same :func:`topics.recap.view.build` result the page draws: equal at PyTorch's
printed precision. Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from functools import partial

import pytest

from core import tokens
from tests.recap.recap_cases import RANDOM, SEED, case, random_settings, reader
from tests.reproduce.case import Case
from tests.reproduce.run import problems, run
from topics.recap import view

torch = pytest.importorskip("torch")

CASES: dict[str, Callable[[], view.Settings]] = {
    "default": view.Settings,
    "a reader's 9-token 16-wide sentence": reader,
    **{f"random {i + 1}": partial(random_settings, random.Random(SEED + i)) for i in range(RANDOM)},
}


@pytest.fixture(scope="module")
def batch() -> dict[str, tuple[Case, dict]]:
    cases = [case(make()) for make in CASES.values()]
    return dict(zip(CASES, zip(cases, run(cases), strict=True), strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_the_script_prints_the_views_numbers(batch, name):
    made, result = batch[name]
    found = problems(made, result)
    assert not found, "\n".join(found[:20])


def test_the_random_settings_leave_the_book(batch):
    """The seeded draws reach typed sentences and other widths, not only the book's six tokens."""
    shapes = {(made.settings["n"], made.settings["width"]) for made, _ in batch.values()}
    assert len(shapes) >= 3 and any(w > 3 for _, w in shapes)


def test_a_script_runs_alone_in_a_fresh_isolated_python(tmp_path, batch):
    """The runner is only a speed-up: a script run as a file, ``python -I`` (no site-packages of
    the user, no current directory, so no app), prints the same."""
    made, batched = batch["default"]
    path = tmp_path / made.script.filename
    path.write_text(made.script.code, encoding="utf-8")
    alone = subprocess.run(
        [sys.executable, "-I", str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
        timeout=600,
    )
    assert alone.stdout == batched["stdout"]
    assert tokens.TOKENS[1] in alone.stdout
