"""Masking the future's counterexample box: text parsed, never evaluated, and a softmax defined
for every row it lets through, beside what PyTorch gives."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import attention
from topics.masking import box, view


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.0, 2.0, 3.0, 0.0, 0.0", [1, 2, 3, 0, 0]),
        ("1 2 3", [1, 2, 3]),
        (" -0.5,\t+2e3 ,\n.25, 7. ", [-0.5, 2000, 0.25, 7]),
        ("42", [42]),
        ("1e308, -1e308", [1e308, -1e308]),
        (", ".join(["0"] * 64), [0] * 64),
    ],
)
def test_parse_numbers_reads_plain_numbers(text, expected):
    np.testing.assert_array_equal(box.parse_numbers(text), expected)


HOSTILE = [
    "",
    "   ,, ",
    "nan1",
    "infinite",
    "--inf",
    "1e999",
    "1, 2, three",
    "0x10",
    "1_000",
    "1/2",
    "__import__('os').system('echo hi')",
    "[1, 2, 3]",
    "🙂",
    "١٢",  # Arabic-Indic digits: float() would accept them, the box does not
    ", ".join(["1"] * 65),
    " ".join(["1.5"] * 10_000),
    "x" * 10_000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:20]))
def test_hostile_text_raises_value_error_with_a_message(text):
    with pytest.raises(ValueError, match=r"\w") as err:
        box.parse_numbers(text)
    assert len(str(err.value)) < 200  # short enough to show inline, whatever came in


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parse_numbers_on_any_text_returns_logits_whose_softmax_is_drawable_or_value_error(text):
    try:
        x = box.parse_numbers(text)
    except ValueError:
        return
    assert 1 <= x.size <= box.MAX_LOGITS
    sm = box.softmax_extended(x)
    if sm.weights is not None:
        assert np.isfinite(sm.weights).all() and sm.weights.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-inf, 1, 2", [-np.inf, 1, 2]),
        ("INF -Infinity +inf", [np.inf, -np.inf, np.inf]),
        ("−∞, ∞, +∞", [-np.inf, np.inf, np.inf]),  # the Unicode minus and the infinity sign
        ("−1.5 2", [-1.5, 2]),
        ("NaN, 0", [np.nan, 0]),
    ],
)
def test_parse_numbers_reads_infinities_and_nan_in_any_spelling(text, expected):
    np.testing.assert_array_equal(box.parse_numbers(text), expected)


def test_extended_softmax_defines_every_non_finite_case():
    inf = np.inf
    sm = box.softmax_extended(np.array([-inf, 1.0, 2.0]))  # −∞: exactly zero, the rest a softmax
    assert sm.weights is not None
    assert sm.weights[0] == 0.0 and sm.weights[1:] == pytest.approx(attention.softmax(np.array([1.0, 2.0])))
    assert "exactly 0" in sm.note and sm.torch == "the same weights"
    sm = box.softmax_extended(np.array([inf, 3.0, inf, -inf]))  # +∞ share the weight equally
    np.testing.assert_array_equal(sm.weights, [0.5, 0.0, 0.5, 0.0])
    assert "1/2 each" in sm.note and "NaN" in sm.torch
    for row in ([-inf, -inf], [np.nan, 1.0], [inf, np.nan]):  # no softmax at all
        sm = box.softmax_extended(np.array(row))
        assert sm.weights is None and sm.note and "NaN" in sm.torch
    assert "0/0" in box.softmax_extended(np.array([-inf])).torch
    assert box.softmax_extended(np.array([1.0, 2.0])).note == ""
    with pytest.raises(ValueError, match="one row"):
        box.softmax_extended(np.zeros((2, 2)))


@pytest.mark.parametrize(
    "row", [[-np.inf, 1.0, 2.0], [np.inf, 0.0], [np.inf, np.inf, 1.0], [-np.inf, -np.inf], [np.nan, 0.0]]
)
def test_extended_softmax_says_what_torch_gives(row):
    torch = pytest.importorskip("torch")
    theirs = torch.softmax(torch.tensor(row, dtype=torch.float64), dim=-1).numpy()
    sm = box.softmax_extended(np.array(row))
    if sm.torch == "the same weights":
        assert sm.weights is not None
        np.testing.assert_allclose(sm.weights, theirs, rtol=1e-15, atol=0)  # exact zeros stay exact
    else:
        assert sm.torch.startswith("NaN for every entry") and np.isnan(theirs).all()


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=64))
def test_parse_numbers_round_trips_every_finite_float(values):
    text = ", ".join(repr(v) for v in values)
    np.testing.assert_array_equal(box.parse_numbers(text), values)


def test_text_that_is_not_numbers_shows_the_last_good_input_and_says_so():
    logits, warning = view.read_box("0 0", view.LOGITS)
    np.testing.assert_array_equal(logits, [0, 0])
    assert warning == ""
    logits, warning = view.read_box("__import__('os')", "0 0")
    np.testing.assert_array_equal(logits, [0, 0])
    assert "is not a number" in warning and warning.endswith("Showing the last good input: 0 0")
    long_good = ", ".join(["1.5"] * 40)
    _, warning = view.read_box("1 2 " + "y" * 500, long_good)
    assert len(warning) < 200 and warning.endswith(long_good[:60] + "…")
