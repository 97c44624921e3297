"""The Dropout page at random legal settings (issue 24): every number its prose and readouts state
comes from the view, and every claim holds, checked against the view's raw arrays.

Settings are drawn from the controls' own ranges: the reader's sentence (``sentences()``, repeated
words included), the rate slider's values 0 to 0.9 (with the slider's float noise), scaling on and
off, both generators, any seed, the two cheapest draw counts, a focus row or none. The draws are the
heavy part: the run is the page's own ``view.monte_carlo``, cached here by its arguments, and the
draw counts are the smallest the Draws control offers.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import book
from core.sentence import Sentence
from tests.prose import unexplained
from tests.strategies import sentences
from topics.dropout import checks, text, view
from topics.dropout.sampling import GENERATORS, DropoutStats, Generator
from topics.dropout.uncertainty import decimals, estimate, estimate_percent, exact_percent
from topics.dropout.view import Settings, View
from ui import checks as checks_ui
from ui import format as fmt

RATES = [0.05 * i for i in range(19)]  # the slider's values as floats arrive: 0.35000000000000003
CONSTANTS = ("0", "1", "2", "3.5", "3.5.2", "123", "789", "0.5", "0.1", "0.2")  # √2, sections, seeds
ESTIMATE = re.compile(r"^(-?\d+(?:\.\d+)?)(%?) ± (\d+(?:\.\d+)?)%?$")

_runs: dict[tuple[object, ...], DropoutStats] = {}


def cached_run(
    p: float, scale: bool, seed: int, draws: int, generator: Generator, x: np.ndarray
) -> DropoutStats:
    """``view.monte_carlo``, once per argument set: the book checks' runs repeat across examples."""
    key = (p, scale, seed, draws, generator, x.shape, x.tobytes())
    if key not in _runs:
        _runs[key] = view.monte_carlo(p, scale, seed, draws, generator, x)
    return _runs[key]


@st.composite
def page_settings(draw: st.DrawFn) -> Settings:
    s: Sentence = draw(sentences())
    n = len(s.labels)
    focus = draw(st.none() | st.integers(0, n - 1))
    return Settings(
        labels=s.labels,
        x=s.embeddings,
        p=draw(st.sampled_from(RATES)),
        scale=draw(st.booleans()),
        generator=draw(st.sampled_from(GENERATORS)),
        seed=draw(st.integers(0, view.SEED_MAX)),
        draws=draw(st.sampled_from(view.draw_choices(n)[:2])),
        focus=focus,
    )


def prose(v: View) -> list[str]:
    """Every sentence and readout the page shows for ``v``."""
    readouts = [f"{r.label} {r.value} {r.help}" for r in v.readouts]
    table = [*v.zero_rate_text, *v.zero_theory_text, *v.row_sum_text]
    return [v.lead, v.caption, v.draw_caption, v.factor_text, v.code_caption, *readouts, *table]


def stated(v: View, s: Settings) -> list[str]:
    """The view's raw values, formatted as the page formats them (independently of its sentences)."""
    n = len(v.labels)
    dead = [i + 1 for i in range(n) if not v.first[i].any()]
    return [
        text.rate(v.p),
        f"{v.keep:g}",
        text.worked_factor(v.keep, v.factor),
        fmt.num(v.expectation),
        fmt.num(v.first[0].sum()),
        f"{len(dead)} of {n}",
        ", ".join(map(str, dead)),
        f"{v.draws:,}",
        str(s.seed),
        str(v.weights.shape[1]),
        str(np.shape(s.x)[1]),
        estimate(v.mean_row_sum, v.std / np.sqrt(v.draws)),
        *(estimate_percent(r, e) for r, e in zip(v.zero_rate, v.zero_rate_se, strict=True)),
        *(exact_percent(v.p**i) for i in range(1, n + 1)),
        *(estimate(m, e) for m, e in zip(v.row_sum_mean, v.row_sum_se, strict=True)),
        book.FIGURE_04["gpt_rates"],
    ]


def assert_estimate(shown: str, value: float, se: float, percent: bool = False) -> None:
    """A Monte Carlo figure: the value and its error rounded to the digits the error supports."""
    m = ESTIMATE.match(shown)
    assert m, shown
    scale = 100.0 if percent else 1.0
    d = decimals(scale * se, 1 if percent else fmt.DECIMALS)
    assert len(m.group(1).partition(".")[2]) == d == len(m.group(3).partition(".")[2]), shown
    assert abs(float(m.group(1)) - scale * value) <= 0.5 * 10.0**-d + 1e-9, (shown, value)
    assert abs(float(m.group(3)) - scale * se) <= 0.5 * 10.0**-d + 1e-9, (shown, se)


def assert_claims(v: View) -> None:
    """Each sentence a setting chooses is shown exactly when its condition holds in the arrays."""
    kept = v.first != 0
    exact_p0 = v.p == 0
    # What a survivor is multiplied by, read from the arrays
    if kept.any():
        ratio = v.first[kept] / v.weights[kept]
        np.testing.assert_allclose(ratio, v.survivor_factor, rtol=1e-12)
    # Nothing dropped exactly at p = 0
    assert ("nothing is dropped" in v.lead) == exact_p0 == ("nothing is dropped" in v.draw_caption)
    if exact_p0:
        np.testing.assert_array_equal(v.first, v.weights)
        assert np.all(v.zero_rate == 0) and v.std == 0 and v.mean_row_sum_se == 0
        np.testing.assert_allclose(v.first.sum(axis=1), 1.0, rtol=1e-12)  # "every row sums to 1"
    else:
        # "no row is sure to sum to 1": every row dies with positive probability
        assert "no row is sure to sum to 1" in v.lead and np.all(v.zero_theory > 0)
        assert f"on a share {text.rate(v.p)} of all" in v.lead and v.zero_theory[0] == v.p
    # "each survivor is multiplied by 1/(1 − p)" only with scaling on; "keeps its value" only off
    multiplied = "each survivor is multiplied by" in v.factor_text
    assert multiplied == (v.scale and not exact_p0)
    assert ("keeps its value" in v.factor_text) == (not v.scale and not exact_p0)
    assert ("survivors are multiplied by" in v.draw_caption) == multiplied
    if multiplied:
        assert v.survivor_factor == v.factor == 1 / (1 - v.p)
    if not v.scale:
        assert v.survivor_factor == 1.0 and v.expectation == 1 - v.p
        if not exact_p0:
            assert f"heads for $1 - p = {v.keep:g}$, not 1" in v.factor_text
    # "=" only where 4 digits are the whole factor
    worked = text.worked_factor(v.keep, v.factor)
    factor_shown = Fraction(worked.split(" ")[-1])
    assert ("=" in worked) == (factor_shown == 1 / Fraction(f"{v.keep:g}"))
    # Which rows the caption says are the zero vector
    dead = [i + 1 for i in range(len(v.labels)) if not kept[i].any()]
    if dead:
        rows = ", ".join(map(str, dead))
        assert (
            f"Row{'s' if len(dead) > 1 else ''} {rows} {'are' if len(dead) > 1 else 'is'} the zero"
            in v.draw_caption
        )
    else:
        assert "No row is the zero vector" in v.draw_caption
    # "This is the draw the book prints" only when it is
    if "This is the draw the book prints" in v.draw_caption:
        assert [fmt.vec(r) for r in v.first] == list(book.FIGURE_04["book_dropped"])
    # The readouts, each from the arrays
    r = {x.label: x.value for x in v.readouts}
    assert r["Zero rows in this draw"] == f"{len(dead)} of {len(v.labels)}"
    assert r["Row 1 sum in this draw"] == fmt.num(v.first[0].sum())
    assert r["Expected mean row sum"] == fmt.num(1.0 if v.scale else 1.0 - v.p)
    assert r["Survivors multiplied by"] == (worked if v.scale else "1")
    assert_estimate(r[f"Mean row sum over {v.draws:,} draws"], v.mean_row_sum, v.std / np.sqrt(v.draws))
    n = len(v.labels)
    for i in range(n):
        t = v.p ** (i + 1)
        assert_estimate(v.zero_rate_text[i], v.zero_rate[i], np.sqrt(t * (1 - t) / v.draws), percent=True)
        assert v.zero_theory_text[i] == exact_percent(t) and (v.zero_theory_text[i] == "0%") == (t == 0)
        row_sd = v.survivor_factor * np.sqrt(v.p * (1 - v.p) * np.sum(v.weights[i] ** 2))
        assert_estimate(v.row_sum_text[i], v.row_sum_mean[i], row_sd / np.sqrt(v.draws))
    # The LaTeX is the dropout applied
    assert (r"\frac{b_{ij}}{1-p}" in v.formula) == v.scale


def assert_checks(v: View) -> None:
    rows = checks.book_checks(v.checks)
    assert all(c.verdict.ok or c.why for c in rows)
    for c in rows:
        if "draws" in c.label:  # a statistic: within noise (with its percentile) or differs
            assert c.verdict in (checks_ui.Verdict.NOISE, checks_ui.Verdict.DIFFERS), c
            assert c.verdict is checks_ui.Verdict.DIFFERS or c.why.endswith("percentile")
        elif c.source == checks_ui.BOOK:
            assert c.verdict in (checks_ui.Verdict.EXACT, checks_ui.Verdict.ROUNDING), c


@settings(max_examples=50, deadline=None)
@given(page_settings())
def test_every_number_and_claim_comes_from_the_view(s):
    v = view.build(s, run=cached_run)
    pool = stated(v, s)
    for sentence in prose(v):
        assert not unexplained(sentence, pool, CONSTANTS), (sentence, unexplained(sentence, pool, CONSTANTS))
    assert_claims(v)
    assert_checks(v)


def test_the_ends_of_the_rate_slider_say_what_they_do():
    """p = 0 and the largest p, each with scaling on and off, on both generators."""
    for p in (0.0, 0.9):
        for scale in (True, False):
            for generator in GENERATORS:
                v = view.build(Settings(p=p, scale=scale, generator=generator, draws=1_000), run=cached_run)
                assert_claims(v)
