"""The book's two multi-head classes (figure 05): book numbers, properties, counts, the stopwatch.

The PyTorch oracle tests live in ``test_multihead_oracle.py``; everything here runs on NumPy.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import book, mha_speed
from core import multihead as mh
from core.config import BOOK_TOY, GPT2_SMALL, AttentionConfig

TOY, EX_3_2 = AttentionConfig(), AttentionConfig(d_out=1)


def _rows(out: np.ndarray) -> tuple[str, ...]:
    return tuple("[" + ", ".join(f"{v:.4f}".replace("-0.0000", "0.0000") for v in r) + "]" for r in out[0])


@pytest.mark.parametrize("arith", [mh.FLOAT64, mh.FLOAT32_TORCH], ids=["float64", "float32"])
def test_both_classes_print_what_the_book_prints(arith):
    x = mh.example_batch(3)
    ca = mh.causal_attention(x, mh.init_causal_attention(TOY, 123), TOY, arith)[0]
    wrapper = mh.forward(x, mh.init_wrapper(TOY, 123), arith).output
    ex = mh.forward(x, mh.init_wrapper(EX_3_2, 123), arith).output
    split = mh.forward(x, mh.init_split(TOY, 123), arith).output
    q = book.FIGURE_05
    assert _rows(ca) == q["causal_attention"]
    assert _rows(wrapper) == q["wrapper"]
    assert _rows(ex) == q["exercise_3_2"]
    assert _rows(split) == q["split"]
    assert str(list(wrapper.shape)) == q["wrapper_shape"] == "[2, 6, 4]"
    assert str(list(split.shape)) == q["split_shape"] == "[2, 6, 2]"
    assert str(list(ex.shape)) == q["exercise_3_2_shape"]
    # Both batch items are the same sequence, so they print the same.
    np.testing.assert_array_equal(split[0], split[1])


def test_the_wrappers_first_head_is_the_books_causal_attention():
    # Head 1 draws first from the seed-123 stream, exactly as CausalAttention alone does.
    x = mh.example_batch(3)
    ca = mh.causal_attention(x, mh.init_causal_attention(TOY, 123), TOY)[0]
    np.testing.assert_array_equal(mh.forward(x, mh.init_wrapper(TOY, 123)).output[..., :2], ca)


def test_gpt2_preset_numbers():
    assert GPT2_SMALL.head_dim == int(book.FIGURE_05["gpt2_head_dim"]) == 64
    assert f"{GPT2_SMALL.head_dim**0.5:g}" == book.FIGURE_05["gpt2_divisor"] == "8"
    assert f"{GPT2_SMALL.d_out**0.5:.1f}" == book.FIGURE_05["gpt2_divisor_not"] == "27.7"
    c = mh.counts("split", GPT2_SMALL)
    assert f"{c.total_params:,}" == book.FIGURE_05["gpt2_attention_params"] == "2,360,064"
    assert (c.projection_params, c.out_proj_params) == (3 * 768 * 768, 768 * 768 + 768)
    assert mh.parameter_count(mh.init_split(GPT2_SMALL, 123)) == 2_360_064


def test_gpt2_forward_divides_by_eight_and_traces_the_head_split():
    r = mh.forward(mh.example_batch(768), mh.init_split(GPT2_SMALL, 123))
    assert r.divisor == 8.0
    shapes = {s.code: s.shape for s in r.steps}
    assert shapes["keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)"] == (2, 6, 12, 64)
    assert shapes["keys = keys.transpose(1, 2)"] == (2, 12, 6, 64)
    assert shapes["attn_scores = queries @ keys.transpose(2, 3)"] == (2, 12, 6, 6)
    assert shapes["context_vec = self.out_proj(context_vec)"] == (2, 6, 768)
    assert r.weights.shape == (2, 12, 6, 6)
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0, rtol=1e-12)


def test_the_split_trace_runs_the_books_lines_in_order_and_flags_the_transposes():
    r = mh.forward(mh.example_batch(3), mh.init_split(TOY, 123))
    assert [s.shape for s in r.steps] == [
        (2, 6, 3),
        (2, 6, 2),
        (2, 6, 2),
        (2, 6, 2),
        (2, 6, 2, 1),
        (2, 2, 6, 1),
        (2, 2, 6, 6),
        (2, 2, 6, 6),
        (2, 2, 6, 6),
        (2, 6, 2, 1),
        (2, 6, 2),
        (2, 6, 2),
    ]
    not_contiguous = [s.code for s in r.steps if not s.contiguous]
    assert not_contiguous == [
        "keys = keys.transpose(1, 2)",
        "context_vec = (attn_weights @ values).transpose(1, 2)",
    ]
    assert r.divisor == 1.0  # head_dim 1: the toy setting's degenerate divisor


def test_the_wrapper_trace_repeats_the_head_body_once_per_head():
    cfg = AttentionConfig(d_out=3, num_heads=4)
    r = mh.forward(mh.example_batch(3), mh.init_wrapper(cfg, 7))
    per_head = [s for s in r.steps if s.head is not None]
    assert len(per_head) == 4 * 7
    assert sorted({s.head for s in per_head}) == [0, 1, 2, 3]
    assert r.steps[-1].shape == (2, 6, 12) and r.steps[-1].head is None
    assert r.divisor == pytest.approx(3**0.5)


configs = st.builds(
    lambda d_in, h, hd, bias: AttentionConfig(d_in, h * hd, h, 8, bias),
    st.integers(1, 9),
    st.integers(1, 5),
    st.integers(1, 5),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 2**31 - 1), st.integers(1, 3), st.integers(1, 8))
def test_split_equals_a_per_head_loop_over_the_same_weights(cfg, seed, b, n):
    params = mh.init_split(cfg, seed)
    x = np.random.default_rng(seed).standard_normal((b, n, cfg.d_in))
    split = mh.forward(x, params).output
    np.testing.assert_allclose(split, mh.per_head_loop(x, params), rtol=1e-12, atol=1e-13)


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 1000))
def test_counts_match_the_arrays_and_match_at_equal_width(cfg, seed):
    for kind in mh.KINDS:
        params = mh.init_params(kind, cfg, seed)
        assert mh.counts(kind, cfg).total_params == mh.parameter_count(params)
    split, wrapper = mh.counts("split", cfg), mh.counts("wrapper", mh.matched_wrapper(cfg))
    assert wrapper.projection_params == split.projection_params
    assert wrapper.output_width == split.output_width == cfg.d_out
    assert (wrapper.projection_matmuls, split.projection_matmuls) == (3 * cfg.num_heads, 3)
    assert wrapper.out_proj_params == 0


def test_query_matrix_puts_each_heads_columns_side_by_side():
    cfg = AttentionConfig(d_in=5, d_out=6, num_heads=3)
    split = mh.init_split(cfg, 1)
    w, width = mh.query_matrix(split)
    assert (w.shape, width) == ((5, 6), 2)
    x = mh.example_batch(5).astype(np.float64)
    q = x @ w
    # Columns 2..3 of X W_q are head 2's queries: the slice the view hands to head 2.
    np.testing.assert_array_equal(q.reshape(2, 6, 3, 2)[:, :, 1, :], q[..., 2:4])
    wrapper = mh.init_wrapper(AttentionConfig(d_in=5, d_out=2, num_heads=3), 1)
    w, width = mh.query_matrix(wrapper)
    assert (w.shape, width) == ((5, 6), 2)
    np.testing.assert_array_equal(w[:, 2:4], wrapper.heads[1].query.weight.T)


@pytest.mark.parametrize(("d_out", "heads"), [(1, 2), (3, 2), (768, 7), (10, 4)])
def test_a_width_the_split_class_cannot_cut_is_an_actionable_value_error(d_out, heads):
    cfg = AttentionConfig(d_out=d_out, num_heads=heads)
    assert not cfg.divisible
    for call in (lambda: cfg.head_dim, lambda: mh.init_split(cfg, 0), lambda: mh.counts("split", cfg)):
        with pytest.raises(ValueError, match=f"d_out = {d_out} is not divisible by num_heads = {heads}"):
            call()
    with pytest.raises(ValueError, match=r"multiple of \d+ \(e\.g\. \d+"):
        _ = cfg.head_dim
    # The wrapper has no such constraint: d_out is per head.
    assert mh.counts("wrapper", cfg).output_width == d_out * heads


@pytest.mark.parametrize(
    "kwargs",
    [{"d_in": 0}, {"d_out": -1}, {"num_heads": 0}, {"context_length": 0}, {"dropout": 1.0}, {"d_in": 2.5}],
)
def test_config_rejects_bad_values(kwargs):
    with pytest.raises(ValueError):
        AttentionConfig(**kwargs)


def test_config_is_frozen_and_book_toy_is_the_default():
    assert AttentionConfig(3, 2, 2, 6, False, 0.0) == BOOK_TOY
    with pytest.raises(dataclasses.FrozenInstanceError):
        BOOK_TOY.d_out = 4  # type: ignore[misc]


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="do not fit context_length"):
        mh.causal_mask(4, 6)
    with pytest.raises(ValueError, match="d_in = 3"):
        mh.forward(np.zeros((2, 6, 4)), mh.init_split(TOY, 0))
    with pytest.raises(ValueError, match="kind must be"):
        mh.init_params("both", TOY, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a TorchGenerator"):
        mh.forward(mh.example_batch(3), mh.init_split(dataclasses.replace(TOY, dropout=0.5), 0))


def test_stand_in_inputs_are_fixed_whatever_the_weight_seed():
    a, b = mh.example_batch(16), mh.example_batch(16)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (2, 6, 16) and a.dtype == np.float32
    np.testing.assert_array_equal(a[0], a[1])
    np.testing.assert_array_equal(mh.example_batch(3)[0], np.float32(book_inputs()))


def book_inputs():
    from core import tokens

    return tokens.inputs(np.float32)


# --- the stopwatch: it must time the right arithmetic ---------------------------------------


@pytest.mark.parametrize("mode", mha_speed.MODES)
@pytest.mark.parametrize("heads", [1, 2, 4])
def test_the_two_timed_functions_compute_the_same_thing(mode, heads):
    case = mha_speed.Case(batch=2, n=9, d=16, heads=heads)
    inp = mha_speed.make_inputs(case, np.random.default_rng(0))
    w, s = mha_speed.wrapper_numpy(inp, mode), mha_speed.split_numpy(inp, heads, mode)
    assert w.shape == s.shape == (2, 9, 16)
    assert s.flags.c_contiguous
    np.testing.assert_allclose(w, s, rtol=1e-5, atol=1e-6)  # float32, different summation blocks


def test_the_timed_split_is_the_books_split_class_without_out_proj():
    cfg = AttentionConfig(d_in=8, d_out=8, num_heads=4, context_length=6)
    params = mh.init_split(cfg, 3)
    x = mh.example_batch(8)
    ref = mh.forward(x, params).heads_output  # [2, 6, 8], before out_proj
    case = mha_speed.Case(batch=2, n=6, d=8, heads=4)
    inp = mha_speed.make_inputs(case, np.random.default_rng(0))
    w = tuple(lin.weight.T.copy() for lin in (params.qkv.query, params.qkv.key, params.qkv.value))
    inp = dataclasses.replace(inp, x=x, w=w)
    np.testing.assert_allclose(mha_speed.split_numpy(inp, 4), ref, rtol=1e-5, atol=1e-6)


def test_measure_skips_what_would_not_fit_and_reports_progress():
    cases = [mha_speed.Case(1, 8, 8, 2), mha_speed.Case(1, 64, 8, 2)]
    seen = []
    out = mha_speed.measure(
        cases, "forward", repeat=1, max_score_bytes=4 * 2 * 8 * 8, progress=lambda i, n: seen.append((i, n))
    )
    assert seen == [(1, 2), (2, 2)]
    assert out[0].speedup is not None and out[0].speedup > 0
    assert out[1].wrapper_s is None and out[1].speedup is None
    # The projections-only mode has no n² tensor, so nothing is skipped.
    out = mha_speed.measure(cases, "projections", repeat=1, max_score_bytes=1)
    assert all(t.speedup is not None for t in out)


def test_paired_times_alternate_and_keep_each_functions_fastest_run():
    calls = []

    def f():
        calls.append("f")

    def g():
        calls.append("g")
        sum(range(20_000))  # g does strictly more work than f

    tf, tg = mha_speed.paired_times(f, g, repeat=4, budget_s=0.0)
    assert calls == ["f", "g", "g", "f", "f", "g", "g", "f"]  # ABBA: drift cancels
    assert 0 < tf < tg


def _paired(h, n, ratios, mode="forward"):
    return mha_speed.Paired(mha_speed.Case(1, n, 12, h), mode, tuple(ratios), 1e-3, 1e-3)


def _around(centre, spread, k=12):
    """``k`` synthetic block ratios, log-symmetric around ``centre``."""
    return [centre * spread ** ((-1) ** i * (i % 3) / 2) for i in range(k)]


def test_verdict_says_faster_slower_or_cannot_tell_from_synthetic_timings():
    control = [_paired(1, 64, _around(1.0, 1.05)), _paired(1, 256, _around(1.0, 1.05))]
    faster = [*control, _paired(12, 64, _around(1.6, 1.05)), _paired(12, 256, _around(1.4, 1.05))]
    text = mha_speed.verdict(faster)
    assert text.startswith(
        "At H = 12 the split class (one big projection per role) is faster on this machine"
    )
    assert "n = 64: 1.60× (95% interval" in text and "12 rounds" in text
    assert "includes 1 at every n" in text
    slower = [*control, _paired(12, 64, _around(0.6, 1.05)), _paired(12, 256, _around(0.7, 1.05))]
    assert "is slower on this machine" in mha_speed.verdict(slower)
    unsure = [*control, _paired(12, 64, _around(1.1, 3.0)), _paired(12, 256, _around(0.9, 3.0))]
    assert mha_speed.verdict(unsure).startswith("At H = 12 this machine cannot tell the two classes apart")
    mixed = [*control, _paired(12, 64, _around(1.6, 1.05)), _paired(12, 256, _around(0.6, 1.05))]
    assert mha_speed.verdict(mixed).startswith("At H = 12 the answer depends on the sequence length")


def test_a_control_outside_one_means_cannot_tell_on_this_machine():
    # Issue 13, item 8: the one-head column, where both classes do identical work, spanned
    # 0.52–5.30× on a busy machine; then no other cell may be believed.
    noisy = [_paired(1, 64, _around(2.0, 1.05)), _paired(1, 256, _around(1.0, 1.05))]
    cells = [*noisy, _paired(12, 64, _around(1.66, 1.05)), _paired(12, 256, _around(1.6, 1.05))]
    text = mha_speed.verdict(cells)
    assert text.startswith("Cannot tell on this machine: with one head both classes do identical work")
    assert "n = 64: 2.00×" in text and "faster" in text and "is faster on this machine" not in text


def test_too_few_rounds_cannot_tell():
    cells = [_paired(1, 64, [1.1]), _paired(12, 64, [])]
    text = mha_speed.verdict(cells)
    assert text.startswith("Cannot tell on this machine") and "at most 1 round per setting" in text
    assert mha_speed.verdict([]) == "Nothing was measured."
    assert mha_speed.interval([1.2]) is None and mha_speed.interval([1.0, -1.0]) is None


def test_interval_is_a_t_interval_on_log_ratios():
    r = [1.5, 1.7, 1.6, 1.55, 1.8]
    iv = mha_speed.interval(r)
    logs = np.log(r)
    assert iv.ratio == pytest.approx(np.exp(logs.mean()))
    half = 2.7764 * logs.std(ddof=1) / np.sqrt(5)
    assert (iv.lo, iv.hi) == pytest.approx((np.exp(logs.mean() - half), np.exp(logs.mean() + half)))
    assert iv.verdict == "faster" and iv.rounds == 5


@pytest.mark.parametrize("df", [1, 2, 5, 10, 11, 15, 30, 60, 200, 10_000])
def test_t975_matches_scipy(df):
    stats = pytest.importorskip("scipy.stats")
    assert mha_speed.t975(df) == pytest.approx(stats.t.ppf(0.975, df), abs=1e-3)


def test_measure_interleaved_runs_abba_rounds_and_keeps_to_its_budget():
    # A fake clock that advances 0.1 s a read: the budget bounds the number of calls exactly.
    now = [0.0]

    def clock():
        now[0] += 0.1
        return now[0]

    cells = [(mha_speed.Case(1, 8, 8, 1), "forward"), (mha_speed.Case(1, 8, 8, 2), "projections")]
    seen = []
    out = mha_speed.measure_interleaved(
        cells, 10.0, clock=clock, progress=lambda i, r, e: seen.append((i, r))
    )
    assert now[0] < 10.0 + 0.5  # the budget plus one call's reads
    assert seen[:4] == [(0, 0), (1, 0), (0, 1), (1, 1)]  # round-robin over the cells
    rounds = [len(p.ratios) for p in out]
    assert rounds[0] >= rounds[1] >= rounds[0] - 1 and rounds[1] >= 2  # blocks cut short are dropped
    assert len(seen) == sum(rounds)
    assert all(p.wrapper_s is not None and p.split_s is not None for p in out)
    # A budget of 0 returns every cell, with no rounds, rather than hanging or raising.
    out = mha_speed.measure_interleaved(cells, 0.0)
    assert [p.ratios for p in out] == [(), ()]


def test_grid_and_case_validation():
    cases = mha_speed.grid([64, 128], [1, 5, 12], [1, 8], d=768)
    assert {c.heads for c in cases} == {1, 12}  # 5 does not divide 768
    assert len(cases) == 2 * 2 * 2
    with pytest.raises(ValueError, match="not divisible"):
        mha_speed.Case(1, 8, 10, 3)
    with pytest.raises(ValueError, match="at least 1"):
        mha_speed.Case(0, 8, 8, 1)
    assert mha_speed.Case(8, 4096, 768, 16).score_bytes == 4 * 8 * 16 * 4096**2


def test_blas_info_names_the_library():
    name, threads = mha_speed.blas_info()
    assert name and threads


def test_exercise_3_2_as_printed_reproduces_the_official_solution_from_dim_1():
    out, weights = mh.exercise_3_2_as_printed()
    printed = tuple("[" + ", ".join(f"{v:.4e}" for v in row) + "]" for row in out[0])
    assert printed == book.EXERCISE_3_2_SOLUTION
    np.testing.assert_allclose(weights.sum(axis=-2), 1.0, rtol=1e-12)  # each column sums to 1
    assert not np.allclose(weights.sum(axis=-1), 1.0)  # so the rows do not
    with pytest.raises(ValueError, match="softmax_dim"):
        cfg = AttentionConfig(d_out=1)
        mh.causal_attention(mh.example_batch(3), mh.init_causal_attention(cfg, 0), cfg, softmax_dim=0)


def test_gpt3_175b_is_96_heads_of_128_in_each_of_96_layers():
    assert (mh.GPT3_175B.num_heads, mh.GPT3_175B.head_dim, mh.GPT3_175B_LAYERS) == (96, 128, 96)
