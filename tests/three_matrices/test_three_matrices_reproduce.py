"""The "Reproduce in PyTorch" script of "Three matrices", held against the page's own view.

The oracle builds each case from :func:`topics.three_matrices.view.build`, the function the page
draws from: the script from ``topics/three_matrices/script.py`` with the view's weights and pair,
the expected values from the view's fields, keyed by the label the script prints. The script runs
with PyTorch (``tests.reproduce.run``) and must print the view's numbers at the precision it prints
them (PyTorch's 4 decimals). Cases: the default view, a reader's own sentence, and random legal
settings drawn from the controls' own ranges with a seeded generator, so a failure reproduces.

Without torch only the oracle is skipped: the script's shape, ruff, hostile labels and the
settings no script can take are checked here without running it.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys

import numpy as np
import pytest

from core import sentence, tokens, weights
from core.attention import MODES
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.reproduce.case import Case, reader_sentence, weight_set
from tests.reproduce.checks import ROOT, assert_labels_stay_data, assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.three_matrices import script
from topics.three_matrices.view import Settings, build

SEED = 17  # the random settings are the same on every run
RANDOM = 4  # random legal settings, beside the default view and a reader's sentence
T, X = tokens.TOKENS, tokens.inputs()
VOCAB = ("the", "cat", "sat", "on", "a", "mat", "and", "looked", "at", "every", "step", "journey")


def case(s: Settings) -> Case:
    """The script for ``s`` and, label by label, what the page's view shows for it."""
    v = build(s)
    tr, ws = v.trace, v.weight_set
    a, b = (v.labels[i] for i in v.pair)
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    expected: dict[str, object] = {
        "Score error max|omega - omega^T|": v.score_error,
        "Weight error max|A - A^T|": v.weight_error,
        "Divisor sqrt(d_k)": tr.divisor,
        "Scores omega": tr.scores,
        "omega - omega^T": v.asymmetry,
        "Weights A = softmax(omega / sqrt(d_k))": tr.weights,
        **{
            f"Mode {r.mode}, [score error, weight error, {a} -> {b}, {b} -> {a}]": [
                r.score_error,
                r.weight_error,
                r.forward,
                r.backward,
            ]
            for r in v.modes
        },
        "Row sums of inputs @ inputs.T": v.row_sums,
        "Q": tr.queries,
        "K": tr.keys,
        "V": tr.values,
        "Z = AV": tr.context,
        **({f"The book's forward, {cls}(inputs), gives Z too": tr.context} if v.mode == "three" else {}),
        "W_query": ws.w_query,
        "W_key": ws.w_key,
        "W_value": ws.w_value,
    }
    made = script.three_matrices(v.labels, s.embeddings, ws, v.mode, v.pair)
    settings = {"mode": v.mode, "weights": ws.label, "n": len(v.labels), "d_in": s.embeddings.shape[1]}
    return Case("three-matrices", settings, made, expected)


def random_settings(rng: random.Random) -> Settings:
    """Any view a reader can reach: a weight set, a mode, the book's sentence or one typed in (up
    to 32 tokens, 3 to 16 wide), a focus or none."""
    if rng.random() < 0.5:
        s = sentence.book()
    else:
        words = [rng.choice(VOCAB) for _ in range(rng.randint(1, sentence.MAX_TOKENS))]
        s = sentence.build(" ".join(words), rng.randint(sentence.MIN_WIDTH, sentence.MAX_WIDTH))
    focus = rng.choice([None, *range(s.n)])
    return Settings(s.labels, s.embeddings, s.is_book, weight_set(rng), rng.choice(MODES), focus)


def reader() -> Settings:
    labels, x, ws = reader_sentence()
    return Settings(labels, x, False, ws, "three")


def cases() -> dict[str, Case]:
    rng = random.Random(SEED)
    made = {"default": case(Settings()), "a reader's 9-token 16-wide sentence": case(reader())}
    return made | {f"random {i + 1}": case(random_settings(rng)) for i in range(RANDOM)}


CASES = cases()


@pytest.fixture(scope="module")
def batch() -> dict[str, dict]:
    pytest.importorskip("torch")
    return dict(zip(CASES, run(list(CASES.values())), strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_the_script_prints_the_views_numbers(batch, name):
    found = problems(CASES[name], batch[name])
    assert not found, "\n".join(found[:20])


# --- the script itself, without running it --------------------------------------------------


def _hostile_sentence_scripts() -> list[script.Script]:
    """A reader's own sentence (issue 16): 9 tokens, 16 wide, labels a script must quote."""
    rng = np.random.default_rng(1)
    labels = ('say "hi"', "new\nline", "x" * 50, *(f"t{i}" for i in range(6)))
    x = rng.uniform(-1, 1, (9, 16))
    ws = weights.init_weights(5, "linear", 16, 2)
    return [
        script.three_matrices(labels, x, ws, "tied"),
        script.three_matrices(labels, x.astype(np.float32).astype(np.float64), ws, "three"),
    ]


def test_each_script_imports_torch_alone_and_rebuilds_its_weights_from_the_seed():
    for c in CASES.values():
        assert c.script.runtime == "torch", c.name
        assert_standalone(c.script, "three-matrices")
        assert "torch.manual_seed(" in c.script.code, c.name  # no weight travels in the script


def test_the_scripts_pass_ruff_check_and_ruff_format(tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format: a reader's own
    linter and formatter leave the script as it is."""
    assert_ruff_clean([c.script for c in CASES.values()] + _hostile_sentence_scripts(), tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--stdin-filename", "x.py", "-"],
        input=CASES["default"].script.code,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout  # through ruff's stdin, as the issue runs it


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        made = script.three_matrices(labels, X, weights.section_3_4(), "three", (0, 1))
        assert_labels_stay_data(made.code, labels)


def test_a_reader_edited_sentence_gets_its_own_literal():
    """Any n x d_in embeddings (here 9 tokens, 16 wide, float64) flow through, with the weights
    drawn at that width."""
    made = _hostile_sentence_scripts()[0]
    assert "dtype=torch.float64" in made.code and "SelfAttention_v2(d_in=16, d_out=2)" in made.code
    ast.parse(made.code)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: script.three_matrices(T, X, weights.section_3_4(), "four"), "mode"),  # type: ignore[arg-type]
        (lambda: script.three_matrices(T[:5], X, weights.section_3_4(), "three"), "label"),
        (lambda: script.three_matrices(T, X, weights.section_3_4(), "three", (0, 6)), "pair"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_weights_that_are_not_their_seeds_draw_are_refused():
    ws = weights.section_3_4()
    tampered = weights.WeightSet(ws.label, ws.seed, ws.init, ws.w_query + 1, ws.w_key, ws.w_value)
    with pytest.raises(ValueError, match="not what"):
        script.three_matrices(T, X, tampered, "three")
