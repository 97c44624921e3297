"""What comes next (figure 07): what one block costs, why attention cannot see order, the KV cache."""

import numpy as np
import pandas as pd
import streamlit as st

from core import block, equivariance, limits, reproduce, weights
from core.sentence import weights_for
from ui import checks, next_figures
from ui import format as fmt
from ui import next_text as text
from ui import reproduce as reproduce_ui
from ui.block_controls import block_config_control, kv_cache_control, permutation_control
from ui.figures import show
from ui.focus import focus_control
from ui.sentence import md, sentence_control

sentence = sentence_control()
T = sentence.labels
cfg, problem = block_config_control()
kv_tokens, kv_bytes, kv_batch = kv_cache_control()

st.title("What comes next")
if problem:
    st.warning(f"{problem} Showing the last valid configuration.")
params = block.block_params(cfg)
st.markdown(text.lead(params))

st.header("One block's parameters")
name = block.matching_preset(cfg) or "a custom block"
st.caption(
    f"Showing **{name}**: emb_dim {cfg.emb_dim:,}, {cfg.n_heads} heads of {cfg.head_dim}, "
    f"feed-forward hidden width {cfg.ff_hidden:,}, qkv_bias {cfg.qkv_bias}."
)
# The chart first, its exact numbers after: four stacked readouts kept a phone from the chart.
show(
    next_figures.param_split(params.components(), block.SUBLAYER, title="Where one block's parameters sit"),
    key="split",
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
perm, bad_order = permutation_control(T, default=tuple(range(len(T) - 1, -1, -1)))
if bad_order:
    st.warning(f"{bad_order} Showing the last valid order, {equivariance.format_permutation(perm)}.")
st.markdown("Shuffled sentence: **" + " ".join(md(T[i]) for i in perm) + "** (section 3.4 weights).")
x, ws = sentence.embeddings, weights_for(weights.section_3_4(), sentence.width)
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
if fq is not None:
    st.markdown(text.focus_text(free, masked, perm, T, fq))
st.markdown(text.order_text(free, masked, perm, T))

st.header("What attention computes at a position")
st.markdown(text.first_token_text(limits.first_token()))

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
st.markdown(text.kv_text())

reproduce_ui.expander(
    "next",
    lambda: reproduce.what_comes_next(T, x, ws, perm, cfg, kv_tokens, kv_bytes, kv_batch),
)
checks.expander(
    text.book_checks(),
    note="Quoted: the book's chapter 4 counts (GPT_CONFIG_124M, qkv_bias=False), as the post's figure 07 "
    "quotes them, and the post's sentence on per-position computation. Live: computed for GPT-2 small and "
    "the book's section 3.6.2 MultiHeadAttention, whatever the controls say.",
)
