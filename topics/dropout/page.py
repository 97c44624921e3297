"""Dropout (figure 04): the row that sums to zero, and why the survivors are scaled up."""

from dataclasses import replace

import streamlit as st

from topics.dropout import charts as dcharts
from topics.dropout import checks as dchecks
from topics.dropout import script, study, view
from ui import cell as cell_ui
from ui import checks, controls, figures, theme
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.scale import pale_hint, scale_control
from ui.sentence import checks_note, sentence_control

sentence = sentence_control()
T = sentence.labels


def _resample() -> None:
    # A click cannot live in the URL, so Resample bumps the bound seed: the new view is a link too.
    st.session_state["drop_seed"] = view.next_seed(st.session_state.get("drop_seed", view.DEFAULT_SEED))


p = controls.slider("Dropout rate p", 0.0, 0.9, view.BOOK_P, key="p", step=0.05, format="%.2f")
scale = controls.toggle("Scale survivors by 1/(1 − p)", True, key="scaling", help="What nn.Dropout does.")
generator = controls.radio(
    "Random numbers",
    view.GENERATORS,
    key="generator",
    default=view.DEFAULT_GENERATOR,
    format_func=view.GENERATOR_NAMES.__getitem__,
    captions=tuple(view.GENERATOR_CAPTIONS[g] for g in view.GENERATORS),
)
fits = view.draw_choices(len(T))  # 2,000 at 32 tokens
draws = controls.select_slider(
    "Draws",
    fits,
    key="drop_draws",
    default=view.default_draws(len(T)),
    help="Independent dropout passes"
    + ("" if fits == view.DRAWS else f"; at most {fits[-1]:,} for {len(T)} tokens"),
)
base = view.Settings(T, sentence.embeddings, p, scale, generator, view.DEFAULT_SEED, draws)

st.title("Dropout: the row that sums to zero")
st.markdown(view.lead(p))


# Everything below the lead depends on the seed: Resample (and the Seed box) rerun only this fragment.
# Its controls, and the focus fragment's, land in the sidebar in the order they are drawn.
@st.fragment
def drawn(base: view.Settings) -> None:
    seed = controls.integer(
        "Seed", 0, view.SEED_MAX, view.DEFAULT_SEED, key="drop_seed", help="The generator's seed"
    )
    controls.button(
        "Resample", key="resample", on_click=_resample, help="Adds one to the seed (kept in the URL)"
    )
    s = replace(base, seed=seed)
    with study.drawing(s):  # a spinner, or "Waiting for the server…" while others' draws run first
        v = view.build(s, run=study.run, checks=study.checks)
    st.caption(v.caption)
    # Three and two a row at every width, the mean and its error in the row of two (a third of a
    # phone's width cut it off): stacked one a row, five readouts pushed a phone's first chart below
    # its first screen (tests/e2e/test_phone.py).
    for column, r in zip((*st.columns(3, wrap=False), *st.columns(2, wrap=False)), v.readouts, strict=True):
        column.metric(r.label, r.value, help=r.help)
    focused(v)
    st.header(f"{v.draws:,} draws")
    charts = dcharts.draws(v, theme.active().mode)
    for col, key in zip(st.columns(2), ("fig04_running", "fig04_zero"), strict=True):
        with col:
            figures.show(charts[key], key=key)
    st.dataframe(dcharts.rows(v), width="stretch")

    st.header("Why the factor is 1/(1 − p)")
    st.latex(v.formula)
    st.markdown(v.factor_text)
    st.code(
        "torch.manual_seed(123)\ndropout = torch.nn.Dropout(0.5)\nprint(dropout(attn_weights))",
        language="python",
    )
    st.caption(v.code_caption)
    reproduce_ui.expander(
        "dropout",
        lambda: script.dropout(T, sentence.embeddings, v.weight_set, p, scale, seed, draws, generator),
    )
    # The checks run at the book's settings (its sentence, p = 0.5) on the current seed and generator.
    checks.expander(dchecks.book_checks(v.checks), note=checks_note(sentence, dchecks.NOTE))


# A focus or cell click, or the colour scale, reruns only this: the two matrices and the cell panel.
@st.fragment
def focused(whole: view.View) -> None:
    fq, fc = focus_control(T, key="drop_focus"), cell_ui.cell_control(T, key="drop_cell")
    relative = scale_control("drop_scale")
    v = view.focused(whole, fq, fc, relative)
    charts = dcharts.heatmaps(v, relative, theme.active().mode)
    c1, c2 = st.columns([1, 1.15])
    for col, key in ((c1, "fig04_weights"), (c2, "fig04_dropped")):
        with col:
            figures.show(charts[key], key=key, pick=cell_ui.picker(key, "drop_focus", "drop_cell"))
    c2.caption(v.draw_caption)
    if hint := pale_hint(len(T), relative, causal=True):
        st.caption(hint)
    if (f := v.focus) is not None:
        before = f"Before dropout: {fmt.vec(f.before)}."
        context_note(T, f.row, f.after, most=f.most, extra=before)
    if v.cell is not None:
        cell_ui.panel(v.cell)
    else:
        st.caption("Click any cell, or pick a query to focus on, to see its arithmetic step by step.")


drawn(base)
