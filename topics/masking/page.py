"""Masking the future (figure 03): the book's two causal paths, step by step, and the zero-fill leak.

Layout only: the controls, then :func:`topics.masking.view.build`, then what it returns.
"""

import pandas as pd
import streamlit as st

from core.masking import STAGES
from topics.masking import checks, script, view
from topics.masking.box import MAX_CHARS
from topics.masking.figures import difference_chart, softmax_chart, stage_chart
from ui import cell as cell_ui
from ui import checks as checks_ui
from ui import controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
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
fq = focus_control(T, key="mask_focus")
fc = cell_ui.cell_control(T, key="mask_cell")
relative = scale_control("mask_scale")

st.title("Masking the future")
lead = st.empty()  # the lead ends with how the paths end on this sentence: the view says
top = st.container()  # drawn once the box below is read: the view needs its text
st.header("A zero score is not a zero weight")
raw = controls.text(
    "Logits, separated by commas or spaces",
    view.LOGITS,
    key="logits",
    help="1 to 64 numbers; inf, -inf and nan too.",
    max_chars=MAX_CHARS,
)
last = st.session_state.get(LAST_GOOD, view.LOGITS)
s = view.Settings(T, sentence.embeddings, chosen, stage, fill, fq, fc, raw, last)
v = view.build(s)
if v.box_warning:
    st.warning(v.box_warning)
else:
    st.session_state[LAST_GOOD] = raw
sm = v.softmax
if sm.note:
    (st.warning if sm.weights is None else st.info)(f"{sm.note} PyTorch's torch.softmax gives: {sm.torch}.")
if sm.weights is not None:
    figures.show(softmax_chart(v.logits, sm.weights), key="fig03_bars")

lead.markdown(v.lead)
with top:
    weight_set_caption(v.weights)
    for col, shown, name in zip(st.columns(2), (v.naive, v.efficient), ("Naive", "Efficient"), strict=True):
        with col:
            st.markdown(f"**{name}, step {stage} of {STAGES}: {shown.name}**")
            st.latex(shown.formula)
            key = f"fig03_{name.lower()}"
            chart = stage_chart(name.lower(), stage, shown, T, relative=relative, focus=fq, cell=v.cell_key)
            figures.show(chart, key=key, pick=cell_ui.picker(key, "mask_focus", "mask_cell"))
    if hint := pale_hint(len(T), relative, causal=True):
        st.caption(hint)
    if v.focus is not None:
        f = v.focus
        context_note(T, f.row, f.context, weights=f.weights, what="the masked A", extra=f.extra)
    if v.cell is not None:
        cell_ui.panel(v.cell)
    else:
        st.caption("Click any cell, or pick a query to focus on, to see its arithmetic step by step.")
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
        grid = difference_chart(
            v.difference, v.cells, T, v.limit, title=v.grid_title, focus=fq, cell=v.cell_key
        )
        figures.show(grid, key="fig03_diff", pick=cell_ui.picker("fig03_diff", "mask_focus", "mask_cell"))
    with right:
        st.metric(
            "Attention token 1 gives to tokens it may not see",
            fmt.num(v.future[fill][0]),
            help=f"With the mask filled by {view.FILL_LABELS[fill]}.",
        )
        table = {view.FILL_LABELS[k]: [fmt.num(x) for x in v.future[k]] for k in view.FILLS}
        st.dataframe(pd.DataFrame(table, index=pd.Index(list(T), name="token")), width="stretch")
        st.caption(v.future_caption)

st.header("Why the renormalised path loses nothing")
st.latex(
    r"\hat{\alpha}_{ij} = \frac{\dfrac{e^{\omega_{ij}/\sqrt{d_k}}}{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}"
    r"\,\mathbf{1}[j\le i]}{\displaystyle\sum_{l \le i} \frac{e^{\omega_{il}/\sqrt{d_k}}}"
    r"{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}} = \frac{e^{\omega_{ij}/\sqrt{d_k}}\,\mathbf{1}[j\le i]}"
    r"{\sum_{l \le i} e^{\omega_{il}/\sqrt{d_k}}}"
)
st.markdown(
    "The full-row denominator sits once above the line and once below it, and cancels: what is "
    "left is the softmax over the visible prefix, exactly. The future was in the first softmax, "
    "and none of it survives the division. " + v.cancel_note
)

st.header("Three lines make the class causal")
st.code(
    """self.register_buffer(
    "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
)
attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
attn_weights = self.dropout(attn_weights)""",
    language="python",
)
st.caption(
    "A buffer moves to the GPU with the module but is not trained; the in-place fill is sliced "
    "because the buffer is built once at full context length; dropout is the next page."
)

reproduce_ui.expander(
    "masking", lambda: script.build(T, sentence.embeddings, v.weights, stage, fill, v.logits)
)
checks_ui.expander(checks.book_checks(v.book), note=checks_note(sentence, checks.NOTE))
