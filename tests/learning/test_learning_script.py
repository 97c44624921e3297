"""Learning to attend's Reproduce script without PyTorch: its shape, its safety, ruff, its refusals,
and the nudge probe behind its note. The script run with PyTorch is ``test_learning_reproduce.py``."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import tokens, weights
from tests.learning.learning_cases import random_settings, script_of
from tests.reproduce.case import reader_sentence
from topics.learning import script, training, view

ROOT = Path(__file__).resolve().parents[2]
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
        assert s.runtime == "torch" and s.code.splitlines()[0] == "import torch"
        imported = set()
        for node in ast.walk(ast.parse(s.code)):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add((node.module or "").split(".")[0])
        assert imported == {"torch"}
        assert "torch.manual_seed(" in s.code  # no weight travels in the script
        assert re.fullmatch(r"learning-to-attend_[a-z0-9._-]+\.py", s.filename) and len(s.filename) <= 103


def test_the_scripts_pass_ruff_check_and_ruff_format(scripts, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    for i, s in enumerate(scripts):
        (tmp_path / f"script_{i}.py").write_text(s.code, encoding="utf-8")
    for args in (
        ("check", "--config", str(ROOT / "pyproject.toml"), "--no-cache", str(tmp_path)),
        ("check", "--isolated", "--no-cache", str(tmp_path)),
        ("format", "--check", "--isolated", "--no-cache", str(tmp_path)),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *args], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"ruff {' '.join(args[:2])}:\n{done.stdout}\n{done.stderr}"


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


HOSTILE_LABELS = (
    'say "hi"',
    "it's",
    "back\\slash",
    '"""',
    "new\nline",
    "\x00nul",
    "\u202eright-to-left",
    "x" * 300,
    "# not a comment",
    "__import__('os').system('true')",
    "",
    ":",
)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, even the picked token's (written into a comment), the script compiles,
    ``tokens`` reads back as exactly the labels, and no label reaches the code outside a string
    literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        code = script.build(labels, X, S34, "token", 0, "three", "adam", 0.1, 100, 100).code
        tree = ast.parse(code)
        assigned = {
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        }
        assert ast.literal_eval(assigned["tokens"]) == list(labels), repr(label)
        assert "target[:, 0] = 1.0  # " in code
        assert all("\x00" not in line and "\u202e" not in line for line in code.splitlines())


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
