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
from core.config import AttentionConfig
from core.reproduce.source import filename, float32_text, is_float32, tensor_literal
from tests.reproduce import pages as P
from tests.reproduce.run import problems, run

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
        P.recap(),
        P.three_matrices(),
        P.masking_case(),
        P.dropout_case(),
        P.dropout_case(generator="torch"),
        P.multihead(),
        P.gpt2_small(),
        P.learning_case(steps=100)[0],
        P.scaling_case(),
        P.cost_case(),
    ]


def _randoms(rng: random.Random, per_page: int = 3) -> list[P.Case]:
    cases = []
    for _ in range(per_page):
        cases += [
            P.recap_random(rng),
            P.three_matrices_random(rng),
            P.masking_random(rng),
            P.dropout_random(rng, "torch"),
            P.dropout_random(rng, "numpy"),
            P.multihead_random(rng),
            P.scaling_random(rng),
            P.cost_random(rng),
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
    """No weight travels in a torch script: it seeds torch and builds the book's class (the recap
    has no weights)."""
    for case in every_script:
        if case.script.runtime == "torch" and case.page != "recap":
            assert "torch.manual_seed(" in case.script.code, case.name


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], capture_output=True, text=True, check=False)


def _sentence_scripts() -> list[reproduce.Script]:
    """Scripts for a reader's own sentence (issue 16): 9 tokens, 16 wide, edited (float64) values."""
    rng = np.random.default_rng(1)
    labels = ('say "hi"', "new\nline", "x" * 50, *(f"t{i}" for i in range(6)))
    x = rng.uniform(-1, 1, (9, 16))
    ws = weights.init_weights(5, "linear", 16, 2)
    return [
        reproduce.recap(labels, x, 0, 8),
        reproduce.three_matrices(labels, x, ws, "tied"),
        reproduce.three_matrices(labels, x.astype(np.float32).astype(np.float64), ws, "three"),
        reproduce.masking(labels, x, ws, 2, "zero", P.LOGITS),
    ]


def test_the_scripts_pass_ruff_check_and_ruff_format(every_script, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format: a reader's
    own linter and formatter leave the script as it is."""
    if shutil.which("ruff") is None and _ruff("--version").returncode != 0:
        pytest.skip("ruff is not installed")
    scripts = [case.script for case in every_script] + _sentence_scripts()
    for i, script in enumerate(scripts):
        (tmp_path / f"script_{i:03d}.py").write_text(script.code, encoding="utf-8")
    for args in (
        ("check", "--config", str(ROOT / "pyproject.toml"), "--no-cache", str(tmp_path)),
        ("check", "--isolated", "--no-cache", str(tmp_path)),
        ("format", "--check", "--isolated", "--no-cache", str(tmp_path)),
    ):
        done = _ruff(*args)
        assert done.returncode == 0, f"ruff {' '.join(args[:2])}:\n{done.stdout}\n{done.stderr}"


def test_one_script_through_ruffs_stdin_as_the_issue_runs_it():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--stdin-filename", "x.py", "-"],
        input=P.three_matrices().script.code,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_numpy_and_python_scripts_print_the_pages_numbers_bit_for_bit():
    """The Monte Carlo page's NumPy script, the dropout page's NumPy-generator script and the cost
    page's integer script: the default view and three random legal settings each, run for real."""
    rng = random.Random(SEED)
    cases = [P.scaling_case(), P.dropout_case(), P.cost_case()]
    for _ in range(3):
        cases += [P.scaling_random(rng), P.dropout_random(rng, "numpy"), P.cost_random(rng)]
    found = [p for case, result in zip(cases, run(cases), strict=True) for p in problems(case, result)]
    assert not found, "\n".join(found[:20])


HOSTILE_LABELS = (
    'say "hi"',
    "it's",
    "back\\slash",
    '"""',
    "new\nline",
    "tab\there",
    "\x00nul",
    "🙂 emoji",
    "\u202eright-to-left",
    "\ud800 lone surrogate",
    "x" * 300,
    "# not a comment",
    "__import__('os').system('true')",
    "",
    " ",
    ":",
)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        for script in (
            reproduce.recap(labels, X, 0, 1),
            reproduce.three_matrices(labels, X, weights.section_3_4(), "three", (0, 1)),
            reproduce.masking(labels, X, weights.section_3_5(), 4, "-inf", P.LOGITS),
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


def test_a_reader_edited_sentence_gets_its_own_literal():
    """Once the sentence control lands, any n x d_in embeddings (here 9 tokens, 16 wide) flow through."""
    rng = np.random.default_rng(1)
    labels = tuple(f"t{i}" for i in range(9))
    x = rng.uniform(-1, 1, (9, 16))
    ws = weights.init_weights(5, "linear", 16, 2)
    script = reproduce.three_matrices(labels, x, ws, "tied")
    assert "dtype=torch.float64" in script.code and "SelfAttention_v2(d_in=16, d_out=2)" in script.code
    ast.parse(script.code)


def test_file_names_are_safe_whatever_the_settings():
    assert filename("masking", "step-4", "fill--inf") == "masking_step-4_fill-inf.py"
    for hostile in ("../../etc/passwd", "a/b\\c", ".hidden", "x" * 500, "🙂", "", "..", "con:"):
        name = filename("recap", hostile)
        assert re.fullmatch(r"[a-z0-9][a-z0-9._-]*\.py", name) and ".." not in name, name
        assert len(name) <= 103


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: reproduce.multihead(T, X, "split", AttentionConfig(d_out=3, num_heads=2), 123), "divisible"),
        (lambda: reproduce.multihead(T, X, "wrapper", AttentionConfig(), 1, stand_in_seed=0), "torch.rand"),
        (lambda: reproduce.three_matrices(T, X, weights.section_3_4(), "four"), "mode"),
        (lambda: reproduce.three_matrices(T[:5], X, weights.section_3_4(), "three"), "label"),
        (lambda: reproduce.masking(T, X, weights.section_3_5(), 5, "-inf", P.LOGITS), "stage"),
        (lambda: reproduce.dropout(T, X, weights.section_3_5(), 1.0, True, 1, 10, "torch"), "p must"),
        (
            lambda: reproduce.learning(
                T, X, weights.section_3_4(), "previous", 0, "three", "adam", 0.1, 100, 200
            ),
            "step",
        ),
        (lambda: reproduce.divide_by_sqrt_dk(3, True, 500, 6, 0, "exact"), "d_k"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_weights_that_are_not_their_seeds_draw_are_refused():
    ws = weights.section_3_4()
    tampered = weights.WeightSet(ws.label, ws.seed, ws.init, ws.w_query + 1, ws.w_key, ws.w_value)
    with pytest.raises(ValueError, match="not what"):
        reproduce.three_matrices(T, X, tampered, "three")


def test_the_nudge_probe_tells_a_stable_run_from_an_amplifying_one():
    """The learning page's statement: a short plain-gradient run is stable; the default Adam run
    (previous token, lr 0.02, 5,000 steps) amplifies a last-bit change into the third decimal of
    an attention weight, so no other float64 implementation can promise its digits."""
    _, calm = P.learning_case("first", 0, "tied", "gd", 0.5, 200)
    assert calm.stable and "does not amplify" in reproduce.drift_note(calm)
    _, wild = P.learning_case()
    assert not wild.stable and wild.attention > 1e-6
    assert "amplifies rounding" in reproduce.drift_note(wild)
