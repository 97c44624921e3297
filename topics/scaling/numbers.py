"""The numbers of Divide by √d_k, as the page shows them: its settings, the study's curves, the
table's rows and everything :func:`topics.scaling.view.build` computes (:class:`Numbers`).

A module of its own so that the prose (:mod:`topics.scaling.text`) reads these numbers without
importing the view that writes it: the view builds the numbers, then hands them to the prose
(:attr:`topics.scaling.view.View.words`), and nothing imports back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from topics.scaling.monte_carlo import DkResult, ReferenceStat, Sampler, Summary
from topics.scaling.quotes import Quote


@dataclass(frozen=True)
class Settings:
    """Every control of the page; the defaults are the page's (the post's own setting at d_k = 64)."""

    d_k: int = 64
    divisor: bool = True
    draws: int = 500  # as asked; the study may run fewer (View.draws)
    n_keys: int = 6
    seed: int = 0
    sampler: Sampler = "exact"
    tail: bool = False  # the Jacobian chart's axis down to its smallest entry, not 1e-8


@dataclass(frozen=True)
class Curves:
    """Every point of the three charts against d_k (each tuple runs along ``d_k``)."""

    d_k: tuple[int, ...]  # the d_k the study reached
    sqrt_d_k: tuple[float, ...]  # the line the spread follows
    std: tuple[float, ...]  # measured std of q·k
    std_se: tuple[float, ...]
    std_scaled: tuple[float, ...]  # of q·k/√d_k, which the divisor holds at 1
    median: Mapping[bool, tuple[float, ...]]  # largest |J|, keyed by the divisor
    mean: Mapping[bool, tuple[float, ...]]
    live: Mapping[bool, tuple[float, ...]]  # share of draws whose largest |J| is at least 1e-3
    cutoffs: Mapping[bool, tuple[tuple[float, ...], ...]]  # per d_k, the share at each of mc.CUTOFFS


@dataclass(frozen=True)
class Row:
    """One of the post's numbers: the truth, the live value at the controls, and the check's value."""

    quote: Quote
    true: ReferenceStat
    true_draws: int  # the reference's draws at this d_k
    percentile: float | None  # the quote among the reference's 500-draw runs; None for a rounded quote
    typical: bool | None  # that percentile within TYPICAL; None for a rounded quote
    live: float | None  # at the page's controls; None where brute force does not reach this d_k
    live_se: float | None  # its standard error, from its own draws
    check: float  # at the post's setting, 500 draws of six keys, whatever the controls say
    check_se: float  # its standard error, from its own draws
    check_draws: int
    band: float  # one standard error of a check-sized run about the truth (in decades for a median)
    z: float  # ``check`` − truth in those standard errors, on the same scale
    tolerance: float  # how far ``check`` may sit from the truth (in decades for a median)
    agrees: bool


@dataclass(frozen=True)
class Numbers:
    """Every number the page shows at ``settings``: readouts, charts, table and checks. The view
    (:class:`topics.scaling.view.View`) adds the sentences written from them."""

    settings: Settings
    draws: int  # the draws the study runs: as asked, or fewer when draws × keys pass max_scores
    asked_scores: int  # the scores one d_k would sample as asked (draws × keys)
    max_scores: int
    grid_size: int  # d_k in the study's grid
    results: Mapping[int, DkResult]  # the study: each d_k reached -> both divisor settings
    brute_stop: int | None  # the largest d_k brute force reaches, when it stops short of the grid
    brute_budget: int  # normal samples brute force may spend on one d_k
    sqrt_d_k: float
    here: DkResult | None  # the study at the chosen d_k; None past brute force's reach
    summary: Summary | None  # ``here`` with or without the divisor, as set
    scores: tuple[float, ...]  # the bar chart's draw, as the softmax sees it
    log10_weights: tuple[float, ...]  # its weights as base-10 logs: none reads 0
    log10_rest: float  # log10(1 − α_top), summed from the other weights, never a difference
    log10_entry: float  # log10 of this draw's largest |J|
    curves: Curves
    threshold: float  # a draw is live when its largest |J| is at least this
    rows: tuple[Row, ...]  # one per quote, in the table's and the checks' order
    scaled_medians: tuple[tuple[int, float], ...]  # (d_k, true median ÷√d_k) where the post says ≈0.23
    fold: tuple[int, int]  # the d_k the post's "four thousand-fold" runs between
    fold_ratio: int
    fold_means: tuple[float, float]  # the true mean largest |J|, no divisor, at those two d_k
    fold_mean_ses: tuple[float, float]
    scaled_median_ses: tuple[float, ...]  # standard errors of scaled_medians, in value units
    third_d_k: int  # where the post says "about a third" of draws are live (no divisor)
    third_shares: tuple[tuple[float, float, float], ...]  # (cut-off, true share, its se) there
    about_a_third: tuple[float, float]  # the shares "about a third" covers
    reference_draws: int
    reference_runs: int  # of post_draws draws each
    post_draws: int
    post_keys: int
    z_tolerance: float  # standard errors a check allows
