"""The Multi-head page's checks against the sources (issue 24): each row's verdict is the one its
quote allows, and a row computed here says how."""

from __future__ import annotations

import pytest

from topics.multihead import checks as mh_checks
from topics.multihead import view
from ui import checks


@pytest.fixture(scope="module")
def rows() -> dict[str, checks.Check]:
    return {r.label: r for r in mh_checks.book_checks(view.book_numbers())}


def test_a_row_computed_here_says_how(rows):
    here = [r for r in rows.values() if r.source == checks.HERE]
    assert here, "the GPT-3 head_dim row is computed here"
    for r in here:
        assert r.note.lower().startswith("computed here"), r
        assert "12,288 / 96" in r.note and "exact" in r.note, r.note


def test_a_rounded_quote_is_within_rounding_with_its_interval(rows):
    r = rows["…not √d_out"]  # the post's 27.7 for √768 = 27.7128…
    assert r.verdict is checks.Verdict.ROUNDING, r
    assert r.why == "27.65 to 27.75", r.why


def test_the_stale_solution_rows_are_within_rounding_not_exact(rows):
    """The solution prints 5 significant digits; the replay agrees to those digits, not to every bit."""
    stale = [r for label, r in rows.items() if label.startswith("Exercise 3.2, official solution")]
    assert len(stale) == 6
    assert all(r.verdict is checks.Verdict.ROUNDING and "significant" in r.why for r in stale), stale


def test_integers_and_shapes_are_exact(rows):
    for label in ("GPT-3 175B: heads per layer", "GPT-3 175B: head_dim", "GPT-2 small: head_dim"):
        assert rows[label].verdict is checks.Verdict.EXACT, rows[label]
    assert rows["GPT-2 small: MultiHeadAttention parameters"].verdict is checks.Verdict.EXACT
    assert all(r.ok for r in rows.values())
