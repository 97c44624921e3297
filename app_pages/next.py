"""What comes next (figure 07): what one block costs, why attention cannot see order, the KV cache."""

import numpy as np
import pandas as pd
import streamlit as st

from core import block, book, equivariance, tokens, weights
from ui import checks, next_figures
from ui import format as fmt
from ui.block_controls import block_config_control, kv_cache_control, permutation_control
from ui.figures import show
from ui.focus import focus_control

T = tokens.TOKENS
cfg, problem = block_config_control()
kv_tokens, kv_bytes, kv_batch = kv_cache_control()

st.title("What comes next")
st.markdown(
    "Chapter 3 ends with a working multi-head attention module, and it is not yet a model. "
    "Three things are missing, roughly in order of how much their absence hurts:\n"
    "1. **A residual connection and a layer norm around it.** The module returns context vectors; "
    "until its output is added back to its input and normalised, it is not a layer of anything.\n"
    "2. **A feed-forward network.** Attention moves information *between* positions and does no "
    "computation *at* any of them. The small MLP after it holds two thirds of a block's parameters.\n"
    "3. **A KV cache.** The book leaves it out on purpose, because it costs memory. Below is the bill."
)

st.header("One block's parameters")
if problem:
    st.warning(f"{problem} Showing the last valid configuration.")
params = block.block_params(cfg)
name = block.matching_preset(cfg) or "a custom block"
st.caption(
    f"Showing **{name}**: emb_dim {cfg.emb_dim:,}, {cfg.n_heads} heads of {cfg.head_dim}, "
    f"feed-forward hidden width {cfg.ff_hidden:,}, qkv_bias {cfg.qkv_bias}."
)
m = st.columns(4)
m[0].metric("Attention", fmt.integer(params.attention), help="W_query, W_key, W_value + out_proj (with bias)")
m[1].metric("Feed-forward", fmt.integer(params.feed_forward), help="Linear(d, 4d) + GELU + Linear(4d, d)")
m[2].metric("Layer norms", fmt.integer(params.layer_norms), help="Two LayerNorm(d): a scale and a shift each")
m[3].metric("Whole block", fmt.integer(params.total), help="Attention + feed-forward + layer norms")
st.caption(
    f"{cfg.n_layers} blocks hold **{fmt.integer(block.stack_params(cfg))}** parameters "
    "(token and position embeddings, the final norm and the output head come on top). "
    "Context length changes none of these: the causal mask is a buffer, not a parameter."
)
show(
    next_figures.param_split(params.components(), block.SUBLAYER, title="Where one block's parameters sit"),
    key="split",
)
st.latex(
    r"\underbrace{3\,(d^2 + b\,d) + d^2 + d}_{\text{attention}} \;+\;"
    r"\underbrace{2\,m d^2 + m d + d}_{\text{feed-forward}} \;+\; \underbrace{4d}_{\text{2 norms}}"
    rf",\qquad d = {cfg.emb_dim},\ m = {cfg.ff_mult},\ b = {int(cfg.qkv_bias)}"
)
preset_rows = {n: block.block_params(p) for n, p in block.GPT2_PRESETS.items()}
st.dataframe(
    pd.DataFrame(
        {
            "attention": [fmt.integer(p.attention) for p in preset_rows.values()],
            "feed-forward": [fmt.integer(p.feed_forward) for p in preset_rows.values()],
            "whole block": [fmt.integer(p.total) for p in preset_rows.values()],
            "all blocks": [fmt.integer(block.stack_params(c)) for c in block.GPT2_PRESETS.values()],
        },
        index=list(preset_rows),
    ),
    width="stretch",
)
st.caption(
    "The four presets with the book's qkv_bias=False, which its printed counts assume. GPT-2's released "
    "weights use qkv_bias=True (3 × emb_dim more per block); the sidebar toggle shows the difference."
)

st.header("Shuffle the tokens")
perm, bad_order = permutation_control(T, default=(5, 4, 3, 2, 1, 0))
if bad_order:
    st.warning(f"{bad_order} Showing the last valid order, {equivariance.format_permutation(perm)}.")
st.markdown("Shuffled sentence: **" + " ".join(T[i] for i in perm) + "** (section 3.4 weights).")
x, ws = tokens.inputs(), weights.section_3_4()
free, masked = (equivariance.permutation_test(x, ws, perm, causal) for causal in (False, True))
bound = max(free.gap, masked.gap)
rows = [T[i] for i in perm]
st.sidebar.header("Shuffle")
fq = focus_control(T, key="next_focus", label="Focus on a token")
focus_row = None if fq is None else perm.index(fq)  # its row: its position in the shuffled order
for col, result, label in zip(
    st.columns(2), (free, masked), ("Without the mask", "With the causal mask"), strict=True
):
    with col:
        st.metric(f"{label}: max |P·f(X) − f(P·X)|", fmt.num(result.gap), help=f"exactly {result.gap:.3e}")
        diff = result.permuted_outputs - result.outputs_of_permuted
        heatmap = next_figures.difference_heatmap(
            diff, rows, bound=bound, title="P·f(X) − f(P·X)", focus=focus_row
        )
        show(heatmap, key=label)
if focus_row is not None:
    shuffled, before, free_z = (
        fmt.vec(m[focus_row])
        for m in (masked.outputs_of_permuted, masked.permuted_outputs, free.permuted_outputs)
    )
    st.markdown(
        f"**Focus: {T[fq]}**, at position {focus_row + 1} of the shuffled sentence ({fq + 1} before). "
        f"With the causal mask its context vector is **{before}** in the original order and "
        f"**{shuffled}** shuffled; without the mask it is {free_z} either way."
    )
rounding = (
    "exactly 0" if free.gap == 0 else f"{fmt.sci(free.gap)}, float64 rounding from summing in another order"
)
if masked.gap == 0:
    moved = "This order leaves every token where it was, so the mask has nothing to break."
else:
    i = int(np.argmax(np.max(np.abs(masked.permuted_outputs - masked.outputs_of_permuted), axis=1)))
    before = perm[i] + 1
    saw = "only itself" if before == 1 else f"the first {before} tokens"
    moved = (
        f"The largest change is **{T[perm[i]]}**: at position {before} it saw {saw}; moved to "
        f"position {i + 1}, it sees "
        + ("only itself." if i == 0 else ", ".join(f"*{T[j]}*" for j in perm[: i + 1]) + ".")
    )
st.markdown(
    "Without the mask, shuffling the inputs shuffles the outputs and changes nothing else: every score "
    "is a dot product of two tokens, and a softmax does not care in which order its terms arrive "
    f"(the gap is {rounding}). The causal mask is the only step in chapter 3 that knows where a token "
    f"sits: position *i* sees positions 1 to *i*, so a moved token sees a different prefix. {moved}\n\n"
    "Unmasked attention cannot tell *dog bites man* from *man bites dog*: each word gets the same "
    "output in both. The mask tells a token which others came before it, never how far back or in "
    "what order. Word order has to be in the inputs already: position embeddings are added to the "
    "token embeddings before the first "
    "block, which is why the book calls `inputs` *input* embeddings and not token embeddings."
)

st.header("The KV cache")
cached = min(kv_tokens, cfg.context_length)  # a model attends to at most its context length
per_token = block.kv_cache_bytes(cfg.n_layers, 1, cfg.emb_dim, kv_bytes, kv_batch)
cache = block.kv_cache_bytes(cfg.n_layers, cached, cfg.emb_dim, kv_bytes, kv_batch)
full = block.kv_cache_bytes(cfg.n_layers, cfg.context_length, cfg.emb_dim, kv_bytes, kv_batch)
weight_bytes = block.stack_params(cfg) * kv_bytes
k = st.columns(4)
k[0].metric("Cache size", next_figures.binary_size(cache), help="Keys and values of every layer, every token")
k[1].metric("Per token", fmt.integer(per_token) + " bytes")
k[2].metric(
    f"At the full context, {cfg.context_length:,} tokens",
    next_figures.binary_size(full),
    help="The most this model ever caches for one sequence: the context length caps the cache.",
)
k[3].metric(
    "Outgrows the blocks' weights at",
    fmt.integer(block.tokens_to_outgrow(per_token, weight_bytes)) + " tokens",
    help="Weights stored with the same bytes per number as the cache",
)
if kv_tokens > cfg.context_length:
    st.warning(
        f"{kv_tokens:,} tokens asked for, but this model attends to at most its context length, "
        f"{cfg.context_length:,} tokens, so its cache stops there. Raise the context length in the "
        "sidebar to cache more.",
        icon=":material/block:",
    )
factors = (2, cfg.n_layers, cached, cfg.emb_dim, kv_bytes, kv_batch)
st.latex(
    r" \times ".join(fmt.integer(f) for f in factors).replace(",", "{,}")
    + rf" = {cache:,}".replace(",", "{,}")
)
st.caption("2 (a key and a value) × layers × tokens × width × bytes per number × batch.")
grid = np.unique(np.concatenate([2 ** np.arange(22), [cached]])).astype(np.int64)
curves = [
    (
        f"{name} (current)",
        [block.kv_cache_bytes(cfg.n_layers, int(n), cfg.emb_dim, kv_bytes, kv_batch) for n in grid],
        True,
    )
]
curves += [
    (n, [block.kv_cache_bytes(p.n_layers, int(t), p.emb_dim, kv_bytes, kv_batch) for t in grid], False)
    for n, p in block.GPT2_PRESETS.items()
    if n != block.matching_preset(cfg)
]
show(
    next_figures.kv_curves(
        grid,
        curves,
        weights_bytes=weight_bytes,
        point=(cached, cache),
        context_length=cfg.context_length,
        title="KV cache against context length",
    ),
    key="kv",
)
st.markdown(
    "Each layer keeps one key and one value vector per token already seen, so generating the next "
    "token costs one new row per layer instead of re-projecting the whole prefix. The cache grows "
    "linearly in tokens, unlike the n × n score matrix on the *What n² costs* page, and at long contexts it "
    "outweighs the model."
)

gpt2 = block.block_params(block.BlockConfig())
checks.expander(
    [
        checks.same(
            "Attention parameters, one GPT-2 small block",
            book.FIGURE_07["attention_params"],
            fmt.integer(gpt2.attention),
            "W_q, W_k, W_v without bias + out_proj",
        ),
        checks.same(
            "Feed-forward parameters, one GPT-2 small block",
            book.FIGURE_07["feed_forward_params"],
            fmt.integer(gpt2.feed_forward),
            "Linear(768, 3072) + GELU + Linear(3072, 768)",
        ),
    ],
    note="Quoted: the post's figure 07 (the book's chapter 4 counts, GPT_CONFIG_124M, qkv_bias=False). "
    "Live: computed for GPT-2 small whatever the controls say.",
)
