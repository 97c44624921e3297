"""Every sentence of the Dropout page, built from the numbers of its view (issue 24).

A sentence that depends on the settings is chosen by them: "each survivor is multiplied by
1/(1 − p)" only with scaling on and p > 0, "keeps its value" with scaling off, "nothing is
dropped" at p = 0. The view (:func:`topics.dropout.view.build`) calls these with its own values,
so what the page says and what it computed cannot drift apart; the property test
(``tests/dropout/test_dropout_properties.py``) holds each claim to the view's arrays.

Sources: book section 3.5.2 (``nn.Dropout`` on the attention weights, its 1/(1 − p) factor, the
demo rate 0.5) and the post's dropout figure (row 1 dies on a share p of the steps).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from core import book
from ui import format as fmt

BOOK_P = 0.5  # book section 3.5.2's demo rate (``sampling.BOOK_P``; repeated to keep this module light)
POWER = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # p² as the page writes pᶦ
GPT_RATES = tuple(float(r) for r in re.findall(r"\d+\.\d+", book.FIGURE_04["gpt_rates"]))  # (0.1, 0.2)


def rate(p: float) -> str:
    """``0.35``: a rate as the slider shows it (its float noise, 0.35000000000000003, dropped)."""
    return f"{float(p):g}"


def worked_factor(keep: float, factor: float) -> str:
    """``1/(1 − p)`` worked out: ``1/0.5 = 2``, or ``1/0.65 ≈ 1.538`` when 4 digits are not all of it."""
    shown = f"{factor:.4g}"
    exact = Fraction(shown) == 1 / Fraction(f"{keep:g}")
    return f"1/{keep:g} {'=' if exact else '≈'} {shown}"


def lead(p: float) -> str:
    """The page's opening: what ``nn.Dropout`` does, then what that means at this rate. No TeX: the
    page opens on it, and a first visit draws TeX only once its code has been fetched, then pushes
    everything under it down."""
    what = (
        "During training, `nn.Dropout` zeroes each attention weight with probability *p* and multiplies "
        "the survivors by 1/(1 − *p*), so that a row still sums to 1 *on average*. "
    )
    if p == 0:
        return what + (
            "At *p* = 0 nothing is dropped: every weight survives, the factor is 1, and every row sums "
            "to 1 on every draw. Raise *p* to see rows lose weights."
        )
    return what + (
        f"At *p* = {rate(p)} no row is sure to sum to 1 on a given draw, and a causal row has few "
        "weights to lose: row *i* has only *i*, so it is the zero vector with probability *p*ⁱ, and the "
        f"first token's context vector is the zero vector on a share {rate(p)} of all training steps."
    )


def weights_caption(width: int, generator_name: str, seed: int) -> str:
    """Which weights and which random numbers the figures show."""
    built = "" if width == 3 else f", built {width} wide for this sentence"
    return (
        f"Weights: **section 3.5 (sa_v2, seed 789{built})**, causal (future filled with −∞, divided by "
        f"√2, softmax). Random numbers: **{generator_name}**, seed {seed}. Resample adds one to the "
        "seed, so the URL still reproduces the view."
    )


def survivors(p: float, scale: bool, keep: float, factor: float) -> str:
    """What happens to this draw's survivors, as a clause: "multiplied by 1/0.5 = 2"."""
    if p == 0:
        return "all kept: at p = 0 nothing is dropped, so this draw is the matrix before dropout"
    if not scale:
        return "kept at their values (scaling is off)"
    return f"multiplied by 1/(1 − p) = {worked_factor(keep, factor)}"


def draw_caption(
    p: float,
    scale: bool,
    keep: float,
    factor: float,
    dead_rows: Sequence[int],
    book_sentence: bool,
    book_draw: bool,
    relative: str | None = None,
) -> str:
    """The caption under one draw: how to read the colours, which rows died, where the book's draw is.
    ``relative`` is how the weights are coloured: None on the fixed 0–1 scale, ``"matrix"`` from 0 to
    each matrix's largest weight, ``"row"`` from 0 to each row's largest (``ui.scale``)."""
    shared = {
        None: "Both matrices share the 0–1 scale",
        "matrix": "Each matrix is coloured from 0 to its own largest weight",
        "row": "Each row is coloured from 0 to its own largest weight",
    }[relative]
    text = (
        f"{shared}; this draw's survivors are {survivors(p, scale, keep, factor)}. "
        "Row sums are coloured around 1: a sum of 1 is uncoloured, blue falls short, red overshoots. "
    )
    if not dead_rows:
        text += "No row is the zero vector in this draw."
    else:
        rows = ", ".join(str(i) for i in dead_rows)
        many = len(dead_rows) > 1
        text += f"Row{'s' if many else ''} {rows} {'are' if many else 'is'} the zero vector."
    book_settings = f"PyTorch random numbers, seed 123, p = {rate(BOOK_P)} and scaling on"
    if book_draw:
        return text + f" This is the draw the book prints ({book_settings})."
    if book_sentence:
        return text + f" {book_settings[0].upper()}{book_settings[1:]} give the draw the book prints."
    return text + f" On the book's sentence, {book_settings} give the draw the book prints."


def formula(scale: bool) -> str:
    """The LaTeX of dropout as the page applies it: with the factor, or without it (scaling off)."""
    if scale:
        drop = r"\alpha^{\text{drop}}_{ij} = \frac{b_{ij}}{1-p}\,\alpha_{ij}"
        mean = r"\mathbb{E}\big[\alpha^{\text{drop}}_{ij}\big] = \alpha_{ij}"
        total = r"\mathbb{E}\Big[\sum_{j\le i}\alpha^{\text{drop}}_{ij}\Big] = 1"
    else:
        drop = r"\alpha^{\text{drop}}_{ij} = b_{ij}\,\alpha_{ij}"
        mean = r"\mathbb{E}\big[\alpha^{\text{drop}}_{ij}\big] = (1-p)\,\alpha_{ij}"
        total = r"\mathbb{E}\Big[\sum_{j\le i}\alpha^{\text{drop}}_{ij}\Big] = 1-p"
    bern = r"b_{ij}\sim\mathrm{Bernoulli}(1-p)"
    dead = r"\Pr\big[\text{row } i = \mathbf{0}\big] = p^{\,i}"
    return r",\quad ".join((drop, bern, mean, total, dead))


def _every(rates: Sequence[float]) -> str:
    """``one step in ten or five``: how often row 1 dies at each rate (1/p steps, a whole number)."""
    words = {2: "two", 4: "four", 5: "five", 10: "ten", 20: "twenty"}
    return "one step in " + " or ".join(words.get(round(1 / r), f"{1 / r:g}") for r in rates)


def factor_paragraph(p: float, scale: bool, keep: float, factor: float) -> str:
    """Under "Why the factor is 1/(1 − p)": the factor at this rate, true for this scaling setting."""
    book_case = (
        f"At the book's demo rate $p = {rate(BOOK_P)}$ the factor is "
        f"{worked_factor(1 - BOOK_P, 1 / (1 - BOOK_P))}."
    )
    if p == 0:
        body = (
            "At $p = 0$ no weight is dropped and the factor $1/(1 - p)$ is 1, so scaling on or off "
            "changes nothing: every row sums to 1 on every draw. Raise $p$ to see the factor at work. "
            + book_case
        )
    elif scale:
        body = (
            f"At $p = {rate(p)}$ each weight is zeroed with probability {rate(p)} and each survivor is "
            f"multiplied by $1/(1 - p) = {worked_factor(keep, factor)}$. A weight then averages "
            r"$(1 - p) \cdot \frac{1}{1-p}\,\alpha = \alpha$: that is the reason for the factor. "
            f"Switch scaling off and the running mean heads for $1 - p = {keep:g}$ instead. " + book_case
        )
    else:
        body = (
            f"At $p = {rate(p)}$ each weight is zeroed with probability {rate(p)}, and with scaling off "
            f"each survivor keeps its value: a weight averages $(1 - p)\\,\\alpha = {keep:g}\\,\\alpha$, "
            f"so the running mean heads for $1 - p = {keep:g}$, not 1. With scaling on, `nn.Dropout` would "
            f"multiply each survivor by $1/(1 - p) = {worked_factor(keep, factor)}$, which brings a "
            "weight's average back to $\\alpha$: that is the reason for the factor. " + book_case
        )
    return body + (
        " This is *inverted* dropout: frameworks scale up at training time so inference is a plain "
        "forward pass (the original paper scaled down at test time instead). A real GPT run uses "
        f"{book.FIGURE_04['gpt_rates']}, where row 1 still dies on {_every(GPT_RATES)}."
    )


def mean_help(draws: int, scale: bool) -> str:
    """The help of the mean row sum readout: what the ± is, and what it heads for."""
    target = "1" if scale else "1 − p"
    return (
        f"± one standard error: σ/√{draws:,}, with σ the exact standard deviation of one draw's mean "
        f"row sum. It heads for {target}."
    )


def expectation_help(p: float, scale: bool) -> str:
    """The help of the expected mean row sum readout."""
    if scale:
        return "Scaling on: each weight keeps its expectation, so a row sums to 1 on average."
    return f"Scaling off: a weight averages 1 − p = {1 - p:g} times its value before dropout."


def survivor_help(p: float, scale: bool) -> str:
    """The help of the survivors' factor readout."""
    if not scale:
        return "Scaling is off: survivors keep their value."
    return "1/(1 − p), what nn.Dropout does" + (": 1 at p = 0, nothing is dropped." if p == 0 else ".")


def code_caption(book_draw: bool) -> str:
    """Under the book's code: what it prints, and where this view's own code is."""
    if book_draw:
        return "The book's code (section 3.5.2): it prints the draw shown above."
    return (
        f"The book's code (section 3.5.2), at its seed 123 and p = {rate(BOOK_P)}: it prints the run in "
        "the checks below. The Reproduce expander holds the code of the view on screen."
    )


def default_cell_note(row_live: bool) -> str:
    """Which cell the panel works out when the reader picked none: the rule of ``view.default_key``."""
    if row_live:
        return (
            "This cell's key is the one this draw's row gives most weight, as the note above ranks "
            "the row (the first, where weights tie); pick another under *Key of the cell*."
        )
    return (
        "This draw drops the whole row, so no key has the most weight after dropout: this cell's key "
        "has the largest weight before dropout; pick another under *Key of the cell*."
    )


def cell_notes(
    query: str,
    key: str,
    *,
    row: int,
    masked: bool,
    kept: bool,
    softmax_weight: str,
    dropped_weight: str,
    p: float,
    scale: bool,
    keep: float,
    factor: float,
    generator_name: str,
    seed: int,
    row_dead: bool,
    zero_theory: str,
    zero_measured: str,
    draws: int,
    before: str,
) -> tuple[str, ...]:
    """The cell panel's dropout lines for cell ``query → key`` (tokens already escaped), in the
    order the forward pass goes: the keep mask's bit, the factor, their product with the softmax
    weight (the cell the heatmap after dropout prints), and the context vector of this draw.

    ``row`` counts from 1; the weights arrive as the page prints them (4 decimals)."""
    bit = 1 if kept else 0
    if p == 0:
        mask = (
            f"Dropout, this draw: at p = 0 nothing is dropped, so the keep mask is **1** at {query} → {key}."
        )
    elif masked:
        mask = (
            f"Dropout, this draw ({generator_name}, seed {seed}): the keep mask is **{bit}** at "
            f"{query} → {key}. Dropout draws a bit for every cell, the future's too, each 1 with "
            f"probability 1 − p = {keep:g}."
        )
    else:
        mask = (
            f"Dropout, this draw ({generator_name}, seed {seed}): the keep mask is **{bit}** at "
            f"{query} → {key}, so this weight is {'kept' if kept else 'dropped'} (each is kept with "
            f"probability 1 − p = {keep:g})."
        )
    average = "" if p == 0 else ", so over many draws a weight averages "
    if not scale:
        scaled = "Scaling is off: a survivor keeps its value, with no factor"
        scaled += f"{average}only 1 − p = {keep:g} of its value." if average else "."
        times = f"{softmax_weight} × {bit}"
    else:
        scaled = f"Survivors are multiplied by 1/(1 − p) = {worked_factor(keep, factor)}"
        scaled += f"{average}(1 − p) × 1/(1 − p) = 1 times its value before dropout." if average else "."
        times = f"{softmax_weight} × {bit} × {factor:.4g}"
    if masked:
        product = (
            f"Dropout comes after the softmax, so this future cell is already exactly 0: {times} = "
            f"**{dropped_weight}**, whatever the mask says."
        )
    else:
        product = (
            f"The weight this draw uses: {times} = **{dropped_weight}**, the cell of the heatmap "
            "after dropout."
        )
    if row_dead:
        power = f"p{str(row).translate(POWER)}"
        context = (
            f"Every weight of row {row} was dropped in this draw, so z_{query.replace(' ', '_')} is the zero "
            f"vector: a row of {fmt.count(row, 'live weight')} dies whole on a share {power} = {zero_theory} "
            "of draws "
            f"(measured over {draws:,} draws: {zero_measured})."
        )
    else:
        context = (
            f"The context vector above sums this draw's weights, after dropout; before dropout it was "
            f"{before}."
        )
    return mask, scaled, product, context
