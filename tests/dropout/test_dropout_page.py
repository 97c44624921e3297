"""The Dropout page (figure 04): default numbers, every control, the resample button, hostile URLs.

Statistical readouts are checked against ``topics.dropout.sampling.sampling_band`` (4 standard errors of
the exact per-draw standard deviation), never against a typed-in live value.
"""

import numpy as np
import pytest

from core import book, masking, tokens, weights
from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics.dropout import sampling

PAGE = "topics/dropout/page.py"
W = masking.causal_weights(tokens.inputs(), weights.section_3_5())
MEAN = "Mean row sum over {:,} draws"


@pytest.fixture(scope="module")
def default():
    return open_page(PAGE)


def _zero_rates(at) -> np.ndarray:
    col = at.dataframe[0].value["zero vector, measured"]
    return np.array([float(v.rstrip("%")) / 100 for v in col])


def _checks(at):
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    return exp


def _assert_mean_row_sum(at, p: float, scale: bool, draws: int) -> None:
    value = float(metrics(at)[MEAN.format(draws)])
    std = sampling.mean_row_sum_std(W, p, scale)
    lo, hi = sampling.sampling_band(sampling.mean_row_sum_expectation(p, scale), std, draws)
    assert lo - 5e-5 <= value <= hi + 5e-5, (value, lo, hi)  # 5e-5: the readout's rounding


def test_default_view_shows_figure_04(default):
    at = default
    assert_clean(at)
    assert at.title[0].value.startswith("Dropout")
    assert "section 3.5 (sa_v2, seed 789)" in " ".join(c.value for c in at.caption)
    m = metrics(at)
    assert m["Expected mean row sum"] == "1.0000"  # SPEC: ≈1.0 with scaling
    _assert_mean_row_sum(at, 0.5, True, 10_000)
    rates, sd = _zero_rates(at), sampling.zero_row_std(0.5, 6)
    for i, theory in ((0, 0.5), (1, 0.25)):  # SPEC: row 1 ≈50%, row 2 ≈25%
        lo, hi = sampling.sampling_band(theory, sd[i], 10_000)
        assert lo - 5e-4 <= rates[i] <= hi + 5e-4
    assert list(at.dataframe[0].value["theory pᶦ"].iloc[:2]) == ["50.00%", "25.00%"]
    assert len(at.get("plotly_chart")) == 4
    assert at.latex and "Bernoulli" in at.latex[0].value
    assert book.FIGURE_04["gpt_rates"] in " ".join(md.value for md in at.markdown)


def test_checks_show_the_books_printed_run(default):
    exp = _checks(default)
    assert "17 of 17 match" in exp.label
    table = " ".join(md.value for md in exp.markdown)
    for quoted in book.FIGURE_04["book_dropped"]:
        assert f"`{quoted}` | `{quoted}` | ✅" in table
    for key in ("row1_zero_rate", "row2_zero_rate", "mean_row_sum_scaled", "mean_row_sum_unscaled"):
        assert f"`{book.FIGURE_04[key]}`" in table
    assert "❌" not in table


def test_scaling_off_settles_at_one_minus_p():
    at = open_page(PAGE)
    widget(at, "scaling").set_value(False).run()
    assert_clean(at)
    assert metrics(at)["Expected mean row sum"] == "0.5000"  # SPEC: ≈0.5 without scaling
    _assert_mean_row_sum(at, 0.5, False, 10_000)
    assert "17 of 17 match" in _checks(at).label  # the checks stay at the book's settings


def test_rate_and_draws_move_the_readouts():
    at = open_page(PAGE)
    widget(at, "p").set_value(0.2).run()
    widget(at, "drop_draws").set_value(1_000).run()
    assert_clean(at)
    _assert_mean_row_sum(at, 0.2, True, 1_000)
    rate = _zero_rates(at)[0]
    lo, hi = sampling.sampling_band(0.2, sampling.zero_row_std(0.2, 6)[0], 1_000)
    assert lo - 5e-4 <= rate <= hi + 5e-4
    assert at.dataframe[0].value["theory pᶦ"].iloc[0] == "20.00%"


def test_pytorch_generator_at_seed_123_draws_the_books_matrix():
    at = open_page(PAGE)
    widget(at, "generator").set_value("torch").run()
    assert_clean(at)
    m = metrics(at)
    # The book's printout: row 1 keeps its one weight (2.0000), row 2 is the only zero row.
    assert m["Row 1 sum in this draw"] == book.FIGURE_04["book_dropped"][0][1:7]
    assert m["Zero rows in this draw"] == "1 of 6"
    _assert_mean_row_sum(at, 0.5, True, 10_000)


def test_seed_control_and_resample_button_draw_again(default):
    before = metrics(default)
    at = open_page(PAGE)
    at.button(key="resample").click().run()
    assert_clean(at)
    assert widget(at, "drop_seed").value == 124
    assert at.query_params["drop_seed"] == ["124"] or at.query_params["drop_seed"] == "124"
    assert metrics(at)[MEAN.format(10_000)] != before[MEAN.format(10_000)]
    at.button(key="resample").click().run()
    assert widget(at, "drop_seed").value == 125
    # The same seed typed in gives the same view: the URL reproduces a resampled page.
    typed = open_page(PAGE, {"drop_seed": "125"})
    assert metrics(typed) == metrics(at)


def test_resample_wraps_at_the_largest_seed():
    at = open_page(PAGE, {"drop_seed": str(2**31 - 1)})
    assert widget(at, "drop_seed").value == 2**31 - 1
    at.button(key="resample").click().run()
    assert_clean(at)
    assert widget(at, "drop_seed").value == 0


@pytest.mark.parametrize("junk", ["inf", "-inf", "1e999"])
def test_a_seed_the_integer_input_cannot_hold_shows_123_and_resample_still_works(junk):
    at = open_page(PAGE, {"drop_seed": junk})
    assert_clean(at)
    assert widget(at, "drop_seed").value == 123
    at.button(key="resample").click().run()
    assert_clean(at)
    assert widget(at, "drop_seed").value == 124


def test_a_url_with_every_bound_key_renders_that_view():
    query = {"p": "0.2", "scaling": "false", "generator": "PyTorch", "drop_seed": "7", "drop_draws": "1000"}
    at = open_page(PAGE, query)
    assert_clean(at)
    assert [widget(at, k).value for k in ("p", "scaling", "generator", "drop_seed", "drop_draws")] == [
        0.2,
        False,
        "torch",
        7,
        1_000,
    ]
    assert metrics(at)["Expected mean row sum"] == "0.8000"
    _assert_mean_row_sum(at, 0.2, False, 1_000)


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 400, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_hostile_urls_render_the_default_view(default, junk):
    keys = ("p", "scaling", "generator", "drop_seed", "drop_draws", "resample")
    at = open_page(PAGE, {k: junk for k in keys})
    assert_clean(at)
    assert metrics(at) == metrics(default)
    assert "17 of 17 match" in _checks(at).label


@pytest.mark.parametrize("p", [0.0, 0.9])
def test_the_ends_of_the_rate_slider_render_finite_figures(p):
    at = open_page(PAGE, {"p": str(p), "drop_draws": "100000"})
    assert_clean(at)
    _assert_mean_row_sum(at, p, True, 100_000)
    if p == 0.0:  # nothing is dropped: every row keeps its weights and sums to exactly 1
        assert metrics(at)["Zero rows in this draw"] == "0 of 6"
        assert metrics(at)[MEAN.format(100_000)] == "1.0000"
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        assert "NaN" not in spec and "Infinity" not in spec


# --- issue #13, item 10: the post's worked factor 1/0.5 = 2, computed from p -------------------------


def test_the_worked_factor_is_the_posts_at_the_books_rate_and_follows_p(default):
    assert metrics(default)["Survivors multiplied by"] == "1/0.5 = 2"
    assert "$1/(1 - p) = 1/0.5 = 2$" in " ".join(md.value for md in default.markdown)
    rows = " ".join(md.value for md in _checks(default).markdown)
    assert "| the post | `1/0.5 = 2` | `1/0.5 = 2` | ✅" in rows
    at = open_page(PAGE)
    widget(at, "p").set_value(0.2).run()
    assert metrics(at)["Survivors multiplied by"] == "1/0.8 = 1.25"
    text = " ".join(md.value for md in at.markdown)
    assert "At $p = 0.2$" in text and "$1/(1 - p) = 1/0.8 = 1.25$" in text and "$1 - p = 0.8$" in text
    widget(at, "scaling").set_value(False).run()
    assert metrics(at)["Survivors multiplied by"] == "1"


def test_every_dropout_check_names_its_source(default):
    rows = " ".join(md.value for md in _checks(default).markdown)
    assert rows.count("| the book's printed output |") == 12  # six weight rows, six dropped rows
    assert rows.count("| the post |") == 5  # the factor, two zero-row rates, two mean sums
