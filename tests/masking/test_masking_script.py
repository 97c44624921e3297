"""Masking the future's Reproduce script without PyTorch: its shape, its safety, and ruff.

The script runs with PyTorch in test_masking_reproduce.py; here it is only read: it imports torch
and nothing else, rebuilds the weights from their seed, passes ruff as a reader's own linter and
formatter would run it, keeps every token label as data, and refuses settings it cannot reproduce.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from core import tokens, weights
from core.reproduce import Script
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.masking import masking_cases as mc
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from topics.masking import script, view

T, X = tokens.TOKENS, tokens.inputs()
LOGITS = np.array([1.0, 2.0, 3.0, 0.0, 0.0])


def _scripts() -> list[Script]:
    """The default view, a reader's sentence, random legal settings, and hostile-looking labels."""
    rng = random.Random(17)
    settings = [view.Settings(), mc.reader(), *(mc.random_settings(rng) for _ in range(3))]
    labels = ('say "hi"', "new\nline", "x" * 50, *(f"t{i}" for i in range(6)))
    x = np.random.default_rng(1).uniform(-1, 1, (9, 16))
    odd = script.build(labels, x, weights.init_weights(5, "linear", 16, 2), 2, "zero", LOGITS)
    return [mc.case(s).script for s in settings] + [odd]


SCRIPTS = _scripts()


def test_the_script_imports_torch_only_and_rebuilds_the_weights_from_their_seed():
    for s in SCRIPTS:
        assert s.runtime == "torch"
        assert_standalone(s, "masking")
        assert "torch.manual_seed(" in s.code  # no weight travels in the script


def test_the_scripts_pass_ruff_check_and_ruff_format(tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean(SCRIPTS, tmp_path)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        code = script.build(labels, X, weights.section_3_5(), 4, "-inf", LOGITS).code
        assert_labels_stay_data(code, labels)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((T, X, weights.section_3_5(), 5, "-inf", LOGITS), "stage"),
        ((T, X, weights.section_3_5(), 4, "0", LOGITS), "fill"),
        ((T, X, weights.section_3_5(), 4, "-inf", np.zeros(65)), "logits"),
        ((T[:5], X, weights.section_3_5(), 4, "-inf", LOGITS), "label"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(args, message):
    with pytest.raises(ValueError, match=message):
        script.build(*args)
