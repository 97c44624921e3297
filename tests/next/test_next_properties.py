"""Every sentence of "What comes next" is true at every legal setting (issue #24).

Hypothesis draws a reader's sentence (repeated words included), an order of it, a focus, a block
the controls allow and a KV cache, and builds the page's view. Every number the prose, captions and
readouts state must be one of the view's values as the page formats it, and every claim's
condition must hold in the view's raw arrays: a gap called rounding is under its stated bound, a
token said not to have moved did not, "equals" and "exceeds" are what the byte counts say.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import tokens
from tests.prose import unexplained
from tests.strategies import sentences
from topics.next import text as prose
from topics.next import view
from topics.next.block import BlockConfig
from topics.next.controls import BYTES, KV_LIMITS, LIMITS
from topics.next.view import Settings, View
from ui import format as fmt

# Structural numbers the prose states: list markers, "positions 1 to i", torch.rand(3, 3) and its
# seed, the book's section numbers, "n²", "a gap of 0".
CONSTANTS = ("0", "1", "2", "3", "123", "3.4", "3.5", "3.6")  # 3.6.2 reads as 3.6


@st.composite
def blocks(draw: st.DrawFn) -> BlockConfig:
    """A configuration the sidebar accepts: every value in its control's range, heads dividing the width."""
    heads = draw(st.integers(LIMITS["n_heads"][1], LIMITS["n_heads"][2]))
    width = heads * draw(st.integers(1, LIMITS["emb_dim"][2] // heads))
    rest = {
        k: draw(st.integers(LIMITS[k][1], LIMITS[k][2])) for k in ("n_layers", "context_length", "ff_mult")
    }
    return BlockConfig(width, heads, qkv_bias=draw(st.booleans()), **rest)


@st.composite
def page_settings(draw: st.DrawFn) -> Settings:
    s = draw(sentences())
    n = len(s.labels)
    perm = tuple(draw(st.permutations(range(n))))  # the identity comes up with short sentences
    _, t_low, t_high, _, _ = KV_LIMITS["kv_tokens"]
    _, b_low, b_high, _, _ = KV_LIMITS["kv_batch"]
    return Settings(
        s.labels,
        s.embeddings,
        draw(st.one_of(st.just(BlockConfig()), blocks())),
        perm,
        draw(st.one_of(st.none(), st.integers(0, n - 1))),
        draw(st.one_of(st.just(1024), st.integers(t_low, t_high))),
        draw(st.sampled_from(tuple(BYTES))),
        draw(st.one_of(st.just(1), st.integers(b_low, b_high))),
    )


def texts(v: View, labels: tuple[str, ...]) -> list[str]:
    """Everything the page writes from its view: prose, captions, the readouts built in text.py."""
    sh = v.shuffle
    out = [
        prose.lead(v),
        prose.block_caption(v),
        prose.stack_caption(v),
        prose.order_text(v, labels),
        prose.first_token_text(v.first),
        prose.kv_text(v),
        prose.exceeds_help(v.kv),
        prose.gap_readout(sh.free.gap, sh.limit),
        prose.gap_readout(sh.masked.gap, sh.limit),
    ]
    if sh.focus is not None:
        out.append(prose.focus_text(sh.focus, labels))
    return out


def stated(v: View) -> list[str]:
    """The view's values, formatted as the page formats them."""
    b, p, kv, sh, first, pre = v.block, v.params, v.kv, v.shuffle, v.first, v.prefix
    ints = [b.emb_dim, b.n_heads, b.head_dim, b.ff_hidden, b.n_layers, b.context_length, v.stack]
    ints += [p.attention, p.feed_forward, p.layer_norms, p.total, kv.weight_bytes, kv.exceeds, kv.exceeds - 1]
    ints += [kv.batch, kv.context_length] + ([kv.equal_at] if kv.equal_at is not None else [])
    out = [fmt.integer(i) for i in ints] + [fmt.percent(v.ff_share), prose.share_text(kv.full_share)]
    out += [fmt.vec(first.output), fmt.vec(first.direct), fmt.num(first.weight), fmt.sci(first.gap)]
    out += [
        fmt.noise(pre.one_layer, pre.limit),
        fmt.num(pre.two_layers),
        fmt.noise(pre.two_layers, pre.limit),
    ]
    out += [
        prose.gap_text(g, sh.limit) + " " + prose.gap_readout(g, sh.limit)
        for g in (sh.free.gap, sh.masked.gap)
    ]
    out += [fmt.sci(sh.limit)]
    if sh.moved is not None:
        out += [str(sh.moved.before), str(sh.moved.after)]
    if sh.focus is not None:
        f = sh.focus
        out += [str(f.before), str(f.after)]
        out += [fmt.vec(a) for a in (f.masked_original, f.masked_shuffled, f.free, f.free_shuffled)]
    return out


def assert_claims(v: View, labels: tuple[str, ...]) -> None:
    """Each claim the prose makes, checked against the view's raw arrays and exact counts."""
    sh, kv, pre = v.shuffle, v.kv, v.prefix
    order = prose.order_text(v, labels)
    # Without the mask the two sides are equal up to rounding: the stated bound must hold.
    assert sh.free.gap <= sh.limit
    assert "rounding bound" not in order
    # With the mask: a row whose token sees the same mix of embeddings changes by rounding only.
    rows = np.max(np.abs(sh.masked.difference), axis=1)
    assert all(r <= sh.limit for r, same in zip(rows, sh.same_mix, strict=True) if same)
    if sh.moved is None:
        assert sh.masked.gap <= sh.limit
        if sh.identity:
            assert "leaves every token where it was" in order
        elif all(sh.same_mix):
            assert "same words in the same proportions" in order
    else:
        m = sh.moved
        assert sh.masked.gap > sh.limit and rows[m.after - 1] == sh.masked.gap
        assert sh.perm[m.after - 1] == m.token and not sh.same_mix[m.after - 1]
        assert ("which did not move" in order) == m.stayed == (m.token == m.after - 1)
        assert ("moved to position" in order) == (not m.stayed)
    # The focus: "either way" only when both unmasked rows print the same.
    if sh.focus is not None:
        f = sh.focus
        assert np.max(np.abs(f.free - f.free_shuffled)) <= sh.limit
        assert ("either way" in prose.focus_text(f, labels)) == (fmt.vec(f.free) == fmt.vec(f.free_shuffled))
        assert ("where it was" in prose.focus_text(f, labels)) == (f.token == f.row)
    # One layer hides the prefix's order (rounding); two layers, each its own, do not.
    assert pre.one_layer <= pre.limit < pre.two_layers
    assert ("a gap of 0" in prose.first_token_text(v.first)) == (v.first.gap == 0)
    # The cache against the weights, in exact integers.
    assert kv.exceeds * kv.per_token > kv.weight_bytes >= (kv.exceeds - 1) * kv.per_token
    assert (kv.equal_at is not None) == ((kv.exceeds - 1) * kv.per_token == kv.weight_bytes)
    assert kv.equal_at is None or kv.equal_at * kv.per_token == kv.weight_bytes
    cache = prose.kv_text(v)
    assert ("the cache equals the blocks' weights" in cache) == (kv.equal_at is not None)
    assert ("gets there" in cache) == (kv.exceeds <= kv.context_length) == (kv.full > kv.weight_bytes)
    assert kv.full_share == kv.full / kv.weight_bytes
    assert v.ff_share == v.params.feed_forward / v.params.total


@settings(max_examples=50, deadline=None)
@given(page_settings())
def test_every_number_comes_from_the_view_and_every_claim_holds(s):
    v = view.build(s)
    for text in texts(v, s.labels):
        assert not unexplained(text, stated(v), CONSTANTS), text
    assert_claims(v, s.labels)


def test_the_defaults_state_nothing_the_view_does_not_hold():
    """The book's sentence at the page's defaults, so the check runs on the page a link opens."""
    v = view.build(Settings())
    for text in texts(v, tokens.TOKENS):
        assert not unexplained(text, stated(v), CONSTANTS), text
    assert_claims(v, tokens.TOKENS)
