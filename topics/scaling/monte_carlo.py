"""Figure 02, "Divide by √d_k": why the scores are divided, as a Monte Carlo study of the softmax Jacobian.

The post's argument in two steps. A dot product of two vectors with ``d_k`` i.i.d. N(0, 1)
entries is a sum of ``d_k`` terms of variance 1, so its standard deviation is ``√d_k``. As the
scores spread, the softmax turns into a step function, and its Jacobian ``J = diag(α) − ααᵀ``,
the only path a gradient has back through it, goes to zero with it.

One draw (the post's section 02): one query and ``n`` keys, every entry i.i.d. N(0, 1),
scores ``ω_j = q·k_j`` (divided by ``√d_k`` when the divisor is on), ``α = softmax(ω)``, and the
statistic is the largest ``|J_ij|``. A draw is *live* when that entry is at least 1e-3.

Unscaled at ``d_k = 65,536`` the typical largest entry is near 1e-55, and one draw in a few
hundred is below the smallest normal float64. Everything here therefore works with the
*logarithm* of the statistic, which never underflows; a float is made from it only for display,
and a value below the smallest normal number is flagged as underflow, never shown as 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from core.attention import softmax

D_K_GRID: tuple[int, ...] = tuple(sorted({2**i for i in range(17)} | {768, 4096}))  # 1 … 65,536
TABLE_D_KS: tuple[int, ...] = (2, 64, 768, 4096)  # where the post quotes numbers
LIVE_THRESHOLD = 1e-3  # the post: a draw is live when its largest Jacobian entry is at least this
# The live share hangs on that cut-off (the post's "about a third" at d_k = 768 is the share at
# 1e-4, not 1e-3), so the page shows the share at each of these beside it.
CUTOFFS: tuple[float, ...] = (1e-2, 1e-3, 1e-4, 1e-6)
TINY = float(np.finfo(np.float64).tiny)  # smallest normal float64, 2.2e-308
LOG_TINY = float(np.log(TINY))
POST_DRAWS = 500  # the post's "hundreds" of draws: what its own sampling error is assumed from

Sampler = Literal["exact", "brute"]
SAMPLERS: tuple[Sampler, ...] = ("exact", "brute")
BRUTE_MEMORY = 16 * 2**20  # bytes for one chunk of q and keys (one draw may be more: 34 MB at most)
# Normal samples brute force may spend on one d_k. The grid's d_k double, so a whole study costs
# at most about twice this; 15M keeps the post's own setting (500 draws of 6 keys at d_k = 4,096,
# 14.3M) within it, and a whole study plus the checks under 2 s on a 2-core machine.
BRUTE_BUDGET = 15_000_000
# Scores (draws × keys) one d_k of the study may sample: the grid's 19 d_k then take about a
# second on a 2-core machine (about 100 ns a score, sampling and the statistic with and without
# the divisor). 100,000 draws of 64 keys would be 6.4M scores a d_k, 30 s for the study.
MAX_SCORES = 500_000
CHUNK_DRAWS = 1 << 15  # draws sampled at once by the study, so the exact sampler stays small too


@dataclass(frozen=True)
class StudyConfig:
    """Everything a study depends on apart from d_k: the page's controls, minus the divisor."""

    draws: int = 500  # the post's "hundreds": a median over that many is a typical draw
    n_keys: int = 6  # the post's six tokens
    seed: int = 0
    sampler: Sampler = "exact"  # exact is O(n) a draw whatever d_k is; brute force is the check

    def __post_init__(self) -> None:
        if not 1 <= self.draws <= 10_000_000:
            raise ValueError(f"draws must be between 1 and 10,000,000, got {self.draws}")
        if not 2 <= self.n_keys <= 4096:
            raise ValueError(f"n_keys must be between 2 and 4,096 (a softmax needs two), got {self.n_keys}")
        if self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed}")
        if self.sampler not in SAMPLERS:
            raise ValueError(f"sampler must be one of {SAMPLERS}, got {self.sampler!r}")


def _check_d_k(d_k: int) -> None:
    if int(d_k) != d_k or d_k < 1:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")


def generator(seed: int, d_k: int, stream: int = 0) -> np.random.Generator:
    """The generator for one ``(seed, d_k)`` cell: a d_k's draws never depend on the rest of the grid."""
    return np.random.default_rng([int(seed), int(d_k), int(stream)])


# --- the Jacobian and its largest entry -------------------------------------------------


def softmax_jacobian(alpha: np.ndarray) -> np.ndarray:  # [..., n] -> [..., n, n]
    """``J = diag(α) − ααᵀ``, i.e. ``∂α_i/∂ω_j = α_i(δ_ij − α_j)`` (the post, section 02)."""
    a = np.asarray(alpha, dtype=np.float64)
    return a[..., :, None] * np.eye(a.shape[-1]) - a[..., :, None] * a[..., None, :]


def log_odds_against_top(scores: np.ndarray) -> np.ndarray:  # [..., n] -> [...]
    """``log S`` with ``S = Σ_{j≠top} exp(ω_j − ω_top) = (1 − α_max)/α_max``, never underflowing.

    The log-softmax gives ``log α_max = −log(1 + S)`` and ``log(1 − α_max) = log S − log(1 + S)``:
    ``1 − α_max`` as the sum of the *other* weights, not as a difference. The sum is taken relative
    to the runner-up score ``ω₂``: every score is capped at ``ω₂``, so the top and the runner-up
    each add exactly 1 and the rest less; dropping the top's 1 leaves a sum of at least 1, so no
    term underflows and nothing cancels, however far ahead the top score is.
    """
    w = np.asarray(scores, dtype=np.float64)
    if w.ndim == 0 or w.shape[-1] < 2:
        raise ValueError("a softmax Jacobian needs at least two scores per row")
    # [n, ...]: one vector operation per key. Contiguous, so each key is read as one block (a
    # strided view reads a cache line per score: half the speed at 64 keys); same numbers.
    keys = np.ascontiguousarray(np.moveaxis(w, -1, 0))
    top, second = np.array(keys[0]), np.full(keys.shape[1:], -np.inf)  # arrays even for one row
    for k in keys[1:]:  # the two largest scores (a tie gives top == second)
        np.maximum(second, np.minimum(top, k), out=second)
        np.maximum(top, k, out=top)
    total = np.zeros(keys.shape[1:])
    for k in keys:
        total += np.exp(np.minimum(k, second) - second)
    return (second - top) + np.log(total - 1.0)


def log_largest_jacobian_entry(scores: np.ndarray) -> np.ndarray:  # [..., n] -> [...]
    """Natural log of ``max |J_ij|`` for each row of scores, accurate where the entry is tiny.

    The largest entry is always ``α_max(1 − α_max)``: the diagonal beats every off-diagonal
    ``α_iα_j`` because ``1 − α_max ≥ α_j``, and ``x(1 − x)`` is largest for the weight nearest
    1/2, which is the top weight. Computed as a difference, ``1 − α_max`` is exactly 0 once
    ``α_max`` rounds to 1 (from ``d_k`` ≈ 768 unscaled). From :func:`log_odds_against_top`,
    ``log(α_max(1 − α_max)) = log S − 2 log(1 + S)``, which keeps float64 relative accuracy far
    below the smallest normal number.
    """
    log_s = log_odds_against_top(scores)
    return log_s - 2 * np.log1p(np.exp(log_s))


def largest_jacobian_entry(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # [..., n] -> [...], [...]
    """``max |J_ij|`` as floats, and where it underflows (below 2.2e-308): those are NaN, never 0.

    Callers that must keep every draw (the study) use :func:`log_largest_jacobian_entry`.
    """
    log_entry = log_largest_jacobian_entry(scores)
    underflow = log_entry < LOG_TINY
    return np.where(underflow, np.nan, np.exp(np.maximum(log_entry, LOG_TINY))), underflow


def naive_largest_jacobian_entry(scores: np.ndarray) -> np.ndarray:  # [..., n] -> [...]
    """The foil: ``α_max − α_max²`` from the softmax, which reads exactly 0 once ``α_max`` rounds to 1."""
    a = np.max(softmax(scores), axis=-1)
    return a - a * a


# --- the two samplers -----------------------------------------------------------------


def sample_scores_exact(
    rng: np.random.Generator, d_k: int, draws: int, n_keys: int
) -> np.ndarray:  # -> [draws, n_keys]
    """Unscaled scores ``q·k_j`` in O(n) a draw, whatever ``d_k`` is.

    The keys' distribution is rotation invariant, so ``q·k_j = |q|·z_j`` with ``z_j`` i.i.d.
    N(0, 1) independent of ``|q|``, and ``|q|² ~ χ²(d_k)`` (a sum of ``d_k`` squared normals).
    """
    _check_d_k(d_k)
    norm_q = np.sqrt(rng.chisquare(d_k, size=draws))  # [draws]
    scores = rng.standard_normal((draws, n_keys))
    scores *= norm_q[:, None]  # in place: the same products, one array fewer
    return scores


def brute_chunk(d_k: int, n_keys: int, memory: int = BRUTE_MEMORY) -> int:
    """How many draws of ``q`` and keys fit in ``memory`` bytes at once (at least one)."""
    return max(1, memory // ((n_keys + 1) * d_k * 8))


def sample_scores_brute(
    rng: np.random.Generator, d_k: int, draws: int, n_keys: int, memory: int = BRUTE_MEMORY
) -> np.ndarray:  # -> [draws, n_keys]
    """Unscaled scores from materialised vectors: ``q`` [d_k] and keys [n, d_k] per draw, then dots.

    The post's way, and the check on :func:`sample_scores_exact`. Draws are made in chunks of
    ``memory`` bytes (16 MB by default), so ten readers sampling at once stay under 200 MB. One
    draw is never split: at d_k = 65,536 with 64 keys it is 34 MB, and only the bar chart's single
    draw gets there (the study's budget stops brute force far below it).
    """
    _check_d_k(d_k)
    chunk = min(brute_chunk(d_k, n_keys, memory), draws)
    buf = np.empty((chunk, n_keys + 1, d_k))  # [chunk, 1 + n, d_k]: q, then the keys
    out = np.empty((draws, n_keys))
    for start in range(0, draws, chunk):
        b = buf[: min(chunk, draws - start)]
        rng.standard_normal(out=b)
        out[start : start + len(b)] = np.matmul(b[:, 1:, :], b[:, 0, :, None])[..., 0]  # [c, n]
    return out


def brute_force_fits(d_k: int, draws: int, n_keys: int, budget: int = BRUTE_BUDGET) -> bool:
    """Whether brute force at this ``d_k`` stays within ``budget`` normal samples (a few seconds)."""
    return draws * (n_keys + 1) * d_k <= budget


def sample_scores(
    rng: np.random.Generator, d_k: int, draws: int, n_keys: int, sampler: Sampler
) -> np.ndarray:  # -> [draws, n_keys]
    """Unscaled scores from the chosen sampler."""
    if sampler == "exact":
        return sample_scores_exact(rng, d_k, draws, n_keys)
    if sampler == "brute":
        return sample_scores_brute(rng, d_k, draws, n_keys)
    raise ValueError(f"sampler must be one of {SAMPLERS}, got {sampler!r}")


def affordable_draws(draws: int, n_keys: int, ladder: tuple[int, ...] | None = None) -> int:
    """``draws``, or fewer when ``draws × n_keys`` passes :data:`MAX_SCORES`: the largest value of
    ``ladder`` (the page's draw counts) within the budget, or the budget itself without a ladder."""
    cap = max(1, MAX_SCORES // int(n_keys))
    if draws <= cap:
        return int(draws)
    fits = [d for d in ladder or () if d <= cap]
    return int(max(fits)) if fits else cap


def study_grid(config: StudyConfig) -> tuple[int, ...]:
    """The d_k of :data:`D_K_GRID` the study covers: all of them, or what brute force can afford."""
    if config.sampler == "exact":
        return D_K_GRID
    return tuple(d for d in D_K_GRID if brute_force_fits(d, config.draws, config.n_keys))


def work(config: StudyConfig, d_k: int) -> int:
    """The cost of one d_k of the study in normal samples (the statistic counted as four a score)."""
    per_score = 5 + d_k * (config.sampler == "brute")
    return config.draws * (config.n_keys + 1) * per_score


BYTES_PER_DRAW_KEY = (
    32  # the study's arrays over all draws and one chunk's temporaries, per score and per |q|
)
SLACK_BYTES = 2 * 2**20  # NumPy's own buffers and a summary's few arrays of one float per draw


def working_set(config: StudyConfig, d_k: int) -> int:
    """An upper bound on the bytes :func:`study_at` holds at once at ``config`` and ``d_k``, from
    the arguments alone: what the page declares to the server's heavy-work budget.

    Brute force's block of ``q`` and keys (:func:`brute_chunk`, at most :data:`BRUTE_MEMORY` unless
    one draw is more), plus :data:`BYTES_PER_DRAW_KEY` for each draw and key. Measured with
    tracemalloc at the worst settings (tests/scaling/test_scaling_budget.py): 18.9 MB declared
    as 27.9 MB for brute force at 5,000 draws of 64 keys, 8.4 MB as 11.2 MB for 100,000 exact draws
    of two keys.
    """
    block = 0
    if config.sampler == "brute":
        block = min(brute_chunk(d_k, config.n_keys), config.draws) * (config.n_keys + 1) * d_k * 8
    return block + BYTES_PER_DRAW_KEY * config.draws * (config.n_keys + 1) + SLACK_BYTES


def draw_bytes(n_keys: int, d_k: int, sampler: Sampler) -> int:
    """An upper bound on the bytes :func:`one_draw` holds at once: brute force's one query and its
    keys (34 MB at d_k = 65,536 with 64 keys), or a few scores."""
    vectors = (n_keys + 1) * d_k * 8 if sampler == "brute" else 0
    return vectors + BYTES_PER_DRAW_KEY * (n_keys + 1) + SLACK_BYTES


NORMALS_PER_SECOND = 10_000_000  # a slow, shared core: an estimate that errs towards showing progress


def estimated_seconds(config: StudyConfig, d_ks: tuple[int, ...]) -> float:
    """Roughly how long the study over ``d_ks`` takes, to decide whether a progress bar is worth it."""
    return sum(work(config, d) for d in d_ks) / NORMALS_PER_SECOND


# --- summaries over draws ---------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """The readouts of one d_k and one divisor setting, each with its sampling error.

    Medians and means are formed from the log statistic (never from floats that underflowed);
    ``*_se`` are one standard error: the median's from the order statistics ``√N/2`` ranks
    either side, the mean's ``sd/√N``, the live share's binomial.
    """

    median: float
    median_se: float
    log10_median: float
    log10_median_se: float
    mean: float
    mean_se: float
    live_share: float
    live_se: float
    underflow_share: float  # largest entry below the smallest normal float64 (kept, as a log)
    naive_zero_share: float  # draws the naive α_max − α_max² reads as exactly 0
    cutoff_shares: tuple[float, ...] = ()  # share of draws at least each of CUTOFFS, in its order
    cutoff_ses: tuple[float, ...] = ()  # their binomial standard errors


def _log_median(sorted_log: np.ndarray) -> float:
    """Log of the median of ``exp(x)``: the mean of the two middle values taken in the log domain."""
    n = len(sorted_log)
    if n % 2:
        return float(sorted_log[n // 2])
    return float(np.logaddexp(sorted_log[n // 2 - 1], sorted_log[n // 2]) - np.log(2.0))


def _log_mean_exp(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """``log(mean(exp(x)))`` without overflow or underflow: shift by the maximum first.

    Terms far below the maximum underflow to 0 after the shift, which is where they would round
    away in the sum anyway; ``np.logaddexp.reduce`` gives the same value ten times slower.
    """
    top = np.max(x, axis=axis, keepdims=True)
    shifted = x - top
    np.exp(shifted, out=shifted)  # in place: one temporary the size of x, not two
    out = top + np.log(np.mean(shifted, axis=axis, keepdims=True))
    return np.squeeze(out, axis=axis) if axis is not None else out.reshape(())


def summarize(log_entries: np.ndarray, naive: np.ndarray) -> Summary:
    """Median, mean and live share of the largest Jacobian entry, from its natural log over draws."""
    x = np.sort(np.asarray(log_entries, dtype=np.float64))  # [draws]
    return _summary_of_sorted(x, float(np.mean(np.asarray(naive) == 0)) if len(x) else 0.0)


def _summary_of_sorted(x: np.ndarray, naive_zero_share: float) -> Summary:
    """:func:`summarize` of log entries already sorted; one float64 array of temporaries at most."""
    n = len(x)
    if n == 0 or not np.all(np.isfinite(x)):
        raise ValueError("summarize needs at least one draw and finite log statistics")
    half = 0.5 * np.sqrt(n)  # one standard deviation of the median's rank
    lo, hi = x[max(0, int(np.floor(n / 2 - half)))], x[min(n - 1, int(np.ceil(n / 2 + half)) - 1)]
    log_median = _log_median(x)
    log_mean = float(_log_mean_exp(x))
    live = float(np.mean(x >= np.log(LIVE_THRESHOLD)))
    shares = [float(np.mean(x >= np.log(c))) for c in CUTOFFS]
    underflow = float(np.mean(x < LOG_TINY))
    dev = np.exp(x)  # underflow to 0 only inside this spread, never shown
    dev -= np.mean(dev)  # np.std's own steps, in place: a million draws make 8 MB arrays
    np.multiply(dev, dev, out=dev)
    std = float(np.sqrt(np.mean(dev)))
    del dev
    return Summary(
        median=float(np.exp(log_median)),
        median_se=float(np.exp(hi) - np.exp(lo)) / 2,
        log10_median=log_median / np.log(10),
        log10_median_se=float(hi - lo) / 2 / np.log(10),
        mean=float(np.exp(log_mean)),
        mean_se=std / float(np.sqrt(n)),
        live_share=live,
        live_se=float(np.sqrt(live * (1 - live) / n)),
        underflow_share=underflow,
        naive_zero_share=naive_zero_share,
        cutoff_shares=tuple(shares),
        cutoff_ses=tuple(float(np.sqrt(p * (1 - p) / n)) for p in shares),
    )


def _summarize_log_s(log_s: np.ndarray) -> Summary:
    """:func:`summarize` from ``log S``, with the naive ``α_max − α_max²`` where ``α_max = 1/(1 + S)``."""
    s = np.exp(log_s)
    a = 1.0 / (1.0 + s)
    return summarize(log_s - 2 * np.log1p(s), a - a * a)


@dataclass(frozen=True)
class DkResult:
    """The study at one d_k: the spread of the scores, and the Jacobian both with and without the divisor.

    Both settings use the same draws (the divided scores are the raw ones over ``√d_k``), so the
    two curves differ by the divisor alone.
    """

    d_k: int
    draws: int
    std: float  # measured std of the unscaled scores q·k
    std_se: float
    raw: Summary  # no divisor
    scaled: Summary  # divided by √d_k

    def summary(self, divisor: bool) -> Summary:
        return self.scaled if divisor else self.raw


def study_at(config: StudyConfig, d_k: int) -> DkResult:
    """The Monte Carlo study at one ``d_k``, from the generator of ``(config.seed, d_k)``."""
    _check_d_k(d_k)
    if config.sampler == "brute" and not brute_force_fits(d_k, config.draws, config.n_keys):
        raise ValueError(
            f"brute force at d_k = {d_k} with {config.draws} draws of {config.n_keys} keys needs "
            f"{config.draws * (config.n_keys + 1) * d_k:,} normal samples, over the {BRUTE_BUDGET:,} budget: "
            "use the exact sampler, fewer draws or fewer keys"
        )
    rng = generator(config.seed, d_k)
    root = np.sqrt(d_k)
    log_s: dict[bool, list[np.ndarray]] = {False: [], True: []}
    sq_dev = []
    for start in range(0, config.draws, CHUNK_DRAWS):
        w = sample_scores(rng, d_k, min(CHUNK_DRAWS, config.draws - start), config.n_keys, config.sampler)
        log_s[False].append(log_odds_against_top(w))
        log_s[True].append(log_odds_against_top(w / root))
        sq_dev.append(np.mean(w * w, axis=-1))  # per draw: the scores' mean is 0 by symmetry
    per_draw = np.concatenate(sq_dev)  # [draws], mean of ω² in each draw
    var = float(np.mean(per_draw))
    # The scores of one draw share |q|, so the spread is estimated draw by draw (delta method).
    var_se = float(np.std(per_draw) / np.sqrt(config.draws))
    return DkResult(
        d_k=int(d_k),
        draws=config.draws,
        std=float(np.sqrt(var)),
        std_se=var_se / (2 * np.sqrt(var)),
        raw=_summarize_log_s(np.concatenate(log_s[False])),
        scaled=_summarize_log_s(np.concatenate(log_s[True])),
    )


def study(config: StudyConfig, d_ks: tuple[int, ...] = D_K_GRID) -> tuple[DkResult, ...]:
    """The study over a grid of d_k (the page's cache runs it one d_k at a time, for its progress bar)."""
    return tuple(study_at(config, d) for d in d_ks)


def one_draw(config: StudyConfig, d_k: int) -> np.ndarray:  # -> [n_keys]
    """One draw's unscaled scores, from its own stream of ``(seed, d_k)``: the bar chart's draw."""
    return sample_scores(generator(config.seed, d_k, stream=1), d_k, 1, config.n_keys, config.sampler)[0]


# --- the reference: the truth the post's one run was a sample of -------------------------------

REFERENCE_DRAWS = 1_000_000  # 2,000 runs of the post's 500: at least 10⁶ exact draws (issue #13)
REFERENCE_SEED = 0
REFERENCE_STREAM = 2  # independent of the page's study (stream 0) and its one draw (stream 1)
REFERENCE_CHUNK = 1 << 17  # draws sampled at once: a [chunk, 6] float64 array is 6 MB
RUN_BLOCK = 256  # runs of POST_DRAWS summarized at once (1 MB of draws)
Z_TOLERANCE = 4.0  # a live value agrees with the reference within this many standard errors (as dropout)

Statistic = Literal[
    "std",  # of the unscaled scores q·k
    "median_raw",  # of the largest |J|, no divisor
    "mean_raw",
    "live_raw",  # share of draws whose largest |J| is at least LIVE_THRESHOLD
    "median_scaled",  # the same three with the divisor
    "mean_scaled",
    "live_scaled",
]
STATISTICS: tuple[Statistic, ...] = get_args(Statistic)


@dataclass(frozen=True)
class ReferenceStat:
    """One statistic at one d_k: its value over every reference draw, and how a 500-draw run scatters.

    ``se`` is the reference's own standard error (from all draws); ``run_sd`` is the standard
    deviation of the statistic over the reference's runs of :data:`POST_DRAWS` draws, i.e. the
    standard error of any 500-draw estimate such as the post's or the page's checks.
    Medians are compared on a log10 scale (``log10`` is true; ``se`` and ``run_sd`` are then in
    decades): unscaled at d_k = 4,096 a 500-draw median scatters over more than a decade, so a
    linear error bar would be wider than the value it brackets.
    ``percentiles`` holds, for each value asked about (the post's quote), the share of those runs
    that fall below it, in percent (ties count half).
    """

    value: float
    se: float
    run_sd: float
    log10: bool = False
    percentiles: tuple[tuple[float, float], ...] = ()  # (value asked about, its percentile)

    def percentile(self, x: float) -> float:
        """The percentile of ``x`` among 500-draw runs, for a value passed to :func:`reference_at`."""
        for value, pct in self.percentiles:
            if value == x:
                return pct
        raise ValueError(f"{x!r} was not among the values the reference was asked to place")

    def scale(self, x: float) -> float:
        """``x`` on the comparison scale: log10 for a median (a 500-draw median scatters over
        decades), the value itself otherwise. Errors and percentiles are measured on this scale."""
        if self.log10:
            return float(np.log10(x)) if x > 0 else float("-inf")
        return float(x)

    def std_error(self, draws: int = POST_DRAWS) -> float:
        """One standard error of ``live − value`` for a live estimate from ``draws`` draws (in decades
        for medians): ``run_sd`` rescaled from 500 draws to ``draws`` (errors shrink as 1/√N), and
        the reference's own ``se`` added in quadrature."""
        if draws < 1:
            raise ValueError(f"draws must be positive, got {draws}")
        return float(np.hypot(self.run_sd * np.sqrt(POST_DRAWS / draws), self.se))

    def tolerance(self, draws: int = POST_DRAWS, z: float = Z_TOLERANCE) -> float:
        """How far a live estimate from ``draws`` draws may sit from ``value``: ``z`` standard errors."""
        return z * self.std_error(draws)

    def deviation(self, live: float) -> float:
        """``live − value`` on the statistic's comparison scale (decades for medians)."""
        if self.log10 and live <= 0:
            return float("inf")
        return self.scale(live) - self.scale(self.value)

    def agrees(self, live: float, draws: int = POST_DRAWS, z: float = Z_TOLERANCE) -> bool:
        """Whether a live estimate from ``draws`` draws lies within :meth:`tolerance` of ``value``."""
        return bool(abs(self.deviation(live)) <= self.tolerance(draws, z))


@dataclass(frozen=True)
class Reference:
    """Every statistic of the study at one d_k, from :data:`REFERENCE_DRAWS` exact draws of six keys."""

    d_k: int
    draws: int
    runs: int  # runs of POST_DRAWS draws the reference splits into
    stats: tuple[tuple[str, ReferenceStat], ...]
    # Per divisor (False: none), the share of draws at least each of CUTOFFS and its standard error.
    cutoffs: tuple[tuple[bool, tuple[float, ...], tuple[float, ...]], ...] = ()

    def shares(self, divisor: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The true share of draws at each of :data:`CUTOFFS`, and the standard errors, for ``divisor``."""
        for on, shares, ses in self.cutoffs:
            if on == divisor:
                return shares, ses
        raise ValueError(f"this reference holds no cut-off shares for divisor={divisor}")

    def __getitem__(self, name: str) -> ReferenceStat:
        return dict(self.stats)[name]


def _percentile(sorted_runs: np.ndarray, x: float) -> float:
    """Percent of runs below ``x``, ties counting half (so a value equal to every run is the 50th)."""
    below = np.searchsorted(sorted_runs, x, side="left")
    at_or_below = np.searchsorted(sorted_runs, x, side="right")
    return float(100.0 * (below + at_or_below) / 2 / len(sorted_runs))


def _run_statistics(log_entry: np.ndarray, runs: int) -> dict[str, np.ndarray]:  # [runs · 500] -> 3 × [runs]
    """Median, mean and live share of the largest |J| in each run of POST_DRAWS draws (log domain).

    A block of runs at a time: every statistic is per run, so blocks change no number, and the
    temporaries stay near a megabyte instead of three copies of all the draws.
    """
    out = {name: np.empty(runs) for name in ("median", "mean", "live")}
    half = POST_DRAWS // 2  # an even count: the median is the mean of the two middle values
    for r0 in range(0, runs, RUN_BLOCK):
        r1 = min(r0 + RUN_BLOCK, runs)
        x = np.sort(log_entry[r0 * POST_DRAWS : r1 * POST_DRAWS].reshape(r1 - r0, POST_DRAWS), axis=1)
        out["median"][r0:r1] = np.exp(np.logaddexp(x[:, half - 1], x[:, half]) - np.log(2.0))
        out["mean"][r0:r1] = np.exp(_log_mean_exp(x, axis=1))
        out["live"][r0:r1] = np.mean(x >= np.log(LIVE_THRESHOLD), axis=1)
    return out


def reference_at(
    d_k: int,
    quotes: Mapping[str, float] | None = None,
    draws: int = REFERENCE_DRAWS,
    seed: int = REFERENCE_SEED,
    n_keys: int = 6,
) -> Reference:
    """The study at one ``d_k`` from ``draws`` exact draws: the reference the live values are checked against.

    The post's figures come from one run of a few hundred draws, so they are samples (issue #13:
    its "about a third" live at d_k = 768 is a 98.8th-percentile run). This is the truth they
    sample: the same statistics as :func:`study_at`, each with its standard error, and the
    reference's draws cut into runs of :data:`POST_DRAWS` so the spread of a 500-draw run is
    measured rather than assumed. ``quotes`` maps a statistic of :data:`STATISTICS` to a value
    (the post's) to place among those runs as a percentile.

    Draws are made in chunks of :data:`REFERENCE_CHUNK` with the exact sampler; no array is
    larger than one float64 per draw (8 MB at 10⁶ draws), and two such arrays are kept: about
    40 MB at the peak, 80 MB before this was measured (tests/app/test_memory.py).
    """
    _check_d_k(d_k)
    if draws < 2 * POST_DRAWS:
        raise ValueError(f"a reference needs at least {2 * POST_DRAWS} draws (two runs), got {draws}")
    quotes = dict(quotes or {})
    unknown = set(quotes) - set(STATISTICS)
    if unknown:
        raise ValueError(f"unknown statistics {sorted(unknown)}; choose from {STATISTICS}")
    rng = generator(seed, d_k, stream=REFERENCE_STREAM)
    root = np.sqrt(d_k)
    runs = draws // POST_DRAWS
    # Kept per draw: the log of the largest entry both ways and whether the naive formula reads 0.
    # The rest is made chunk by chunk (the memory test's 50 MB); ω² is reduced run by run, the
    # draws of a run a chunk cuts in two waiting in ``pending``.
    log_entry = {False: np.empty(draws), True: np.empty(draws)}
    naive_zero = {False: np.empty(draws, dtype=bool), True: np.empty(draws, dtype=bool)}
    run_std, done, pending = np.empty(runs), 0, np.empty(0)
    for start in range(0, draws, REFERENCE_CHUNK):
        stop = min(start + REFERENCE_CHUNK, draws)
        w = sample_scores_exact(rng, d_k, stop - start, n_keys)
        sq = np.concatenate([pending, np.mean(w * w, axis=-1)])  # per draw: the mean of ω² over the keys
        full = min(len(sq) // POST_DRAWS, runs - done)
        # The spread's true value is known exactly (√d_k); its runs still measure a run's scatter.
        run_std[done : done + full] = np.sqrt(
            np.mean(sq[: full * POST_DRAWS].reshape(full, POST_DRAWS), axis=1)
        )
        pending, done = sq[full * POST_DRAWS :], done + full
        for divisor in (False, True):
            if divisor:
                w /= root  # in place, after ω² is taken: the same quotients as w / root
            log_s = log_odds_against_top(w)
            s = np.exp(log_s)
            a = 1.0 / (1.0 + s)  # α_max, for the naive α_max − α_max² the study counts zeros of
            log_entry[divisor][start:stop] = log_s - 2 * np.log1p(s)
            naive_zero[divisor][start:stop] = (a - a * a) == 0
        del w
    values: dict[str, tuple[float, float, np.ndarray]] = {"std": (exact_std(d_k), 0.0, run_std)}
    cutoffs = []
    for divisor, suffix in ((False, "raw"), (True, "scaled")):
        x = log_entry.pop(divisor)
        run_stats = _run_statistics(x, runs)  # needs the draws in order, so before the sort
        x.sort()  # in place: the summary's sorted copy would be another 8 MB
        summary = _summary_of_sorted(x, float(np.mean(naive_zero.pop(divisor))))
        del x
        cutoffs.append((divisor, summary.cutoff_shares, summary.cutoff_ses))
        values[f"median_{suffix}"] = (summary.median, summary.log10_median_se, run_stats["median"])
        values[f"mean_{suffix}"] = (summary.mean, summary.mean_se, run_stats["mean"])
        values[f"live_{suffix}"] = (summary.live_share, summary.live_se, run_stats["live"])
    stats = []
    for name in STATISTICS:
        value, se, per_run = values[name]
        log10 = name.startswith("median")
        spread = float(np.std(np.log10(per_run) if log10 else per_run, ddof=1))
        ordered = np.sort(per_run)
        pcts = ((quotes[name], _percentile(ordered, quotes[name])),) if name in quotes else ()
        stats.append((name, ReferenceStat(value, float(se), spread, log10, pcts)))
    return Reference(int(d_k), int(draws), runs, tuple(stats), tuple(cutoffs))


def exact_std(d_k: int) -> float:
    """The true spread of ``q·k``: ``√d_k`` exactly (the post's derivation, ``Var(q·k) = d_k``)."""
    _check_d_k(d_k)
    return float(np.sqrt(d_k))
