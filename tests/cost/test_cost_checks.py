"""The cost page's checks against the sources (issue 24): each row's verdict is the one its quote
allows, a rounded quote names the interval its rounding allows, and a row computed here says how."""

from __future__ import annotations

from pathlib import Path

import pytest

from topics.cost import checks, view
from ui import checks as ui_checks

V = ui_checks.Verdict
TOPIC = Path(checks.__file__).parent


@pytest.fixture(scope="module")
def rows() -> dict[str, ui_checks.Check]:
    return {r.label: r for r in checks.rows(view.build(view.Settings()).checks)}


@pytest.mark.parametrize(
    ("label", "why"),
    [
        ("…in TiB", "1.5 to 2.5"),
        ("H100 cards (80 GiB), ratio", "25.545 to 25.555"),
        ("Time per token, the post's model t₀(n/1,024)²", "104,657.5 to 104,658.5"),
        ("…in hours", "29.065 to 29.075"),
        ("Giles Thomas's time (length ratio rounded to 1,000)", "27.5 to 28.5"),
        ("One head's multiply-adds, 1,024 → 1,047,576 tokens (768, 64)", "493,047.5 to 493,048.5"),
    ],
)
def test_a_rounded_quote_is_within_rounding_with_the_interval_its_rounding_allows(rows, label, why):
    assert rows[label].verdict is V.ROUNDING, rows[label]
    assert rows[label].why == why


@pytest.mark.parametrize(
    "label",
    [
        "One head at 1,024 tokens",
        "One head at 1,047,576 tokens",
        "H100 cards to buy",
        "Giles Thomas's count (the ratio rounded down)",
        "Quadratic part wins from n = (d_in 768)",
    ],
)
def test_an_integer_is_exact(rows, label):
    assert rows[label].verdict is V.EXACT, rows[label]


def test_a_row_computed_here_says_how(rows):
    here = [r for r in rows.values() if r.source == ui_checks.HERE]
    assert len(here) == 2
    for r in here:
        assert r.note.startswith("Computed here") and "exact integer" in r.note, r.note


def test_no_audit_anywhere_in_the_topic():
    """A reader never met "the audit": not in a note, a caption, a docstring or a comment."""
    said = [
        (p.name, i + 1)
        for p in sorted(TOPIC.glob("*.py"))
        for i, line in enumerate(p.read_text().splitlines())
        if "audit" in line.lower()
    ]
    assert not said, said
    assert "audit" not in checks.NOTE.lower()
