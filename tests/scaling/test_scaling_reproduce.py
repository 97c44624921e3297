"""The Reproduce oracle for Divide by √d_k: the NumPy script prints the page's own view, bit for bit.

For the default view and random legal settings (each control's value drawn from its own range),
the script is built by ``topics/scaling/script.py``, run in a fresh interpreter
(``tests.reproduce.run``), and every number it prints is held against the field of the SAME
:func:`topics.scaling.view.build` result the page draws: the study at the chosen d_k and the
table's d_k, and the bar chart's one draw. Nothing here re-derives the page's numbers. The script
needs NumPy only, so no torch is needed.
"""

from __future__ import annotations

import random

import pytest

from tests.reproduce.case import Case
from tests.reproduce.checks import assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.scaling import monte_carlo as mc
from topics.scaling import view
from topics.scaling.script import divide_by_sqrt_dk

SEED = 17
RANDOM_CASES = 4  # alternately exact and brute force


def random_settings(rng: random.Random, sampler: mc.Sampler) -> view.Settings:
    """Any setting a reader can reach with ``sampler``, from the controls' own ranges (brute force
    kept to the shorter half of the draws ladder, which its budget cuts to a few d_k anyway)."""
    return view.Settings(
        d_k=rng.choice(mc.D_K_GRID),
        divisor=rng.random() < 0.5,
        draws=rng.choice(view.DRAWS[:6] if sampler == "brute" else view.DRAWS),
        n_keys=rng.randint(2, 64),
        seed=rng.randint(0, 999),
        sampler=sampler,
        tail=rng.random() < 0.5,
    )


def case(v: view.View) -> Case:
    """The script for ``v``'s settings, and what ``v`` shows, under the labels the script prints."""
    s = v.settings
    expected: dict[str, object] = {}
    for d in sorted({s.d_k, *mc.TABLE_D_KS}):
        r = v.results.get(d)
        if r is None:  # past brute force's reach: the page shows no number there, nor does the script
            continue
        expected[f"d_k = {d}, std of q.k"] = r.std
        for name, summary in (("no divisor", r.raw), ("divided by sqrt(d_k)", r.scaled)):
            expected[f"d_k = {d}, {name}, median"] = summary.median
            expected[f"d_k = {d}, {name}, mean"] = summary.mean
            expected[f"d_k = {d}, {name}, live share"] = summary.live_share
            expected[f"d_k = {d}, {name}, underflow share"] = summary.underflow_share
            expected[f"d_k = {d}, {name}, naive zero share"] = summary.naive_zero_share
    expected["One draw, log10 of each weight"] = list(v.log10_weights)
    expected["One draw, log10 of its largest |J|"] = v.log10_entry
    made = divide_by_sqrt_dk(s.d_k, s.divisor, v.draws, s.n_keys, s.seed, s.sampler)
    return Case("divide-by-sqrt-dk", vars(s) | {"draws run": v.draws}, made, expected)


@pytest.fixture(scope="module")
def cases(build) -> list[Case]:
    rng = random.Random(SEED)
    randoms = [random_settings(rng, mc.SAMPLERS[i % 2]) for i in range(RANDOM_CASES)]
    return [case(build(s)) for s in [view.Settings(), *randoms]]


def test_the_script_prints_the_pages_view_bit_for_bit(cases):
    """The default view and four random legal settings, each script run for real."""
    found = [p for c, result in zip(cases, run(cases), strict=True) for p in problems(c, result)]
    assert not found, "\n".join(found[:20])


def test_each_script_is_numpy_only_with_a_safe_file_name(cases):
    for c in cases:
        assert c.script.runtime == "numpy", c.name
        assert_standalone(c.script, "divide-by-sqrt-dk")


def test_the_scripts_pass_ruff_check_and_ruff_format(cases, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format, both samplers."""
    brute = divide_by_sqrt_dk(768, False, 200, 3, 7, "brute")
    assert_ruff_clean([c.script for c in cases] + [brute], tmp_path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, True, 500, 6, 0, "exact"), "d_k must be one of"),
        ((64, True, 0, 6, 0, "exact"), "draws must be"),
        ((64, True, 500, 1, 0, "exact"), "n_keys must be"),
        ((64, True, 500, 6, 0, "monte carlo"), "sampler must be"),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(args, message):
    with pytest.raises(ValueError, match=message):
        divide_by_sqrt_dk(*args)
