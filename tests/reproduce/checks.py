"""What every page's Reproduce script must be, whatever its page: the checks each topic's tests run.

A script starts with its runtime's import and imports nothing else, has a safe file name, passes
ruff with this project's rules and with ruff's defaults (and ``ruff format`` leaves it as it is,
so a reader's own tools change nothing), and keeps every token label as data: the ``tokens``
literal reads back as the labels, and no control or bidi character reaches a line of code.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from core.reproduce.source import Script

ROOT = Path(__file__).resolve().parents[2]
FIRST_LINE = {
    "torch": "import torch",
    "numpy": "import numpy as np",
    "python": "from fractions import Fraction",
}
ALLOWED = {"torch": {"torch"}, "numpy": {"numpy"}, "python": {"fractions"}}


def imported(code: str) -> set[str]:
    """The top-level packages ``code`` imports."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add((node.module or "").split(".")[0])
    return out


def assert_standalone(script: Script, page: str) -> None:
    """Its runtime's import first, nothing else imported, a file name ``<page>_….py`` that is safe."""
    assert script.code.splitlines()[0] == FIRST_LINE[script.runtime], script.filename
    assert imported(script.code) == ALLOWED[script.runtime], (script.filename, imported(script.code))
    assert re.fullmatch(rf"{re.escape(page)}_[a-z0-9._-]+\.py", script.filename), script.filename
    assert len(script.filename) <= 103, script.filename


def assert_ruff_clean(scripts: Iterable[Script], folder: Path) -> None:
    """ruff check with this project's rules and with ruff's defaults, and ruff format --check."""
    for i, s in enumerate(scripts):
        (folder / f"script_{i:03d}.py").write_text(s.code, encoding="utf-8")
    for args in (
        ("check", "--config", str(ROOT / "pyproject.toml"), "--no-cache", str(folder)),
        ("check", "--isolated", "--no-cache", str(folder)),
        ("format", "--check", "--isolated", "--no-cache", str(folder)),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *args], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"ruff {' '.join(args[:2])}:\n{done.stdout}\n{done.stderr}"


def assert_labels_stay_data(code: str, labels: Sequence[str]) -> None:
    """The script compiles, its ``tokens`` literal is exactly ``labels``, and no label's NUL or
    right-to-left override reaches the code."""
    tree = ast.parse(code)
    assigned = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    assert ast.literal_eval(assigned["tokens"]) == list(labels), repr(labels[0])
    assert "\x00" not in code and "\u202e" not in code
