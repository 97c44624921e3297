"""One cell's arithmetic as a learner reads it: the text of the cell panel, built by a page's view.

Section 3.4 of the book works one query through by hand (ω_22 = q_2 · k_2 = 1.8524, the division
by √d_k, the softmax, z_2) before computing all of them at once. The panel does the same for the
cell a reader picks, with the very numbers the page's heatmaps print (4 decimals, as the book
prints tensors). It is plain data and text, no Streamlit, so a view builds it and a test reads it;
``ui.cell`` draws it.

Precision (the README's "Precision"): every step is computed in float64 from the float32 numbers
torch holds, and printed to no more digits than float32 also holds, so the book's float32 code
prints the same digits. Four decimals hold for every step but the exponential and the row's sum
of them: ``e^s`` multiplies a float32 score's rounding (a part in 2²⁴ of ``s``) by ``s``, so
``exp(6.6957)`` is 808.9200 in float64 and 808.9197 or 808.9201 in float32, by the kernel that
summed the score. :func:`held` prints those to the digits float32 keeps (808.9).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from core.cell import Cell
from ui import format as fmt

FLOAT32_ROUNDING = 2.0**-24  # float32's unit roundoff: a rounded number is off by at most this share
HELD = 100  # a digit is printed when float32's error is at most this fraction of its unit (1/100)

FEWER = "computed in float64; shown to the digits float32 holds too: e^s multiplies a score's rounding by s"
SHOWN_KEYS = 8  # a longer row lists the chosen key and the row's largest weights, not every key
SHOWN_DIMS = 16  # a wider score lists its largest products and sums the rest in one line
TERM_WIDTH = 5  # a value vector in the terms table: its first entries, "…", its last (a phone row)


@dataclass(frozen=True)
class Table:
    """A small table: a header and rows of text, already formatted."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Panel:
    """Everything the cell panel shows, in reading order."""

    heading: str  # "journey → starts"
    score_intro: str
    products: Table  # one row per dimension d: q_i,d, k_j,d, their product
    score: str  # "ω = 0.1878 + 1.6233 = 1.8111"
    weight: tuple[str, ...]  # ÷ divisor, exp, the row's denominator, the weight
    context_intro: str
    terms: Table  # one row per key shown: a_ij, v_j, a_ij · v_j
    context: str  # "z_journey = [0.3061, 0.8210]"
    notes: tuple[str, ...]  # what this page adds: a mask, a dropout draw, a head, a training step


def exp_error(x: float) -> float:
    """How far float32 can put ``x = e^s`` from its float64 value: ``|x| · (|s| + 1) · 2⁻²⁴``, the
    score's own rounding multiplied by ``s``, and the exponential's, with ``s = ln x``. A row's
    exponentials shifted by its largest score know their exponent better (:func:`row_errors`)."""
    if x == 0 or not math.isfinite(x):
        return 0.0
    return abs(x) * (abs(math.log(abs(x))) + 1) * FLOAT32_ROUNDING


def held(x: float, decimals: int, error: float, *, grouped: bool = False) -> str:
    """``x`` to ``decimals``, or to fewer where float32's ``error`` reaches a hundredth of the last
    digit (:data:`HELD`); in scientific notation (4 significant digits at most) past 10⁵ or where
    not even the units are held. ``grouped``: thousands separated (``4,232``)."""
    shown = decimals
    if error > 0:
        shown = min(decimals, math.floor(-math.log10(HELD * error)))
    if shown >= 0 and abs(x) < 1e5:
        return f"{x:,.{shown}f}" if grouped else fmt.num(x, shown)
    digits = max(1, min(4, math.floor(math.log10(abs(x))) + 1 + shown))
    return f"{x:.{digits - 1}e}"


def exp_text(x: float, error: float | None = None) -> str:
    """``3.5990``: an exponential to the book's 4 decimals where float32 holds them, fewer where its
    ``error`` reaches them (by default :func:`exp_error` of ``x``; ``exp(6.6957)`` prints 808.9:
    :func:`held`), in scientific notation past 10⁵ or below 10⁻⁴ (``2.718e+43``), so a large one
    never prints forty digits."""
    if x == 0:
        return "0"
    if abs(x) < 1e-4:
        return f"{x:.3e}"
    return held(x, fmt.DECIMALS, exp_error(x) if error is None else error)


def sum_text(x: float, error: float | None = None) -> str:
    """``16.37``: a row's softmax denominator to 2 decimals (as the checks quote denominators),
    fewer where float32's ``error`` reaches them (:func:`held`; by default :func:`exp_error` of
    ``x``), in scientific notation past 10⁵."""
    return held(x, 2, exp_error(x) if error is None else error, grouped=True)


def _value(text: str) -> Decimal | None:
    """The number ``text`` prints, as the exact decimal a reader reads (``4,357``, ``4.477e+04``,
    ``**0.1551**``); ``None`` for what is no plain number."""
    try:
        return Decimal(text.strip("*").replace(",", ""))
    except InvalidOperation:
        return None


def closes(numerator: str, denominator: str, result: str) -> bool:
    """Whether ``numerator / denominator = result`` holds at the printed digits: the quotient of the
    two printed numbers is within half a unit of ``result``'s last digit (a tie either way)."""
    n, d, r = _value(numerator), _value(denominator), _value(result)
    if n is None or d is None or r is None or not d.is_finite() or d == 0:
        return False
    exponent = r.as_tuple().exponent
    assert isinstance(exponent, int)  # r is finite
    return abs(n / d - r) <= Decimal(5).scaleb(exponent - 1)


def division(
    numerator: str, denominator: float, error: float, result: str, decimals: int = 2
) -> tuple[str, str]:
    """A row's denominator as a printed division needs it, and the sign before the division's
    result: the denominator to ``decimals`` (:func:`held`), or to as many more, up to 4, as float32
    holds and make ``numerator / denominator = result`` hold at the printed digits; where none
    does, the first, and ``≈`` (an audit found 1.9208 / 12.38 = 0.1551 where 1.9208 / 12.38 is
    0.15515…)."""
    first = held(denominator, decimals, error, grouped=True)
    for more in range(decimals, fmt.DECIMALS + 1):
        text = held(denominator, more, error, grouped=True)
        if closes(numerator, text, result):
            return text, "="
    return first, "≈"


def row_errors(scaled: np.ndarray, shift: float = 0.0) -> tuple[np.ndarray, float]:
    """How far float32 can put each exponential of a row, ``exp(s − shift)``, and their sum, from
    float64: the exponent float32 rounds is ``|s| + |shift|`` (0 for the score the row was shifted
    by: ``s − s`` is exactly 0 in any precision), and the sum gathers its terms' errors. Masked
    keys (``−inf``) add nothing."""
    s = np.asarray(scaled, dtype=np.float64)
    visible = np.isfinite(s)
    s = np.where(visible, s, shift)
    reach = np.where((s == shift) & (shift != 0), 0.0, np.abs(s) + abs(shift))
    exps = np.where(visible, np.exp(s - shift), 0.0)
    errors = exps * (reach + 1) * FLOAT32_ROUNDING
    return errors, float(np.sum(errors))


def softmax_texts(c: Cell) -> tuple[str, str, str]:
    """The panel's softmax of an unmasked cell, as printed: its exponential, its row's denominator
    and the sign between ``exp / denominator`` and the weight (:func:`division`)."""
    errors, total_error = row_errors(c.row_scaled, c.shift)
    exp = exp_text(c.exp, float(errors[c.j]))
    total, sign = division(exp, c.denominator, total_error, fmt.num(c.softmax_weight))
    return exp, total, sign


def chosen_key(choice: int | None, row_weights: np.ndarray) -> int:
    """The key of the panel's cell: the reader's choice, or the key the query weights most."""
    if choice is not None and 0 <= choice < len(row_weights):
        return choice
    return int(np.argmax(row_weights))


def _sub(label: str) -> str:
    return label.replace(" ", "_")


def panel(
    c: Cell,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    q_name: str = "q",
    k_name: str = "k",
    v_name: str = "v",
    projected: str = "x_{i} W_q and k_{j} = x_{j} W_k",
    divisor_name: str = "√d_k",
    weight_name: str = "a",
    notes: Sequence[str] = (),
) -> Panel:
    """The panel of cell ``c`` with the page's token labels and names, as Markdown (every token
    escaped: a reader's token is text).

    ``projected`` says where the query and key come from (on Recap, "the embeddings themselves");
    ``{i}``/``{j}`` stand for the two tokens. ``divisor_name`` is what the page divides by ("√d_k
    = √2", or "" where it divides by nothing). ``notes`` are the page's own lines.
    """
    labels = [fmt.md(t) for t in cols]
    qi, kj = fmt.md(rows[c.i]), labels[c.j]
    where = projected.replace("{i}", _sub(qi)).replace("{j}", _sub(kj))
    d = len(c.products)
    order = list(range(d))
    rest = ""
    if d > SHOWN_DIMS:
        order = sorted(order, key=lambda k: -abs(c.products[k]))[: SHOWN_DIMS // 2]
        others = [k for k in range(d) if k not in order]
        rest = f" (the {len(others)} other products sum to {fmt.num(float(np.sum(c.products[others])))})"
        order.sort()
    products = Table(
        ("d", f"{q_name}_{_sub(qi)},d", f"{k_name}_{_sub(kj)},d", "product"),
        tuple((str(k + 1), fmt.num(c.query[k]), fmt.num(c.key[k]), fmt.num(c.products[k])) for k in order),
    )
    summands = " + ".join(fmt.num(p) for p in c.products[order]).replace("+ -", "− ")
    if d > SHOWN_DIMS:
        score = f"ω = **{fmt.num(c.score)}**{rest}"
    elif d == 1:
        score = f"ω = its one product = **{fmt.num(c.score)}**"
    else:
        score = f"ω = {summands} = **{fmt.num(c.score)}**"
    weight: list[str] = []
    if c.masked:
        weight.append(
            f"{kj} comes after {qi}, so the causal mask sets this score to −∞ before the softmax: "
            "exp(−∞) = 0, and the weight is exactly **0**, whatever the score was."
        )
    else:
        if divisor_name:
            scaled = fmt.num(c.scaled)
            divisor = fmt.num(c.divisor)
            sign = "" if closes(fmt.num(c.score), divisor, scaled) else "≈ "  # ω at 4 decimals
            weight.append(f"Divided by {divisor_name} = {divisor}: {sign}{scaled}")
        else:
            weight.append("This page divides by nothing: the softmax takes the raw score.")
        shifted = f" − {fmt.num(c.shift)}" if c.shift > 0 else f" + {fmt.num(-c.shift)}" if c.shift else ""
        exp, total, sign = softmax_texts(c)
        fewer = "" if exp == exp_text(c.exp, 0.0) else f" ({FEWER})"
        weight.append(f"exp({fmt.num(c.scaled)}{shifted}) = {exp}{fewer}")
        if c.shift:
            weight.append(
                f"(Every exponent of the row is shifted by its largest, {fmt.num(c.shift)}, so "
                + ("none overflows" if c.shift > 0 else "they do not all round to 0")
                + "; the shift cancels in the weight.)"
            )
        weight.append(f"The row's denominator, Σ exp over its keys: {total}")
        weight.append(
            f"{weight_name}_{_sub(qi)},{_sub(kj)} = {exp} / {total} {sign} **{fmt.num(c.softmax_weight)}**"
        )
    keys = list(range(c.n_keys)) if c.n_keys <= SHOWN_KEYS else sorted(c.largest(SHOWN_KEYS))
    terms = Table(
        ("key", "weight", f"{v_name}_j", "weight · value"),
        tuple(
            (
                ("▸ " if k == c.j else "") + labels[k],
                fmt.num(c.row_weights[k]),
                fmt.short_vec(c.values[k], show=TERM_WIDTH),
                "0 (weight 0)" if c.row_weights[k] == 0 else fmt.short_vec(c.terms[k], show=TERM_WIDTH),
            )
            for k in keys
        ),
    )
    left = c.n_keys - len(keys)
    intro = "The context vector is every value weighted by its key's weight and summed."
    if left:
        unlisted = float(np.sum(np.delete(c.row_weights, keys)))
        intro = (
            f"The context vector is every value weighted by its key's weight and summed: the "
            f"{len(keys)} largest weights of {c.n_keys} keys are listed (the chosen key among them); "
            f"the other {left} carry {fmt.num(unlisted)} of the weight between them."
        )
    return Panel(
        heading=f"{qi} → {kj}",
        score_intro=f"The score: {q_name}_{_sub(qi)} = {where}, then each product and their sum.",
        products=products,
        score=score,
        weight=tuple(weight),
        context_intro=intro,
        terms=terms,
        context=f"z_{_sub(qi)} = **{fmt.short_vec(c.context)}**",
        notes=tuple(notes),
    )
