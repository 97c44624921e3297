"""Issue 24, item 3: the two masking paths' difference is float64 rounding noise, so the page states a
bound on it (``core.rounding.bound``) and never prints NumPy's digits (1.1e-16) as if they were the
value: PyTorch's float64 gives 5.55e-17 for the same two paths, the post 5.6e-17."""

import numpy as np

from core import book, weights
from core import sentence as core_sentence
from topics.masking import checks, view
from topics.masking.view import Settings, build
from ui import checks as checks_ui
from ui import format as fmt

DEFAULT = build(Settings())
TORCH_FLOAT64 = 5.551115123125783e-17  # (masked_simple_norm - masked_weights).abs().max(), torch 2.13


def _shown(v: view.View) -> str:
    """Every text the page shows about the two paths' difference."""
    return " ".join((v.lead, v.largest_text, v.prose, v.cancel_note))


def test_the_readout_states_a_bound_not_numpys_digits():
    v = DEFAULT
    assert v.largest_text == fmt.noise(v.largest, v.limit)
    assert v.largest_text.startswith("below ") and v.largest_text.endswith("(float64 rounding)")
    assert fmt.sci(v.largest) not in _shown(v)  # NumPy's 1.1e-16, a digit no other machine prints
    # The bound holds for every order: NumPy's, PyTorch's and the post's machine's.
    assert max(v.largest, TORCH_FLOAT64, float(book.FIGURE_03["max_difference"])) <= v.limit < 1e-14


def test_the_prose_says_the_paths_end_equal_to_rounding_with_the_bound():
    bound = DEFAULT.largest_text.removesuffix(" (float64 rounding)")  # "below 4e-15"
    assert bound in DEFAULT.prose and "rounding" in DEFAULT.prose
    assert f"differ by less than {bound.removeprefix('below ')} on this sentence" in DEFAULT.cancel_note


def test_the_checks_row_quotes_the_post_and_says_why_it_agrees():
    (row,) = [c for c in checks.book_checks(DEFAULT.book) if "naive − efficient" in c.label]
    assert row.quoted == book.FIGURE_03["max_difference"] == "5.6e-17"
    assert row.live == DEFAULT.largest_text  # the default view is the book's: the same bound
    assert row.verdict is checks_ui.Verdict.ROUNDING
    assert "below" in row.why and "one machine" not in row.label + row.note
    assert "order" in row.note  # the reason: a different summation order, not a different value


def test_the_zero_fill_leak_is_a_value_and_a_noise_level_leak_is_a_bound():
    leak = build(Settings(fill="zero"))
    assert leak.largest > leak.limit and leak.largest_text == fmt.num(leak.largest)
    one = core_sentence.build("word", 3)
    alone = build(Settings(labels=one.labels, x=one.embeddings, fill="zero"))
    assert alone.largest == 0 and alone.largest_text == "0 (exactly)"


def test_the_naive_paths_0_by_0_rows_stay_0_by_0_and_the_rest_keeps_its_bound():
    payload = "a-999b999c999d-999e999f999h-999i999_a999b999c999d999e-999f999g999h999j999"
    s = core_sentence.build("a b", 10, payload)
    v = build(Settings(labels=s.labels, x=s.embeddings, weights=weights.section_3_4()))
    assert v.largest_text == "0/0" and "divides 0 by 0 in row 1:" in v.undefined
    assert np.isnan(v.difference[0]).all() and "row 1" in v.prose and "0 by 0" in v.cancel_note


def _wide(*rows: float) -> np.ndarray:
    """Embeddings 16 wide, each token's every dimension one value the editor accepts."""
    return np.array([[r] * 16 for r in rows], dtype=np.float32).astype(np.float64)


def test_subnormal_visible_weights_are_said_apart_and_never_called_rounding():
    # Row 2's later token beats its visible ones by ~720 after the divisor: the full-row softmax
    # leaves both visible weights subnormal, and the renormalised naive row is off by 2.2e-10.
    v = build(Settings(labels=("a", "b", "c"), x=_wide(0.6, 0.88, 9.99), weights=weights.section_3_4()))
    assert list(v.lossy) == list(v.broken) == [1] and not len(v.undefined_rows)
    assert v.largest > v.limit and v.largest_text == fmt.sci(v.largest) and "rounding" not in v.largest_text
    assert (
        "outside row 2: in row 2" in v.prose and "fewer digits" in v.prose and "fewer digits" in v.cancel_note
    )
    assert v.lead.endswith("float64 breaks the naive one in row 2.")


def test_a_lone_visible_weight_that_is_subnormal_still_renormalises_to_exactly_1():
    # Row 1 sees only itself: w / w is 1 even for a subnormal w, so nothing is broken.
    v = build(Settings(labels=("a", "b"), x=_wide(0.87, 9.99), weights=weights.section_3_4()))
    assert list(v.lossy) == [0] and not len(v.broken) and v.largest_text == "0 (exactly)"
    assert "breaks" not in v.lead and "agree exactly" in v.prose
