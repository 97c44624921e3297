"""Multi-head (figure 05): the wrapper against the split class, W_q's stripes, and a stopwatch."""

import streamlit as st

from core import book
from core import multihead as mh
from core.config import AttentionConfig
from topics.multihead import figures as mf
from topics.multihead import script
from topics.multihead import study as view
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.sentence import checks_note, sentence_control

KIND_CAPTIONS = ("H separate heads, outputs glued", "one matrix per role, sliced")

s = sentence_control()

view.sync_preset()
preset = controls.select(
    "Preset", view.PRESET_NAMES, key="preset", default="Book toy", on_change=view.apply_preset
)
kind = controls.radio(
    "Class", mh.KINDS, key="kind", default="split", format_func=str.capitalize, captions=KIND_CAPTIONS
)
heads = controls.slider("Number of heads H", 1, 16, 2, key="heads")
d_in = controls.select_slider(
    "d_in",
    view.WIDTHS,
    key="d_in",
    default=3,
    help="The sentence's width (3 unless widened) runs its tokens; any other gets stand-ins.",
)
d_out = controls.select_slider(
    "d_out", view.WIDTHS, key="d_out", default=2, help="Per head in the wrapper; the total when split."
)
seed = controls.slider(
    "Seed", 0, 1000, 123, key="mh_seed", help="torch.manual_seed(seed); the book uses 123."
)
fq = focus_control(s.labels, key="mh_focus")
view.rerun_if_preset_stale(preset)
cfg = AttentionConfig(d_in, d_out, heads, 1024 if preset == "GPT-2 small" else s.n)

st.title("One matrix, sliced into stripes")
st.markdown(
    "The wrapper runs H complete attention modules and glues their outputs together. The split "
    "class runs one projection per role and cuts its columns into heads: head 1 owns the first "
    "head_dim columns, head 2 the next. A matrix product keeps columns apart, so one big matmul "
    "computes every head at once, and `.view` and `.transpose` only relabel the result."
)
st.caption(view.describe(kind, cfg, seed, s))
st.caption(view.gpt3_note())

shapes = view.output_shapes(cfg, n=s.n)
width = mh.head_width(kind, cfg) if kind == "wrapper" or cfg.divisible else None
# Three a row, both output shapes in the second: six a row cut GPT-2's "[2, 6, 9216]" short. Three a
# row on a phone too (no stacking): six stacked metrics pushed the figures two screens down.
c1, c2, c5, c3, c4, c6 = (*st.columns(3, wrap=False), *st.columns(3, wrap=False))
c1.metric("head_dim" if kind == "split" else "Head width = d_out", "—" if width is None else str(width))
c2.metric("Divisor √keys.shape[-1]", "—" if width is None else view.divisor_text(width))
c3.metric("Output, wrapper", shapes["wrapper"], help="d_out × H wide: d_out is per head.")
c4.metric("Output, split", shapes["split"], help="d_out wide: d_out is the total.")
c5.metric(
    "Projection matmuls", str(3 * heads if kind == "wrapper" else 3), help="3H for the wrapper, 3 split."
)
c6.metric(
    "Parameters",
    "—" if width is None else fmt.integer(mh.counts(kind, cfg).total_params),
    help="Of the class as set, out_proj included.",
)
if cfg.divisible and cfg.head_dim > 1:
    st.caption(
        f"The split class divides its scores by √{cfg.head_dim} = {view.divisor_text(cfg.head_dim)}, "
        f"not by √d_out = √{d_out} = {d_out**0.5:.1f}: keys.shape[-1] is read after the reshape."
    )
if width is None:
    st.warning(view.split_error(cfg), icon=":material/block:")
else:
    if width == 1:
        st.warning(view.HEAD_DIM_1, icon=":material/visibility_off:")
    run = view.run(kind, d_in, d_out, heads, seed, cfg.context_length, s.embeddings)
    if run.error is not None:
        st.info(run.error, icon=":material/info:")
    else:
        wq, attn, out = view.figures_for(
            kind, d_in, d_out, heads, seed, cfg.context_length, s.embeddings, s.labels, fq
        )
        figures.show(wq, key="mh_wq")
        if max(run.w_query.shape) > mf.MAX_CELLS:
            st.caption("Thinned for the screen: every k-th row and column of each head is drawn.")
        figures.show(attn, key="mh_a")
        figures.show(out, key="mh_o")
        if fq is not None:
            context_note(s.labels, fq, run.output_rows[fq], extra="That is its row of the output above.")
        if kind == "split":
            st.caption("out_proj mixes the heads, so the output has no stripes; the line before it does.")
        st.subheader("The shape trace, as it ran")
        trace = view.trace_table(run.steps, kind, heads)
        st.dataframe(trace, width="stretch", hide_index=True, height=35 * (len(trace) + 1) + 3)

if cfg.divisible:
    st.subheader("At matched output width")
    st.dataframe(view.comparison_table(cfg), width="stretch")
    st.markdown(
        "The projections hold the same parameters either way; what differs is how many matrix "
        f"multiplications carry them, {3 * heads} against 3 here. The split class then adds "
        f"`out_proj`, a mixing layer of {fmt.integer(d_out * d_out + d_out)} parameters the wrapper lacks."
    )
st.subheader("The four lines that differ")
st.code(book.FIGURE_05["four_lines"], language="python")
st.markdown(
    "Everything between them is the single-head causal attention, unchanged. The divisor line is "
    "character for character the same, and means head_dim instead of d_out."
)

view.exercise_3_2_section()
view.measure_section()
reproduce_ui.expander(
    "multihead",
    lambda: script.multihead_script(s.labels, s.embeddings, kind, cfg, seed, view.MAX_DRAWN_PARAMS),
)
checks.expander(view.book_checks(), note=checks_note(s, view.CHECKS_NOTE))
