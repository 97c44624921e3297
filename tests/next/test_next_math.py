"""The math of "What comes next" (figure 07): block parameter counts, the KV cache, permutation
equivariance, and what one attention layer does at a position (``topics/next/block.py``,
``equivariance.py``, ``limits.py``)."""

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import book, tokens, weights
from core.torchgen import TorchGenerator
from core.weights import WeightSet
from topics.next import block, equivariance, limits
from topics.next.block import BlockConfig

GPT2_SMALL = BlockConfig()


# --- the post's numbers for figure 07, exactly ------------------------------------------------


def test_gpt2_small_block_gives_the_posts_two_counts_exactly():
    p = block.block_params(GPT2_SMALL)
    assert p.attention == 2_360_064
    assert p.feed_forward == 4_722_432
    assert isinstance(p.attention, int) and isinstance(p.feed_forward, int)


def test_the_quoted_counts_in_core_book_are_the_posts():
    p = block.block_params(GPT2_SMALL)
    assert int(book.FIGURE_07["attention_params"].replace(",", "")) == p.attention
    assert int(book.FIGURE_07["feed_forward_params"].replace(",", "")) == p.feed_forward


def test_the_default_config_is_the_books_gpt_config_124m():
    assert (GPT2_SMALL.emb_dim, GPT2_SMALL.n_heads, GPT2_SMALL.n_layers) == (768, 12, 12)
    assert (GPT2_SMALL.context_length, GPT2_SMALL.qkv_bias, GPT2_SMALL.ff_mult) == (1024, False, 4)
    assert GPT2_SMALL.head_dim == 64


def test_component_counts_derive_from_the_layer_shapes():
    d = 768
    p = block.block_params(GPT2_SMALL)
    assert p.w_query == p.w_key == p.w_value == d * d  # no qkv bias in the book's config
    assert p.out_proj == d * d + d  # out_proj keeps its bias
    assert p.ff_in == d * 4 * d + 4 * d
    assert p.ff_out == 4 * d * d + d
    assert p.layer_norms == 2 * 2 * d
    assert p.total == p.attention + p.feed_forward + p.layer_norms
    assert sum(p.components().values()) == p.total
    assert block.stack_params(GPT2_SMALL) == 12 * p.total


def test_qkv_bias_adds_three_bias_vectors_and_nothing_else():
    off, on = (block.block_params(BlockConfig(qkv_bias=b)) for b in (False, True))
    assert on.attention - off.attention == 3 * 768
    assert on.feed_forward == off.feed_forward and on.layer_norms == off.layer_norms


def test_heads_and_context_do_not_change_the_count():
    base = block.block_params(GPT2_SMALL)
    for cfg in (BlockConfig(n_heads=1), BlockConfig(n_heads=768), BlockConfig(context_length=1)):
        assert block.block_params(cfg) == base


@pytest.mark.parametrize(
    ("name", "d", "h", "layers"),
    [
        ("GPT-2 small (124M)", 768, 12, 12),
        ("GPT-2 medium (355M)", 1024, 16, 24),
        ("GPT-2 large (774M)", 1280, 20, 36),
        ("GPT-2 XL (1558M)", 1600, 25, 48),
    ],
)
def test_presets_are_gpt2s_four_sizes(name, d, h, layers):
    cfg = block.GPT2_PRESETS[name]
    assert (cfg.emb_dim, cfg.n_heads, cfg.n_layers, cfg.context_length) == (d, h, layers, 1024)
    assert block.matching_preset(cfg) == name
    assert block.matching_preset(BlockConfig(d, h, layers, qkv_bias=True)) == name
    assert block.block_params(cfg).attention == 4 * d * d + d
    assert block.block_params(cfg).feed_forward == 8 * d * d + 5 * d


def test_a_custom_config_matches_no_preset():
    assert block.matching_preset(BlockConfig(emb_dim=512, n_heads=8)) is None
    assert block.matching_preset(BlockConfig(ff_mult=2)) is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"emb_dim": 0},
        {"emb_dim": -768},
        {"n_heads": 0},
        {"n_layers": 0},
        {"context_length": 0},
        {"ff_mult": 0},
        {"emb_dim": 768.0},
        {"emb_dim": True},
        {"n_heads": 7},
    ],
)
def test_bad_configs_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        BlockConfig(**kwargs)


def test_indivisible_heads_suggest_a_divisor():
    with pytest.raises(ValueError, match="keep emb_dim = 768 with 12 heads"):
        BlockConfig(emb_dim=768, n_heads=11)


def test_a_prime_width_says_so_and_suggests_widths_not_one_head():
    with pytest.raises(ValueError) as err:
        BlockConfig(emb_dim=769, n_heads=12)
    message = str(err.value)
    assert "769 is prime" in message and "emb_dim = 768 or 780" in message
    assert "1 heads" not in message


# --- KV cache ------------------------------------------------------------------------------------


def test_kv_cache_gpt2_small_at_its_context_in_float16():
    # 2 (K and V) × 12 layers × 1,024 tokens × 768 × 2 bytes: 36 MiB exactly.
    assert block.kv_cache_bytes(12, 1024, 768, 2) == 36 * 2**20


def test_kv_cache_is_exact_beyond_float_precision():
    n = block.kv_cache_bytes(256, 2_097_152, 16_384, 4, 4096)
    assert isinstance(n, int)
    assert n == 2**1 * 2**8 * 2**21 * 2**14 * 2**2 * 2**12  # 2**58, exact
    assert block.kv_cache_bytes(48, 1_000_001, 1600, 2, 3) % 3 == 0


@given(
    st.integers(0, 512),
    st.integers(0, 2**22),
    st.integers(0, 2**15),
    st.sampled_from([1, 2, 4]),
    st.integers(0, 64),
)
def test_kv_cache_is_linear_in_every_factor(layers, n, width, nbytes, batch):
    size = block.kv_cache_bytes(layers, n, width, nbytes, batch)
    assert block.kv_cache_bytes(layers, 2 * n, width, nbytes, batch) == 2 * size
    assert block.kv_cache_bytes(2 * layers, n, width, nbytes, batch) == 2 * size
    assert size == 2 * layers * n * width * nbytes * batch


@pytest.mark.parametrize("bad", [-1, 1.5, True, "8", None])
def test_kv_cache_rejects_non_integers(bad):
    with pytest.raises(ValueError):
        block.kv_cache_bytes(12, bad, 768, 2)


def test_the_cache_equals_the_weights_at_one_count_and_exceeds_them_from_the_next():
    assert (block.tokens_to_equal(10, 100), block.tokens_to_exceed(10, 100)) == (10, 11)
    assert (block.tokens_to_equal(10, 101), block.tokens_to_exceed(10, 101)) == (None, 11)
    assert (block.tokens_to_equal(10, 99), block.tokens_to_exceed(10, 99)) == (None, 10)
    assert (block.tokens_to_equal(7, 0), block.tokens_to_exceed(7, 0)) == (None, 1)
    for bad in (block.tokens_to_equal, block.tokens_to_exceed):
        with pytest.raises(ValueError):
            bad(0, 10)


# --- permutation equivariance --------------------------------------------------------------------

X, WS = tokens.inputs(), weights.section_3_4()
IDENTITY = tuple(range(6))
PERMS = list(itertools.permutations(range(6)))


def test_unmasked_attention_permutes_exactly_for_all_720_orders():
    gaps = [equivariance.permutation_test(X, WS, p, causal=False).gap for p in PERMS]
    assert max(gaps) <= 1e-15  # float64 rounding only: the softmax sums its terms in another order


def test_masked_attention_changes_for_every_non_identity_order():
    assert equivariance.permutation_test(X, WS, IDENTITY, causal=True).gap == 0.0
    gaps = [equivariance.permutation_test(X, WS, p, causal=True).gap for p in PERMS if p != IDENTITY]
    # The closest case swaps journey and starts, two nearly equal embeddings; still far from 0.
    assert min(gaps) > 1e-3


def test_the_sides_of_the_identity_are_what_they_say():
    perm = (5, 4, 3, 2, 1, 0)
    r = equivariance.permutation_test(X, WS, perm, causal=True)
    f = equivariance.causal_self_attention(X, WS).context
    np.testing.assert_array_equal(r.permuted_outputs, f[list(perm)])
    np.testing.assert_array_equal(
        r.outputs_of_permuted, equivariance.causal_self_attention(X[::-1], WS).context
    )
    np.testing.assert_array_equal(r.difference, r.permuted_outputs - r.outputs_of_permuted)
    assert r.gap == np.max(np.abs(r.difference))
    # "step" moved to the front sees only itself: its output is its own value vector.
    np.testing.assert_allclose(r.outputs_of_permuted[0], X[5] @ WS.w_value.astype(np.float64), rtol=1e-15)


def test_causal_attention_rows_see_only_their_prefix():
    tr = equivariance.causal_self_attention(X, WS)
    assert np.all(np.triu(tr.weights, k=1) == 0)
    np.testing.assert_allclose(tr.weights.sum(axis=1), 1.0, rtol=1e-15)
    assert np.isneginf(tr.scores[0, 1]) and np.isfinite(tr.scores[1, 0])


def random_weights(rng: np.random.Generator, d_in: int, d_out: int) -> WeightSet:
    w = [rng.normal(size=(d_in, d_out)) for _ in range(3)]
    return WeightSet("random", 0, "rand", *w)


bounded = st.floats(-5, 5, allow_nan=False)


@settings(max_examples=120, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.integers(1, 4).flatmap(lambda d: arrays(np.float64, (n, d), elements=bounded)),
            st.permutations(range(n)),
        )
    ),
    st.integers(1, 4),
    st.integers(0, 2**32 - 1),
)
def test_unmasked_gap_is_rounding_for_any_inputs_order_and_weights(x_perm, d_out, seed):
    x, perm = x_perm
    ws = random_weights(np.random.default_rng(seed), x.shape[1], d_out)
    assert equivariance.permutation_test(x, ws, perm, causal=False).gap <= 1e-12


@settings(max_examples=120, deadline=None)
@given(
    st.integers(2, 8).flatmap(lambda n: st.permutations(range(n))),
    st.integers(1, 4),
    st.integers(0, 2**32 - 1),
)
def test_masked_gap_is_generically_nonzero(perm, d, seed):
    # Generic (Gaussian) inputs and weights: the gap is a continuous function of them that is
    # zero only on a measure-zero set, so a gap of exactly 0 would mean the mask did nothing. It
    # can be tiny, though: a moved token's weight on its lost predecessor is a softmax weight, and
    # scores a few dozen apart make it 1e-12 (perm (1, 0), d = 4, seed 1093 gives 7e-12).
    assume(tuple(perm) != tuple(range(len(perm))))
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(len(perm), d))
    ws = random_weights(rng, d, d)
    assert equivariance.permutation_test(x, ws, perm, causal=True).gap > 0
    assert equivariance.permutation_test(x, ws, range(len(perm)), causal=True).gap == 0.0


# --- reading a permutation a reader typed ---------------------------------------------------------

T = tokens.TOKENS


@pytest.mark.parametrize(
    "text",
    [
        "6 5 4 3 2 1",
        "6,5,4,3,2,1",
        " 6 ,5;4 > 3→2 |1 ",
        "step one with starts journey Your",
        "STEP 5 with 3 2 your",
    ],
)
def test_parse_reads_positions_and_names(text):
    assert equivariance.parse_permutation(text, T) == (5, 4, 3, 2, 1, 0)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "all 6"),
        ("1 2 3 4 5", "all 6"),
        ("1 2 3 4 5 6 7", "all 6"),
        ("1 1 2 3 4 5", "missing: step"),
        ("0 1 2 3 4 5", "neither"),
        ("1 2 3 4 5 1e3", "neither"),
        ("1 2 3 4 5 nan", "neither"),
        ("__import__('os') 2 3 4 5 6", "neither"),
        ("1 2 3 4 5 " + "9" * 10_000, "neither"),
        ("1 2 3 4 5 🙂", "neither"),
    ],
)
def test_parse_rejects_with_a_message(text, why):
    with pytest.raises(ValueError, match=why):
        equivariance.parse_permutation(text, T)


@given(st.permutations(range(6)))
def test_format_and_parse_round_trip(perm):
    assert equivariance.parse_permutation(equivariance.format_permutation(perm), T) == tuple(perm)


@given(st.text(max_size=300))
def test_parse_never_raises_anything_but_value_error(text):
    try:
        perm = equivariance.parse_permutation(text, T)
    except ValueError as err:
        assert len(str(err)) < 200
    else:
        assert sorted(perm) == list(range(6))


def test_check_permutation_rejects_non_permutations():
    with pytest.raises(ValueError):
        equivariance.permutation_test(X, WS, (0, 0, 1, 2, 3, 4), causal=False)
    with pytest.raises(ValueError):
        equivariance.permutation_test(X, WS, (0, 1, 2), causal=True)


# --- issue #13, item 9: what one layer does at a position, and what it hides ------------------------


def test_token_one_under_the_mask_is_exactly_out_proj_of_w_v_x1():
    first = limits.first_token()
    assert first.weight == 1.0 and first.gap == 0.0
    np.testing.assert_array_equal(first.output, first.direct)
    # and it is the first row the book prints for MultiHeadAttention (section 3.6.2, seed 123)
    assert "[" + ", ".join(f"{v:.4f}" for v in first.output) + "]" == book.FIGURE_05["split"][0]


def test_one_layer_hides_the_order_of_the_prefix_and_two_layers_do_not():
    shuffle = limits.prefix_shuffle(tokens.inputs(), limits.stack_weights(), (4, 3, 2, 1, 0, 5))
    assert shuffle.one_layer <= shuffle.limit  # the same set of tokens: only rounding
    assert shuffle.two_layers > 0.1  # layer 1 gave each earlier token its own prefix
    for order in itertools.permutations(range(5)):
        again = limits.prefix_shuffle(tokens.inputs(), limits.stack_weights(), (*order, 5))
        assert again.one_layer <= again.limit


def test_the_two_stacked_layers_are_drawn_one_after_the_other():
    first, second = limits.stack_weights()
    gen = TorchGenerator(limits.STACK_SEED)
    drawn = [gen.rand(3, 3) for _ in range(6)]
    for ws, mats in ((first, drawn[:3]), (second, drawn[3:])):
        for got, want in zip((ws.w_query, ws.w_key, ws.w_value), mats, strict=True):
            np.testing.assert_array_equal(got, want)


def test_the_prefix_shuffle_keeps_the_last_token_last_and_needs_square_weights():
    with pytest.raises(ValueError, match="last token must stay last"):
        limits.prefix_shuffle(tokens.inputs(), limits.stack_weights(), (5, 4, 3, 2, 1, 0))
    with pytest.raises(ValueError, match="square"):
        limits.prefix_shuffle(tokens.inputs(), (weights.section_3_4(),) * 2, (4, 3, 2, 1, 0, 5))
