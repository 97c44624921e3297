"""The prose of "What comes next" (figure 07): every number in it read from the page's view.

Three of the post's sentences are true only with a qualifier (issue #13, item 9), and the page
says which: attention does no per-position *nonlinear* computation (``W_v`` and ``out_proj``
act on each position, linearly); the book's own KV-cache material names three costs, not memory
alone; and the mask hides how far back a token sits only within one layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from core import book, tokens
from topics.next import limits
from topics.next.view import PREFIX_ORDER, Focus, KvCache, Shuffle, View
from ui import format as fmt
from ui.sentence import md

T = tokens.TOKENS
KV_CACHE_SOURCE = "rasbt/LLMs-from-scratch, ch04/03_kv-cache/README.md"


def lead(v: View) -> str:
    """What the module still lacks, with the feed-forward's share of the block on screen. No TeX:
    the page opens on it, and a first visit draws TeX only once its code has been fetched, then
    pushes everything under it down."""
    return (
        "Chapter 3 ends with a working multi-head attention module, and it is not yet a model. "
        "Three things are missing, roughly in order of how much their absence hurts:\n"
        "1. **A residual connection and a layer norm around it.** The module returns context vectors; "
        "until its output is added back to its input and normalised, it is not a layer of anything.\n"
        "2. **A feed-forward network.** Attention moves information *between* positions and does no "
        "per-position *nonlinear* computation. It is not idle at a position: Wᵥ and `out_proj` act on "
        "every one, linearly (below, token 1's output is exactly `out_proj`(Wᵥx₁)). The post's "
        f"“{book.FIGURE_07['no_computation']}” overstates it. The MLP after it, with its GELU, holds "
        f"{fmt.percent(v.ff_share)} of this block's parameters.\n"
        "3. **A KV cache.** The post says the book leaves it out "
        f"“{book.FIGURE_07['kv_cache_reason']}”. The book's own KV-cache material names three costs: "
        "it adds complexity to the code, increases memory use, and cannot be used during training. "
        "Below is the memory bill."
    )


def block_caption(v: View) -> str:
    """The configuration on screen, named as the preset box names it."""
    b = v.block
    return (
        f"Showing **{v.name}**: emb_dim {b.emb_dim:,}, {b.n_heads} head{'' if b.n_heads == 1 else 's'} of "
        f"{b.head_dim:,}, feed-forward hidden width {b.ff_hidden:,}, qkv_bias {b.qkv_bias}."
    )


def stack_caption(v: View) -> str:
    """All ``n_layers`` blocks, and what the count leaves out."""
    n = v.block.n_layers
    return (
        f"{n:,} block{' holds' if n == 1 else 's hold'} **{fmt.integer(v.stack)}** parameters "
        "(token and position embeddings, the final norm and the output head come on top). "
        "Context length changes none of these: the causal mask is a buffer, not a parameter."
    )


def first_token_text(first: limits.FirstToken) -> str:
    """Token 1 under the mask: the book's MultiHeadAttention reduces to two linear maps. "Exactly"
    only when the two are equal bit for bit (the gap is 0)."""
    if first.gap == 0:
        same = f"exactly `out_proj`($W_v x_1$) = {fmt.vec(first.direct)}, a gap of 0"
    else:
        same = (
            f"`out_proj`($W_v x_1$) = {fmt.vec(first.direct)} up to rounding, a gap of {fmt.sci(first.gap)}"
        )
    return (
        f"Under the causal mask token 1 sees only itself, so its weight is {fmt.num(first.weight)} and "
        f"the book's `MultiHeadAttention` (seed 123, section 3.6.2) returns {fmt.vec(first.output)} for it: "
        f"{same}. Two matrix multiplications and a bias, all linear: what a position lacks is a "
        "nonlinearity, which is what the feed-forward's GELU brings."
    )


def focus_text(f: Focus, labels: Sequence[str]) -> str:
    """Where the focused token lands in the shuffle, and its context vector both ways. Without the
    mask the two agree up to rounding; "either way" only when they print the same."""
    where = "where it was" if f.before == f.after else f"{f.before} before"
    free, free_shuffled = fmt.vec(f.free), fmt.vec(f.free_shuffled)
    unmasked = (
        f"without the mask it is {free} either way"
        if free == free_shuffled
        else f"without the mask it is {free} and {free_shuffled}, equal up to rounding"
    )
    return (
        f"**Focus: {md(labels[f.token])}**, at position {f.after} of the shuffled sentence ({where}). "
        f"With the causal mask its context vector is **{fmt.vec(f.masked_original)}** in the original "
        f"order and **{fmt.vec(f.masked_shuffled)}** shuffled; {unmasked}."
    )


DIFFERENCE_CLICK = (
    "Both grids are positions × output dimensions, not query × key: a click on a row focuses its token "
    "(the weights and the cell below follow it) and leaves the cell's key as it is."
)


def weights_caption(v: View) -> str:
    """What the query × key heatmap draws, with this setting's divisor."""
    d_k = v.shuffle.causal.keys.shape[-1]
    return (
        f"softmax(masked Ω / √{d_k}) of the shuffled sentence: rows are queries, columns keys, both in the "
        "new order. Above the diagonal every weight is 0, the mask's work; a shuffle moves a token's row "
        "and its prefix with it. A click on any cell picks its query and key."
    )


def _tokens(labels: Sequence[str], idx: Sequence[int]) -> str:
    return ", ".join(f"*{md(labels[j])}*" for j in idx)


def gap_text(gap: float, limit: float) -> str:
    """A gap that is rounding noise as the page states it: exactly 0, or below its bound."""
    shown = fmt.noise(gap, limit)
    if gap == 0:
        return "exactly 0"
    if gap <= limit:
        return f"{shown.replace(' (float64 rounding)', '')}: float64 rounding from summing in another order"
    return f"{shown}, more than this page's rounding bound ({fmt.sci(limit)}) allows"


def gap_readout(gap: float, limit: float) -> str:
    """A gap's readout: rounding noise as its bound (issue #24, item 3), a real gap as its value."""
    if gap <= limit:
        return fmt.noise(gap, limit)
    return fmt.num(gap) if gap >= 5e-5 else fmt.sci(gap)  # never "0.0000" for a gap that is not 0


def mask_text(s: Shuffle, labels: Sequence[str]) -> str:
    """What the causal mask does to this order, each claim under the condition the view says holds."""
    if s.moved is None:
        with_mask = f"with it the gap is {gap_text(s.masked.gap, s.limit)}"
        if s.identity:
            return (
                f"This order leaves every token where it was, so the mask has nothing to break ({with_mask})."
            )
        if all(s.same_mix):
            return (
                "This order moves tokens, but every token still sees the same words in the same proportions "
                "up to itself (a repeated word has one embedding), so the mask has nothing to break "
                f"({with_mask})."
            )
        return (
            "This order changes what some tokens see, yet no output moves by more than rounding "
            f"({with_mask})."
        )
    m = s.moved
    name = md(labels[m.token])
    if m.stayed:
        return (
            f"The largest change is at position {m.after}, **{name}**, which did not move: the tokens before "
            f"it changed. It saw {_tokens(labels, m.saw)}; it now sees {_tokens(labels, m.sees)}."
        )
    saw = "only itself" if m.before == 1 else f"the first {m.before} tokens"
    sees = "only itself" if m.after == 1 else _tokens(labels, m.sees)
    return (
        f"The largest change is **{name}**: at position {m.before} it saw {saw}; moved to position "
        f"{m.after}, it sees {sees}."
    )


def order_text(v: View, labels: Sequence[str]) -> str:
    """Why the shuffle changes nothing without the mask, what it moves with it (``labels`` name the
    sentence on screen), and what one layer hides (shown on the book's sentence)."""
    s: Shuffle = v.shuffle
    pre = v.prefix
    shuffled = " ".join(T[i] for i in PREFIX_ORDER)
    one = fmt.noise(pre.one_layer, pre.limit)
    if pre.two_layers > pre.limit:
        two = (
            f"after two stacked layers it is {fmt.num(pre.two_layers)}, because each earlier token's "
            "first-layer output already depends on its own prefix"
        )
        recover = "Stacked causal layers can recover order; GPT models still add"
    else:
        two = f"after two stacked layers it is {fmt.noise(pre.two_layers, pre.limit)} as well"
        recover = "GPT models add"
    return (
        "Without the mask, shuffling the inputs shuffles the outputs and changes nothing else: every score "
        "is a dot product of two tokens, and a softmax does not care in which order its terms arrive "
        f"(the gap is {gap_text(s.free.gap, s.limit)}). The causal mask is the only step in chapter 3 that "
        "knows where a token sits: position *i* sees positions 1 to *i*, so a moved token sees a different "
        f"prefix. {mask_text(s, labels)}\n\n"
        "Unmasked attention cannot tell *dog bites man* from *man bites dog*: each word gets the same "
        "output in both. In one layer, the mask tells a token which others came before it, never how far "
        "back or in what order. That is a fact about one layer. Reorder the five tokens before "
        f"*{T[-1]}* in the book's sentence (*{shuffled}*): after one causal layer the change in its output "
        f"is {one}; {two} (square weights, each layer its own: after torch.manual_seed({limits.STACK_SEED}), "
        "torch.rand(3, 3) for layer 1's three matrices, then layer 2's three). "
        f"{recover} position embeddings to the token embeddings before the first block, which is why the "
        "book calls `inputs` *input* embeddings and not token embeddings."
    )


def share_text(ratio: float) -> str:
    """A cache as a share of the weights: a percentage below twice, a multiple from there."""
    if ratio >= 2:
        return f"{ratio:,.1f} times"
    if ratio < 1e-3:
        return f"{fmt.sci(100 * ratio)}% of"
    decimals = 1
    while ratio != 1 and float(fmt.percent(ratio, decimals)[:-1]) == 100 and decimals < 9:  # not "100.0%"
        decimals += 1
    return fmt.percent(ratio, decimals) + " of"


def exceeds_help(kv: KvCache) -> str:
    """The readout's fine print: how the weights are counted, and what holds one token earlier."""
    before = kv.exceeds - 1
    if before == 0:
        return (
            "The blocks' weights stored with the same bytes per number as the cache; one token's cache "
            "holds more."
        )
    at = (
        f"at {fmt.count(before, 'token')} the two are equal ({fmt.integer(kv.weight_bytes)} bytes each)"
        if kv.equal_at is not None
        else f"at {fmt.count(before, 'token')} the cache is still smaller"
    )
    return f"The blocks' weights stored with the same bytes per number as the cache; {at}."


def kv_text(v: View) -> str:
    """The KV cache: what it saves, when it passes the blocks' weights (equal at one count, larger
    from the next: issue #24, item 2), whether this model's context gets there, and the book's
    three costs in its own words."""
    kv = v.kv
    sequences = "" if kv.batch == 1 else f" (for each of {kv.batch:,} sequences in the batch)"
    if kv.equal_at is not None:
        cross = (
            f"At {fmt.count(kv.equal_at, 'token')}{sequences} the cache equals the blocks' weights "
            f"({fmt.integer(kv.weight_bytes)} bytes each); from {fmt.count(kv.exceeds, 'token')} on it "
            "exceeds them."
        )
    else:
        cross = (
            f"From {fmt.count(kv.exceeds, 'token')}{sequences} on, the cache holds more bytes than the "
            f"blocks' weights ({fmt.integer(kv.weight_bytes)} bytes)."
        )
    if kv.exceeds <= kv.context_length:
        reach = (
            f"This model's context, {fmt.count(kv.context_length, 'token')}, gets there: at its full context "
            f"the cache is {share_text(kv.full_share)} the blocks' weights."
        )
    else:
        reach = (
            f"This model's context, {fmt.count(kv.context_length, 'token')}, stops short of it: at its full "
            f"context the cache is {share_text(kv.full_share)} the blocks' weights."
        )
    return (
        "Each layer keeps one key and one value vector per token already seen, so generating the next "
        "token costs one new row per layer instead of re-projecting the whole prefix. The cache grows "
        "linearly in tokens, unlike the n × n score matrix on the *What n² costs* page. "
        f"{cross} {reach} Memory is one of three costs. The book's KV-cache material: "
        f"“{book.BOOK_KV_CACHE}” ({KV_CACHE_SOURCE})"
    )
