"""One cell's arithmetic as a learner reads it: the text of the cell panel, built by a page's view.

Section 3.4 of the book works one query through by hand (ω_22 = q_2 · k_2 = 1.8524, the division
by √d_k, the softmax, z_2) before computing all of them at once. The panel does the same for the
cell a reader picks, with the very numbers the page's heatmaps print (4 decimals, as the book
prints tensors). It is plain data and text, no Streamlit, so a view builds it and a test reads it;
``ui.cell`` draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.cell import Cell
from ui import format as fmt

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


def exp_text(x: float) -> str:
    """``3.5990``: an exponential as the book prints numbers, in scientific notation past 10⁵ or
    below 10⁻⁴ (``2.718e+43``), so a large one never prints forty digits."""
    if x == 0:
        return "0"
    return fmt.num(x) if 1e-4 <= abs(x) < 1e5 else f"{x:.3e}"


def sum_text(x: float) -> str:
    """``16.37``: a row's softmax denominator to 2 decimals (as the checks quote denominators), in
    scientific notation past 10⁵."""
    return f"{x:,.2f}" if abs(x) < 1e5 else f"{x:.3e}"


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
            weight.append(f"Divided by {divisor_name} = {fmt.num(c.divisor)}: {fmt.num(c.scaled)}")
        else:
            weight.append("This page divides by nothing: the softmax takes the raw score.")
        shifted = f" − {fmt.num(c.shift)}" if c.shift > 0 else f" + {fmt.num(-c.shift)}" if c.shift else ""
        weight.append(f"exp({fmt.num(c.scaled)}{shifted}) = {exp_text(c.exp)}")
        if c.shift:
            weight.append(
                f"(Every exponent of the row is shifted by its largest, {fmt.num(c.shift)}, so "
                + ("none overflows" if c.shift > 0 else "they do not all round to 0")
                + "; the shift cancels in the weight.)"
            )
        weight.append(f"The row's denominator, Σ exp over its keys: {sum_text(c.denominator)}")
        weight.append(
            f"{weight_name}_{_sub(qi)},{_sub(kj)} = {exp_text(c.exp)} / {sum_text(c.denominator)} "
            f"= **{fmt.num(c.softmax_weight)}**"
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
