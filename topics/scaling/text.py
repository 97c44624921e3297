"""The words and number formats of "Divide by √d_k": every sentence the page prints around its numbers.

Each function formats numbers the view computed (:mod:`topics.scaling.view`); none computes one.
Jacobian entries reach 1e-56 and weights fall below float64's range, so they print from their
base-10 logarithm (:func:`small_log10`) and never as 0.0000.
"""

from __future__ import annotations

import numpy as np

from topics.scaling.monte_carlo import ReferenceStat
from topics.scaling.quotes import POST
from topics.scaling.view import Row, View
from ui import format as fmt


def sci_from_log10(log10: float, digits: int = 1) -> str:
    """``2.5e-353``: a number from its base-10 log, so weights below float64's range still print."""
    exponent = int(np.floor(log10))
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, digits) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.{digits}f}e{exponent}"


def small(x: float) -> str:
    """Book-style 4 decimals down to 1e-3, scientific below (a Jacobian entry of 1e-14 is not 0.0000)."""
    return f"{x:.4f}" if x >= 1e-3 else sci_from_log10(float(np.log10(x)))


def small_log10(log10: float) -> str:
    """:func:`small` for a number given by its base-10 log (a weight or entry below float64's range)."""
    return f"{10**log10:.4f}" if log10 >= -3 else sci_from_log10(log10)


# --- the notes around the study ------------------------------------------------------------------


def capped_note(v: View) -> str:
    """Why the study runs fewer draws than asked (draws × keys over the score budget)."""
    s = v.settings
    return (
        f"{s.draws:,} draws of {s.n_keys} keys would be {v.asked_scores:,} scores at each of the "
        f"{v.grid_size} d_k, and the study would take many seconds. It stops at "
        f"{v.max_scores:,} scores a d_k, so this view uses {v.draws:,} draws; fewer keys allow more."
    )


def brute_note(v: View) -> str:
    """Where brute force stops on the grid, and why."""
    return (
        f"Brute force stops at d_k = {v.brute_stop:,} at these settings: beyond it one d_k would need more "
        f"than {v.brute_budget:,} normal samples. The exact sampler draws the same distribution at any d_k."
    )


def draws_caption(v: View) -> str:
    s = v.settings
    return f"{v.draws:,} draws of one query and {s.n_keys} keys, {'÷√d_k' if s.divisor else 'no divisor'}."


def rounding_note(d_k: int, rounds_to_zero: float, underflows: float) -> str:
    """The Jacobian chart's caption in plain words, from the study's own shares at ``d_k``."""
    if rounds_to_zero == 0:
        text = (
            f"At d_k = {d_k:,} without the divisor, no draw's top weight comes close enough to 1 for "
            "1 minus it to round to exactly 0."
        )
    else:
        text = (
            f"At d_k = {d_k:,} without the divisor, the top weight is so close to 1 in "
            f"{fmt.percent(rounds_to_zero)} of draws that computing 1 minus it gives exactly 0, and the "
            "gradient would read as exactly 0 too. This page adds up the other weights instead, so no "
            "draw reads 0."
        )
    if underflows > 0:
        text += (
            f" In {fmt.percent(underflows)} of draws even that sum is smaller than the smallest number a "
            "float64 can hold (2.2e-308): those draws count as dead, and their size is kept as a logarithm "
            "rather than drawn as 0."
        )
    return text


# --- the table beside the post and the checks -------------------------------------------------------


def value_text(stat: str, x: float) -> str:
    """A statistic as the page prints it: shares as percentages, spreads to 4 decimals, |J| via small()."""
    if stat.startswith("live"):
        return fmt.percent(x)
    if stat == "std":
        return fmt.num(x)
    return small(x)


def true_text(row: Row) -> str:
    """The true value with its standard error and where it comes from."""
    stat, ref = row.quote.stat, row.true
    if stat == "std":
        return f"{fmt.num(ref.value)} exactly (√{row.quote.d_k:,})"
    if stat.startswith("live"):
        error = fmt.percent(ref.se, 2)
    elif ref.log10 and ref.value < 1e-3:
        error = fmt.percent(10**ref.se - 1)  # a relative error: the value is printed in scientific form
    else:
        error = small(ref.value * (10**ref.se - 1) if ref.log10 else ref.se)
    return f"{value_text(stat, ref.value)} ± {error} ({row.true_draws:,} draws)"


def tolerance_text(stat: str, ref: ReferenceStat, tol: float) -> str:
    """How far the live value may sit from the truth, in the statistic's own units."""
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


def reading(row: Row) -> str:
    """Why the quote and the truth differ (or that they do not), from the numbers themselves."""
    q = row.quote
    if row.percentile is None:  # a rounded quote, "≈0.23": does the truth round to it?
        rounded = fmt.num(row.true.value, fmt.decimals_of(q.text))
        return f"the truth rounds to {rounded}" + ("" if rounded == q.text else f", not {q.text}")
    verdict = "typical" if row.typical else "sample noise"
    return f"{verdict}: {percentile_text(row.percentile)} percentile of 500-draw runs"


def reference_caption(v: View) -> str:
    n_keys = v.settings.n_keys
    return (
        f"True: {v.reference_draws:,} exact draws of six keys (± one standard error), cut into "
        f"{v.reference_runs:,} runs of {v.post_draws} to place each of the post's numbers among the runs "
        "it could have read. Live: your controls"
        + ("" if n_keys == v.post_keys else f", with {n_keys} keys where the truth is for six")
        + ". The post used six keys and a few hundred draws, so its numbers are one sample of the "
        "distribution: where one sits in the tail, the truth beside it is what to quote."
    )


def fold_sentence(v: View) -> str:
    """The post's "four thousand-fold increases" against the grid's own ratio, and the true means."""
    (lo, hi), means = v.fold, [small(m) for m in v.fold_means]
    return (
        f"The post has the mean falling from {POST['mean_raw_2']} to {POST['mean_raw_4096']} "
        f"“{POST['mean_fold']}” in d_k; from {lo:,} to {hi:,} is a {v.fold_ratio:,}-fold increase, and "
        f"the true mean falls from {means[0]} to {means[1]}."
    )


def scaled_sentence(v: View) -> str:
    """Where the post's "≈0.23 at every d_k" holds, computed from the reference."""
    quote = POST["median_scaled"]
    digits = fmt.decimals_of(quote)
    holds = [d for d, m in v.scaled_medians if fmt.num(m, digits) == quote]
    off = [d for d, _ in v.scaled_medians if d not in holds]
    parts = ", ".join(f"{small(m)} at d_k = {d:,}" for d, m in v.scaled_medians)
    verdict = (
        f"so “≈{quote} at every d_k” holds at every one"
        if not off
        else f"so “≈{quote} at every d_k” holds at {', '.join(f'{d:,}' for d in holds) or 'none'} "
        f"but not at {', '.join(f'{d:,}' for d in off)}"
    )
    return f"With the divisor the true median is {parts}; {verdict}."


def checks_note(v: View) -> str:
    return (
        "Quoted: the post's section 02, from its own few hundred draws. True: the reference above. "
        f"Live: {v.post_draws} draws of six keys (the post's setting) at your seed and sampler, whatever "
        f"the other controls say; it passes within {v.z_tolerance:g} standard errors of the truth, so a "
        "rare unlucky seed can fail."
    )
