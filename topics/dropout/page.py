"""Dropout (figure 04): the row that sums to zero, and why the survivors are scaled up."""

import pandas as pd
import streamlit as st

from core import attention, book, masking, tokens, weights
from core.sentence import weights_for
from topics.dropout import checks as dchecks
from topics.dropout import figures as dfig
from topics.dropout import sampling, script, study
from ui import checks, controls, figures
from ui import format as fmt
from ui import reproduce as reproduce_ui
from ui.focus import context_note, focus_control
from ui.sentence import checks_note, sentence_control

sentence = sentence_control()
T = sentence.labels
GENERATORS = {"numpy": "NumPy", "torch": "PyTorch"}  # the URL holds these labels
GENERATOR_CAPTIONS = ("default_rng(seed): fast", "torch.manual_seed(seed): the book's stream")
DRAWS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
SEED_MAX = 2**31 - 1
MAX_CELLS = DRAWS[-1] * 6 * 6  # draws × n²: the book's 100,000 draws of 6 × 6, about 30 MB a pass


def _resample() -> None:
    # A click cannot live in the URL, so Resample bumps the bound seed: the new view is a link too.
    st.session_state["drop_seed"] = (st.session_state.get("drop_seed", 123) + 1) % (SEED_MAX + 1)


p = controls.slider("Dropout rate p", 0.0, 0.9, sampling.BOOK_P, key="p", step=0.05, format="%.2f")
scale = controls.toggle("Scale survivors by 1/(1 − p)", True, key="scaling", help="What nn.Dropout does.")
generator = controls.radio(
    "Random numbers",
    tuple(GENERATORS),
    key="generator",
    default="numpy",
    format_func=GENERATORS.__getitem__,
    captions=GENERATOR_CAPTIONS,
)
seed = controls.integer("Seed", 0, SEED_MAX, 123, key="drop_seed", help="The generator's seed")
controls.button("Resample", key="resample", on_click=_resample, help="Adds one to the seed (kept in the URL)")
fits = tuple(d for d in DRAWS if d * len(T) ** 2 <= MAX_CELLS)  # 2,000 at 32 tokens
draws = controls.select_slider(
    "Draws",
    fits,
    key="drop_draws",
    default=min(10_000, fits[-1]),
    help="Independent dropout passes"
    + ("" if fits == DRAWS else f"; at most {fits[-1]:,} for {len(T)} tokens"),
)
fq = focus_control(T, key="drop_focus")

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

stats = study.study(p, scale, seed, draws, generator, sentence.embeddings)
row_sums = stats.first.sum(axis=1)
dead = int((~stats.first.any(axis=1)).sum())

# Three and two a row at every width: stacked one a row, five readouts pushed a phone's first chart
# below its first screen (tests/e2e/test_phone.py).
m1, m2, m3, m4, m5 = (*st.columns(3, wrap=False), *st.columns(2, wrap=False))
m1.metric("Zero rows in this draw", f"{dead} of {len(T)}")
m2.metric("Row 1 sum in this draw", fmt.num(row_sums[0]))
m3.metric(f"Mean row sum over {draws:,} draws", fmt.num(stats.running_mean[-1]))
m4.metric("Expected mean row sum", fmt.num(stats.expectation), help="1 with scaling, 1 − p without.")
m5.metric(
    "Survivors multiplied by",
    dchecks.worked_factor(p) if scale else "1",
    help="1/(1 − p), what nn.Dropout does" if scale else "Scaling is off: survivors keep their value.",
)

ws = weights_for(weights.section_3_5(), sentence.width)
w = masking.causal_weights(sentence.embeddings, ws)
c1, c2 = st.columns([1, 1.15])
with c1:
    figures.show(
        figures.heatmap(w, T, T, title="Causal weights, before dropout", focus=fq), key="fig04_weights"
    )
with c2:
    figures.show(
        dfig.dropped_heatmap(stats.first, row_sums, T, title="One draw after dropout, row sums", focus=fq),
        key="fig04_dropped",
    )
    st.caption(
        dfig.draw_caption(
            stats.first,
            p,
            scale,
            book_draw=sentence.is_book and (generator, seed, p) == ("torch", 123, 0.5),
            book_sentence=sentence.is_book,
        )
    )
if fq is not None:
    values = attention.self_attention(sentence.embeddings, ws).values
    before = fmt.vec(attention.mix(w, values)[fq])
    after = attention.mix(stats.first, values)[fq]
    context_note(
        T, fq, after, weights=stats.first[fq], what="this draw's A", extra=f"Before dropout: {before}."
    )

st.subheader(f"{draws:,} draws")
d1, d2 = st.columns(2)
with d1:
    figures.show(
        dfig.running_mean_chart(
            stats.running_at, stats.running_mean, stats.expectation, stats.std, title="Running mean row sum"
        ),
        key="fig04_running",
    )
with d2:
    figures.show(
        dfig.zero_rate_chart(
            stats.zero_rate, stats.zero_theory, T, title="How often each row is the zero vector"
        ),
        key="fig04_zero",
    )
st.dataframe(
    pd.DataFrame(
        {
            "live weights": range(1, len(T) + 1),
            "zero vector, measured": [fmt.percent(r) for r in stats.zero_rate],
            "theory pᶦ": [fmt.percent(t, 2) for t in stats.zero_theory],
            "mean row sum": [fmt.num(s) for s in stats.row_sum_mean],
        },
        index=[f"{i + 1}: {t}" for i, t in enumerate(T)],
    ),
    width="stretch",
)

st.subheader("Why the factor is 1/(1 − p)")
st.latex(
    r"\alpha^{\text{drop}}_{ij} = \frac{b_{ij}}{1-p}\,\alpha_{ij},\quad b_{ij}\sim\mathrm{Bernoulli}(1-p),"
    r"\quad \mathbb{E}\big[\alpha^{\text{drop}}_{ij}\big] = \alpha_{ij},"
    r"\quad \mathbb{E}\Big[\sum_{j\le i}\alpha^{\text{drop}}_{ij}\Big] = 1,"
    r"\quad \Pr\big[\text{row } i = \mathbf{0}\big] = p^{\,i}"
)
st.markdown(
    f"At $p = {p:g}$ each weight is zeroed with probability {p:g} and each survivor is multiplied by "
    f"$1/(1 - p) = {dchecks.worked_factor(p)}$ (the post's worked case is $p = {sampling.BOOK_P:g}$: "
    f"{book.FIGURE_04['worked_factor']}). A weight then averages "
    f"$(1 - p) \\cdot {sampling.scale_factor(p):.4g}\\,\\alpha = \\alpha$: that is the reason for "
    "the factor. "
    "This is *inverted* dropout: frameworks scale up at training time so inference is a plain forward "
    "pass (the original paper scaled down at test time instead). Switch scaling off and the running mean "
    f"settles at $1 - p = {1 - p:g}$ instead. The book's demo rate is {sampling.BOOK_P:g}; a real GPT run "
    f"uses {book.FIGURE_04['gpt_rates']}, where row 1 still dies on one step in ten or five."
)
st.code(
    "torch.manual_seed(123)\ndropout = torch.nn.Dropout(0.5)\nprint(dropout(attn_weights))",
    language="python",
)

reproduce_ui.expander(
    "dropout", lambda: script.dropout(T, sentence.embeddings, ws, p, scale, seed, draws, generator)
)

# The checks run at the book's settings (its sentence, p = 0.5) on the current seed and generator.
bx = tokens.inputs()
book_run = sampling.book_dropout_run(bx, weights.section_3_5())
bw = masking.causal_weights(bx, weights.section_3_5())
on = study.study(sampling.BOOK_P, True, seed, dchecks.CHECK_DRAWS, generator, bx)
off = study.study(sampling.BOOK_P, False, seed, dchecks.CHECK_DRAWS, generator, bx)
checks.expander(
    dchecks.book_checks(bw, book_run, on, off),
    note=checks_note(
        sentence,
        "Quoted: PyTorch's printout of the book's section 3.5 code (run here) and the post's figure 04. "
        "Live: the book's run is recomputed with the torch-compatible generator; the statistical rows use "
        f"p = {sampling.BOOK_P:g} and the current seed and generator, and pass within 4 standard errors of "
        "p, p² and 1 or 1 − p (the post's own draws are one sample of the same distribution).",
    ),
)
