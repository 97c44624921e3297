"""Every number the Dropout page shows, read from its view (``topics.dropout.view.build``).

The page draws exactly what ``build`` returns (``test_dropout_page.py`` holds the two together), so
these tests are tests of the page's numbers: the book's weights and printed run, the post's figure
04 (row 1 dead on half the draws, row 2 on a quarter, mean row sums 1 and 1 − p), the worked
factor, the focus row, the checks. Statistical readouts are held to ``sampling.sampling_band``
(4 standard errors of the exact per-draw standard deviation), never to a typed-in live value.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core import attention, book, tokens, weights
from core.sentence import weights_for
from tests.reproduce.case import reader_sentence
from topics.dropout import checks, sampling, view
from topics.dropout.view import Settings
from ui import format as fmt

N = len(tokens.TOKENS)


@pytest.fixture(scope="module")
def default() -> view.View:
    return view.build(Settings())


@pytest.fixture(scope="module")
def book_run() -> view.View:
    """The book's own draw: PyTorch's generator, seed 123, p = 0.5, scaling on."""
    return view.build(Settings(generator="torch", focus=1))


def _in_band(value: float, expectation: float, std: float, draws: int) -> bool:
    lo, hi = sampling.sampling_band(expectation, std, draws)
    return lo <= value <= hi


def _assert_statistics(v: view.View, p: float, scale: bool) -> None:
    """The mean row sum and every row's zero rate land within 4 standard errors of theory."""
    assert v.expectation == (1.0 if scale else 1.0 - p)
    assert v.std == sampling.mean_row_sum_std(v.weights, p, scale)
    assert _in_band(v.mean_row_sum, v.expectation, v.std, v.draws), (v.mean_row_sum, p, scale)
    np.testing.assert_allclose(v.zero_theory, p ** np.arange(1, len(v.labels) + 1), rtol=1e-15)
    sd = sampling.zero_row_std(p, len(v.labels))
    for i, (rate, theory) in enumerate(zip(v.zero_rate, v.zero_theory, strict=True)):
        assert _in_band(rate, theory, sd[i], v.draws), (i + 1, rate, theory)


def test_the_default_view_is_figure_04_on_the_books_draw(default):
    """The defaults are the book's: PyTorch's generator at seed 123 and p = 0.5 give section 3.5.2's
    printed tensor as the first draw (issue 21)."""
    assert default.book_sentence and default.book_draw and default.focus is None
    assert Settings().generator == view.DEFAULT_GENERATOR == "torch"
    assert [fmt.vec(row) for row in default.first] == list(book.FIGURE_04["book_dropped"])
    for row, quoted in zip(default.weights, book.FIGURE_04["book_attn_weights"], strict=True):
        assert fmt.vec(row) == quoted
    assert default.draws == 10_000
    _assert_statistics(default, 0.5, True)
    assert [fmt.percent(t, 2) for t in default.zero_theory[:2]] == ["50.00%", "25.00%"]
    assert (
        checks.worked_factor(default.keep, default.factor) == book.FIGURE_04["worked_factor"] == "1/0.5 = 2"
    )
    assert default.survivor_factor == 2.0


def test_the_first_draw_is_the_weights_kept_or_doubled(default):
    kept = default.first != 0
    np.testing.assert_array_equal(default.first, np.where(kept, 2.0 * default.weights, 0.0))
    np.testing.assert_array_equal(default.row_sums, default.first.sum(axis=1))
    assert default.dead_rows == tuple(i + 1 for i in range(N) if not kept[i].any())
    assert default.dead == len(default.dead_rows)


def test_pytorch_at_seed_123_draws_the_books_printed_tensor(book_run):
    assert book_run.book_draw
    for row, quoted in zip(book_run.first, book.FIGURE_04["book_dropped"], strict=True):
        assert fmt.vec(row) == quoted
    assert book_run.dead_rows == (2,)  # both of token 2's live weights were dropped
    assert fmt.num(book_run.row_sums[0]) == book.FIGURE_04["book_dropped"][0][1:7] == "2.0000"
    _assert_statistics(book_run, 0.5, True)


def test_the_focus_row_mixes_the_values_before_and_after_dropout(book_run):
    f = book_run.focus
    assert f is not None and f.row == 1
    np.testing.assert_array_equal(f.weights, book_run.first[1])
    values = attention.self_attention(tokens.inputs(), weights.section_3_5()).values
    np.testing.assert_allclose(f.before, book_run.weights[1] @ values, rtol=1e-12)
    assert np.all(f.after == 0.0)  # row 2 is dead in the book's draw: its context vector is zero


def test_the_checks_stay_at_the_books_settings_and_all_pass():
    for s in (Settings(), Settings(p=0.2, scale=False, draws=1_000), Settings(generator="numpy", seed=7)):
        v = view.build(s)
        rows = checks.book_checks(v.checks)
        assert len(rows) == 17 and all(c.ok for c in rows), [c.label for c in rows if not c.ok]
        for row, quoted in zip(v.checks.run, book.FIGURE_04["book_dropped"], strict=True):
            assert fmt.vec(row) == quoted
        assert v.checks.on.draws == v.checks.off.draws == view.CHECK_DRAWS
        # The post's row 1 ≈ 50% and row 2 ≈ 25% of 20,000 draws, within the sampling band.
        sd = sampling.zero_row_std(0.5, N)
        for i, theory in ((0, 0.5), (1, 0.25)):
            assert _in_band(v.checks.on.zero_rate[i], theory, sd[i], view.CHECK_DRAWS)
        on, off = v.checks.on, v.checks.off
        assert _in_band(on.mean_after(view.CHECK_MEAN_DRAWS), 1.0, on.std, view.CHECK_MEAN_DRAWS)
        assert _in_band(off.mean_after(view.CHECK_MEAN_DRAWS), 0.5, off.std, view.CHECK_MEAN_DRAWS)
        # The same masks: switching the factor off scales every sum by exactly 1 − p.
        np.testing.assert_allclose(off.running_mean, 0.5 * on.running_mean, rtol=1e-15)


@pytest.mark.parametrize(
    ("p", "scale", "generator", "seed", "draws"),
    [
        (0.5, False, "numpy", 123, 10_000),
        (0.2, True, "numpy", 123, 1_000),
        (0.2, False, "torch", 7, 1_000),
        (0.1, True, "torch", 3, 20_000),
        (0.75, True, "numpy", 4, 20_000),
    ],
)
def test_rate_scaling_generator_and_draws_move_the_statistics(p, scale, generator, seed, draws):
    v = view.build(Settings(p=p, scale=scale, generator=generator, seed=seed, draws=draws))
    assert v.draws == draws and v.running_at[-1] == draws
    _assert_statistics(v, p, scale)
    assert v.keep == 1 - p and v.factor == 1 / (1 - p)
    assert v.survivor_factor == (v.factor if scale else 1.0)


def test_the_worked_factor_follows_p():
    v = view.build(Settings(p=0.2, draws=1_000))
    assert checks.worked_factor(v.keep, v.factor) == "1/0.8 = 1.25"
    assert f"{v.keep:g}" == "0.8"


def test_the_ends_of_the_rate_slider():
    """p = 0 drops nothing: every row keeps its weights and sums to exactly 1. p = 0.9 at 100,000
    draws is the largest view: every number finite."""
    zero = view.build(Settings(p=0.0, draws=100_000))
    np.testing.assert_array_equal(zero.first, zero.weights)
    assert zero.dead == 0 and fmt.num(zero.mean_row_sum) == "1.0000" and zero.std == 0.0
    assert np.all(zero.zero_rate == 0.0) and zero.survivor_factor == 1.0
    high = view.build(Settings(p=0.9, draws=100_000))
    _assert_statistics(high, 0.9, True)
    for v in (zero, high):
        for name, value in vars(v).items():
            if isinstance(value, np.ndarray):
                assert np.all(np.isfinite(value)), name


def test_the_same_settings_give_the_same_view_and_another_seed_another():
    a, b, c = (view.build(Settings(seed=s, draws=1_000)) for s in (5, 5, 6))
    assert a.mean_row_sum == b.mean_row_sum and np.array_equal(a.first, b.first)
    assert a.mean_row_sum != c.mean_row_sum


def test_scaling_off_is_not_the_books_printed_draw():
    v = view.build(Settings(generator="torch", scale=False))
    assert not v.book_draw and v.survivor_factor == 1.0


def test_a_readers_sentence_gets_its_own_weights_and_fits_its_draws():
    labels, x, _ = reader_sentence()
    v = view.build(Settings(labels, x, draws=view.default_draws(len(labels))))
    assert not v.book_sentence and v.labels == labels and v.weights.shape == (9, 9)
    assert v.weight_set.w_query.shape == (16, 2)
    np.testing.assert_array_equal(v.weight_set.w_query, weights_for(weights.section_3_5(), 16).w_query)
    _assert_statistics(v, 0.5, True)
    # The checks still run on the book's sentence.
    assert all(c.ok for c in checks.book_checks(v.checks))


def test_resample_steps_the_seed_and_wraps():
    assert view.next_seed(123) == 124 and view.next_seed(view.SEED_MAX) == 0


def test_long_sentences_get_fewer_draws():
    assert view.draw_choices(6) == view.DRAWS and view.default_draws(6) == 10_000
    assert view.draw_choices(9)[-1] == 20_000
    assert view.draw_choices(32) == (1_000, 2_000) and view.default_draws(32) == 2_000
    assert all(d * 32 * 32 <= view.MAX_CELLS for d in view.draw_choices(32))


def test_the_running_mean_is_recorded_where_the_chart_and_the_checks_read_it(default):
    assert default.running_at[0] == 1 and default.running_at[-1] == default.draws
    assert len(default.running_at) <= view.MAX_POINTS + 2
    assert default.checks.on.mean_after(view.CHECK_MEAN_DRAWS) == pytest.approx(1.0, abs=0.05)


def test_the_page_and_the_tests_share_one_path():
    """``build`` runs the draws through ``run``: the page passes its cached ``monte_carlo``."""
    calls = []

    def spy(*args):
        calls.append(args[:5])
        return view.monte_carlo(*args)

    v = view.build(Settings(seed=9, draws=1_000), run=spy)
    assert calls == [
        (0.5, True, 9, 1_000, "torch"),
        (0.5, True, 9, 20_000, "torch"),
        (0.5, False, 9, 20_000, "torch"),
    ]
    plain = view.build(Settings(seed=9, draws=1_000))
    assert v.mean_row_sum == plain.mean_row_sum


def test_the_view_and_the_script_builder_import_neither_torch_nor_streamlit():
    """Torch is an optional oracle and Streamlit the page's: the view and the script need neither."""
    code = (
        "import sys, topics.dropout.view, topics.dropout.script; "
        "sys.exit(bool({'torch', 'streamlit', 'plotly'} & set(sys.modules)))"
    )
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0
