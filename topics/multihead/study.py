"""The multi-head page's glue: presets, cached forward passes, the trace table, the stopwatch.

Everything here calls ``core`` for its numbers; this module only decides what is cached, what
goes into session state, and how a result is laid out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import book, tokens
from core import multihead as mh
from core import sentence as sent
from core.config import GPT2_SMALL, AttentionConfig
from core.sentence import Sentence
from topics.multihead import figures as mf
from topics.multihead import speed as mha_speed
from ui import cache, checks, figures
from ui import format as fmt
from ui.cache import KB, MB
from ui.focus import short_vec

CUSTOM = "Custom"
PRESETS: dict[str, dict[str, object]] = {
    "Book toy": {"d_in": 3, "d_out": 2, "heads": 2},
    "Exercise 3.2": {"kind": "wrapper", "d_in": 3, "d_out": 1, "heads": 2},
    "GPT-2 small": {"kind": "split", "d_in": 768, "d_out": 768, "heads": 12},
}
PRESET_NAMES = (*PRESETS, CUSTOM)
# Widths on offer: every width to 16 (so every divisibility case of small heads is reachable),
# then the sizes real models use, up to 1,024. A ladder, not a free number: a link cannot carry
# a width the page was not built for.
WIDTHS: tuple[int, ...] = (*range(1, 17), 20, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
MAX_DRAWN_PARAMS = 4_000_000  # GPT-2's 2,360,064 fit; a 21M-parameter wrapper is counted, not drawn


def apply_preset() -> None:
    """``on_change`` of the preset box: write the preset's values into the bound widgets."""
    for key, value in PRESETS.get(st.session_state.get("preset"), {}).items():
        st.session_state[key] = value


def _stale(preset: str | None) -> bool:
    values = PRESETS.get(preset or "", {})
    return any(key in st.session_state and st.session_state[key] != v for key, v in values.items())


def sync_preset() -> None:
    """Before the widgets: apply a preset named by a hand-written link (``?preset=GPT-2 small``
    and none of its values), and turn a preset whose values were changed since into "Custom"."""
    if "mh_link_read" not in st.session_state:
        st.session_state["mh_link_read"] = True
        values = PRESETS.get(st.query_params.get("preset", ""), {})
        if values and not any(key in st.query_params for key in values):
            for key, value in values.items():
                st.session_state[key] = value
            return
    if _stale(st.session_state.get("preset")):
        st.session_state["preset"] = CUSTOM


def rerun_if_preset_stale(preset: str) -> None:
    """After the widgets: a link that names a preset but other values reruns once as "Custom"."""
    if _stale(preset):
        st.rerun()


def describe(kind: str, cfg: AttentionConfig, seed: int, s: Sentence) -> str:
    """One caption naming the weights and the inputs on screen."""
    whose = "the book's six tokens" if s.is_book else f"your sentence's {s.n} tokens"
    inputs = (
        f"{whose}, stacked twice (batch [2, {s.n}, {s.width}])"
        if cfg.d_in == s.width
        else f"{s.n} stand-in embeddings torch.rand({s.n}, {cfg.d_in}) after torch.manual_seed(0), "
        f"stacked twice (d_in {cfg.d_in} is not the sentence's width, {s.width})"
    )
    cls = "MultiHeadAttentionWrapper" if kind == "wrapper" else "MultiHeadAttention"
    return (
        f"{cls}({cfg.d_in}, {cfg.d_out}, context_length={cfg.context_length}, dropout=0.0, "
        f"num_heads={cfg.num_heads}) with nn.Linear weights drawn after torch.manual_seed({seed}), "
        f"in the book's order. Inputs: {inputs}."
    )


@dataclass(frozen=True)
class Run:
    """What the page draws for one setting, or why it draws nothing.

    Not the forward's whole result: the batch is the sentence stacked twice, so the cache keeps
    the first item only, and the output as its figure draws it (a [2, 32, 16,384] output is
    8.4 MB; see ui.cache).
    """

    steps: tuple[mh.Step, ...]  # the shape trace, as it ran
    weights: np.ndarray | None  # [H, n, n] attention per head, first batch item
    output: mf.Thinned | None  # [n, d] first batch item, as the output figure draws it
    output_shape: tuple[int, ...]  # the whole output's, [b, n, d]
    output_rows: tuple[str, ...]  # each output row of the first item as a focus note prints it
    w_query: mf.Thinned | None  # [d_in, width], head columns side by side, as the figure draws it
    head_width: int
    error: str | None = None


def _run_worst() -> list[tuple[object, ...]]:
    """The most output cells a drawable setting has (1,024 wide × 16 heads) and the most W_q cells,
    on the book's sentence and the largest."""
    return [
        (*s, 123, len(x), x)
        for s in (("wrapper", 64, 1024, 16), ("wrapper", 384, 384, 9))
        for x in (tokens.inputs(), cache.largest_sentence()[1])
    ]


# The first batch item's attention per head, the output and W_q thinned to what their figures
# draw (96 × 96 cells at most), the shape trace: 209 KB at 32 tokens, 1,024 wide × 16 heads.
@cache.data(
    entry_bytes=256 * KB,
    entries=6,
    worst=_run_worst,
    show_spinner="Drawing the weights and running the forward pass…",
)
def run(kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray) -> Run:
    """Draw the parameters and run the float64 forward on the sentence ``x`` [n, width], stacked
    twice (stand-ins when ``d_in`` is not its width; cached: GPT-2's 2.4M parameters take a
    moment). Raises ``ValueError`` when the split class cannot split."""
    cfg = AttentionConfig(d_in, d_out, heads, context_length)
    total = mh.counts(kind, cfg).total_params  # type: ignore[arg-type]
    if total > MAX_DRAWN_PARAMS:
        return Run(
            (),
            None,
            None,
            (),
            (),
            None,
            0,
            f"This setting holds {fmt.integer(total)} parameters. The counts above are exact, but "
            f"drawing and running that many here would take seconds, so the figures stop at "
            f"{fmt.integer(MAX_DRAWN_PARAMS)}. Lower d_out or the number of heads to see them.",
        )
    params = mh.init_params(kind, cfg, seed)  # type: ignore[arg-type]
    w, width = mh.query_matrix(params)
    res = mh.forward(sent.example_batch(x, d_in), params)
    out_width = width if kind == "wrapper" else res.output.shape[-1]
    # The cache keeps what the figures draw, not W_q or the output themselves (see the bound at run).
    return Run(
        res.steps,
        res.weights[0],
        mf.thinned(res.output[0], out_width),
        res.output.shape,
        tuple(short_vec(z) for z in res.output[0]),
        mf.thinned(w, width),
        width,
    )


# The three figures built from a run: 1.7 MB held at the largest run.
@cache.resource(
    entry_bytes=2 * MB,
    entries=6,
    worst=lambda: [
        (*args, labels)
        for args, labels in zip(_run_worst(), (tokens.TOKENS, cache.largest_sentence()[0]) * 2, strict=True)
    ],
    show_spinner="Drawing W_q's stripes and every head's weights…",
)
def figures_for(
    kind: str,
    d_in: int,
    d_out: int,
    heads: int,
    seed: int,
    context_length: int,
    x: np.ndarray,
    labels: tuple[str, ...],
    focus: int | None = None,
) -> tuple[go.Figure, go.Figure, go.Figure]:
    """W_q's stripes, the per-head weights and the output, built once per setting and focus.

    A resource cache (no copy): ``st.plotly_chart`` serialises a figure without changing it.
    """
    r = run(kind, d_in, d_out, heads, seed, context_length, x)
    assert r.weights is not None and r.output is not None and r.w_query is not None  # drawable only
    cols = "1 column" if r.head_width == 1 else f"{r.head_width} columns"
    wq = mf.striped_matrix(
        r.w_query,
        r.head_width,
        title=f"W_q {list(r.w_query.shape)}, as XW_q reads it: {heads} stripes of {cols}",
        x_title="column of W_q, head by head",
        y_title="row (input feature)",
    )
    attn = mf.head_grid(r.weights, labels, title="Attention weights, one heatmap per head", focus=focus)
    out = mf.striped_matrix(
        r.output,
        r.output.head_width,
        row_labels=labels,
        title=f"Output {list(r.output_shape)}, first batch item",
        height=max(280, 100 + 15 * len(labels)),
        x_title="output column",
        y_title="query",
        focus=focus,
    )
    return wq, attn, out


def shape(dims: tuple[int, ...]) -> str:
    """``[2, 6, 4]``, as the post writes a torch.Size."""
    return "[" + ", ".join(str(d) for d in dims) + "]"


def output_shapes(cfg: AttentionConfig, batch: int = 2, n: int = 6) -> dict[str, str]:
    """Both classes' output shapes for the current widths; "—" where the split cannot split."""
    out = {"wrapper": shape((batch, n, mh.counts("wrapper", cfg).output_width))}
    out["split"] = shape((batch, n, mh.counts("split", cfg).output_width)) if cfg.divisible else "—"
    return out


def divisor_text(width: int) -> str:
    """``√width`` as the page prints it: ``8`` for GPT-2's 64, ``1.4142`` for 2."""
    return fmt.num(width**0.5).rstrip("0").rstrip(".")


def split_error(cfg: AttentionConfig) -> str:
    """The ``ValueError`` message ``core`` raises for a width the split class cannot cut."""
    try:
        _ = cfg.head_dim
    except ValueError as err:
        return str(err)
    return ""


HEAD_DIM_1 = (
    "**Each head is 1 wide.** A head's query and key are single numbers, so every score is a "
    "product of two scalars: a query can only scale one key feature up or down, and each row of "
    "weights can only rank the tokens by that one feature. The book's toy setting (d_out 2, two "
    "heads) has exactly this shape: it reproduces the printed shapes and hides what a head does. "
    "Try d_out = 8 with two heads."
)


def trace_table(steps: tuple[mh.Step, ...], kind: str, heads: int) -> pd.DataFrame:
    """The recorded steps; the wrapper's loop body is listed for head 1 and marked "× H"."""
    rows = []
    for s in steps:
        if s.head not in (None, 0):
            continue
        where = f"head 1 of {heads} (runs × {heads})" if s.head == 0 else ""
        rows.append(
            {
                "step": s.name,
                "code": s.code,
                "shape": shape(s.shape),
                "contiguous": s.contiguous,
                "where": where,
            }
        )
    table = pd.DataFrame(rows)
    return table if kind == "wrapper" else table.drop(columns="where")


def comparison_table(cfg: AttentionConfig) -> pd.DataFrame:
    """Both classes at matched output width: equal projections, 3H matmuls against 3."""
    pairs = [("Wrapper, head_dim per head", "wrapper", mh.matched_wrapper(cfg)), ("Split", "split", cfg)]
    rows = []
    for label, kind, c in pairs:
        n = mh.counts(kind, c)  # type: ignore[arg-type]
        rows.append(
            {
                "class": label,
                "width of one head": c.d_out if kind == "wrapper" else c.head_dim,
                "projection parameters": fmt.integer(n.projection_params),
                "out_proj parameters": fmt.integer(n.out_proj_params),
                "total parameters": fmt.integer(n.total_params),
                "projection matmuls": n.projection_matmuls,
                "attention matmuls": n.attention_matmuls,
                "output width": n.output_width,
            }
        )
    return pd.DataFrame(rows).set_index("class").T.astype(str)


MODE_TITLES = {
    "forward": "Whole forward (projections, scores, softmax, merge)",
    "projections": "Only what differs (projections and the head split/merge)",
}


def _measure() -> list[mha_speed.Paired]:
    """Every cell of the page's grid, interleaved, within ``PAGE_BUDGET_S``, with a progress bar."""
    budget = mha_speed.PAGE_BUDGET_S
    cells = [
        (case, mode)
        for mode in mha_speed.MODES
        for case in mha_speed.grid(mha_speed.PAGE_NS, mha_speed.PAGE_HEADS, (1,), mha_speed.PAGE_D)
    ]
    bar = st.progress(0.0, text=f"Warming up both classes, then timing them for {budget:g} s…")

    def progress(i: int, r: int, elapsed: float) -> None:
        case, mode = cells[i]
        bar.progress(
            min(elapsed / budget, 1.0),
            text=f"Round {r + 1}: wrapper vs split, {MODE_TITLES[mode].split(' (')[0].lower()}, "
            f"H = {case.heads}, n = {case.n:,} ({elapsed:.1f} of {budget:g} s)",
        )

    results = mha_speed.measure_interleaved(cells, budget, progress=progress)
    bar.empty()
    return results


def measure_section() -> None:
    """The page's stopwatch: a bounded, interleaved measurement behind a button, then the verdict."""
    st.subheader("Measure on this machine")
    lib, threads = mha_speed.blas_info()
    ns, hs, d = mha_speed.PAGE_NS, mha_speed.PAGE_HEADS, mha_speed.PAGE_D
    st.markdown(
        f"The post leaves one question open: at matched width, does the split class's single big "
        f"matmul beat H small ones once the reshapes are paid for? Time both in float32 NumPy on the "
        f"same inputs, d = {d}, n in {', '.join(f'{n:,}' for n in ns)}, H in {', '.join(map(str, hs))}, "
        f"batch 1, for **{mha_speed.PAGE_BUDGET_S:g} seconds** in all. Each round times every setting "
        f"once as wrapper, split, split, wrapper, so both classes meet the same background load, and "
        f"the speed-up comes with a 95% interval over the rounds. With one head both classes do "
        f"identical work: that control must include 1, or the machine is too noisy to tell. "
        f"BLAS: {lib}; threads: {threads}. `python -m bench multihead` runs the full grid."
    )
    if st.button("Measure", key="mh_measure", icon=":material/timer:"):
        st.session_state["mh_timings"] = _measure()
    results = st.session_state.get("mh_timings")
    if not results:
        return
    for col, mode in zip(st.columns(2), mha_speed.MODES, strict=True):
        mine = [p for p in results if p.mode == mode]
        with col:
            if any(p.interval is not None for p in mine):  # an empty chart would say nothing
                figures.show(mf.speedup_plot(mine, title=MODE_TITLES[mode]), key=f"mh_speed_{mode}")
            else:
                st.markdown(f"**{MODE_TITLES[mode]}**")
            st.markdown(mha_speed.verdict(mine))
    rows = []
    for p in results:
        iv = p.interval
        rows.append(
            {
                "mode": p.mode,
                "H": p.case.heads,
                "n": p.case.n,
                "rounds": len(p.ratios),
                "wrapper (ms, median)": None if p.wrapper_s is None else round(1e3 * p.wrapper_s, 3),
                "split (ms, median)": None if p.split_s is None else round(1e3 * p.split_s, 3),
                "speed-up": None if iv is None else round(iv.ratio, 2),
                "95% interval": "" if iv is None else f"{iv.lo:.2f}–{iv.hi:.2f}×",
                "verdict": "too few rounds" if iv is None else iv.verdict,
            }
        )
    with st.expander("The measured times"):
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def sci_row(row: np.ndarray) -> str:
    """``[-9.1476e-02, 3.4164e-02]``: a row as PyTorch prints a tensor in scientific mode."""
    return "[" + ", ".join(f"{float(v):.4e}" for v in row) + "]"


def exercise_3_2_section() -> None:
    """The official solution's printed numbers, the true ones, and the bug that made the old ones."""
    st.subheader("Exercise 3.2: the official solution prints stale numbers")
    stale, stale_w = mh.exercise_3_2_as_printed()
    now = _book_outputs()["exercise_3_2"][0]
    table = pd.DataFrame(
        {
            "official solution prints": book.EXERCISE_3_2_SOLUTION,
            "the same wrapper with softmax(dim=1)": [sci_row(r) for r in stale[0]],
            "the book's code today (dim=-1)": [fmt.vec(r) for r in now],
        },
        index=list(tokens.TOKENS),  # exercise 3.2 runs on the book's sentence
    )
    st.dataframe(table, width="stretch")
    sums = stale_w[0, 0].sum(axis=-1)
    st.markdown(
        f"The solutions notebook prints `{book.EXERCISE_3_2_SOLUTION[0]}` first; the book's classes "
        f"under PyTorch 2.13 give `{fmt.vec(now[0])}`. The middle column runs the same wrapper here "
        "with one change, `torch.softmax(..., dim=1)` in every head, and reproduces the stale print "
        "digit for digit. That was the chapter's own code until commit d4754f1 (4 March 2024, "
        "“change dim=1 to dim=-1”); the solution's printed output was never regenerated. With "
        "`dim=1` each *column* of the weights sums to 1, so each query's row sums to "
        f"{fmt.vec(sums, 2)} in head 1 instead of 1, and the last token's outputs grow largest."
    )


def gpt3_note() -> str:
    """The post's "GPT-3 has 96 of them", counted from the paper's configuration."""
    cfg, layers = mh.GPT3_175B, mh.GPT3_175B_LAYERS
    return (
        f"The post says the richness comes from many heads over many layers, “and GPT-3 has 96 of "
        f"them”. GPT-3 175B has {cfg.num_heads} heads *in each* of its {layers} layers: "
        f"{fmt.integer(cfg.num_heads * layers)} heads in all, each head_dim = {fmt.integer(cfg.d_out)} "
        f"/ {cfg.num_heads} = {cfg.head_dim} wide (Brown et al. 2020, table 2.1)."
    )


BOOK_CODE = "the book's code, as PyTorch 2.13 prints it"
CHECKS_NOTE = (
    "Quoted: what PyTorch prints for the book's classes after torch.manual_seed(123) on the book's "
    "batch (first batch item; the second is identical), and the post's figure 05. Live: computed "
    "here at those settings, whatever the controls say."
)


@cache.data(entry_bytes=2 * KB, entries=1, worst=lambda: [()])  # 1.2 KB, one entry
def _book_outputs() -> dict[str, np.ndarray]:
    x = mh.example_batch(3)
    toy, ex32 = AttentionConfig(), AttentionConfig(d_out=1)
    ca = mh.causal_attention(x, mh.init_causal_attention(toy, 123), toy)[0]
    return {
        "causal_attention": ca,
        "wrapper": mh.forward(x, mh.init_wrapper(toy, 123)).output,
        "exercise_3_2": mh.forward(x, mh.init_wrapper(ex32, 123)).output,
        "split": mh.forward(x, mh.init_split(toy, 123)).output,
    }


def book_checks() -> list[checks.Check]:
    """Every number the book and the post print for figure 05, beside the live value."""
    q = book.FIGURE_05
    out = _book_outputs()
    names = {
        "causal_attention": "CausalAttention(3, 2)",
        "wrapper": "MultiHeadAttentionWrapper(3, 2, heads 2)",
        "exercise_3_2": "Exercise 3.2: wrapper with d_out 1",
        "split": "MultiHeadAttention(3, 2, heads 2)",
    }
    rows: list[checks.Check] = []
    for key, label in names.items():
        rows += [
            checks.exact(
                f"{label}, row {i + 1}",
                text,
                out[key][0, i],
                source=checks.BOOK_CODE,
                note="PyTorch 2.13 prints it",
            )
            for i, text in enumerate(q[key])
        ]
        if f"{key}_shape" in q:
            rows.append(
                checks.same(
                    f"{label}: output shape",
                    q[f"{key}_shape"],
                    shape(out[key].shape),
                    source=checks.BOOK_CODE,
                )
            )
    stale = mh.exercise_3_2_as_printed()[0][0]
    rows += [
        checks.same(
            f"Exercise 3.2, official solution, row {i + 1} (stale)",
            text,
            sci_row(stale[i]),
            source=checks.SOLUTIONS,
            note="stale: live is the wrapper with softmax(dim=1), the bug fixed in d4754f1",
        )
        for i, text in enumerate(book.EXERCISE_3_2_SOLUTION)
    ]
    gpt2 = GPT2_SMALL
    gpt3 = mh.GPT3_175B
    rows += [
        checks.same(
            "GPT-3 175B: heads per layer",
            "96",
            str(gpt3.num_heads),
            source=checks.POST,
            note="“GPT-3 has 96 of them”; Brown et al. 2020, table 2.1",
        ),
        checks.same(
            "GPT-3 175B: head_dim",
            "128",
            str(gpt3.head_dim),
            source=checks.AUDIT,
            note="Brown et al. 2020, table 2.1: d_model 12,288 / 96 heads",
        ),
    ]
    rows += [
        checks.same(
            "GPT-2 small: head_dim",
            q["gpt2_head_dim"],
            str(gpt2.head_dim),
            source=checks.POST,
            note="768 / 12",
        ),
        checks.same(
            "GPT-2 small: divisor √head_dim", q["gpt2_divisor"], f"{gpt2.head_dim**0.5:g}", source=checks.POST
        ),
        checks.same("…not √d_out", q["gpt2_divisor_not"], f"{gpt2.d_out**0.5:.1f}", source=checks.POST),
        checks.same(
            "GPT-2 small: MultiHeadAttention parameters",
            q["gpt2_attention_params"],
            fmt.integer(mh.counts("split", gpt2).total_params),
            source=checks.POST,
            note="incl. out_proj",
        ),
    ]
    return rows
