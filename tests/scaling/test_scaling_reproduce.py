"""The Reproduce oracle for Divide by √d_k: the NumPy script prints the page's own view, bit for bit.

For the default view and random legal settings (each control's value drawn from its own range),
the script is built by ``topics/scaling/script.py``, run in a fresh interpreter
(``tests.reproduce.run``), and every number it prints is held against the field of the SAME
:func:`topics.scaling.view.build` result the page draws, and the two sets of labels must be equal
(issue 24, item 11): √d_k, the readouts at the chosen d_k with their standard errors and the share
at each cut-off, the caption's shares, the table's live column, and the bar chart's one draw.
Nothing here re-derives the page's numbers. The script
needs NumPy only, so no torch is needed.
"""

from __future__ import annotations

import random

import pytest

from tests.reproduce.case import Case
from tests.reproduce.checks import assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.scaling import monte_carlo as mc
from topics.scaling import text, view
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


GROUP = {False: "no divisor", True: "divided by sqrt(d_k)"}
KEY = {"median": "median", "mean": "mean", "live": "live share"}


def shown(v: view.View) -> dict[str, object]:
    """Every number of the study the page shows for ``v``, under the label the script prints it with:
    √d_k; the readouts at the chosen d_k with their standard errors, the share at each cut-off and
    the caption's two shares; the table's live column with its errors; the one draw."""
    s, here, summary = v.settings, v.here, v.summary
    out: dict[str, object] = {"sqrt(d_k)": v.sqrt_d_k}
    if here is not None and summary is not None:
        at, name = f"d_k = {s.d_k}", GROUP[s.divisor]
        out[f"{at}, std of q.k"] = here.std
        out[f"{at}, std of q.k, standard error"] = here.std_se
        for key, value, se in (
            ("median", summary.median, summary.median_se),
            ("mean", summary.mean, summary.mean_se),
            ("live share", summary.live_share, summary.live_se),
            *(
                (f"share at least {text.cutoff(c)}", x, e)
                for c, x, e in zip(mc.CUTOFFS, summary.cutoff_shares, summary.cutoff_ses, strict=True)
            ),
        ):
            out[f"{at}, {name}, {key}"] = value
            out[f"{at}, {name}, {key} standard error"] = se
        out[f"{at}, no divisor, naive zero share"] = here.raw.naive_zero_share
        out[f"{at}, no divisor, underflow share"] = here.raw.underflow_share
    for row in v.rows:  # the table's live column: a dash past brute force's reach, and no number
        if row.live is None:
            continue
        at, stat = f"d_k = {row.quote.d_k}", row.quote.stat
        if stat == "std":
            out[f"{at}, std of q.k"], out[f"{at}, std of q.k, standard error"] = row.live, row.live_se
        else:
            kind, _, on = stat.partition("_")
            label = f"{at}, {GROUP[on == 'scaled']}, {KEY[kind]}"
            out[label], out[f"{label} standard error"] = row.live, row.live_se
    out["One draw, log10 of each weight"] = list(v.log10_weights)
    out["One draw, log10 of its largest |J|"] = v.log10_entry
    return out


def case(v: view.View) -> Case:
    """The script for ``v``'s settings, and what ``v`` shows, under the labels the script prints."""
    s = v.settings
    made = divide_by_sqrt_dk(s.d_k, s.divisor, v.draws, s.n_keys, s.seed, s.sampler)
    return Case("divide-by-sqrt-dk", vars(s) | {"draws run": v.draws}, made, shown(v))


def test_the_script_prints_the_sqrt_d_k_readout_and_every_standard_error_the_page_shows(build):
    """Issue 24, item 11: the √d_k metric, the readouts' standard errors and the live share at each
    cut-off are on the page, so the script prints them too (a label missing from the printout fails
    the oracle below; this names the ones the issue found missing)."""
    v = build()
    labels = set(shown(v))
    code = divide_by_sqrt_dk(64, True, 500, 6, 0, "exact").code
    assert "sqrt(d_k)" in labels and '"sqrt(d_k):"' in code
    assert "d_k = 64, divided by sqrt(d_k), median standard error" in labels
    assert "share at least" in code and "standard error" in code


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
