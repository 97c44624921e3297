"""The cost page's Reproduce oracle: the plain-Python script prints the view's numbers exactly.

For the default view and random legal settings (a seeded draw from each control's own ladder or
range), the script is built with ``topics/cost/script.py`` from the page's settings, run
(``tests.reproduce.run``), and what it prints is compared with the same
:func:`topics.cost.view.build` result the page draws: its integers exactly, its decimals rounded
as the page rounds them. No torch: the script needs Python alone.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.reproduce.case import Case
from tests.reproduce.checks import assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.cost import arithmetic, script, view
from topics.cost import format as cf

SEED = 17  # the random settings are the same on every run
RANDOM = 3


def case(s: view.Settings) -> Case:
    """The script for ``s`` and, under the labels it prints, the view's own values."""
    v = view.build(s)
    row = v.row
    expected: dict[str, object] = {
        "Bytes": f"{row.nbytes:,} = {cf.binary_size(row.nbytes)}",
        "Cards to buy": f"{row.cards_to_buy} exact ratio {cf.fixed(row.cards, 2)}",
        "Time per token": f"{cf.fixed(row.seconds, 3)} s = {cf.hours(row.seconds)}",
        "Scores": f"{row.scores:,} of which the causal mask keeps {row.live_cells:,}",
    }
    for r in v.table:
        expected[f"n = {r.n:,}"] = (
            f"scores {r.scores:,}, bytes {r.nbytes:,} ({cf.binary_size(r.nbytes)}), cards "
            f"{cf.fixed(r.cards, 2)} -> {r.cards_to_buy:,}, "
            f"time {cf.fixed(r.seconds, 3)} s = {cf.hours(r.seconds)}"
        )
    expected["Projections Q, K, V (multiply-adds)"] = f"{v.macs.linear:,}"
    expected["QK^T + AV (multiply-adds)"] = f"{v.macs.quadratic:,}"
    expected["Quadratic part wins from n"] = f"{v.crossover:,}"
    return Case("n-squared", s.__dict__, script.what_n_squared_costs(s), expected)


def random_settings(rng: random.Random) -> view.Settings:
    """A view a reader can reach: every value from its control's ladder or range."""
    return view.Settings(
        rng.choice(arithmetic.context_ladder()),
        rng.choice(view.BYTES_PER_SCORE),
        rng.choice(arithmetic.GPU_NAMES),
        rng.randint(1, view.MAX_HEADS),
        rng.randint(1, view.MAX_LAYERS),
        rng.choice(view.BASELINE_MS),
        rng.choice(view.D_INS),
        rng.choice(view.D_KS),
    )


SETTINGS = {
    "default": view.Settings(),
    **{f"random {i + 1}": random_settings(random.Random(SEED + i)) for i in range(RANDOM)},
}


@pytest.fixture(scope="module")
def batch() -> dict[str, tuple[Case, dict]]:
    cases = [case(s) for s in SETTINGS.values()]
    return dict(zip(SETTINGS, zip(cases, run(cases), strict=True), strict=True))


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_script_prints_the_views_numbers(batch, name):
    made, result = batch[name]
    found = problems(made, result)
    assert not found, "\n".join(found[:20])


def test_the_script_needs_python_alone_and_has_a_safe_name():
    for s in SETTINGS.values():
        made = script.what_n_squared_costs(s)
        assert made.runtime == "python"
        assert_standalone(made, "what-n-squared-costs")
        assert re.fullmatch(
            r"what-n-squared-costs_n-\d+_[124]-bytes_[a-z0-9.-]+_heads-\d+_layers-\d+\.py", made.filename
        )


def test_the_scripts_pass_ruff_check_and_ruff_format(tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean((script.what_n_squared_costs(s) for s in SETTINGS.values()), tmp_path)


def test_a_setting_no_page_offers_is_a_readable_value_error():
    with pytest.raises(ValueError, match="d_k must be at least 1"):
        script.what_n_squared_costs(view.Settings(d_k=0))
    with pytest.raises(ValueError, match="choose one of"):
        script.what_n_squared_costs(view.Settings(gpu="H800"))
