"""The cell panel's text (ui/cell_text.py): the book's numbers, a masked cell, a long row, any token."""

from __future__ import annotations

import numpy as np

from core import attention, cell, tokens, weights
from ui import cell_text

JOURNEY, STARTS = 1, 2


def book_panel() -> cell_text.Panel:
    trace = attention.self_attention(tokens.inputs(), weights.section_3_4())
    c = cell.cell(trace.queries, trace.keys, trace.values, JOURNEY, STARTS, trace.divisor)
    return cell_text.panel(c, tokens.TOKENS, tokens.TOKENS, divisor_name="√d_k = √2")


def test_journey_to_starts_reads_as_the_issue_expects():
    p = book_panel()
    assert p.heading == "journey → starts"
    assert [r[-1] for r in p.products.rows] == ["0.1878", "1.6233"]
    assert p.score == "ω = 0.1878 + 1.6233 = **1.8111**"
    assert p.weight == (
        "Divided by √d_k = √2 = 1.4142: ≈ 1.2806",
        "exp(1.2806) = 3.5990",
        "The row's denominator, Σ exp over its keys: 16.37",
        "a_journey,starts = 3.5990 / 16.37 = **0.2199**",
    )
    assert p.context == "z_journey = **[0.3061, 0.8210]**"
    assert [r[0] for r in p.terms.rows] == ["Your", "journey", "▸ starts", "with", "one", "step"]


def test_a_masked_cell_says_minus_infinity_then_exactly_zero():
    x = tokens.inputs()
    c = cell.cell(x, x, x, 0, 3, causal=True)
    p = cell_text.panel(c, tokens.TOKENS, tokens.TOKENS, divisor_name="")
    (line,) = p.weight
    assert "−∞" in line and "exactly **0**" in line


def test_a_long_row_lists_its_largest_weights_and_the_chosen_key():
    rng = np.random.default_rng(0)
    n = 20
    q, k, v = rng.normal(size=(n, 3)), rng.normal(size=(n, 3)), rng.normal(size=(n, 2))
    labels = [f"t{i}" for i in range(n)]
    c = cell.cell(q, k, v, 4, 17, np.sqrt(3))
    p = cell_text.panel(c, labels, labels)
    shown = [r[0].removeprefix("▸ ") for r in p.terms.rows]
    assert len(shown) == cell_text.SHOWN_KEYS and "t17" in shown
    assert "the other 12 carry" in p.context_intro


def test_a_wide_score_lists_its_largest_products_and_sums_the_rest():
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(2, 64)), rng.normal(size=(2, 64))
    c = cell.cell(q, k, q, 0, 1, 8.0)
    p = cell_text.panel(c, ["a", "b"], ["a", "b"])
    assert len(p.products.rows) == cell_text.SHOWN_DIMS // 2
    assert "the 56 other products sum to" in p.score


def test_a_readers_token_is_escaped_everywhere_it_appears():
    x = np.eye(3)
    hostile = ["<b>x</b>", "*y*", "a|b"]
    p = cell_text.panel(cell.cell(x, x, x, 0, 2), hostile, hostile, divisor_name="")
    text = " ".join([p.heading, p.score_intro, *p.weight, p.context, *(c for r in p.terms.rows for c in r)])
    assert "<b>" not in text and "*y*" not in text and "a|b" not in text
    assert "\\<b\\>x" in text and "a\\|b" in text


def test_the_chosen_key_defaults_to_the_querys_largest_weight():
    assert cell_text.chosen_key(None, np.array([0.1, 0.7, 0.2])) == 1
    assert cell_text.chosen_key(2, np.array([0.1, 0.7, 0.2])) == 2
    assert cell_text.chosen_key(9, np.array([0.1, 0.7, 0.2])) == 1
