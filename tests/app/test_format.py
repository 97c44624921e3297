"""The shared formatting helpers (``ui/format.py``): no negative zero, no "1 keys", ties read as ties.

Issue 38: Learning printed its one-token loss as "-0.0e+0"; chart names said "1 queries by 1 keys";
three pages said "gives most weight to go (0.3333)" of a row whose every weight was 1/3. Each is
fixed once, in the helper every page formats through, and held here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui import format as fmt

zeros = st.sampled_from([0.0, -0.0]) | st.floats(-1e-12, 1e-12, allow_nan=False)


@settings(max_examples=60)
@given(zeros, st.integers(0, 6))
def test_a_printed_zero_never_carries_a_minus(x, digits):
    """``num``, ``sci`` and ``percent`` print a zero, or a value that rounds to one, unsigned."""
    for text in (fmt.num(x, digits), fmt.percent(x, digits)):
        assert not text.startswith("-"), (x, text)
        assert float(text.rstrip("%")) == 0
    if x == 0:
        assert fmt.sci(x, digits) == fmt.sci(0.0, digits) and not fmt.sci(x, digits).startswith("-")


def test_a_minus_stays_on_what_is_not_zero():
    assert fmt.sci(-0.0) == "0.0e+0"
    assert fmt.sci(-4e-20) == "-4.0e-20"  # a tiny negative value is still negative
    assert fmt.num(-0.00004) == "0.0000" and fmt.num(-0.00005001) == "-0.0001"
    assert fmt.percent(-1e-9) == "0.0%" and fmt.percent(-0.5) == "-50.0%"
    assert fmt.unsigned_zero("-0.0e+0") == "0.0e+0" and fmt.unsigned_zero("-1.0e+0") == "-1.0e+0"
    assert fmt.num(float("-inf")) == "-inf" and fmt.sci(float("-inf")) == "-inf"  # a mask's fill


@pytest.mark.parametrize(
    ("n", "noun", "many", "text"),
    [
        (1, "key", None, "1 key"),
        (2, "key", None, "2 keys"),
        (0, "key", None, "0 keys"),
        (1, "query", None, "1 query"),
        (6, "query", None, "6 queries"),
        (1_024, "day", None, "1,024 days"),
        (1, "matrix", "matrices", "1 matrix"),
        (3, "matrix", "matrices", "3 matrices"),
        (2, "bias", None, "2 biases"),
    ],
)
def test_count_is_singular_for_one(n, noun, many, text):
    assert fmt.count(n, noun, many) == text


def test_a_size_names_one_of_each_in_the_singular():
    assert fmt.size(1, 1) == "1 query by 1 key"
    assert fmt.size(6, 6) == "6 queries by 6 keys"
    assert fmt.size(1, 2, "position", "output dimension") == "1 position by 2 output dimensions"


LABELS = ("go", "go²", "go³", "stop", "x")


def test_most_weight_reads_each_kind_of_row():
    third = np.array([1 / 3, 1 / 3, 1 / 3, 0.0, 0.0])
    assert fmt.most_weight(third, LABELS, "the masked A") == (
        "Its row of the masked A shares its most weight, 0.3333 each, between *go*, *go²* and *go³*."
    )
    assert (
        fmt.most_weight(np.full(5, 0.2), LABELS) == "Its row of A weighs all five keys alike (0.2000 each)."
    )
    assert (
        fmt.most_weight(np.array([0.5, 0.5]), LABELS) == "Its row of A weighs both keys alike (0.5000 each)."
    )
    assert (
        fmt.most_weight(np.array([0.1, 0.6, 0.3]), LABELS)
        == "Its row of A gives most weight to *go²* (0.6000)."
    )
    assert fmt.most_weight(np.zeros(3), LABELS, "this draw's A") == "Its row of this draw's A is all zeros."
    assert fmt.most_weight(np.array([1.0]), LABELS) == (
        "Its row of A is [1.0000]: its one key, *go*, takes all the weight."
    )


def test_ties_are_decided_at_the_printed_digits():
    """Two weights a hair apart print alike, so the sentence says they share the most weight: the
    reader checks it against cells that both read 0.4000."""
    w = np.array([0.4 + 1e-12, 0.4, 0.2 - 1e-12])
    assert list(fmt.leaders(w)) == [0, 1]
    assert "between *go* and *go²*" in fmt.most_weight(w, LABELS)
    assert list(fmt.leaders(np.array([0.40006, 0.40004, 0.2]))) == [0]  # 0.4001 against 0.4000


def test_a_label_is_text_not_markdown():
    assert (
        fmt.most_weight(np.array([0.9, 0.1]), ("*a*", "b"))
        == "Its row of A gives most weight to *\\*a\\** (0.9000)."
    )
