"""Masking the future (figure 03): the book's two causal paths, step by step, and the zero-fill leak.

Layout only: the controls, then :func:`topics.masking.view.build`, then what it returns.
"""

from dataclasses import replace

import pandas as pd
import streamlit as st

from core.masking import STAGES
from topics.masking import charts, checks, script, text, view
from topics.masking.box import MAX_CHARS
from ui import cell as cell_ui
from ui import checks as checks_ui
from ui import controls, figures, theme
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, sentence_control
from ui.weights import weight_set_caption, weight_set_control

LAST_GOOD = "logits_last_good"  # session state: the box's last text that parsed

sentence = sentence_control()
T = sentence.labels
chosen = weight_set_control(default="Section 3.5", prefix="mask_")
stage = controls.select_slider(
    "Stage",
    tuple(range(1, STAGES + 1)),
    key="stage",
    default=STAGES,
    help="Both paths take four steps; step them together.",
)
fill = controls.radio(
    "Mask fill (efficient path)",
    tuple(view.FILLS),
    key="fill",
    default="-inf",
    format_func=view.FILL_LABELS.__getitem__,
)
focus_slot = st.sidebar.container()  # the focus and cell controls, drawn by the fragment below
relative = scale_control("mask_scale")
mode = theme.active().mode

st.title("Masking the future")
# The sections above the logits box read nothing of it: drawn in order, from the view at the box's
# last good text, so nothing is inserted above what the reader already sees (layout shift 0.5).
last = st.session_state.get(LAST_GOOD, view.LOGITS)
settings = view.Settings(T, sentence.embeddings, chosen, stage, fill, None, None, last, last)
v = view.build(settings)
st.markdown(v.lead)
weight_set_caption(v.weights)


@st.fragment
def focused(v: view.View) -> None:
    """What shows the focused query and cell, and all that stands between them: a pick reruns this
    alone.

    It spans the page from the two paths to the difference grid and draws it in order. A first
    visit paints what the script has sent so far, so a slot filled later pushed down what was under
    it: on a phone, the naive path's heatmap arriving above the efficient path shifted it by 0.38."""
    fq, fc = cell_ui.controls(T, where=focus_slot, focus_key="mask_focus", cell_key="mask_cell")
    f = view.focused(v, fq, fc)
    paths = zip(st.columns(2), (v.naive, v.efficient), ("Naive", "Efficient"), strict=True)
    for col, shown, name in paths:
        col.markdown(f"**{name}, step {stage} of {STAGES}: {shown.name}**")
        col.latex(shown.formula)
        path = name.lower()
        key = f"fig03_{path}"
        with col:
            chart = charts.stage(f, path, relative, mode)
            figures.show(chart, key=key, pick=cell_ui.picker(key, "mask_focus", "mask_cell"))
    if hint := pale_hint(len(T), relative, causal=True):
        st.caption(hint)
    if (c := f.focus) is not None:
        context_note(T, c.row, c.context, most=c.most, extra=c.extra)
    cell_ui.panel_or_hint(f.cell)
    m1, m2, m3 = st.columns(3)
    m1.metric("Naive path masks (first entry)", fmt.num(v.naive_first), help="A post-softmax weight.")
    m2.metric("Efficient path masks (first entry)", fmt.num(v.efficient_first), help="A pre-scale score.")
    m3.metric(
        "Largest |naive − efficient|",
        v.largest_short,
        help="After step 4, in float64. Rounding noise is stated as a bound: its digits depend on the "
        "order of the sums, which differs between machines and libraries.",
    )
    if v.undefined:
        st.warning(v.undefined)
    st.markdown(v.prose)

    st.header("The difference grid")
    left, right = st.columns([3, 2])
    with left:
        pick = cell_ui.picker("fig03_diff", "mask_focus", "mask_cell")
        figures.show(charts.grid(f, mode), key="fig03_diff", pick=pick)
    with right:
        st.metric(
            "Attention token 1 gives to tokens it may not see",
            fmt.num(v.future[fill][0]),
            help=f"With the mask filled by {view.FILL_LABELS[fill]}.",
        )
        table = {view.FILL_LABELS[k]: [fmt.num(x) for x in v.future[k]] for k in view.FILLS}
        st.dataframe(pd.DataFrame(table, index=pd.Index(list(T), name="token")), width="stretch")
        st.caption(v.future_caption)


focused(v)
st.header("A zero score is not a zero weight")
raw = controls.text(
    "Logits, separated by commas or spaces",
    view.LOGITS,
    key="logits",
    help="1 to 64 numbers; inf, -inf and nan too.",
    max_chars=MAX_CHARS,
)
if raw != last:
    v = view.build(replace(settings, logits=raw))
if v.box_warning:
    st.warning(v.box_warning)
else:
    st.session_state[LAST_GOOD] = raw
sm = v.softmax
if sm.note:
    (st.warning if sm.weights is None else st.info)(f"{sm.note} PyTorch's torch.softmax gives: {sm.torch}.")
if sm.weights is not None:
    figures.show(charts.bars(v.logits, sm.weights, mode), key="fig03_bars")

st.header("Why the renormalised path loses nothing")
st.latex(text.CANCEL_LATEX)
st.markdown(text.CANCEL + v.cancel_note)
st.header("Three lines make the class causal")
st.code(text.CAUSAL_CODE, language="python")
st.caption(text.CAUSAL_CAPTION)

reproduce_ui.expander(
    "masking", lambda: script.build(T, sentence.embeddings, v.weights, stage, fill, v.logits)
)
checks_ui.expander(checks.book_checks(v.book), note=checks_note(sentence, checks.NOTE))
