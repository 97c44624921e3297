"""The Reproduce oracle for Masking the future: the script run with PyTorch prints the page's view.

For the default view, a reader's own sentence and random legal settings (a seeded
``random.Random``, values from the controls' ranges), the script is built from the settings,
run as ``__main__`` in one fresh interpreter, and what it prints is held against the fields of
the same ``view.build`` result the page draws: equal at the printed precision. The two paths'
difference with the −∞ fill is float64 rounding noise on the page, so the script's must be noise
too (``Noise``), not the same bits. Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import random

import pytest

from tests.masking import masking_cases as mc
from tests.reproduce.case import Case
from tests.reproduce.run import problems, run
from topics.masking import view

torch = pytest.importorskip("torch")

SEED = 17  # the random settings are the same on every run
RANDOM = 4

SETTINGS = {"default": view.Settings(), "a reader's sentence": mc.reader()}
_rng = random.Random(SEED)
SETTINGS |= {f"random {i + 1}": mc.random_settings(_rng) for i in range(RANDOM)}


@pytest.fixture(scope="module")
def batch() -> dict[str, tuple[Case, dict]]:
    cases = [mc.case(s) for s in SETTINGS.values()]
    return dict(zip(SETTINGS, zip(cases, run(cases), strict=True), strict=True))


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_script_prints_the_pages_numbers(batch, name):
    case, result = batch[name]
    assert view.build(SETTINGS[name]).box_warning == ""  # the box took the typed logits
    found = problems(case, result)
    assert not found, "\n".join(found[:20])
