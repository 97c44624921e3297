"""Every number "What comes next" shows, read from its view (``topics/next/view.py``), and the prose
and checks written from it. No Streamlit session: ``test_next_page.py`` checks that the page draws
these same fields."""

import dataclasses

import numpy as np
import pytest

from core import book, sentence, tokens, weights
from topics.next import block, checks, equivariance, view
from topics.next import text as prose
from topics.next.block import BlockConfig
from topics.next.view import Settings

T = tokens.TOKENS
PRESETS = list(block.GPT2_PRESETS)


def same_weights(a: weights.WeightSet, b: weights.WeightSet) -> bool:
    return (a.seed, a.init) == (b.seed, b.init) and all(
        np.array_equal(x, y)
        for x, y in zip((a.w_query, a.w_key, a.w_value), (b.w_query, b.w_key, b.w_value), strict=True)
    )


@pytest.fixture(scope="module")
def default() -> view.View:
    return view.build(Settings())


# --- one block's parameters ----------------------------------------------------------------------


def test_the_default_is_gpt2_small_with_the_posts_two_counts(default):
    assert default.block == BlockConfig() and default.name == "GPT-2 small (124M)"
    assert (default.params.attention, default.params.feed_forward) == (2_360_064, 4_722_432)
    assert default.params.layer_norms == 3_072 and default.params.total == 7_085_568
    assert default.stack == 12 * default.params.total
    assert default.ff_share == pytest.approx(4_722_432 / 7_085_568, rel=1e-15)


def test_the_presets_table_has_gpt2s_four_sizes_with_the_books_qkv_bias(default):
    assert [r.name for r in default.presets] == PRESETS
    for row in default.presets:
        cfg = block.GPT2_PRESETS[row.name]
        assert not cfg.qkv_bias
        assert row.params == block.block_params(cfg) and row.all_blocks == block.stack_params(cfg)


@pytest.mark.parametrize(
    ("cfg", "name"),
    [
        (BlockConfig(emb_dim=1536), view.CUSTOM),
        (BlockConfig(qkv_bias=True), "GPT-2 small (124M)"),
        (BlockConfig(1600, 25, 48), "GPT-2 XL (1558M)"),
        (BlockConfig(ff_mult=2), view.CUSTOM),
    ],
)
def test_the_block_follows_its_configuration(cfg, name):
    v = view.build(Settings(block=cfg))
    assert v.name == name and v.params == block.block_params(cfg) and v.stack == block.stack_params(cfg)
    assert v.gpt2 == block.block_params(BlockConfig())  # the checks stay at GPT-2 small
    assert v.presets == view.build(Settings()).presets


def test_qkv_bias_and_ff_mult_move_only_their_parts(default):
    biased = view.build(Settings(block=BlockConfig(qkv_bias=True))).params
    assert biased.attention == default.params.attention + 3 * 768
    assert biased.feed_forward == default.params.feed_forward
    half = view.build(Settings(block=BlockConfig(ff_mult=2))).params
    assert half.attention == default.params.attention
    assert half.feed_forward == 2 * 768 * 1536 + 1536 + 768


# --- the shuffle ----------------------------------------------------------------------------------


def test_the_default_shuffle_reverses_the_sentence_on_section_3_4s_weights(default):
    sh = default.shuffle
    assert sh.perm == (5, 4, 3, 2, 1, 0) and sh.rows == T[::-1]
    assert same_weights(sh.weights, weights.section_3_4())
    mine = [
        equivariance.permutation_test(tokens.inputs(), weights.section_3_4(), sh.perm, c)
        for c in (False, True)
    ]
    for got, want in zip((sh.free, sh.masked), mine, strict=True):
        np.testing.assert_array_equal(got.difference, want.difference)
        assert got.gap == want.gap
    assert sh.free.gap <= sh.limit and f"{sh.masked.gap:.4f}" == "0.2894"
    assert sh.bound == sh.masked.gap


@pytest.mark.parametrize("perm", [(1, 0, 2, 3, 4, 5), (2, 0, 1, 5, 3, 4), (0, 1, 2, 3, 4, 5)])
def test_any_order_drives_both_gaps_and_only_the_identity_leaves_the_mask_nothing(perm):
    sh = view.build(Settings(perm=perm)).shuffle
    assert sh.free.gap <= sh.limit
    assert (sh.masked.gap == 0) == (perm == tuple(range(6))) == (sh.moved is None) == all(sh.same_mix)


def test_the_largest_change_is_the_row_the_mask_moves_most(default):
    m = default.shuffle.moved
    assert m is not None
    row = int(np.argmax(np.abs(default.shuffle.masked.difference).max(axis=1)))
    assert (m.after, m.token, m.before) == (row + 1, default.shuffle.perm[row], default.shuffle.perm[row] + 1)
    assert m.sees == default.shuffle.perm[: m.after] and m.saw == tuple(range(m.before))


def test_the_focus_is_the_tokens_row_in_the_shuffle(default):
    assert default.shuffle.focus is None
    sh = view.build(Settings(focus=5)).shuffle  # "step", first after the reverse
    f = sh.focus
    assert f is not None and (f.token, f.row, f.before, f.after) == (5, 0, 6, 1)
    np.testing.assert_array_equal(f.masked_original, sh.masked.permuted_outputs[0])
    np.testing.assert_array_equal(f.masked_shuffled, sh.masked.outputs_of_permuted[0])
    np.testing.assert_array_equal(f.free, sh.free.permuted_outputs[0])
    # moved to the front, step sees only itself: its own value vector
    step_value = tokens.inputs()[5] @ weights.section_3_4().w_value.astype(np.float64)
    np.testing.assert_allclose(f.masked_shuffled, step_value, rtol=1e-15)


def same(a: object, b: object) -> bool:
    """Equal field by field, arrays element by element (a frozen view holds NumPy arrays)."""
    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b):
        return type(a) is type(b) and all(
            same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize("focus, cell", [(0, None), (5, 2), (3, 3), (None, 4)])
def test_a_focus_or_cell_changes_only_the_shuffles_focus_and_cell(focus, cell):
    """The page keeps :func:`view.unfocused` across focus and cell clicks (``topics/next/study.py``)
    and reruns only :func:`view.focused`: together they are the whole view, and nothing but the
    shuffle's focus, cell column and panel depends on the focus or the cell."""
    s = Settings(focus=focus, cell=cell)
    whole = view.build(s)
    base = view.unfocused(s)
    assert same(base, view.unfocused(Settings()))  # focus and cell are not read
    assert same(view.focused(base, s.labels, s.embeddings, focus, cell), whole)
    for f in dataclasses.fields(view.View):
        if f.name != "shuffle":
            assert same(getattr(base, f.name), getattr(whole, f.name)), f.name
    for f in dataclasses.fields(view.Shuffle):
        if f.name not in ("focus", "cell_col", "cell"):
            assert same(getattr(base.shuffle, f.name), getattr(whole.shuffle, f.name)), f.name
    assert (whole.shuffle.focus is None) == (focus is None) == (whole.shuffle.cell is None)


def test_a_readers_sentence_gets_section_3_4s_seed_drawn_as_wide():
    s = sentence.build("the cat sat on a mat today", width=5)
    sh = view.build(Settings(s.labels, s.embeddings, perm=tuple(range(6, -1, -1)))).shuffle
    assert same_weights(sh.weights, sentence.weights_for(weights.section_3_4(), 5))
    assert sh.rows == s.labels[::-1] and sh.free.difference.shape == (7, 2)


@pytest.mark.parametrize(
    "settings",
    [
        Settings(perm=(0, 0, 1, 2, 3, 4)),
        Settings(perm=(0, 1, 2)),
        Settings(kv_tokens=0),
        Settings(kv_batch=True),
    ],
)
def test_settings_the_controls_never_give_raise_a_value_error(settings):
    with pytest.raises(ValueError):
        view.build(settings)


# --- the KV cache ---------------------------------------------------------------------------------


def test_the_default_kv_cache(default):
    kv = default.kv
    assert kv.bytes == kv.full == 36 * 2**20  # 2 × 12 × 1,024 × 768 × 2 bytes
    assert kv.per_token == 36_864 and kv.tokens == 1024 and not kv.capped
    assert kv.weight_bytes == 2 * default.stack
    assert kv.equal_at == kv.weight_bytes // kv.per_token == 4_613 and kv.exceeds == 4_614
    assert kv.factors == (2, 12, 1024, 768, 2, 1)
    assert 1024 in kv.grid and kv.grid[0] == 1 and kv.grid[-1] == 2**21


def test_the_context_length_caps_the_cache():
    capped = view.build(Settings(kv_tokens=8192)).kv
    assert capped.capped and capped.tokens == 1024 and capped.bytes == capped.full
    longer = view.build(Settings(block=BlockConfig(context_length=16_384), kv_tokens=8192)).kv
    assert not longer.capped and longer.bytes == block.kv_cache_bytes(12, 8192, 768, 2, 1)
    assert longer.full == block.kv_cache_bytes(12, 16_384, 768, 2, 1)


def test_every_bound_setting_reaches_the_cache():
    cfg = BlockConfig(1024, 8, 6, 4096, True, 3)
    kv = view.build(Settings(block=cfg, kv_tokens=8192, kv_bytes=4, kv_batch=2)).kv
    assert kv.bytes == block.kv_cache_bytes(6, 4096, 1024, 4, 2) and kv.factors == (2, 6, 4096, 1024, 4, 2)


def test_the_largest_and_smallest_settings_stay_exact_and_finite():
    big = view.build(Settings(block=BlockConfig(16_384, 256, 256, 2_097_152, False, 16), kv_tokens=2_097_152,
                              kv_bytes=4, kv_batch=4096))  # fmt: skip
    assert big.kv.bytes == 2**58 and isinstance(big.kv.bytes, int)
    small = view.build(Settings(block=BlockConfig(1, 1, 1, 1, False, 1), kv_tokens=1, kv_batch=1))
    assert small.params.total == block.block_params(BlockConfig(1, 1, 1, 1, False, 1)).total
    assert small.kv.bytes == 4 and small.kv.tokens == 1
    for v in (big, small):
        assert all(np.isfinite(c.bytes).all() for c in v.kv.curves)


def test_the_chart_draws_the_current_block_first_and_every_other_preset():
    for cfg, others in ((BlockConfig(), 3), (BlockConfig(emb_dim=1536), 4)):
        kv = view.build(Settings(block=cfg)).kv
        assert [c.current for c in kv.curves] == [True] + [False] * others
        assert kv.curves[0].bytes[list(kv.grid).index(kv.tokens)] == kv.bytes
        assert all(len(c.bytes) == len(kv.grid) for c in kv.curves)
    assert kv.curves[0].name == "a custom block (current)"


# --- the prose and the checks, written from the view ----------------------------------------------


def test_the_lead_lists_what_the_module_lacks_with_the_blocks_feed_forward_share(default):
    lead = prose.lead(default)
    for item in ("residual connection", "layer norm", "feed-forward network", "KV cache"):
        assert item in lead
    assert "holds 66.6% of this block's parameters" in lead
    assert "no per-position *nonlinear* computation" in lead
    assert "“no per-position computation at all” overstates it" in lead
    assert "“because it increases memory requirements”" in lead  # the post's reason, as the post's
    assert "adds complexity to the code, increases memory use, and cannot be used during training" in lead
    half = view.build(Settings(block=BlockConfig(ff_mult=2)))
    assert f"holds {100 * half.ff_share:.1f}% of this block's parameters" in prose.lead(half)


def test_the_order_text_names_the_shuffle_and_what_two_layers_recover(default):
    text = prose.order_text(default, T)
    assert "position embeddings" in text
    gap, limit = default.shuffle.free.gap, default.shuffle.limit
    assert f"(the gap is {prose.gap_text(gap, limit)})" in text and "below" in prose.gap_text(gap, limit)
    assert "The largest change is **" + T[default.shuffle.moved.token] + "**" in text
    assert "In one layer, the mask tells a token which others came before it, never how far back" in text
    assert default.prefix.one_layer <= default.prefix.limit and default.prefix.two_layers > 0.1
    assert f"after two stacked layers it is {default.prefix.two_layers:.4f}" in text
    still = view.build(Settings(perm=tuple(range(6))))
    assert "the mask has nothing to break" in prose.order_text(still, T)


def test_the_focus_text_reads_the_focus(default):
    f = view.build(Settings(focus=5)).shuffle.focus
    assert f is not None
    text = prose.focus_text(f, T)
    assert text.startswith("**Focus: step**, at position 1 of the shuffled sentence (6 before).")
    assert "[" + ", ".join(f"{x:.4f}" for x in f.masked_shuffled) + "]" in text


def test_token_one_is_exactly_out_proj_of_w_v_x1_and_the_page_says_so(default):
    assert default.first.gap == 0.0 and default.first.weight == 1.0
    assert (
        "returns [0.3190, 0.4858] for it: exactly `out_proj`($W_v x_1$) = [0.3190, 0.4858], a gap of 0"
        in prose.first_token_text(default.first)
    )


def test_the_kv_text_quotes_the_books_three_costs(default):
    text = prose.kv_text(default)
    assert book.BOOK_KV_CACHE in text and "ch04/03_kv-cache/README.md" in text


def test_every_check_passes_and_reads_the_view(default):
    rows = checks.book_checks(default)
    assert len(rows) == 4 and all(c.ok for c in rows)
    assert [rows[0].live, rows[1].live] == ["2,360,064", "4,722,432"]
    assert rows[2].live == rows[2].true == "[0.3190, 0.4858]"
