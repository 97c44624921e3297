"""The words and number formats of "Divide by √d_k": every sentence the page prints around its numbers.

Each function formats numbers the view computed (:class:`topics.scaling.numbers.Numbers`, read
without importing the view, so nothing imports back); none computes one, and :func:`words`
gathers them into the :class:`Words` the view holds. A Monte Carlo figure is
printed with its standard error, rounded to the digits that error supports (:func:`estimate`).
Jacobian entries reach 1e-56 and weights fall below float64's range, so a single draw's entry
prints from its base-10 logarithm (:func:`small_log10`) and never as 0.0000. A sentence with a
condition (the mean above the median, "about a third" at a cut-off, "≈0.23" at a d_k) states
what the numbers say, whichever way they fall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from topics.scaling.monte_carlo import CUTOFFS, LIVE_THRESHOLD
from topics.scaling.numbers import Numbers, Row
from topics.scaling.quotes import POST
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


def cutoff(c: float) -> str:
    """``1e-3``: a cut-off on the largest |J| as the page writes it."""
    return f"1e{round(math.log10(c))}"


LIVE = f"largest |J| ≥ {cutoff(LIVE_THRESHOLD)}"  # what "live" means, stated wherever a share is


def rounded(value: float, se: float, percent: bool = False) -> tuple[str, str]:
    """A Monte Carlo figure and its standard error, each rounded to the digits that error supports.

    The error keeps one significant digit, two when that digit is 1 (0.018 rounded to 0.02 would
    be 11% off), and the value is rounded to the same decimal place: ``("0.2246", "0.0003")``,
    ``("1.35e-6", "0.02e-6")`` (below 1e-3, one exponent for both unless the error is the larger),
    ``("19.8%", "1.8%")`` (``percent``). An error of 0 (a share of exactly 0 or 1: every draw
    agrees) gives the value alone and an empty error.
    """
    unit = "%" if percent else ""
    v, e = (100 * value, 100 * se) if percent else (float(value), float(se))
    if not (np.isfinite(e) and e > 0):
        return f"{v:g}{unit}", ""
    lead = int(np.floor(np.log10(e)))
    digits = 2 if e / 10.0**lead < 2 else 1  # the error's significant digits
    place = lead - (digits - 1)  # the power of ten of the last digit kept
    if percent or v == 0 or abs(v) >= 1e-3:
        decimals = max(0, -place)
        v, e = (round(v, -place), round(e, -place)) if place > 0 else (v, e)
        return f"{v:.{decimals}f}{unit}", f"{e:.{decimals}f}{unit}"
    place = min(place, int(np.floor(np.log10(abs(v)))))  # keep the value's leading digit
    exponent = int(np.floor(np.log10(abs(v))))
    mantissa, _, exp = f"{v:.{exponent - place}e}".partition("e")
    if int(exp) != exponent:  # rounding carried into the next power of ten: 9.99e-7 -> 1.00e-6
        exponent = int(exp)
        mantissa = f"{v:.{exponent - place}e}".partition("e")[0]
    if lead > exponent:  # the error is larger than the value's leading digit: its own exponent
        err_mantissa, _, err_exp = f"{e:.{digits - 1}e}".partition("e")
        return f"{mantissa}e{exponent}", f"{err_mantissa}e{int(err_exp)}"
    return f"{mantissa}e{exponent}", f"{e / 10.0**exponent:.{exponent - place}f}e{exponent}"


def estimate(value: float, se: float, percent: bool = False) -> str:
    """``0.2246 ± 0.0003``: :func:`rounded`, as one string."""
    shown, error = rounded(value, se, percent)
    return f"{shown} ± {error}" if error else shown


def share(x: float, se: float) -> str:
    """A share of draws with its standard error, as a percentage."""
    return estimate(x, se, percent=True)


@dataclass(frozen=True)
class Readout:
    """One metric of the readout panel: its label, its value as printed, its standard error as
    printed (empty for an exact value or a single draw's), and its help."""

    label: str
    value: str
    error: str
    help: str


@dataclass(frozen=True)
class Words:
    """Every sentence and readout the page prints, built from the view's numbers."""

    readouts: tuple[Readout, ...]
    cutoffs: str  # the live share at each cut-off, beside the readouts
    draws_caption: str
    capped_note: str | None  # shown only when the study runs fewer draws than asked
    brute_note: str | None  # shown only when brute force stops short of the grid
    rounding_note: str | None  # None past brute force's reach
    reference_caption: str
    table_prose: str  # the quotes that are claims, each against the truth
    checks_note: str


# --- the readouts and the notes around the study ---------------------------------------------------


def readouts(v: Numbers) -> tuple[Readout, ...]:
    """The readout panel: √d_k exactly, the study's figures at the chosen d_k with their errors, and
    the bar chart's one draw (a single draw's entry is exact: no error to carry)."""
    here, s = v.here, v.summary
    dash = "—"
    if s is None:
        mean_help = "Past brute force's reach at these settings."
    elif s.mean > s.median:
        mean_help = "Above the median: held up by the few draws whose Jacobian is still live."
    elif s.mean < s.median:
        mean_help = "Below the median: the draws far below it pull the mean down."
    else:
        mean_help = "Equal to the median."
    none = (dash, "")
    return (
        Readout("√d_k", fmt.num(v.sqrt_d_k), "", "Exact: the spread the scores should have."),
        Readout(
            "Measured std of q·k",
            *(rounded(here.std, here.std_se) if here else none),
            "Every score of every draw, ± one standard error.",
        ),
        Readout(
            "Median largest |J|",
            *(rounded(s.median, s.median_se) if s else none),
            "± one standard error, from the order statistics either side of the median.",
        ),
        Readout("Mean largest |J|", *(rounded(s.mean, s.mean_se) if s else none), mean_help),
        Readout(
            f"Live draws ({LIVE})",
            *(rounded(s.live_share, s.live_se, percent=True) if s else none),
            "± one standard error (binomial). The share at other cut-offs is below.",
        ),
        Readout(
            "This draw's largest |J|",
            small_log10(v.log10_entry),
            "",
            "The bar chart's one draw: a single value, not an estimate.",
        ),
    )


def cutoffs_sentence(v: Numbers) -> str:
    """The live share at each cut-off of :data:`topics.scaling.monte_carlo.CUTOFFS`, beside the readouts."""
    s = v.summary
    if s is None:
        return "Past brute force's reach: no share of live draws at this d_k."
    parts = ", ".join(
        f"{cutoff(c)} in {share(x, e)}"
        for c, x, e in zip(CUTOFFS, s.cutoff_shares, s.cutoff_ses, strict=True)
    )
    return (
        f"A draw counts as live when its {LIVE}. The share hangs on that cut-off: the largest |J| is at "
        f"least {parts} of draws."
    )


def capped_note(v: Numbers) -> str:
    """Why the study runs fewer draws than asked (draws × keys over the score budget)."""
    s = v.settings
    return (
        f"{s.draws:,} draws of {s.n_keys} keys would be {v.asked_scores:,} scores at each of the "
        f"{v.grid_size} d_k, and the study would take many seconds. It stops at "
        f"{v.max_scores:,} scores a d_k, so this view uses {v.draws:,} draws; fewer keys allow more."
    )


def brute_note(v: Numbers) -> str:
    """Where brute force stops on the grid, and why."""
    return (
        f"Brute force stops at d_k = {v.brute_stop:,} at these settings: beyond it one d_k would need more "
        f"than {v.brute_budget:,} normal samples. The exact sampler draws the same distribution at any d_k."
    )


def draws_caption(v: Numbers) -> str:
    s = v.settings
    return (
        f"{v.draws:,} draws of one query and {s.n_keys} keys, {'÷√d_k' if s.divisor else 'no divisor'}; "
        "each figure ± one standard error."
    )


def rounding_note(d_k: int, draws: int, rounds_to_zero: float, underflows: float) -> str:
    """The Jacobian chart's caption in plain words, from the study's own shares at ``d_k``."""

    def of_draws(p: float) -> str:
        return share(p, float(np.sqrt(p * (1 - p) / draws)))

    if rounds_to_zero == 0:
        text = (
            f"At d_k = {d_k:,} without the divisor, no draw's top weight comes close enough to 1 for "
            "1 minus it to round to exactly 0."
        )
    else:
        text = (
            f"At d_k = {d_k:,} without the divisor, the top weight is so close to 1 in "
            f"{of_draws(rounds_to_zero)} of draws that computing 1 minus it gives exactly 0, and the "
            "gradient would read as exactly 0 too. This page adds up the other weights instead, so no "
            "draw reads 0."
        )
    if underflows > 0:
        text += (
            f" In {of_draws(underflows)} of draws even that sum is below the smallest normal float64 "
            "(2.2e-308): those draws count as dead, and their size is kept as a logarithm rather than "
            "drawn as 0."
        )
    return text


# --- the table of quoted numbers and the checks -----------------------------------------------------


def value_text(stat: str, x: float, se: float | None = None) -> str:
    """A statistic as the page prints it, with its standard error when it has one: shares as
    percentages, the spread and the Jacobian's entries via :func:`estimate`."""
    if se is None:
        if stat.startswith("live"):
            return fmt.percent(x)
        return fmt.num(x) if stat == "std" else small(x)
    return share(x, se) if stat.startswith("live") else estimate(x, se)


def true_text(row: Row) -> str:
    """The true value with its standard error and where it comes from."""
    stat, ref = row.quote.stat, row.true
    if stat == "std":
        return f"{fmt.num(ref.value)} exactly (√{row.quote.d_k:,})"
    se = ref.value * (10**ref.se - 1) if ref.log10 else ref.se  # a median's error is kept in decades
    return f"{value_text(stat, ref.value, se)} ({row.true_draws:,} draws)"


def band_text(row: Row) -> str:
    """One standard error of a check-sized run about the truth, in the statistic's own units."""
    stat, band = row.quote.stat, row.band
    if row.true.log10:
        return f"{band:.2g} decades"
    if stat.startswith("live"):
        return fmt.percent(band)
    return fmt.num(band) if stat == "std" else small(band)


def percentile_text(pct: float) -> str:
    """``98.7% of runs read less`` (runs of 500 draws, as the caption says); the extremes as bounds
    (2,000 runs resolve 0.05%)."""
    if pct < 0.1:
        return "fewer than 0.1% of runs read less"
    if pct > 99.9:
        return "more than 99.9% of runs read less"
    return f"{pct:.1f}% of runs read less"


def reading(row: Row) -> str:
    """Why the quote and the truth differ (or that they do not), from the numbers themselves."""
    q = row.quote
    if row.percentile is None:  # a rounded quote, "≈0.23": does the truth round to it?
        rounded = fmt.num(row.true.value, fmt.decimals_of(q.text))
        return f"the truth rounds to {rounded}" + ("" if rounded == q.text else f", not {q.text}")
    verdict = "a typical run" if row.typical else "an unusual run"
    return f"{verdict}: {percentile_text(row.percentile)}"


def reference_caption(v: Numbers) -> str:
    n_keys = v.settings.n_keys
    return (
        f"Quoted: the post this page follows, from its own run of a few hundred draws of six keys. "
        f"True: {v.reference_draws:,} exact draws of six keys (± one standard error), cut into "
        f"{v.reference_runs:,} runs of {v.post_draws} to place each quoted number among the runs "
        "it could have come from. Live: your controls"
        + ("" if n_keys == v.post_keys else f", with {n_keys} keys where the truth is for six")
        + ". A quote from one run is one sample of the distribution: where it sits in the tail, "
        "the true value beside it is the one to use."
    )


def fold_sentence(v: Numbers) -> str:
    """The post's "four thousand-fold increases" against the grid's own ratio, and the true means."""
    (lo, hi) = v.fold
    means = [estimate(m, e) for m, e in zip(v.fold_means, v.fold_mean_ses, strict=True)]
    return (
        f"The post has the mean falling from {POST['mean_raw_2']} to {POST['mean_raw_4096']} "
        f"“{POST['mean_fold']}” in d_k; from {lo:,} to {hi:,} is a {v.fold_ratio:,}-fold increase, and "
        f"the true mean falls from {means[0]} to {means[1]}."
    )


def scaled_sentence(v: Numbers) -> str:
    """Where the post's "≈0.23 at every d_k" holds, computed from the reference."""
    quote = POST["median_scaled"]
    digits = fmt.decimals_of(quote)
    holds = [d for d, m in v.scaled_medians if fmt.num(m, digits) == quote]
    off = [d for d, _ in v.scaled_medians if d not in holds]
    parts = ", ".join(
        f"{estimate(m, e)} at d_k = {d:,}"
        for (d, m), e in zip(v.scaled_medians, v.scaled_median_ses, strict=True)
    )
    verdict = (
        f"so the post's “≈{quote} at every d_k” holds at every one"
        if not off
        else f"so the post's “≈{quote} at every d_k” holds at {', '.join(f'{d:,}' for d in holds) or 'none'} "
        f"but not at {', '.join(f'{d:,}' for d in off)}"
    )
    return f"With the divisor the true median is {parts}; {verdict}."


def third_sentence(v: Numbers) -> str:
    """Which cut-off makes the post's "about a third" live at its d_k true, from the reference.

    "About a third" is read as a share nearer 1/3 than 1/4 or 1/2 (:data:`topics.scaling.view.ABOUT_A_THIRD`).
    """
    lo, hi = v.about_a_third
    quote = POST["live_share_raw_768"]
    shown = {c: share(x, e) for c, x, e in v.third_shares}
    holds = [c for c, x, _ in v.third_shares if lo <= x <= hi]
    others = ", ".join(
        f"{cutoff(c)} gives {shown[c]}" + (" (the page's cut-off)" if c == LIVE_THRESHOLD else "")
        for c, _, _ in v.third_shares
        if c not in holds
    )
    bounds = f"{fmt.percent(lo)} to {fmt.percent(hi)}, nearer a third than a quarter or a half"
    where = f"at d_k = {v.third_d_k:,} without the divisor"
    if not holds:
        return f"The post's “{quote}” live ({bounds}) holds at none of these cut-offs {where}: {others}."
    at = " and ".join(
        f"a {cutoff(c)} cut-off ({shown[c]}" + (", the page's cut-off" if c == LIVE_THRESHOLD else "") + ")"
        for c in holds
    )
    return f"The post's “{quote}” live ({bounds}) holds {where} at {at}, while {others}."


def checks_note(v: Numbers) -> str:
    return (
        "Quoted: the post, from its own run of a few hundred draws. True: the reference in the table above. "
        f"Live: {v.post_draws} draws of six keys (the post's setting) at your seed and sampler, whatever "
        "the other controls say. A live value is within noise when it lies within "
        f"{v.z_tolerance:g} standard errors of a {v.post_draws}-draw run about the truth (a median's "
        "error is measured in decades), and its percentile is its place in that run-to-run scatter; "
        "a rare unlucky seed can fall outside."
    )


def words(v: Numbers) -> Words:
    """Every sentence and readout of the page at ``v``, each shown only where its condition holds."""
    here = v.here
    return Words(
        readouts=readouts(v),
        cutoffs=cutoffs_sentence(v),
        draws_caption=draws_caption(v),
        capped_note=capped_note(v) if v.draws < v.settings.draws else None,
        brute_note=brute_note(v) if v.brute_stop is not None else None,
        rounding_note=(
            rounding_note(v.settings.d_k, here.draws, here.raw.naive_zero_share, here.raw.underflow_share)
            if here
            else None
        ),
        reference_caption=reference_caption(v),
        table_prose=" ".join((scaled_sentence(v), third_sentence(v), fold_sentence(v))),
        checks_note=checks_note(v),
    )
