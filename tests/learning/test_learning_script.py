"""Learning to attend's Reproduce script without PyTorch: its shape, its safety, ruff, its refusals,
and the nudge probe behind its note. The script run with PyTorch is ``test_learning_reproduce.py``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import tokens, weights
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.learning.learning_cases import random_settings, script_of
from tests.reproduce.case import reader_sentence
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from topics.learning import script, training, view

SEED = 17
T, X = tokens.TOKENS, tokens.inputs()


@pytest.fixture(scope="module")
def scripts():
    """The default view (at 100 steps), six random legal views and one on a reader's sentence."""
    rng = random.Random(SEED)
    labels, x, _ = reader_sentence()
    settings = [view.Settings(steps=100, step=100), *(random_settings(rng) for _ in range(6))]
    settings.append(random_settings(rng, labels, x))
    no_search = lambda *_: (None, None)  # noqa: E731  # the evidence is not in the script
    return [script_of(view.build(s, limits=no_search)) for s in settings]


def test_each_script_imports_torch_alone_and_rebuilds_the_weights_from_a_seed(scripts):
    for s in scripts:
        assert s.runtime == "torch"
        assert_standalone(s, "learning-to-attend")
        assert "torch.manual_seed(" in s.code  # no weight travels in the script


def test_the_scripts_pass_ruff_check_and_ruff_format(scripts, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean(scripts, tmp_path)


S34 = weights.section_3_4()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"step": 200}, "step"),
        ({"steps": training.MAX_STEPS + 1, "step": 0}, "steps"),
        ({"mode": "four"}, "mode"),
        ({"optimiser": "sgd"}, "optimiser"),
        ({"lr": 0.0}, "lr"),
        ({"lr": float("nan")}, "lr"),
        ({"kind": "next"}, "target"),
        ({"kind": "token", "token": 6}, "token"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(kwargs, message):
    args: dict[str, Any] = {
        "kind": "previous",
        "token": 0,
        "mode": "three",
        "optimiser": "adam",
        "lr": 0.1,
        "steps": 100,
    }
    args |= {"step": 100} | kwargs
    with pytest.raises(ValueError, match=message):
        script.build(T, X, S34, **args)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, even the picked token's (written into a comment), the script compiles,
    ``tokens`` reads back as exactly the labels, and no label reaches the code outside a string
    literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        code = script.build(labels, X, S34, "token", 0, "three", "adam", 0.1, 100, 100).code
        assert_labels_stay_data(code, labels)
        assert "target[:, 0] = 1.0  # " in code


def test_the_nudge_probe_tells_a_stable_run_from_an_amplifying_one():
    """The page's statement in the expander: a short plain-gradient run is stable; the default Adam
    run (previous token, lr 0.02, 5,000 steps) amplifies a last-bit change into the third decimal
    of an attention weight, so no other float64 implementation can promise its digits."""
    calm_view = view.build(
        view.Settings(target="first", mode="tied", optimiser="gd", lr=0.5, steps=200, step=200)
    )
    calm = view.probe(calm_view)
    assert calm.stable and "does not amplify" in script.drift_note(calm)
    wild = view.probe(view.build(view.Settings()))
    assert not wild.stable and wild.attention > 1e-6
    assert "amplifies rounding" in script.drift_note(wild)
    noted = script.build(T, X, calm_view.ws, "first", 0, "tied", "gd", 0.5, 200, 200, calm)
    assert noted.note == f"{script_of(calm_view).note} {script.drift_note(calm)}"
    assert noted.code == script_of(calm_view).code


def test_a_run_that_blows_up_elsewhere_when_nudged_is_on_a_knifes_edge():
    edge = script.Drift(loss=0.0, attention=0.0, scores=0.0, diverged=True)
    assert not edge.stable and "knife's edge" in script.drift_note(edge)
