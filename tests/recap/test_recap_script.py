"""The Recap's Reproduce script without PyTorch: its imports, its file name, ruff, hostile labels.

What it prints is held against the view in ``test_recap_reproduce.py`` (with torch).
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from core import tokens
from tests.hostile import LABELS
from tests.recap.recap_cases import random_settings
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from topics.recap import script, view

T, X = tokens.TOKENS, tokens.inputs()


def _scripts() -> list:
    """The default view, three random ones, and a reader's sentence with awkward labels (9 x 16, float64)."""
    settings = [view.Settings(), *(random_settings(random.Random(i)) for i in range(3))]
    made = [
        script.recap(s.labels, s.embeddings, s.labels.index(s.query), s.labels.index(s.key)) for s in settings
    ]
    labels = ('say "hi"', "new\nline", "x" * 50, *(f"t{i}" for i in range(6)))
    made.append(script.recap(labels, np.random.default_rng(1).uniform(-1, 1, (9, 16)), 0, 8))
    return made


def test_the_script_imports_torch_alone_and_has_a_safe_name():
    for s in _scripts():
        assert s.runtime == "torch"
        assert_standalone(s, "recap")
        assert re.fullmatch(r"recap_query-\d+_key-\d+\.py", s.filename), s.filename
        assert "manual_seed" not in s.code  # no weights: nothing to seed


def test_the_scripts_pass_ruff_check_and_ruff_format(tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean(_scripts(), tmp_path)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in LABELS:
        labels = (label, *T[1:])
        assert_labels_stay_data(script.recap(labels, X, 0, 1).code, labels)


@pytest.mark.parametrize(("query", "key"), [(6, 0), (0, -1)])
def test_a_pair_outside_the_sentence_is_a_readable_value_error(query, key):
    with pytest.raises(ValueError, match="token positions 0 to 5"):
        script.recap(T, X, query, key)
