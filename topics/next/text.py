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
from topics.next.view import PREFIX_ORDER, Focus, Shuffle, View
from ui import format as fmt
from ui.sentence import md

T = tokens.TOKENS
KV_CACHE_SOURCE = "rasbt/LLMs-from-scratch, ch04/03_kv-cache/README.md"


def lead(v: View) -> str:
    """What the module still lacks, with the feed-forward's share of the block on screen."""
    return (
        "Chapter 3 ends with a working multi-head attention module, and it is not yet a model. "
        "Three things are missing, roughly in order of how much their absence hurts:\n"
        "1. **A residual connection and a layer norm around it.** The module returns context vectors; "
        "until its output is added back to its input and normalised, it is not a layer of anything.\n"
        "2. **A feed-forward network.** Attention moves information *between* positions and does no "
        "per-position *nonlinear* computation. It is not idle at a position: $W_v$ and `out_proj` act on "
        "every one, linearly (below, token 1's output is exactly `out_proj`($W_v x_1$)). The post's "
        f"“{book.FIGURE_07['no_computation']}” overstates it. The MLP after it, with its GELU, holds "
        f"{fmt.percent(v.ff_share)} of this block's parameters.\n"
        "3. **A KV cache.** The post says the book leaves it out "
        f"“{book.FIGURE_07['kv_cache_reason']}”. The book's own KV-cache material names three costs: "
        "it adds complexity to the code, increases memory use, and cannot be used during training. "
        "Below is the memory bill."
    )


def first_token_text(first: limits.FirstToken) -> str:
    """Token 1 under the mask: the book's MultiHeadAttention reduces to two linear maps."""
    return (
        f"Under the causal mask token 1 sees only itself, so its weight is {fmt.num(first.weight)} and "
        f"the book's `MultiHeadAttention` (seed 123, section 3.6.2) returns {fmt.vec(first.output)} for it: "
        f"exactly `out_proj`($W_v x_1$) = {fmt.vec(first.direct)}, a gap of {first.gap:g}. Two matrix "
        "multiplications and a bias, all linear: what a position lacks is a nonlinearity, which is what "
        "the feed-forward's GELU brings."
    )


def focus_text(f: Focus, labels: Sequence[str]) -> str:
    """Where the focused token lands in the shuffle, and its context vector both ways."""
    return (
        f"**Focus: {md(labels[f.token])}**, at position {f.after} of the shuffled sentence "
        f"({f.before} before). "
        f"With the causal mask its context vector is **{fmt.vec(f.masked_original)}** in the original "
        f"order and **{fmt.vec(f.masked_shuffled)}** shuffled; without the mask it is {fmt.vec(f.free)} "
        "either way."
    )


def order_text(v: View, labels: Sequence[str]) -> str:
    """Why the shuffle changes nothing without the mask, what it moves with it (``labels`` name the
    sentence on screen), and what one layer hides (shown on the book's sentence)."""
    s: Shuffle = v.shuffle
    rounding = (
        "exactly 0"
        if s.free.gap == 0
        else f"{fmt.sci(s.free.gap)}, float64 rounding from summing in another order"
    )
    if s.moved is None:
        moved = "This order leaves every token where it was, so the mask has nothing to break."
    else:
        m = s.moved
        saw = "only itself" if m.before == 1 else f"the first {m.before} tokens"
        moved = (
            f"The largest change is **{md(labels[m.token])}**: at position {m.before} it saw {saw}; moved "
            f"to position {m.after}, it sees "
            + ("only itself." if m.after == 1 else ", ".join(f"*{md(labels[j])}*" for j in m.sees) + ".")
        )
    shuffled = " ".join(T[i] for i in PREFIX_ORDER)
    return (
        "Without the mask, shuffling the inputs shuffles the outputs and changes nothing else: every score "
        "is a dot product of two tokens, and a softmax does not care in which order its terms arrive "
        f"(the gap is {rounding}). The causal mask is the only step in chapter 3 that knows where a token "
        f"sits: position *i* sees positions 1 to *i*, so a moved token sees a different prefix. {moved}\n\n"
        "Unmasked attention cannot tell *dog bites man* from *man bites dog*: each word gets the same "
        "output in both. In one layer, the mask tells a token which others came before it, never how far "
        "back or in what order. That is a fact about one layer. Reorder the five tokens before "
        f"*{T[-1]}* in the book's sentence (*{shuffled}*): after one causal layer its output moves by "
        f"{fmt.sci(v.prefix.one_layer)} "
        f"(rounding), after two stacked layers by {fmt.num(v.prefix.two_layers)}, because each earlier "
        "token's first-layer output already depends on its own prefix (square weights, torch.rand(3, 3), "
        f"seed {limits.STACK_SEED}). Stacked causal layers can recover order; GPT models still add position "
        "embeddings to the token embeddings before the first block, which is why the book calls `inputs` "
        "*input* embeddings and not token embeddings."
    )


def kv_text() -> str:
    """The KV cache: what it saves, and the book's three costs in its own words."""
    return (
        "Each layer keeps one key and one value vector per token already seen, so generating the next "
        "token costs one new row per layer instead of re-projecting the whole prefix. The cache grows "
        "linearly in tokens, unlike the n × n score matrix on the *What n² costs* page, and at long "
        "contexts it outweighs the model. Memory is one of three costs. The book's KV-cache material: "
        f"“{book.BOOK_KV_CACHE}” ({KV_CACHE_SOURCE})"
    )
