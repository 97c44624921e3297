"""Divide by √d_k at random legal settings: every number the page's words state comes from the view,
and every claim is shown only where the view's raw numbers make it true (issue 24).

The page takes no sentence (its input is random draws), so the settings are its controls. The
study is the page's own code at small sizes, so 50 settings run in a few seconds: the reference
from 20,000 draws instead of 10⁶ (the same statistics, wider errors), at most 200 draws a study,
the checks' run from 100 draws, and brute force's grid sampled with the exact sampler (brute force
spends its whole budget by design; which d_k it reaches, and the words about that, are kept).
"""

from __future__ import annotations

import functools
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.prose import numbers, unexplained
from topics.scaling import checks, text, view
from topics.scaling import monte_carlo as mc
from topics.scaling.quotes import POST
from ui import checks as checks_ui
from ui import format as fmt

CONSTANTS = ("2.2e-308", "0", "1", "0.1%", "99.9%")  # float64's smallest normal; "1 minus it"; bounds


@functools.cache
def cheap_references() -> dict[int, mc.Reference]:
    return view.references(20_000)


def cheap_study(draws: int, n_keys: int, seed: int, sampler: mc.Sampler) -> dict[int, mc.DkResult]:
    """The study on the grid ``sampler`` reaches, drawn with the exact sampler (the same statistics)."""
    config = mc.StudyConfig(draws, n_keys, seed, sampler)
    exact = mc.StudyConfig(draws, n_keys, seed, "exact")
    return {r.d_k: r for r in mc.study(exact, mc.study_grid(config))}


def cheap_post(seed: int, sampler: mc.Sampler) -> dict[int, mc.DkResult]:
    return {r.d_k: r for r in mc.study(mc.StudyConfig(100, view.POST_KEYS, seed, "exact"), mc.TABLE_D_KS)}


def cheap_draw(n_keys: int, seed: int, sampler: mc.Sampler, d_k: int, divisor: bool) -> np.ndarray:
    return view.one_draw(n_keys, seed, "exact", d_k, divisor)


SETTINGS = st.builds(
    view.Settings,
    d_k=st.sampled_from(mc.D_K_GRID),
    divisor=st.booleans(),
    draws=st.sampled_from((100, 200)),
    n_keys=st.integers(2, 64),
    seed=st.integers(0, 999),
    sampler=st.sampled_from(mc.SAMPLERS),
    tail=st.booleans(),
)


def build(s: view.Settings) -> view.View:
    return view.build(
        s, study=cheap_study, draw=cheap_draw, reference=cheap_references, post_setting=cheap_post
    )


def stated(v: view.View) -> list[str]:
    """The view's values as the page formats them: what a sentence may state."""
    s, here, summary = v.settings, v.here, v.summary
    out = [
        f"{x:,}"
        for x in (
            s.d_k,
            s.draws,
            s.n_keys,
            v.draws,
            v.asked_scores,
            v.max_scores,
            v.grid_size,
            v.brute_budget,
        )
    ]
    out += [f"{v.brute_stop:,}" if v.brute_stop else "", fmt.num(v.sqrt_d_k), text.small_log10(v.log10_entry)]
    out += [text.cutoff(c) for c in mc.CUTOFFS] + [f"{v.z_tolerance:g}", f"{v.post_draws}", f"{v.post_keys}"]
    out += [f"{v.reference_draws:,}", f"{v.reference_runs:,}", *map(fmt.percent, v.about_a_third)]
    if here is not None and summary is not None:
        out += [text.estimate(here.std, here.std_se), text.estimate(summary.median, summary.median_se)]
        out += [text.estimate(summary.mean, summary.mean_se), text.share(summary.live_share, summary.live_se)]
        out += [text.share(x, e) for x, e in zip(summary.cutoff_shares, summary.cutoff_ses, strict=True)]
        for p in (here.raw.naive_zero_share, here.raw.underflow_share):
            out.append(text.share(p, float(np.sqrt(p * (1 - p) / here.draws))))
    for row in v.rows:
        out += [
            row.quote.text,
            row.quote.label,
            text.true_text(row),
            text.band_text(row),
            f"{row.true_draws:,}",
        ]
        out += [text.value_text(row.quote.stat, row.check, row.check_se)]
        if row.live is not None:
            out.append(text.value_text(row.quote.stat, row.live, row.live_se))
        if row.percentile is not None:
            out.append(f"{row.percentile:.1f}%")
        out.append(f"{abs(row.z):.1f}")  # a check that differs says by how many standard errors
    out += [text.estimate(m, e) for (_, m), e in zip(v.scaled_medians, v.scaled_median_ses, strict=True)]
    out += [f"{d:,}" for d in mc.TABLE_D_KS] + [f"{v.fold_ratio:,}", *map(str, POST.values())]
    out += [text.estimate(m, e) for m, e in zip(v.fold_means, v.fold_mean_ses, strict=True)]
    out += [text.share(x, e) for _, x, e in v.third_shares]
    return out


def everything(v: view.View) -> list[str]:
    """Every sentence, readout, table cell and checks cell the page prints at ``v``."""
    w = v.words
    out = [f"{r.label} {r.value} {r.error} {r.help}" for r in w.readouts]
    out += [w.cutoffs, w.draws_caption, w.reference_caption, w.table_prose, w.checks_note]
    out += [n for n in (w.capped_note, w.brute_note, w.rounding_note) if n]
    table = checks.reference_table(v)
    out += [" ".join(map(str, table.columns))] + [" ".join(map(str, r)) for r in table.itertuples()]
    out += [f"{c.label} {c.quoted} {c.true} {c.live} {c.note} {c.why}" for c in checks.post_checks(v)]
    return out


def check_claims(v: view.View) -> None:
    """Each conditional sentence against the view's raw numbers."""
    s, w, summary = v.settings, v.words, v.summary
    assert (w.capped_note is not None) == (v.draws < s.draws)
    assert (w.brute_note is not None) == (v.brute_stop is not None) == (len(v.results) < len(mc.D_K_GRID))
    (mean,) = [r for r in w.readouts if r.label == "Mean largest |J|"]
    if summary is not None and v.here is not None and w.rounding_note is not None:
        side = (
            "Above"
            if summary.mean > summary.median
            else "Below"
            if summary.mean < summary.median
            else "Equal"
        )
        assert mean.help.startswith(side)
        raw = v.here.raw
        assert ("no draw's top weight comes close" in w.rounding_note) == (raw.naive_zero_share == 0)
        assert ("even that sum is below the smallest normal" in w.rounding_note) == (raw.underflow_share > 0)
    else:
        assert w.rounding_note is None and all(r.value == "—" for r in w.readouts[1:5])
    assert ("where the truth is for six" in w.reference_caption) == (s.n_keys != v.post_keys)
    # "about a third" holds exactly at the cut-offs whose true share is in its interval
    lo, hi = v.about_a_third
    sentence = text.third_sentence(v)
    for c, x, _e in v.third_shares:
        assert (f"a {text.cutoff(c)} cut-off (" in sentence) == (lo <= x <= hi), (c, x, sentence)
    # "≈0.23" holds where the true median rounds to it
    scaled = text.scaled_sentence(v)
    off = re.search(r"but not at ([\d, ]+)", scaled)
    missing = {int(d.replace(",", "")) for d in re.findall(r"\d[\d,]*", off.group(1))} if off else set()
    assert missing == {d for d, m in v.scaled_medians if abs(m - 0.23) > 0.005}
    # every check: within noise iff within the tolerance, its percentile from its own z
    for check, row in zip(checks.post_checks(v), v.rows, strict=True):
        assert (check.verdict is checks_ui.Verdict.NOISE) == (abs(row.z) <= v.z_tolerance) == row.agrees
        if check.verdict is checks_ui.Verdict.NOISE:
            pct = min(99, max(1, round(checks_ui.percentile(row.z))))
            assert check.why == f"{checks_ui.ordinal(pct)} percentile"
        if row.percentile is not None:
            assert text.reading(row).startswith(
                "a typical" if view.TYPICAL[0] <= row.percentile <= view.TYPICAL[1] else "an unusual"
            )


@settings(max_examples=50, deadline=None)
@given(SETTINGS)
def test_every_number_the_page_states_is_the_views_and_every_claim_holds(s):
    v = build(s)
    pool = stated(v)
    for line in everything(v):
        assert not unexplained(line, pool, CONSTANTS), (unexplained(line, pool, CONSTANTS), line)
    check_claims(v)


def test_the_pool_is_not_vacuous():
    """A number typed into a sentence is caught: the test above can fail."""
    v = build(view.Settings(draws=100))
    assert unexplained("the median is 0.4242 ± 0.0001", stated(v), CONSTANTS) == ["0.4242", "0.0001"]
    assert numbers(v.words.cutoffs)  # the sentences do state numbers
