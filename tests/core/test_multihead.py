"""The book's two multi-head classes (figure 05): book numbers, properties, counts.

The PyTorch oracle tests live in ``test_multihead_oracle.py``; everything here runs on NumPy.
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import book
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
    assert {s.head for s in per_head} == {0, 1, 2, 3}
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
