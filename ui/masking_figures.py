"""The masking page's glue: stage heatmaps, the difference grid, the softmax box and its bars,
and the sentence under the stages, which reads its numbers off the controls' result.

The two masking paths differ by float64 rounding (about 1e-16), which a 4-decimal heatmap would
print as a wall of 0.0000; each such cell of the difference grid shows its own exponent, exact
zeros as 0, and the zero fill's leak (tenths) prints with 4 decimals like every other weight.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from core import attention, book, masking, tokens, weights
from ui import checks, figures
from ui import format as fmt


def diff_text(x: float) -> str:
    """``1.1e-16`` for rounding noise, ``0`` where the paths agree exactly, 4 decimals for a leak,
    ``0/0`` where the naive path divided zero by zero (see ``core.masking.undefined_rows``)."""
    x = float(x)
    if np.isnan(x):
        return "0/0"
    if x == 0:
        return "0"
    return fmt.sci(x) if abs(x) < 1e-3 else fmt.num(x)


def sci_cells(matrix: np.ndarray) -> list[list[str]]:
    """Cell text for a difference grid, each cell as :func:`diff_text` prints it."""
    return [[diff_text(v) for v in row] for row in np.asarray(matrix, dtype=np.float64)]


def stage_heatmap(matrix: np.ndarray, labels: Sequence[str], *, focus: int | None = None) -> go.Figure:
    """One stage of a masking path; ``-inf`` cells read "−∞" and take no colour.

    Score stages are signed (diverging scale, white at 0); weight stages lie in [0, 1] and are
    drawn on the fixed 0–1 scale, so the two paths' weights compare cell for cell.
    """
    return figures.heatmap(matrix, labels, labels, focus=focus)


def difference_grid(
    diff: np.ndarray, labels: Sequence[str], *, title: str, height: int = 340, focus: int | None = None
) -> go.Figure:
    """Naive minus efficient weights on a diverging scale centred on zero (white = identical)."""
    return figures.heatmap(
        diff, labels, labels, title=title, diverging=True, text=sci_cells(diff), height=height, focus=focus
    )


def logit_text(v: float) -> str:
    """``2``, ``-0.5``, or ``∞`` / ``−∞`` for the infinities the box accepts."""
    if np.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{v:g}"


def softmax_bars(logits: np.ndarray, probs: np.ndarray) -> go.Figure:
    """The counterexample: each logit's softmax weight, the vector in the title when it is short.

    Past a dozen logits the bars lose their value labels (they would overlap) and the axis
    zooms to the tallest bar, so 64 near-uniform weights stay visible. ``probs`` must be finite:
    :func:`core.masking.softmax_extended` returns ``None`` rather than NaN weights.
    """
    if not np.isfinite(probs).all():
        raise ValueError("softmax weights must be finite to draw; NaN rows have no bars")
    long = len(probs) > 12
    labels = [f"x{i + 1}" if long else f"x{i + 1} = {logit_text(v)}" for i, v in enumerate(logits)]
    title = f"softmax → {fmt.vec(probs)}" if len(probs) <= 8 else f"softmax of {len(probs)} logits"
    y_range = (0.0, 1.15 * float(np.max(probs))) if long else (0.0, 1.0)
    return figures.bars(probs, labels, title=title, y_range=y_range, values_shown=not long)


LOGITS = "1.0, 2.0, 3.0, 0.0, 0.0"  # Giles Thomas's counterexample, as the post ships it


def parse_box(raw: str) -> np.ndarray:
    """The box's logits; on text that is not numbers, a warning and the last input that was.

    The warning quotes at most 60 characters of the last good input (the box holds up to
    ``masking.MAX_CHARS``), and the parser's own message at most 20 of the bad one.
    """
    try:
        logits = masking.parse_numbers(raw)
        st.session_state["logits_last_good"] = raw
        return logits
    except ValueError as err:
        last = st.session_state.get("logits_last_good", LOGITS)
        shown = last if len(last) <= 60 else last[:60] + "…"
        st.warning(f"{err}. Showing the last good input: {shown}")
        return masking.parse_numbers(last)


def stage_prose(final: np.ndarray, sealed: bool, largest: float) -> str:
    """The sentence under the stages, read off the efficient path's last stage as the controls set it.

    With the book's −∞ fill the first row collapses onto the first token; with a finite fill the
    future keeps weight, and the sentence says how much instead of quoting the book's rows. It
    names rows 2 and 3 only where the sentence has them.
    """
    w = np.asarray(final, dtype=np.float64)
    n = len(w)
    if sealed:
        later = [f"row {i + 1} is {fmt.vec(w[i, : i + 1])}" for i in range(1, min(3, n))]
        return (
            f"Row 1 collapses to {fmt.num(w[0, 0])} because the first token sees only itself"
            + (f"; {' and '.join(later)}" if later else "")
            + ". Half-way the paths disagree on everything, because the naive one masks weights and the "
            "efficient one masks scores."
        )
    if n == 1:
        return "With one token there is no future to mask: either fill gives the same single weight."
    future = masking.future_share(w)
    return (
        f"With the future filled by a finite score instead of −∞, nothing is masked: row 1 keeps only "
        f"{fmt.num(w[0, 0])} on the first token and hands {fmt.num(future[0])} to the {n - 1} "
        f"{'token' if n == 2 else 'tokens'} after it"
        + (f", and row 2 keeps {fmt.num(1 - future[1])} on the two tokens it may see" if n > 2 else "")
        + f". The naive path still masks properly, so the two now differ by up to {diff_text(largest)}."
    )


CHECKS_NOTE = (
    "Quoted: the post's figure 03 and what PyTorch prints for the book's section 3.5.1 and 3.5.3 "
    "code. Live: computed at the book's settings (sa_v2, seed 789; CausalAttention after "
    "torch.manual_seed(123)), whatever the controls say."
)
POST, PRINTED = checks.POST, checks.BOOK_CODE


def book_checks() -> list[checks.Check]:
    """Every number figure 03 and section 3.5 print, at the book's settings, beside the live one."""
    x = tokens.inputs()
    v2 = attention.self_attention(x, weights.section_3_5())
    n35 = masking.naive_path(v2.scores, v2.divisor)
    e35 = masking.efficient_path(v2.scores, v2.divisor)
    zero35 = masking.efficient_path(v2.scores, v2.divisor, 0.0)[-1].matrix
    ca = masking.causal_attention(x, weights.init_weights(123, "linear"))
    q, p = book.FIGURE_03, book.SECTION_3_5_1
    largest = float(np.max(np.abs(masking.difference(n35, e35))))
    rows = [
        checks.exact(
            "softmax([1, 2, 3, 0, 0])", q["softmax_counterexample"], attention.softmax([1, 2, 3, 0, 0]), POST
        ),
        checks.exact("Naive path masks: first weight", q["naive_first_entry"], n35[1].matrix[0, 0], POST),
        checks.exact(
            "Efficient path masks: first score", q["efficient_first_entry"], e35[0].matrix[0, 0], POST
        ),
        *(
            checks.exact(f"Masked weights, row {i + 1}", s, np.squeeze(e35[-1].matrix[i, : i + 1]), POST)
            for i, s in enumerate(q["masked_rows"])
        ),
        checks.within(
            "Largest naive − efficient (the post's 5.6e-17 is one machine's rounding)",
            f"below 1e-15 (post: {q['max_difference']})",
            largest,
            0,
            1e-15,
            fmt.sci(largest),
            source=checks.POST,
            note="float64 here; the post's figure is one machine's rounding of the same zero",
        ),
        checks.exact(
            "Zero fill: token 1 to the future", q["zero_fill_future"], masking.future_share(zero35)[0], POST
        ),
    ]
    for name, stage_matrix, what in (
        ("attn_weights", n35[1].matrix, "print(attn_weights)"),
        ("masked_simple", n35[2].matrix, "print(masked_simple)"),
        ("masked_scores", e35[1].matrix, "print(masked)"),
        ("masked_weights", e35[-1].matrix, "print(attn_weights), after the −∞ fill"),
        ("masked_weights", n35[-1].matrix, "print(masked_simple_norm)"),
        ("causal_attention_output", ca.context, "CausalAttention, seed 123: context_vecs[0]"),
    ):
        rows += [
            checks.exact(f"{what}, row {i + 1}", s, stage_matrix[i], PRINTED) for i, s in enumerate(p[name])
        ]
    return rows
