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

from core import book, mha_speed
from core import multihead as mh
from core.config import GPT2_SMALL, AttentionConfig
from core.tokens import TOKENS
from ui import checks, figures
from ui import format as fmt
from ui import multihead_figures as mf

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


def describe(kind: str, cfg: AttentionConfig, seed: int) -> str:
    """One caption naming the weights and the inputs on screen."""
    inputs = (
        "the book's six tokens, stacked twice (batch [2, 6, 3])"
        if cfg.d_in == 3
        else f"six stand-in embeddings torch.rand(6, {cfg.d_in}) after torch.manual_seed(0), stacked twice"
    )
    cls = "MultiHeadAttentionWrapper" if kind == "wrapper" else "MultiHeadAttention"
    return (
        f"{cls}({cfg.d_in}, {cfg.d_out}, context_length={cfg.context_length}, dropout=0.0, "
        f"num_heads={cfg.num_heads}) with nn.Linear weights drawn after torch.manual_seed({seed}), "
        f"in the book's order. Inputs: {inputs}."
    )


@dataclass(frozen=True)
class Run:
    """What the page draws for one setting, or why it draws nothing."""

    result: mh.MultiHeadResult | None
    w_query: np.ndarray | None  # [d_in, width], head columns side by side
    head_width: int
    error: str | None = None


@st.cache_data(max_entries=32, show_spinner="Drawing the weights and running the forward pass…")
def run(kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int) -> Run:
    """Draw the parameters and run the float64 forward on the example batch (cached: GPT-2's
    2.4M parameters take a moment). Raises ``ValueError`` when the split class cannot split."""
    cfg = AttentionConfig(d_in, d_out, heads, context_length)
    total = mh.counts(kind, cfg).total_params  # type: ignore[arg-type]
    if total > MAX_DRAWN_PARAMS:
        return Run(
            None,
            None,
            0,
            f"This setting holds {fmt.integer(total)} parameters. The counts above are exact, but "
            f"drawing and running that many here would take seconds, so the figures stop at "
            f"{fmt.integer(MAX_DRAWN_PARAMS)}. Lower d_out or the number of heads to see them.",
        )
    params = mh.init_params(kind, cfg, seed)  # type: ignore[arg-type]
    w, width = mh.query_matrix(params)
    return Run(mh.forward(mh.example_batch(d_in), params), w, width)


@st.cache_resource(max_entries=32, show_spinner=False)
def figures_for(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, focus: int | None = None
) -> tuple[go.Figure, go.Figure, go.Figure]:
    """W_q's stripes, the per-head weights and the output, built once per setting and focus.

    A resource cache (no copy): ``st.plotly_chart`` serialises a figure without changing it.
    """
    r = run(kind, d_in, d_out, heads, seed, context_length)
    res = r.result
    assert res is not None and r.w_query is not None  # the page asks only for drawable settings
    cols = "1 column" if r.head_width == 1 else f"{r.head_width} columns"
    wq = mf.striped_matrix(
        r.w_query,
        r.head_width,
        title=f"W_q {list(r.w_query.shape)}, as XW_q reads it: {heads} stripes of {cols}",
        x_title="column of W_q, head by head",
        y_title="row (input feature)",
    )
    attn = mf.head_grid(res.weights[0], TOKENS, title="Attention weights, one heatmap per head", focus=focus)
    out = mf.striped_matrix(
        res.output[0],
        r.head_width if kind == "wrapper" else res.output.shape[-1],
        row_labels=TOKENS,
        title=f"Output {list(res.output.shape)}, first batch item",
        height=280,
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


def trace_table(result: mh.MultiHeadResult, kind: str, heads: int) -> pd.DataFrame:
    """The recorded steps; the wrapper's loop body is listed for head 1 and marked "× H"."""
    rows = []
    for s in result.steps:
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


@st.cache_data(show_spinner=False, max_entries=256)
def _measure_one(case: mha_speed.Case, mode: str) -> mha_speed.Timing:
    """One cell of the grid, cached: pressing the button again (or any rerun) re-times nothing."""
    return mha_speed.measure([case], mode, budget_s=0.3)[0]  # type: ignore[arg-type]


def _measure(ns: tuple[int, ...], hs: tuple[int, ...], d: int) -> dict[str, list[mha_speed.Timing]]:
    """Both modes of the small grid, cell by cell, advancing a progress bar."""
    cases = mha_speed.grid(ns, hs, (1,), d)
    jobs = [(mode, case) for mode in mha_speed.MODES for case in cases]
    bar = st.progress(0.0, text="Timing…")
    out: dict[str, list[mha_speed.Timing]] = {mode: [] for mode in mha_speed.MODES}
    for i, (mode, case) in enumerate(jobs):
        out[mode].append(_measure_one(case, mode))
        bar.progress(
            (i + 1) / len(jobs), text=f"Timed {i + 1} of {len(jobs)}: H = {case.heads}, n = {case.n}"
        )
    bar.empty()
    return out


MODE_TITLES = {
    "forward": "Whole forward (projections, scores, softmax, merge)",
    "projections": "Only what differs (projections and the head split/merge)",
}


def measure_section() -> None:
    """The page's stopwatch: the small grid behind a button, cached, then the plots."""
    st.subheader("Measure on this machine")
    lib, threads = mha_speed.blas_info()
    ns, hs, d = mha_speed.PAGE_NS, mha_speed.PAGE_HEADS, mha_speed.PAGE_D
    st.markdown(
        f"The post leaves one question open: at matched width, does the split class's single big "
        f"matmul beat H small ones once the reshapes are paid for? Time both in float32 NumPy on the "
        f"same inputs, d = {d}, n in {', '.join(f'{n:,}' for n in ns)}, H in {', '.join(map(str, hs))}, "
        f"batch 1. Each time is the fastest of at least three runs, the two classes timed in "
        f"alternation. With one head both do the same work, so that column shows how noisy this "
        f"machine is. BLAS: {lib}; threads: {threads}. `python -m bench multihead` runs the full "
        f"grid, n up to 4,096 and batch 8."
    )
    if st.button("Measure", key="mh_measure", icon=":material/timer:"):
        st.session_state["mh_measured"] = True
    if not st.session_state.get("mh_measured"):
        return
    results = _measure(tuple(ns), tuple(hs), d)
    cols = st.columns(2)
    for col, (mode, timings) in zip(cols, results.items(), strict=True):
        with col:
            figures.show(mf.speedup_plot(timings, title=MODE_TITLES[mode]), key=f"mh_speed_{mode}")
            st.markdown(mha_speed.summary(timings))
    rows = [
        {
            "mode": mode,
            "H": t.case.heads,
            "n": t.case.n,
            "wrapper (ms)": round(1e3 * t.wrapper_s, 3) if t.wrapper_s else None,
            "split (ms)": round(1e3 * t.split_s, 3) if t.split_s else None,
            "speed-up": round(t.speedup, 2) if t.speedup else None,
        }
        for mode, timings in results.items()
        for t in timings
    ]
    with st.expander("The measured times"):
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


CHECKS_NOTE = (
    "Quoted: what PyTorch prints for the book's classes after torch.manual_seed(123) on the book's "
    "batch (first batch item; the second is identical), and the post's figure 05. Live: computed "
    "here at those settings, whatever the controls say."
)


@st.cache_data(show_spinner=False)
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
            checks.exact(f"{label}, row {i + 1}", text, out[key][0, i], source="seed 123")
            for i, text in enumerate(q[key])
        ]
        if f"{key}_shape" in q:
            rows.append(checks.same(f"{label}: output shape", q[f"{key}_shape"], shape(out[key].shape)))
    gpt2 = GPT2_SMALL
    rows += [
        checks.same("GPT-2 small: head_dim", q["gpt2_head_dim"], str(gpt2.head_dim), source="768 / 12"),
        checks.same("GPT-2 small: divisor √head_dim", q["gpt2_divisor"], f"{gpt2.head_dim**0.5:g}"),
        checks.same("…not √d_out", q["gpt2_divisor_not"], f"{gpt2.d_out**0.5:.1f}"),
        checks.same(
            "GPT-2 small: MultiHeadAttention parameters",
            q["gpt2_attention_params"],
            fmt.integer(mh.counts("split", gpt2).total_params),
            source="incl. out_proj",
        ),
    ]
    return rows
