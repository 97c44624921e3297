"""Divide by √d_k (the post's section "Divide by 1.4142"): every number and sentence the page shows.

:func:`build` runs the Monte Carlo study (:mod:`topics.scaling.monte_carlo`) at the page's
controls, one draw for the bar chart, the 10⁶-draw reference, and the study at the post's own
setting for the checks, and returns a :class:`View`: the readouts, every point of the four
charts, the table of quoted numbers against the truth, the checks' live values, and
:attr:`View.words`, every sentence built from those numbers (:mod:`topics.scaling.text`). The heavy
parts are keyword arguments whose defaults are the plain functions below; the page passes its
cached ones (:mod:`topics.scaling.study`, which add the progress bar and the spinners), so the
page and the tests read the same numbers from the same code.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from core.attention import log_softmax
from topics.scaling import monte_carlo as mc
from topics.scaling import text
from topics.scaling.monte_carlo import (
    POST_DRAWS,
    TABLE_D_KS,
    DkResult,
    Reference,
    Sampler,
    Statistic,
    StudyConfig,
)
from topics.scaling.numbers import Curves, Numbers, Row, Settings
from topics.scaling.quotes import QUOTES, Quote

DRAWS: tuple[int, ...] = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)  # the ladder
POST_KEYS = 6  # the post's six tokens: the checks and the reference sample six keys
TYPICAL = (2.5, 97.5)  # percentiles of 500-draw runs: the central 95% is what one honest run reads
# "About a third" as a share: nearer a third than a quarter or a half, the fractions one would say
# instead (7/24 to 5/12, 29.2% to 41.7%).
ABOUT_A_THIRD = ((1 / 4 + 1 / 3) / 2, (1 / 3 + 1 / 2) / 2)


# --- the heavy parts, plain: the page passes cached functions with the same signatures ----------


def whole_study(draws: int, n_keys: int, seed: int, sampler: Sampler) -> dict[int, DkResult]:
    """The study at every d_k the sampler can afford (both divisor settings from the same draws)."""
    config = StudyConfig(draws, n_keys, seed, sampler)
    return {r.d_k: r for r in mc.study(config, mc.study_grid(config))}


def post_study(seed: int, sampler: Sampler) -> dict[int, DkResult]:
    """The study at the post's setting (500 draws of six keys) at the d_k it quotes: what the checks hold."""
    return {r.d_k: r for r in mc.study(StudyConfig(POST_DRAWS, POST_KEYS, seed, sampler), TABLE_D_KS)}


def one_draw(n_keys: int, seed: int, sampler: Sampler, d_k: int, divisor: bool) -> np.ndarray:
    """One draw's scores as the softmax sees them (divided by √d_k when the divisor is on)."""
    scores = mc.one_draw(StudyConfig(1, n_keys, seed, sampler), d_k)
    return scores / np.sqrt(d_k) if divisor else scores


def references(draws: int = mc.REFERENCE_DRAWS) -> dict[int, Reference]:
    """The 10⁶-draw reference at each d_k the post quotes, unrounded quotes placed among 500-draw runs
    (``draws`` fewer only where a test needs a cheap one)."""
    out = {}
    for d in TABLE_D_KS:
        placed: dict[str, float] = {q.stat: q.value for q in QUOTES if q.d_k == d and not q.rounded}
        out[d] = mc.reference_at(d, placed, draws=draws)
    return out


# --- what the page shows --------------------------------------------------------------------------


@dataclass(frozen=True)
class View(Numbers):
    """Every number the page shows at ``settings`` (:class:`Numbers`), and every sentence written
    from them (:attr:`words`)."""

    @functools.cached_property
    def words(self) -> text.Words:
        """Every sentence and readout the page prints, from this view's numbers."""
        return text.words(self)


def live_value(stat: Statistic, r: DkResult) -> float:
    """The study's estimate of one statistic of :data:`topics.scaling.monte_carlo.STATISTICS`."""
    if stat == "std":
        return r.std
    kind, _, divisor = stat.partition("_")
    summary = r.summary(divisor == "scaled")
    return {"median": summary.median, "mean": summary.mean, "live": summary.live_share}[kind]


def live_error(stat: Statistic, r: DkResult) -> float:
    """The standard error of :func:`live_value` from the study's own draws."""
    if stat == "std":
        return r.std_se
    kind, _, divisor = stat.partition("_")
    summary = r.summary(divisor == "scaled")
    return {"median": summary.median_se, "mean": summary.mean_se, "live": summary.live_se}[kind]


def _curves(results: Mapping[int, DkResult]) -> Curves:
    grid = tuple(results)
    pick = {on: [results[d].summary(on) for d in grid] for on in (False, True)}
    root = np.sqrt(np.asarray(grid, dtype=np.float64))
    std = np.asarray([results[d].std for d in grid], dtype=np.float64)
    return Curves(
        d_k=grid,
        sqrt_d_k=tuple(root.tolist()),
        std=tuple(std.tolist()),
        std_se=tuple(results[d].std_se for d in grid),
        std_scaled=tuple((std / root).tolist()),
        median={on: tuple(s.median for s in pick[on]) for on in pick},
        mean={on: tuple(s.mean for s in pick[on]) for on in pick},
        live={on: tuple(s.live_share for s in pick[on]) for on in pick},
        cutoffs={on: tuple(s.cutoff_shares for s in pick[on]) for on in pick},
    )


def _row(q: Quote, ref: Reference, live: DkResult | None, post: DkResult) -> Row:
    true = ref[q.stat]
    check = live_value(q.stat, post)
    percentile = None if q.rounded else true.percentile(q.value)
    band = true.std_error(post.draws)
    return Row(
        quote=q,
        true=true,
        true_draws=ref.draws,
        percentile=percentile,
        typical=None if percentile is None else TYPICAL[0] <= percentile <= TYPICAL[1],
        live=live_value(q.stat, live) if live else None,
        live_se=live_error(q.stat, live) if live else None,
        check=check,
        check_se=live_error(q.stat, post),
        check_draws=post.draws,
        band=band,
        z=true.deviation(check) / band,
        tolerance=true.tolerance(post.draws),
        agrees=true.agrees(check, post.draws),
    )


def build(
    s: Settings,
    *,
    study: Callable[[int, int, int, Sampler], Mapping[int, DkResult]] = whole_study,
    draw: Callable[[int, int, Sampler, int, bool], np.ndarray] = one_draw,
    reference: Callable[[], Mapping[int, Reference]] = references,
    post_setting: Callable[[int, Sampler], Mapping[int, DkResult]] = post_study,
) -> View:
    """Everything the page shows at ``s``, computed in the order the page shows it."""
    draws = mc.affordable_draws(s.draws, s.n_keys, DRAWS)
    results = study(draws, s.n_keys, s.seed, s.sampler)
    scores = np.asarray(draw(s.n_keys, s.seed, s.sampler, s.d_k, s.divisor), dtype=np.float64)
    log_alpha = log_softmax(scores)  # read from logs: no weight prints as 0
    top = int(np.argmax(log_alpha))
    here = results.get(s.d_k)
    refs = reference()
    # The checks run at the post's setting whatever the draws and keys say: the study itself when
    # the controls are at it, else its own (cached) run.
    post = results if (draws, s.n_keys) == (POST_DRAWS, POST_KEYS) else post_setting(s.seed, s.sampler)
    lo, hi = TABLE_D_KS[0], TABLE_D_KS[-1]
    third = next(q.d_k for q in QUOTES if q.text == "about a third")
    shares, ses = refs[third].shares(False)
    medians = [refs[d]["median_scaled"] for d in TABLE_D_KS]
    return View(
        settings=s,
        draws=draws,
        asked_scores=s.draws * s.n_keys,
        max_scores=mc.MAX_SCORES,
        grid_size=len(mc.D_K_GRID),
        results=results,
        brute_stop=max(results) if len(results) < len(mc.D_K_GRID) else None,
        brute_budget=mc.BRUTE_BUDGET,
        sqrt_d_k=float(np.sqrt(s.d_k)),
        here=here,
        summary=here.summary(s.divisor) if here else None,
        scores=tuple(scores.tolist()),
        log10_weights=tuple((log_alpha / np.log(10)).tolist()),
        log10_rest=float(np.logaddexp.reduce(np.delete(log_alpha, top)) / np.log(10)),
        log10_entry=float(mc.log_largest_jacobian_entry(scores)) / np.log(10),
        curves=_curves(results),
        threshold=mc.LIVE_THRESHOLD,
        rows=tuple(_row(q, refs[q.d_k], results.get(q.d_k), post[q.d_k]) for q in QUOTES),
        scaled_medians=tuple((d, refs[d]["median_scaled"].value) for d in TABLE_D_KS),
        fold=(lo, hi),
        fold_ratio=hi // lo,
        fold_means=(refs[lo]["mean_raw"].value, refs[hi]["mean_raw"].value),
        fold_mean_ses=(refs[lo]["mean_raw"].se, refs[hi]["mean_raw"].se),
        scaled_median_ses=tuple(m.value * (10**m.se - 1) for m in medians),
        third_d_k=third,
        third_shares=tuple(zip(mc.CUTOFFS, shares, ses, strict=True)),
        about_a_third=ABOUT_A_THIRD,
        reference_draws=mc.REFERENCE_DRAWS,
        reference_runs=mc.REFERENCE_DRAWS // POST_DRAWS,
        post_draws=POST_DRAWS,
        post_keys=POST_KEYS,
        z_tolerance=mc.Z_TOLERANCE,
    )
