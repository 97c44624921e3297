"""The cost page's sentences, built from the view's exact values (issue 24: every sentence true at
every setting).

Each function takes exact ints and Fractions and rounds them once (``topics.cost.format``). A claim
that holds only on one side of a threshold (the post's square overstates the time above 1,024
tokens and understates it below) is worded from the values, so no setting shows a false one.
"""

from __future__ import annotations

from fractions import Fraction

from topics.cost import arithmetic as a
from topics.cost import format as cf

UNITS = cf.UNITS[2:5][::-1]  # MiB, GiB, TiB: the bytes caption's three readings


def growth(g: Fraction) -> str:
    """A growth factor from 1,024 tokens: ``×1,046,577``, ``×1.25``, or ``÷1,048,576`` when it shrinks.

    Never ``×0``: below the baseline the time shrinks, and the factor is printed as a divisor."""
    if g >= 1:
        return f"×{cf.fixed(g, 0 if g >= 100 else 2)}"
    inverse = 1 / g
    return f"÷{cf.fixed(inverse, 0 if inverse >= 100 else 2)}"


def percent(share: Fraction) -> str:
    """A share to one decimal, never rounded to a false 0.0% or 100.0%."""
    if 0 < share < Fraction(1, 2000):
        return "under 0.1%"
    if Fraction(1999, 2000) <= share < 1:
        return "over 99.9%"
    return f"{cf.fixed(100 * share, 1)}%"


def tokens(n: int) -> str:
    """``1 token``, ``1,024 tokens``."""
    return f"{n:,} token" + ("" if n == 1 else "s")


def bytes_caption(row: a.CostRow) -> str:
    """Under the bytes readout: the same bytes in three binary units, and the scores the mask keeps."""
    units = " = ".join(f"{cf.in_unit(row.nbytes, u)} {name}" for name, u in UNITS)
    kept = f"of which the causal mask keeps {row.live_cells:,} (n(n+1)/2 a head)"
    scores = f"{row.scores:,} score" + ("" if row.scores == 1 else "s")
    return f"{units}; {scores}, {kept}."


def cards_caption(row: a.CostRow) -> str:
    """Under the cards readout: the ratio rounded for reading, and exactly as a fraction."""
    shown = "below 0.01" if row.cards < Fraction(1, 200) else cf.fixed(row.cards, 2)
    return f"Ratio {shown}, exactly {row.cards.numerator:,} / {row.cards.denominator:,}."


def time_caption(row: a.CostRow, giles_hours: str) -> str:
    """Under the time readout: hours from a minute up, and the post's rounded quote of Giles Thomas."""
    hours = f"= {cf.hours(row.seconds)}. " if row.seconds >= 60 else ""
    return hours + f"The post quotes Giles Thomas's rounded {giles_hours} at GPT-4.1's window."


def paragraph(n: int, square: Fraction, flops: Fraction, projection_share: Fraction, crossover: int) -> str:
    """Why the post's model misstates the growth of the time per token, with the page's numbers.

    ``square`` is the post's ``(n/1,024)²``, ``flops`` one head's multiply-adds over the same stretch.
    Above 1,024 tokens the square overstates the growth; below it, it shrinks the time too fast."""
    head = (
        f"The post's time model scales everything by $(n/1{{,}}024)^2$, {growth(square)} at {tokens(n)}: "
        "it treats the whole model as quadratic. Only $QK^\\top$ and $AV$ are. "
    )
    split = (
        f"At {tokens(n)} the projections are {percent(projection_share)} of one head's multiply-adds, "
        f"and the quadratic part is the larger from n = {crossover:,} on. "
    )
    if n > a.BASELINE_N:
        compare = (
            f"Counted by one head's multiply-adds, the same stretch is {growth(flops)}: the post's square "
            f"is {cf.fixed(square / flops, 2)} times as much. "
        )
    elif n < a.BASELINE_N:
        compare = (
            f"Counted by one head's multiply-adds, the time shrinks only {growth(flops)}: below the "
            f"baseline the post's square shrinks it {cf.fixed(flops / square, 2)} times too much. "
        )
    else:
        compare = "At the baseline's own 1,024 tokens both models give t₀ itself. "
    return (
        head
        + split
        + compare
        + "That is still a model: it assumes time follows arithmetic, with no memory traffic and no "
        "feed-forward. And generation does not redo the prefix: with a KV cache each new token's "
        "attention scores one query against n cached keys, linear in n."
    )
