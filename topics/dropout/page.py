"""Dropout (figure 04): the row that sums to zero, and why the survivors are scaled up."""

import streamlit as st

from core import book
from topics.dropout import checks as dchecks
from topics.dropout import figures as dfig
from topics.dropout import script, study, view
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.sentence import checks_note, sentence_control

sentence = sentence_control()
T = sentence.labels
GENERATORS = {"numpy": "NumPy", "torch": "PyTorch"}  # the URL holds these labels


def _resample() -> None:
    # A click cannot live in the URL, so Resample bumps the bound seed: the new view is a link too.
    st.session_state["drop_seed"] = view.next_seed(st.session_state.get("drop_seed", view.DEFAULT_SEED))


p = controls.slider("Dropout rate p", 0.0, 0.9, view.BOOK_P, key="p", step=0.05, format="%.2f")
scale = controls.toggle("Scale survivors by 1/(1 − p)", True, key="scaling", help="What nn.Dropout does.")
generator = controls.radio(
    "Random numbers",
    view.GENERATORS,
    key="generator",
    default="numpy",
    format_func=GENERATORS.__getitem__,
    captions=("default_rng(seed): fast", "torch.manual_seed(seed): the book's stream"),
)
seed = controls.integer(
    "Seed", 0, view.SEED_MAX, view.DEFAULT_SEED, key="drop_seed", help="The generator's seed"
)
controls.button("Resample", key="resample", on_click=_resample, help="Adds one to the seed (kept in the URL)")
fits = view.draw_choices(len(T))  # 2,000 at 32 tokens
draws = controls.select_slider(
    "Draws",
    fits,
    key="drop_draws",
    default=view.default_draws(len(T)),
    help="Independent dropout passes"
    + ("" if fits == view.DRAWS else f"; at most {fits[-1]:,} for {len(T)} tokens"),
)
fq = focus_control(T, key="drop_focus")
v = view.build(view.Settings(T, sentence.embeddings, p, scale, generator, seed, draws, fq), run=study.study)

st.title("Dropout: the row that sums to zero")
st.markdown(
    "During training, `nn.Dropout` zeroes each attention weight with probability $p$ and multiplies "
    "the survivors by $1/(1-p)$. No single row sums to 1 any more; the factor is there so that rows "
    "sum to 1 *on average*. And a causal row has few weights to lose: row $i$ has only $i$, so the "
    "first token's context vector is the zero vector on a share $p$ of all training steps."
)
st.caption(
    "Weights: **section 3.5 (sa_v2, seed 789)**, causal (future filled with −∞, divided by √2, softmax). "
    f"Random numbers: **{GENERATORS[generator]}**, seed {seed}. Resample adds one to the seed, so the URL "
    "still reproduces the view."
)

# Three and two a row at every width: stacked one a row, five readouts pushed a phone's first chart
# below its first screen (tests/e2e/test_phone.py).
m1, m2, m3, m4, m5 = (*st.columns(3, wrap=False), *st.columns(2, wrap=False))
m1.metric("Zero rows in this draw", f"{v.dead} of {len(T)}")
m2.metric("Row 1 sum in this draw", fmt.num(v.row_sums[0]))
m3.metric(f"Mean row sum over {v.draws:,} draws", fmt.num(v.mean_row_sum))
m4.metric("Expected mean row sum", fmt.num(v.expectation), help="1 with scaling, 1 − p without.")
m5.metric(
    "Survivors multiplied by",
    dchecks.worked_factor(v.keep, v.factor) if scale else "1",
    help="1/(1 − p), what nn.Dropout does" if scale else "Scaling is off: survivors keep their value.",
)

c1, c2 = st.columns([1, 1.15])
with c1:
    figures.show(
        figures.heatmap(v.weights, T, T, title="Causal weights, before dropout", focus=fq),
        key="fig04_weights",
    )
with c2:
    figures.show(
        dfig.dropped_heatmap(v.first, v.row_sums, T, title="One draw after dropout, row sums", focus=fq),
        key="fig04_dropped",
    )
    st.caption(dfig.draw_caption(v))
if (f := v.focus) is not None:
    before = f"Before dropout: {fmt.vec(f.before)}."
    context_note(T, f.row, f.after, weights=f.weights, what="this draw's A", extra=before)

st.subheader(f"{v.draws:,} draws")
d1, d2 = st.columns(2)
with d1:
    figures.show(
        dfig.running_mean_chart(
            v.running_at, v.running_mean, v.expectation, v.std, title="Running mean row sum"
        ),
        key="fig04_running",
    )
with d2:
    figures.show(
        dfig.zero_rate_chart(v.zero_rate, v.zero_theory, T, title="How often each row is the zero vector"),
        key="fig04_zero",
    )
st.dataframe(dfig.rows_table(v), width="stretch")

st.subheader("Why the factor is 1/(1 − p)")
st.latex(
    r"\alpha^{\text{drop}}_{ij} = \frac{b_{ij}}{1-p}\,\alpha_{ij},\quad b_{ij}\sim\mathrm{Bernoulli}(1-p),"
    r"\quad \mathbb{E}\big[\alpha^{\text{drop}}_{ij}\big] = \alpha_{ij},"
    r"\quad \mathbb{E}\Big[\sum_{j\le i}\alpha^{\text{drop}}_{ij}\Big] = 1,"
    r"\quad \Pr\big[\text{row } i = \mathbf{0}\big] = p^{\,i}"
)
st.markdown(
    f"At $p = {v.p:g}$ each weight is zeroed with probability {v.p:g} and each survivor is multiplied by "
    f"$1/(1 - p) = {dchecks.worked_factor(v.keep, v.factor)}$ (the post's worked case is "
    f"$p = {view.BOOK_P:g}$: {book.FIGURE_04['worked_factor']}). A weight then averages "
    f"$(1 - p) \\cdot {v.factor:.4g}\\,\\alpha = \\alpha$: that is the reason for the factor. "
    "This is *inverted* dropout: frameworks scale up at training time so inference is a plain forward "
    "pass (the original paper scaled down at test time instead). Switch scaling off and the running mean "
    f"settles at $1 - p = {v.keep:g}$ instead. The book's demo rate is {view.BOOK_P:g}; a real GPT run "
    f"uses {book.FIGURE_04['gpt_rates']}, where row 1 still dies on one step in ten or five."
)
st.code(
    "torch.manual_seed(123)\ndropout = torch.nn.Dropout(0.5)\nprint(dropout(attn_weights))",
    language="python",
)

reproduce_ui.expander(
    "dropout",
    lambda: script.dropout(T, sentence.embeddings, v.weight_set, p, scale, seed, draws, generator),
)

# The checks run at the book's settings (its sentence, p = 0.5) on the current seed and generator.
checks.expander(
    dchecks.book_checks(v.checks),
    note=checks_note(
        sentence,
        "Quoted: PyTorch's printout of the book's section 3.5 code (run here) and the post's figure 04. "
        "Live: the book's run is recomputed with the torch-compatible generator; the statistical rows use "
        f"p = {view.BOOK_P:g} and the current seed and generator, and pass within 4 standard errors of "
        "p, p² and 1 or 1 − p (the post's own draws are one sample of the same distribution).",
    ),
)
