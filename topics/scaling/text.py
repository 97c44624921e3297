"""The truth behind the post's Monte Carlo numbers (issue #13, item 2): each quote, a 10⁶-draw reference.

The post's section 02 reads its numbers off one run of a few hundred draws, so they are samples:
"about a third" live at d_k = 768 is a 98.8th-percentile run. :func:`references` computes, once
per server, every statistic the post quotes from :data:`core.scaling.REFERENCE_DRAWS` exact draws
at the four d_k it quotes, and places each quote among 500-draw runs of the same draws.
:func:`warm` starts that once per process, in the background, as the first reader arrives on
any page: the 1.2 s it takes would otherwise land on the first Divide by √d_k visitor's first
run (2.6 s with brute force, over the 2 s goal; ``python -m bench worst``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from core import book
from topics.scaling import monte_carlo as scaling
from topics.scaling.figures import small
from ui import cache
from ui import format as fmt
from ui.cache import KB

POST = book.FIGURE_02


@dataclass(frozen=True)
class Quote:
    """One Monte Carlo number of the post's section 02, and which statistic of the study it reads."""

    key: str  # in book.FIGURE_02
    d_k: int
    stat: str  # one of core.scaling.STATISTICS
    label: str
    rounded: bool = False  # "≈0.23 at every d_k": a claim about the truth to two digits, not one run

    @property
    def text(self) -> str:
        return POST[self.key]

    @property
    def value(self) -> float:
        """The post's words as a number: "about a third" is 1/3."""
        return 1 / 3 if self.text == "about a third" else float(self.text)


_STAT_LABELS = {
    "std": "Std of q·k",
    "median_raw": "Median largest |J|, no divisor",
    "median_scaled": "Median largest |J|, ÷√d_k",
    "live_raw": "Live draws, no divisor",
    "mean_raw": "Mean largest |J|, no divisor",
}


def _quote(key: str, d_k: int, stat: str, rounded: bool = False) -> Quote:
    return Quote(key, d_k, stat, f"{_STAT_LABELS[stat]}, d_k = {d_k:,}", rounded)


QUOTES: tuple[Quote, ...] = (
    _quote("std_64", 64, "std"),
    _quote("std_4096", 4096, "std"),
    *(_quote(f"median_raw_{d}", d, "median_raw") for d in scaling.TABLE_D_KS),
    *(_quote("median_scaled", d, "median_scaled", rounded=True) for d in scaling.TABLE_D_KS),
    _quote("live_share_raw_768", 768, "live_raw"),
    _quote("mean_raw_2", 2, "mean_raw"),
    _quote("mean_raw_4096", 4096, "mean_raw"),
)
TYPICAL = (2.5, 97.5)  # percentiles of 500-draw runs: the central 95% is what one honest run reads
SPINNER = (
    f"Computing the true values once for this server: {scaling.REFERENCE_DRAWS:,} exact draws of six keys "
    f"at each d_k the post quotes ({', '.join(f'{d:,}' for d in scaling.TABLE_D_KS)})…"
)


# A handful of floats per d_k, one entry a server.
@cache.data(entry_bytes=16 * KB, entries=1, worst=lambda: [()], show_spinner=SPINNER)
def references() -> dict[int, scaling.Reference]:
    """The reference at every d_k the post quotes, with each unrounded quote placed among 500-draw runs.

    A handful of floats per d_k (seven statistics, each a value, two errors and a percentile):
    the 10⁶ draws behind them are dropped as soon as they are summarised.
    """
    out = {}
    for d in scaling.TABLE_D_KS:
        quotes = {q.stat: q.value for q in QUOTES if q.d_k == d and not q.rounded}
        out[d] = scaling.reference_at(d, quotes)
    return out


_warm_lock = threading.Lock()
_warm_started = False


def warm() -> None:
    """Compute :func:`references` in a background thread, once per process. A page that asks
    while it runs waits for the same result (Streamlit's cache computes one value once)."""
    global _warm_started
    with _warm_lock:
        if _warm_started:
            return
        _warm_started = True
    threading.Thread(target=references, name="scaling-reference", daemon=True).start()


# --- formatting ------------------------------------------------------------------------------


def value_text(stat: str, x: float) -> str:
    """A statistic as the page prints it: shares as percentages, spreads to 4 decimals, |J| via small()."""
    if stat.startswith("live"):
        return fmt.percent(x)
    if stat == "std":
        return fmt.num(x)
    return small(x)


def true_text(stat: str, ref: scaling.ReferenceStat, d_k: int, draws: int) -> str:
    """The true value with its standard error and where it comes from."""
    if stat == "std":
        return f"{fmt.num(ref.value)} exactly (√{d_k:,})"
    if stat.startswith("live"):
        error = fmt.percent(ref.se, 2)
    elif ref.log10 and ref.value < 1e-3:
        error = fmt.percent(10**ref.se - 1)  # a relative error: the value is printed in scientific form
    else:
        error = small(ref.value * (10**ref.se - 1) if ref.log10 else ref.se)
    return f"{value_text(stat, ref.value)} ± {error} ({draws:,} draws)"


def tolerance_text(stat: str, ref: scaling.ReferenceStat, draws: int) -> str:
    """How far the live value may sit from the truth, in the statistic's own units."""
    tol = ref.tolerance(draws)
    if ref.log10:
        factor = 10**tol
        return (
            f"±{fmt.percent(factor - 1, 0)}"
            if factor < 2
            else f"a factor of {factor:,.{1 if factor < 10 else 0}f}"
        )
    if stat.startswith("live"):
        return f"±{fmt.percent(tol)}"
    return f"±{fmt.num(tol) if stat == 'std' else small(tol)}"


def percentile_text(pct: float) -> str:
    """``98.7th``; the extremes as bounds, because 2,000 runs resolve no finer than 0.05%."""
    if pct < 0.1:
        return "below the 0.1th"
    if pct > 99.9:
        return "above the 99.9th"
    return f"{pct:.1f}th"


def reading(q: Quote, ref: scaling.ReferenceStat) -> str:
    """Why the quote and the truth differ (or that they do not), from the numbers themselves."""
    if q.rounded:
        digits = fmt.decimals_of(q.text)
        rounded = fmt.num(ref.value, digits)
        return f"the truth rounds to {rounded}" + ("" if rounded == q.text else f", not {q.text}")
    pct = percentile_text(ref.percentile(q.value))
    low, high = TYPICAL
    if low <= ref.percentile(q.value) <= high:
        return f"typical: {pct} percentile of 500-draw runs"
    return f"sample noise: {pct} percentile of 500-draw runs"


def fold_sentence(refs: dict[int, scaling.Reference]) -> str:
    """The post's "four thousand-fold increases" against the grid's own ratio, and the true means."""
    lo, hi = scaling.TABLE_D_KS[0], scaling.TABLE_D_KS[-1]
    means = [small(refs[d]["mean_raw"].value) for d in (lo, hi)]
    return (
        f"The post has the mean falling from {POST['mean_raw_2']} to {POST['mean_raw_4096']} "
        f"“{POST['mean_fold']}” in d_k; from {lo:,} to {hi:,} is a {hi // lo:,}-fold increase, and "
        f"the true mean falls from {means[0]} to {means[1]}."
    )


def scaled_sentence(refs: dict[int, scaling.Reference]) -> str:
    """Where the post's "≈0.23 at every d_k" holds, computed from the reference."""
    quote = POST["median_scaled"]
    digits = fmt.decimals_of(quote)
    holds = [d for d in scaling.TABLE_D_KS if fmt.num(refs[d]["median_scaled"].value, digits) == quote]
    off = [d for d in scaling.TABLE_D_KS if d not in holds]
    parts = ", ".join(f"{small(refs[d]['median_scaled'].value)} at d_k = {d:,}" for d in scaling.TABLE_D_KS)
    verdict = (
        f"so “≈{quote} at every d_k” holds at every one"
        if not off
        else f"so “≈{quote} at every d_k” holds at {', '.join(f'{d:,}' for d in holds) or 'none'} "
        f"but not at {', '.join(f'{d:,}' for d in off)}"
    )
    return f"With the divisor the true median is {parts}; {verdict}."
