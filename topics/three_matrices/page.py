"""Three matrices: W_q, W_k, W_v and the asymmetry they buy. Layout only: the numbers
come from ``view.build``; what shows the focus, from ``view.focused`` in a fragment."""

import streamlit as st

from core import attention
from topics.three_matrices import charts, readouts, script, view
from topics.three_matrices import checks as tm_checks
from ui import cell as cell_ui
from ui import checks, controls, figures, tables, theme
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, marked
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, sentence_control
from ui.weights import MODE_LABELS, weight_set_caption, weight_set_control

s = sentence_control()
mode = controls.radio(
    "Mode", attention.MODES, key="mode", default="three", format_func=MODE_LABELS.__getitem__
)
chosen = weight_set_control()
focus_slot = st.sidebar.container()  # the focus and cell controls, drawn by the fragment below
relative = scale_control("scale")
settings = view.Settings(s.labels, s.embeddings, s.is_book, chosen, mode)
v = view.build(settings)
T, tr, ws = v.labels, v.trace, v.weight_set
modes_table, ops_table = charts.tables(settings, v)

st.title("Three matrices, and the asymmetry they buy")
st.markdown(readouts.lead(v))
weight_set_caption(ws)

e1, e2, e3 = st.columns(3)
e1.metric(
    "Score error max|Ω − Ωᵀ|", fmt.num(v.score_error), help="0 means the affinity reads the same both ways."
)
e2.metric("Weight error max|A − Aᵀ|", fmt.num(v.weight_error), help=readouts.when_symmetric(v))
e3.metric("Divisor √d_k", fmt.num(tr.divisor), help=readouts.divisor_help(v))


@st.fragment
def focused(v: view.View) -> None:
    """What shows the focused query and cell, and all that stands between them: a pick reruns this
    alone.

    It spans the page from the heatmaps to Z's table and draws it in order. A first visit paints
    what the script has sent so far, so a slot filled later pushed down what was under it: the
    heatmaps arriving above "All three modes at once" shifted a desktop page by 0.11."""
    fq, fc = cell_ui.controls(v.labels, where=focus_slot, focus_key="focus", cell_key="cell")
    f = view.focused(v, fq, fc)
    for col, (key, chart) in zip(
        st.columns(3), charts.heatmaps(f, relative, theme.active().mode).items(), strict=True
    ):
        with col:
            figures.show(chart, key=key, pick=cell_ui.picker(key, "focus", "cell"))
    if hint := pale_hint(len(T), relative):
        st.caption(hint)
    if (c := f.focus) is not None:
        context_note(T, c.row, c.context, most=c.most, extra=readouts.MARKED)
    cell_ui.panel_or_hint(f.cell)

    st.header("All three modes at once")
    st.dataframe(modes_table, width="stretch")
    st.markdown(readouts.denominators_paragraph(v))

    st.header("Every intermediate")
    *qkv_cols, z_col = st.columns(4)
    for col, name, m in zip(qkv_cols, ("Q", "K", "V"), (tr.queries, tr.keys, tr.values), strict=True):
        col.markdown(f"**{name}** {m.shape}")
        tables.matrix(m, T, where=col)
    z_col.markdown(f"**Z = AV** {tr.context.shape}")
    tables.matrix(f.trace.context, marked(T, f.focus_row), where=z_col)


focused(v)
for col, name, w in zip(
    st.columns(3), ("W_q", "W_k", "W_v"), (ws.w_query, ws.w_key, ws.w_value), strict=True
):
    col.markdown(f"**{name}** {w.shape}" + (" (unused in this mode)" if name in readouts.unused(v) else ""))
    tables.matrix(w, where=col)
st.header("The forward pass")
st.latex(readouts.forward_latex(v))
st.code(readouts.forward_code(v), language="python")
st.caption(readouts.forward_caption(v))
st.markdown(readouts.ops_paragraph(v))
st.dataframe(ops_table, width="stretch")

reproduce_ui.expander("three_matrices", lambda: script.three_matrices(T, s.embeddings, ws, v.mode, v.pair))

# The checks always run at the book's settings, whatever the controls say.
checks.expander(tm_checks.book_checks(v.book), note=checks_note(s, tm_checks.NOTE))
