"""Multi-head (figure 05): the wrapper against the split class, W_q's stripes, and a stopwatch."""

import streamlit as st

from core import book
from core import multihead as mh
from topics.multihead import checks as mh_checks
from topics.multihead import pick, presets, script, stopwatch, study, view
from ui import cell as cell_ui
from ui import checks, controls, figures, theme
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, sentence_control

KIND_CAPTIONS = ("H separate heads, outputs glued", "one matrix per role, sliced")
D = view.Settings()  # the defaults

s = sentence_control()

presets.sync()
preset = controls.select("Preset", view.PRESET_NAMES, key="preset", default=D.preset, on_change=presets.apply)
kind = controls.radio(
    "Class", mh.KINDS, key="kind", default=D.kind, format_func=str.capitalize, captions=KIND_CAPTIONS
)
heads = controls.slider("Number of heads H", 1, view.MAX_HEADS, D.heads, key="heads")
d_in = controls.select_slider(
    "d_in",
    view.WIDTHS,
    key="d_in",
    default=D.d_in,
    help="The sentence's width (3 unless widened) runs its tokens; any other gets stand-ins.",
)
d_out = controls.select_slider(
    "d_out", view.WIDTHS, key="d_out", default=D.d_out, help="Per head in the wrapper; the total when split."
)
seed = controls.slider(
    "Seed", 0, view.MAX_SEED, D.seed, key="mh_seed", help="torch.manual_seed(seed); the book uses 123."
)
presets.rerun_if_stale(preset)
settings = view.Settings(s.labels, s.embeddings, preset, kind, heads, d_in, d_out, seed)
v = study.view_of(settings)
trace, comparison, exercise = study.tables(settings)
scheme = theme.active().mode


@st.fragment
def focused(g: view.Settings, v: view.View, scheme: str) -> None:
    """The focus, the cell, its head and the scale, and all they change: a click reruns only this.
    Its controls stand at the sidebar's end, and keep their values where nothing is drawn."""
    fq = focus_control(g.labels, key=pick.FOCUS)
    f = view.focused(g, v, fq, cell_ui.cell_control(g.labels, key=pick.CELL), pick.head_control(g.heads),
                     head_run=study.head_projections)  # fmt: skip
    relative = scale_control("mh_scale")
    if v.run is None or v.run.weights is None:
        return
    for start in range(0, g.heads, 3):  # three a row; a phone stacks them, so cells stay legible
        for col, h in zip(st.columns(3), range(start, min(start + 3, g.heads)), strict=False):
            chosen = f.focus is not None and h == f.head
            chart = study.head_chart(  # by name: Streamlit reads the signature per positional argument
                weights=v.run.weights[h], labels=g.labels, head=h, heads=g.heads, chosen=chosen,
                focus=f.focus, cell=f.key if chosen else None, relative=relative, scheme=scheme,
            )  # fmt: skip
            with col:
                figures.show(chart, key=pick.chart_key(h), pick=pick.picker(h))
    if hint := pale_hint(len(g.labels), relative, causal=True):
        st.caption(hint)
    if f.cell is not None:
        cell_ui.panel(f.cell)
    else:
        st.caption(
            "Click any cell of a head, or pick a query to focus on, to see its arithmetic step by step."
        )
    output = study.output_chart(
        kind=g.kind, d_in=g.d_in, d_out=g.d_out, heads=g.heads, seed=g.seed,
        context_length=v.config.context_length, x=g.x, labels=g.labels, focus=f.focus, scheme=scheme,
    )  # fmt: skip
    figures.show(output, key="mh_o")
    if f.focus is not None and f.context is not None:
        context_note(g.labels, f.focus, f.context, extra="That is its row of the output above.")


st.title("One matrix, sliced into stripes")
st.markdown(
    "The wrapper runs H complete attention modules and glues their outputs together. The split "
    "class runs one projection per role and cuts its columns into heads: head 1 owns the first "
    "head_dim columns, head 2 the next. A matrix product keeps columns apart, so one big matmul "
    "computes every head at once, and `.view` and `.transpose` only relabel the result."
)
st.caption(v.caption)
st.caption(v.gpt3_note)

# Three a row, both output shapes in the second: six a row cut GPT-2's "[2, 6, 9216]" short. Three a
# row on a phone too (no stacking): six stacked metrics pushed the figures two screens down.
for col, r in zip((*st.columns(3, wrap=False), *st.columns(3, wrap=False)), v.readouts, strict=True):
    col.metric(r.label, r.value, help=r.help)
if v.divisor_note is not None:
    st.caption(v.divisor_note)
drawn = v.split_error is None and v.run is not None and v.run.error is None and v.run.weights is not None
if v.split_error is not None:
    st.warning(v.split_error, icon=":material/block:")
elif v.run is not None:
    if v.head_width == 1:
        st.warning(view.HEAD_DIM_1, icon=":material/visibility_off:")
    if v.run.error is not None:
        st.info(v.run.error, icon=":material/info:")
    elif drawn:
        wq = study.wq_chart(
            kind=kind, d_in=d_in, d_out=d_out, heads=heads, seed=seed,
            context_length=v.config.context_length, x=s.embeddings, scheme=scheme,
        )  # fmt: skip
        figures.show(wq)
        if v.thinned:
            st.caption("Thinned for the screen: every k-th row and column of each head is drawn.")
        st.markdown("**Attention weights, one heatmap per head** (rows are queries, columns keys)")
        focused(settings, v, scheme)
        if v.out_proj_note is not None:
            st.caption(v.out_proj_note)
        if v.trace is not None:
            st.header("The shape trace, as it ran")
            st.dataframe(trace, width="stretch", hide_index=True, height=35 * (len(v.trace) + 1) + 3)
if not drawn:
    focused(settings, v, scheme)  # its controls only: they keep their values for a drawable setting

if v.comparison is not None and v.matched_note is not None:
    st.header("At matched output width")
    st.dataframe(comparison, width="stretch")
    st.markdown(v.matched_note)
st.header("The four lines that differ")
st.code(book.FIGURE_05["four_lines"], language="python")
st.markdown(
    "Everything between them is the single-head causal attention, unchanged. The divisor line is "
    "character for character the same, and means head_dim instead of d_out."
)

st.header("Exercise 3.2: the official solution prints stale numbers")
st.dataframe(exercise, width="stretch")
st.markdown(v.exercise_note)

stopwatch.section(v.measure_intro)
reproduce_ui.expander("multihead", lambda: script.for_page(settings))
checks.expander(mh_checks.book_checks(v.book), note=checks_note(s, mh_checks.NOTE))
