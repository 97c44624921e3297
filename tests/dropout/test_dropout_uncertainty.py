"""The rounding rule for a Monte Carlo figure (``topics.dropout.uncertainty``): one significant
digit of the standard error (two when it starts with 1), the value to the same place."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from topics.dropout.uncertainty import decimals, estimate, estimate_percent, exact_percent
from ui import format as fmt


@pytest.mark.parametrize(
    ("value", "se", "shown"),
    [
        (0.99834, 0.0026, "0.998 ± 0.003"),  # the post's mean row sum over 10,000 draws
        (0.49917, 0.0013, "0.4992 ± 0.0013"),  # a leading 1 keeps two digits
        (0.5, 0.00096, "0.5000 ± 0.0010"),  # 0.00096 rounds up to 0.001, which starts with 1
        (0.5, 0.0096, "0.500 ± 0.010"),  # 0.0096 rounds up to 0.010: it now starts with 1
        (1.0, 0.0, "1.0000 ± 0.0000"),  # p = 0: nothing random, the fallback's 4 decimals
        (12.34, 2.6, "12 ± 3"),
        (123.4, 14.0, "123 ± 14"),
        (-0.00001, 0.04, "0.00 ± 0.04"),  # never "-0.00"
    ],
)
def test_estimates_print_the_digits_their_error_supports(value, se, shown):
    assert estimate(value, se) == shown


def test_shares_print_as_percentages_with_their_error():
    assert estimate_percent(0.4972, math.sqrt(0.25 / 20_000)) == "49.7% ± 0.4%"
    assert estimate_percent(0.2496, math.sqrt(0.25 * 0.75 / 20_000)) == "25.0% ± 0.3%"
    assert estimate_percent(0.0, 0.0) == "0.0% ± 0.0%"
    assert estimate_percent(0.0, math.sqrt(1e-6 / 10_000)) == "0.0000% ± 0.0010%"


def test_an_exact_probability_never_reads_zero_unless_it_is():
    assert [exact_percent(0.5**i) for i in (1, 2, 3)] == ["50%", "25%", "12.5%"]
    assert exact_percent(0.05**6) == "1.56e-6%" and exact_percent(0.0) == "0%"
    assert exact_percent(0.35**6) == "0.184%"


def test_a_standard_error_must_be_finite():
    with pytest.raises(ValueError, match="finite"):
        decimals(math.inf)


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-9, 9.4), st.floats(-1e3, 1e3))  # errors below 10: shares and row sums
def test_the_printed_error_has_one_significant_digit_or_two_from_a_leading_one(se, value):
    # A value printed to the error's place within the digits float32 holds (README, "Precision").
    assume(len(f"{abs(value):.{decimals(se)}f}".replace(".", "").lstrip("0")) <= fmt.FLOAT32_DIGITS)
    text = estimate(value, se)
    shown_value, shown_se = text.split(" ± ")
    digits = shown_se.replace(".", "").lstrip("0")
    assert len(digits) in (1, 2) and (len(digits) == 1 or digits[0] == "1"), (se, text)
    assert abs(float(shown_se) - se) <= 0.5 * 10.0 ** -decimals(se) + 1e-12 * se  # rounded, not cut
    assert len(shown_value.partition(".")[2]) == len(shown_se.partition(".")[2])  # the same place
