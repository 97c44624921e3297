"""The generated scripts without PyTorch: their shape, their safety, ruff, and the NumPy and Python
scripts run for real.

The scaling page's NumPy script and the cost page's Python script need no torch, so they run here
and must print the page's numbers bit for bit (the torch scripts run in test_reproduce_torch.py).
"""

from __future__ import annotations

import ast
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core import reproduce, tokens, weights
from core.block import BlockConfig
from core.reproduce.source import filename, float32_text, is_float32, tensor_literal
from tests.hostile import LABELS
from tests.reproduce import pages as P

ROOT = Path(__file__).resolve().parents[2]
SEED = 17
T, X = tokens.TOKENS, tokens.inputs()
V1 = weights.section_3_4()
FIRST_LINE = {
    "torch": "import torch",
    "numpy": "import numpy as np",
    "python": "from fractions import Fraction",
}
ALLOWED = {"torch": {"torch"}, "numpy": {"numpy"}, "python": {"fractions"}}


def _defaults() -> list[P.Case]:
    return [
        P.what_comes_next(),
    ]


def _randoms(rng: random.Random, per_page: int = 3) -> list[P.Case]:
    cases = []
    for _ in range(per_page):
        cases += [
            P.what_comes_next_random(rng),
        ]
    return cases


@pytest.fixture(scope="module")
def every_script() -> list[P.Case]:
    return _defaults() + _randoms(random.Random(SEED))


def test_each_script_starts_with_its_runtime_and_imports_nothing_else(every_script):
    for case in every_script:
        s = case.script
        assert s.code.splitlines()[0] == FIRST_LINE[s.runtime], case.name
        imported = set()
        for node in ast.walk(ast.parse(s.code)):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add((node.module or "").split(".")[0])
        assert imported == ALLOWED[s.runtime], (case.name, imported)
        assert re.fullmatch(r"[a-z0-9._-]+\.py", s.filename) and len(s.filename) <= 103, s.filename


def test_torch_scripts_rebuild_the_weights_and_never_ship_them(every_script):
    """No weight travels in a torch script: it seeds torch and builds the book's class."""
    for case in every_script:
        if case.script.runtime == "torch":
            assert "torch.manual_seed(" in case.script.code, case.name


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], capture_output=True, text=True, check=False)


def test_the_scripts_pass_ruff_check_and_ruff_format(every_script, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format: a reader's
    own linter and formatter leave the script as it is."""
    if shutil.which("ruff") is None and _ruff("--version").returncode != 0:
        pytest.skip("ruff is not installed")
    scripts = [case.script for case in every_script]
    for i, script in enumerate(scripts):
        (tmp_path / f"script_{i:03d}.py").write_text(script.code, encoding="utf-8")
    for args in (
        ("check", "--config", str(ROOT / "pyproject.toml"), "--no-cache", str(tmp_path)),
        ("check", "--isolated", "--no-cache", str(tmp_path)),
        ("format", "--check", "--isolated", "--no-cache", str(tmp_path)),
    ):
        done = _ruff(*args)
        assert done.returncode == 0, f"ruff {' '.join(args[:2])}:\n{done.stdout}\n{done.stderr}"


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in LABELS:
        labels = (label, *T[1:])
        for script in (
            reproduce.what_comes_next(
                labels, X, weights.section_3_4(), (1, 0, 2, 3, 4, 5), BlockConfig(), 1, 1, 1
            ),
        ):
            tree = ast.parse(script.code)
            assigned = {
                node.targets[0].id: node.value
                for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
            }
            assert ast.literal_eval(assigned["tokens"]) == list(labels), repr(label)
            for line in script.code.splitlines():
                assert "\x00" not in line and "\u202e" not in line


def test_embeddings_are_written_exactly():
    """float32 embeddings in their shortest digits (read back through float64, as torch.tensor does);
    anything else as float64 repr with dtype=torch.float64."""
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal(2000).astype(np.float32)
    assert all(np.float32(float(float32_text(v))) == v for v in f32)
    f64 = rng.standard_normal((4, 5))
    lines = "\n".join(tensor_literal("inputs", f64))
    assert not is_float32(f64) and "dtype=torch.float64" in lines
    values = ast.literal_eval(lines.split("(", 1)[1].rsplit(",", 2)[0].strip())
    assert np.array_equal(np.array(values), f64)


def test_file_names_are_safe_whatever_the_settings():
    assert filename("masking", "step-4", "fill--inf") == "masking_step-4_fill-inf.py"
    for hostile in ("../../etc/passwd", "a/b\\c", ".hidden", "x" * 500, "🙂", "", "..", "con:"):
        name = filename("recap", hostile)
        assert re.fullmatch(r"[a-z0-9][a-z0-9._-]*\.py", name) and ".." not in name, name
        assert len(name) <= 103


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: reproduce.what_comes_next(
                T, X, weights.section_3_4(), (0, 0, 1, 2, 3, 4), BlockConfig(), 1, 1, 1
            ),
            "permutation",
        ),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()
