"""What comes next (figure 07): what one block costs, why attention cannot see order, the KV cache.

Layout only: the controls, then ``view.build``, then the figures, readouts and prose. The block's
sections, which read no order, are drawn from the view at the default order before the shuffle box.
"""

from dataclasses import replace

import streamlit as st

from topics.next import checks, figures, script, study, view
from topics.next import text as prose
from topics.next.controls import block_config_control, kv_cache_control, permutation_control, row_picker
from topics.next.equivariance import format_permutation
from ui import cell as cell_ui
from ui import checks as checks_ui
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui import theme
from ui.figures import Relative, show
from ui.focus import focus_control
from ui.scale import pale_hint, scale_control
from ui.sentence import md, sentence_control

sentence = sentence_control()
T = sentence.labels
cfg, problem = block_config_control()
kv_tokens, kv_bytes, kv_batch = kv_cache_control()

st.title("What comes next")
# The block's sections read no order: drawn first, from the view at the sentence reversed, so nothing
# is inserted above what the reader sees once the shuffle box below is read (layout shift 0.46).
s = view.Settings(T, sentence.embeddings, cfg, kv_tokens=kv_tokens, kv_bytes=kv_bytes, kv_batch=kv_batch)
head = study.page_view(view.default_order(s))
p, scheme = head.params, theme.active().mode
charts = study.block_charts(cfg=cfg, kv_tokens=kv_tokens, kv_bytes=kv_bytes, kv_batch=kv_batch, scheme=scheme)
if problem:
    st.warning(f"{problem} Showing the last valid configuration.")
st.markdown(prose.lead(head))
st.header("One block's parameters")
st.caption(prose.block_caption(head))
# The chart first, its exact numbers after: four stacked readouts kept a phone from the chart.
show(charts["split"], key="split")
m = st.columns(4)
m[0].metric("Attention", fmt.integer(p.attention), help="W_query, W_key, W_value + out_proj (with bias)")
m[1].metric("Feed-forward", fmt.integer(p.feed_forward), help="Linear(d, 4d) + GELU + Linear(4d, d)")
m[2].metric("Layer norms", fmt.integer(p.layer_norms), help="Two LayerNorm(d): a scale and a shift each")
m[3].metric("Whole block", fmt.integer(p.total), help="Attention + feed-forward + layer norms")
st.caption(prose.stack_caption(head))
st.latex(
    r"\underbrace{3\,(d^2 + b\,d) + d^2 + d}_{\text{attention}} \;+\;"
    r"\underbrace{2\,m d^2 + m d + d}_{\text{feed-forward}} \;+\; \underbrace{4d}_{\text{2 norms}}"
    rf",\qquad d = {head.block.emb_dim},\ m = {head.block.ff_mult},\ b = {int(head.block.qkv_bias)}"
)
st.dataframe(figures.presets_table(head.presets), width="stretch")
st.caption(
    "The four presets with the book's qkv_bias=False, which its printed counts assume. GPT-2's released "
    "weights use qkv_bias=True (3 × emb_dim more per block); the sidebar toggle shows the difference."
)

st.header("Shuffle the tokens")
perm, bad_order = permutation_control(T)
st.sidebar.header("Shuffle")
focus_slot = st.sidebar.container()  # the focus and cell controls: drawn by the shuffle fragment
relative = scale_control("next_scale")
s = replace(s, perm=perm)
v = head if perm == head.shuffle.perm else study.page_view(s)  # all a focus or cell click leaves alone
sh, kv = v.shuffle, v.kv
shown: dict[str, view.Settings] = {}  # the settings on screen, focus included: for the Reproduce script

if bad_order:
    st.warning(f"{bad_order} Showing the last valid order, {format_permutation(sh.perm)}.")
st.markdown("Shuffled sentence: **" + " ".join(md(r) for r in sh.rows) + "** (section 3.4 weights).")


@st.fragment
def shuffle_section(v: view.View, s: view.Settings, relative: Relative | None) -> None:
    """What a focus or cell click changes, and nothing else: a click reruns only this."""
    focus = focus_control(s.labels, key="next_focus", label="Focus on a token", where=focus_slot)
    cell = cell_ui.cell_control(s.labels, key="next_cell", where=focus_slot)
    sh = view.focus_on(v.shuffle, s.labels, s.embeddings, focus, cell)
    last, shown["settings"] = shown.get("settings"), replace(s, focus=focus, cell=cell)
    if last and (last.focus, last.cell) != (focus, cell) and st.session_state.get("reproduce_next"):
        st.rerun()  # a click (not the page's run) while the script is open: the script follows it
    mode = theme.active().mode
    gaps = study.shuffle_charts(
        labels=s.labels, x=s.embeddings, perm=sh.perm, focus=focus, cell=cell, relative=relative, scheme=mode
    )
    for col, result, label in zip(
        st.columns(2), (sh.free, sh.masked), ("Without the mask", "With the causal mask"), strict=True
    ):
        with col:
            st.metric(f"{label}: max |P·f(X) − f(P·X)|", prose.gap_readout(result.gap, sh.limit))
            show(gaps[label], key=label, pick=row_picker(label, "next_focus", sh.perm))
    st.caption(prose.DIFFERENCE_CLICK)
    if sh.focus is not None:
        st.markdown(prose.focus_text(sh.focus, s.labels))
    st.subheader("The attention behind it, one cell at a time")
    left, right = st.columns(2)
    with left:
        pick = cell_ui.picker("next_weights", "next_focus", "next_cell", rows=sh.perm, cols=sh.perm)
        show(gaps["next_weights"], key="next_weights", pick=pick)
        st.caption(prose.weights_caption(v))
        if hint := pale_hint(len(s.labels), relative):
            st.caption(hint)
    if sh.cell is not None:
        cell_ui.panel(sh.cell, where=right)
    else:
        right.caption("Click any cell, or pick a token to focus on, to see its arithmetic step by step.")


shuffle_section(v, s, relative)
st.markdown(prose.order_text(v, T))

st.header("What attention computes at a position")
st.markdown(prose.first_token_text(v.first))

st.header("The KV cache")
k = st.columns(4)
k[0].metric("Cache size", figures.binary_size(kv.bytes), help="Keys and values of every layer, every token")
k[1].metric("Per token", fmt.count(kv.per_token, "byte"))
k[2].metric(
    f"At the full context, {fmt.count(v.block.context_length, 'token')}",
    figures.binary_size(kv.full),
    help="The most this model ever caches for one sequence: the context length caps the cache.",
)
k[3].metric(
    "Exceeds the blocks' weights from",
    fmt.count(kv.exceeds, "token"),
    help=prose.exceeds_help(kv),
)
if kv.capped:
    st.warning(
        f"{fmt.count(kv_tokens, 'token')} asked for, but this model attends to at most its context "
        f"length, {fmt.count(v.block.context_length, 'token')}, so its cache stops there. Raise the "
        "context length in the sidebar to cache more.",
        icon=":material/block:",
    )
st.latex(
    r" \times ".join(fmt.integer(f) for f in kv.factors).replace(",", "{,}")
    + rf" = {kv.bytes:,}".replace(",", "{,}")
)
st.caption("2 (a key and a value) × layers × tokens × width × bytes per number × batch.")
show(charts["kv"], key="kv")
st.markdown(prose.kv_text(v))

reproduce_ui.expander("next", lambda: script.for_view(shown["settings"], view.build(shown["settings"])))
checks_ui.expander(checks.book_checks(v), note=checks.NOTE)
