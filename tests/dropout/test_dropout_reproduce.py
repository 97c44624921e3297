"""The Reproduce oracle of the Dropout page: each script run, what it prints held against the view.

For the default view, a reader's own sentence and random legal settings (drawn from the controls'
own ranges with a seeded ``random.Random``, so a failure reproduces), the script comes from
``topics/dropout/script.py`` and the expected values from the fields of the very
``view.build(...)`` the page draws: nothing is re-derived here. NumPy-generator scripts are NumPy
and print the view's numbers bit for bit where they print a bare number (always run); PyTorch
scripts are the book's own code and print them at PyTorch's 4 decimals (run where torch is
installed). Then the scripts' form: imports, ruff, hostile labels, refused settings.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import book, tokens
from core.reproduce.source import Script
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.reproduce import printed
from tests.reproduce.case import Case, reader_sentence
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.dropout import script, view
from topics.dropout.sampling import GENERATORS, Generator
from topics.dropout.view import Settings

SEED = 17  # the random settings are the same on every run
RANDOM = 3  # random legal settings per generator, beside the default view and a reader's sentence
RATES = [round(0.05 * i, 2) for i in range(19)]  # the slider's values, 0 to 0.9 by 0.05


def case(s: Settings) -> Case:
    """The script for settings ``s`` and, label by label, what the page's view shows."""
    v = view.build(s)
    first = "One draw after dropout" + (" (the first)" if s.generator == "numpy" else "")
    return Case(
        "dropout",
        {
            "p": s.p,
            "scale": s.scale,
            "seed": s.seed,
            "draws": s.draws,
            "generator": s.generator,
            "n": len(s.labels),
        },
        script.dropout(s.labels, s.x, v.weight_set, s.p, s.scale, s.seed, s.draws, s.generator),
        {
            "Causal weights, before dropout": v.weights,
            first: v.first,
            "Its row sums": v.row_sums,
            "Zero rows in this draw": v.dead,
            f"Mean row sum over {v.draws:,} draws": v.mean_row_sum,
            "Expected mean row sum": v.expectation,
            "Each row's mean sum": v.row_sum_mean,
            "Share of draws where row i is the zero vector": v.zero_rate,
            "Theory p**i": v.zero_theory,
            "Standard error of the mean row sum": v.mean_row_sum_se,
            "Standard error of each row's mean sum": v.row_sum_se,
            "Standard error of each zero share": v.zero_rate_se,
        },
    )


def random_settings(rng: random.Random, generator: Generator) -> Settings:
    """A view a reader can reach: every value from its control's own range or ladder."""
    return Settings(
        p=rng.choice(RATES),
        scale=rng.random() < 0.5,
        generator=generator,
        seed=rng.randrange(view.SEED_MAX + 1),
        draws=rng.choice(view.draw_choices(len(tokens.TOKENS))),
    )


def settings_for(generator: Generator) -> dict[str, Settings]:
    labels, x, _ = reader_sentence()
    rng = random.Random(f"{SEED} {generator}")
    return {
        "default": Settings(generator=generator),
        "a reader's 9-token 16-wide sentence": Settings(
            labels, x, p=0.3, generator=generator, seed=5, draws=view.default_draws(len(labels))
        ),
        **{f"random {i + 1}": random_settings(rng, generator) for i in range(RANDOM)},
    }


NUMPY, TORCH = settings_for("numpy"), settings_for("torch")


@pytest.fixture(scope="module")
def cases() -> dict[str, dict[str, Case]]:
    """Every case by generator and name, each built from its own ``view.build``."""
    return {
        g: {name: case(s) for name, s in made.items()} for g, made in (("numpy", NUMPY), ("torch", TORCH))
    }


def _batch(made: dict[str, Case]) -> dict[str, tuple[Case, dict]]:
    return dict(zip(made, zip(made.values(), run(list(made.values())), strict=True), strict=True))


@pytest.fixture(scope="module")
def numpy_batch(cases) -> dict[str, tuple[Case, dict]]:
    return _batch(cases["numpy"])


@pytest.fixture(scope="module")
def torch_batch(cases) -> dict[str, tuple[Case, dict]]:
    pytest.importorskip("torch")
    return _batch(cases["torch"])


@pytest.mark.parametrize("name", list(NUMPY))
def test_the_numpy_script_prints_the_views_numbers_bit_for_bit(numpy_batch, name):
    found = problems(*numpy_batch[name])
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("name", list(TORCH))
def test_the_pytorch_script_prints_the_views_numbers(torch_batch, name):
    found = problems(*torch_batch[name])
    assert not found, "\n".join(found[:20])


def test_the_book_run_prints_the_books_tensor(torch_batch):
    """PyTorch random numbers, seed 123, p = 0.5 (the default view with PyTorch's generator): the
    first draw is the tensor section 3.5.2 prints, digit for digit."""
    case, result = torch_batch["default"]
    s = case.settings
    assert (s["p"], s["scale"], s["seed"], s["generator"], s["n"]) == (0.5, True, 123, "torch", 6)
    rows = printed.parse(result["stdout"])["One draw after dropout"].numbers
    assert isinstance(rows, list)
    assert ["[" + ", ".join(row) + "]" for row in rows] == list(book.FIGURE_04["book_dropped"])


# --- the scripts' form, without running them ----------------------------------------------------


def _scripts(cases) -> list[Script]:
    return [c.script for made in cases.values() for c in made.values()]


def test_each_script_starts_with_its_runtime_and_imports_nothing_else(cases):
    for s in _scripts(cases):
        assert_standalone(s, "dropout")
        if s.runtime == "torch":  # no weight travels in a torch script: it seeds torch and builds them
            assert "torch.manual_seed(" in s.code and "sa = SelfAttention_v2(" in s.code, s.filename


def test_the_scripts_pass_ruff_check_and_ruff_format(cases, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format: a reader's
    own linter and formatter leave the script as it is."""
    ws = view.build(Settings(draws=1_000)).weight_set
    labelled = [(label, *tokens.TOKENS[1:]) for label in HOSTILE_LABELS[:4]]
    hostile = [
        script.dropout(t, tokens.inputs(), ws, 0.5, True, 1, 1_000, g) for t in labelled for g in GENERATORS
    ]
    assert_ruff_clean([*_scripts(cases), *hostile], tmp_path)


@pytest.mark.parametrize("generator", GENERATORS)
def test_hostile_token_labels_stay_data(generator):
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    ws = view.build(Settings(draws=1_000)).weight_set
    for label in HOSTILE_LABELS:
        labels = (label, *tokens.TOKENS[1:])
        code = script.dropout(labels, tokens.inputs(), ws, 0.5, True, 1, 1_000, generator).code
        assert_labels_stay_data(code, labels)


BAD: Any = "mt"  # not a Generator: what a caller outside the type checker could pass


@pytest.mark.parametrize(
    ("p", "seed", "draws", "generator", "message"),
    [
        (1.0, 1, 10, "torch", "p must"),
        (-0.1, 1, 10, "numpy", "p must"),
        (0.5, -1, 10, "numpy", "seed must"),
        (0.5, 1, 0, "numpy", "draws must"),
        (0.5, 1, 10, BAD, "generator must"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(p, seed, draws, generator, message):
    ws = view.build(Settings(draws=1_000)).weight_set
    with pytest.raises(ValueError, match=message):
        script.dropout(tokens.TOKENS, tokens.inputs(), ws, p, True, seed, draws, generator)
