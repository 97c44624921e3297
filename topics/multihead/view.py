"""Every number the Multi-head page shows, from its settings (the post's figure 05; the book's
section 3.6, "Extending single-head attention to multi-head attention").

:func:`build` turns the page's controls and the reader's sentence into a :class:`View`: the
readouts, the numbers its prose and captions quote, what each figure draws, the shape trace, the
matched-width table, exercise 3.2's three columns and the live side of the checks. The page lays
the view out; the tests and the Reproduce oracle read the same view. The forward pass and the
book's numbers are the heavy part: :func:`build` takes them as keyword arguments whose defaults
are the plain functions here, and the page passes its cached ones (``topics.multihead.study``).

No Streamlit and no Plotly here (``tests/test_imports.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core import book, cell, tokens
from core import multihead as mh
from core import sentence as sent
from core.config import GPT2_SMALL, AttentionConfig
from topics.multihead import speed
from topics.multihead.thinning import MAX_CELLS, Thinned, thinned
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel, chosen_key

CUSTOM = "Custom"
PRESETS: dict[str, dict[str, object]] = {
    "Book toy": {"d_in": 3, "d_out": 2, "heads": 2},
    "Exercise 3.2": {"kind": "wrapper", "d_in": 3, "d_out": 1, "heads": 2},
    "GPT-2 small": {"kind": "split", "d_in": 768, "d_out": 768, "heads": 12},
}
PRESET_NAMES = (*PRESETS, CUSTOM)
GPT2_CONTEXT = 1024  # the GPT-2 small preset builds the class with GPT-2's context length
# Widths on offer: every width to 16 (so every divisibility case of small heads is reachable),
# then the sizes real models use, up to 1,024. A ladder, not a free number: a link cannot carry
# a width the page was not built for.
WIDTHS: tuple[int, ...] = (*range(1, 17), 20, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
MAX_HEADS = 16
MAX_SEED = 1000
MAX_DRAWN_PARAMS = 4_000_000  # GPT-2's 2,360,064 fit; a 21M-parameter wrapper is counted, not drawn
BATCH = 2  # the book's batch: the sentence stacked twice

HEAD_DIM_1 = (
    "**Each head is 1 wide.** A head's query and key are single numbers, so every score is a "
    "product of two scalars: a query can only scale one key feature up or down, and each row of "
    "weights can only rank the tokens by that one feature. The book's toy setting (d_out 2, two "
    "heads) has exactly this shape: it reproduces the printed shapes and hides what a head does. "
    "Try d_out = 8 with two heads."
)


@dataclass(frozen=True)
class Settings:
    """The page's controls and the reader's sentence; the defaults are the page's."""

    labels: tuple[str, ...] = tokens.TOKENS
    x: np.ndarray = field(default_factory=tokens.inputs)  # the sentence's embeddings [n, width]
    preset: str = "Book toy"
    kind: mh.Kind = "split"
    heads: int = 2
    d_in: int = 3
    d_out: int = 2
    seed: int = 123

    @property
    def config(self) -> AttentionConfig:
        """The class as built: GPT-2's context length under its preset, else the sentence's."""
        length = GPT2_CONTEXT if self.preset == "GPT-2 small" else len(self.labels)
        return AttentionConfig(self.d_in, self.d_out, self.heads, length)


@dataclass(frozen=True)
class Run:
    """What the page draws for one setting, or why it draws nothing.

    Not the forward's whole result: the batch is the sentence stacked twice, so it keeps the first
    item only, and the output and W_q as their figures draw them (a [2, 32, 16,384] output is
    8.4 MB; see ``ui.cache``).
    """

    steps: tuple[mh.Step, ...]  # the shape trace, as it ran
    weights: np.ndarray | None  # [H, n, n] attention per head, first batch item
    output: Thinned | None  # [n, d] first batch item, as the output figure draws it
    output_shape: tuple[int, ...]  # the whole output's, [b, n, d]
    output_rows: tuple[str, ...]  # each output row of the first item as a focus note prints it
    w_query: Thinned | None  # [d_in, width], head columns side by side, as the figure draws it
    head_width: int
    error: str | None = None


def forward(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray
) -> Run:
    """Draw the parameters and run the float64 forward on the sentence ``x`` [n, width], stacked
    twice (stand-ins when ``d_in`` is not its width). A setting over ``MAX_DRAWN_PARAMS`` is
    counted, not drawn: its run holds only the reason. Raises ``ValueError`` when the split class
    cannot split."""
    cfg = AttentionConfig(d_in, d_out, heads, context_length)
    k = _kind(kind)
    total = mh.counts(k, cfg).total_params
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
    params = mh.init_params(k, cfg, seed)
    w, width = mh.query_matrix(params)
    res = mh.forward(sent.example_batch(x, d_in), params)
    out_width = width if k == "wrapper" else res.output.shape[-1]
    return Run(
        res.steps,
        res.weights[0],
        thinned(res.output[0], out_width),
        res.output.shape,
        tuple(fmt.short_vec(z) for z in res.output[0]),
        thinned(w, width),
        width,
    )


@dataclass(frozen=True)
class Head:
    """One head's queries, keys and values for the first batch item, each [n, head width]: what
    the cell panel works a cell of that head out from."""

    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray


def head_projections(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, context_length: int, x: np.ndarray, head: int
) -> Head:
    """Head ``head``'s q, k and v, projected as :func:`forward` projects them (the same float64
    products on the same batch), so the panel's numbers are the heatmap's.

    The split class projects once and hands head h the columns ``h·head_dim`` to
    ``(h+1)·head_dim − 1`` (``.view`` then ``.transpose(1, 2)``, section 3.6.2); each of the
    wrapper's heads is its own ``CausalAttention`` with its own three matrices (section 3.6.1).
    """
    cfg = AttentionConfig(d_in, d_out, heads, context_length)
    params = mh.init_params(_kind(kind), cfg, seed)
    batch = sent.example_batch(x, d_in).astype(np.float64)  # [2, n, d_in]
    if isinstance(params, mh.WrapperParams):
        p, cols = params.heads[head], slice(None)
    else:
        p, cols = params.qkv, slice(head * cfg.head_dim, (head + 1) * cfg.head_dim)

    def project(lin: mh.Linear) -> np.ndarray:
        y = batch @ lin.weight.astype(np.float64).T  # [2, n, width], as forward computes it
        y = y if lin.bias is None else y + lin.bias.astype(np.float64)
        return np.ascontiguousarray(y[0][:, cols])

    return Head(project(p.query), project(p.key), project(p.value))


def _kind(kind: str) -> mh.Kind:
    """``kind`` as ``core.multihead`` takes it (a cache key arrives as a plain string)."""
    for k in mh.KINDS:
        if kind == k:
            return k
    raise ValueError(f"kind must be one of {mh.KINDS}, got {kind!r}")


@dataclass(frozen=True)
class Book:
    """The numbers the book, the post and the solutions print, computed here: the checks' live side
    and exercise 3.2's columns. Fixed settings (the book's batch, seed 123), whatever the controls."""

    outputs: dict[str, np.ndarray]  # causal_attention, wrapper, exercise_3_2, split: [2, 6, d]
    stale: np.ndarray  # exercise 3.2's wrapper with softmax(dim=1), first batch item [6, 2]
    stale_row_sums: np.ndarray  # head 1's rows of weights under dim=1 [6]: not 1
    gpt2_head_dim: int
    gpt2_divisor: float  # √head_dim = 8
    gpt2_d_out_root: float  # √768 = 27.7, the divisor it does not use
    gpt2_params: int  # MultiHeadAttention(768, 768, ..., 12), out_proj included
    gpt3_heads: int  # per layer
    gpt3_head_dim: int
    gpt3_layers: int
    gpt3_d_model: int


def book_numbers() -> Book:
    """The book's classes on the book's batch after ``torch.manual_seed(123)``, exercise 3.2 as the
    solution printed it, and GPT-2's and GPT-3's head counts."""
    x = mh.example_batch(3)
    toy, ex32 = AttentionConfig(), AttentionConfig(d_out=1)
    stale, stale_w = mh.exercise_3_2_as_printed()
    return Book(
        {
            "causal_attention": mh.causal_attention(x, mh.init_causal_attention(toy, 123), toy)[0],
            "wrapper": mh.forward(x, mh.init_wrapper(toy, 123)).output,
            "exercise_3_2": mh.forward(x, mh.init_wrapper(ex32, 123)).output,
            "split": mh.forward(x, mh.init_split(toy, 123)).output,
        },
        stale[0],
        stale_w[0, 0].sum(axis=-1),
        GPT2_SMALL.head_dim,
        GPT2_SMALL.head_dim**0.5,
        GPT2_SMALL.d_out**0.5,
        mh.counts("split", GPT2_SMALL).total_params,
        mh.GPT3_175B.num_heads,
        mh.GPT3_175B.head_dim,
        mh.GPT3_175B_LAYERS,
        mh.GPT3_175B.d_out,
    )


@dataclass(frozen=True)
class Readout:
    """One ``st.metric``: the label the page shows and the Reproduce script prints, its value as
    shown, and its help. The script prints every readout under the same label (issue 24, item 11)."""

    label: str
    value: str
    help: str | None = None


@dataclass(frozen=True)
class View:
    """Every number the page shows for one setting."""

    config: AttentionConfig
    readouts: tuple[Readout, ...]  # the six metrics, in the page's order (three a row)
    divisor_note: str | None  # the split class's divisor against √d_out, when they differ
    out_proj_note: str | None  # under the split class's output
    matched_note: str | None  # under the matched-width table
    exercise_note: str  # under exercise 3.2's table
    caption: str  # the class and the inputs on screen
    gpt3_note: str
    head_width: int | None  # d_out (wrapper) or head_dim (split); None when the split cannot split
    divisor: float | None  # √keys.shape[-1] = √head_width
    head_dim: int | None  # the split class's, when d_out divides
    head_dim_root: float | None  # √head_dim: the split class's divisor
    d_out_root: float  # √d_out, the divisor the split class does not use
    output_wrapper: tuple[int, int, int]  # [b, n, d_out · H]
    output_split: tuple[int, int, int] | None  # [b, n, d_out]; None when it cannot split
    projection_matmuls: int  # of the class as set: 3H or 3
    params: int | None  # of the class as set, out_proj included
    split_error: str | None  # why the split class cannot be built
    split_fixes: tuple[tuple[int, ...], tuple[int, ...]] | None  # the widths and head counts it can
    run: Run | None  # the figures' values; None when the class cannot be built
    thinned: bool  # W_q is drawn every k-th row and column
    trace: pd.DataFrame | None  # the shape trace, as it ran
    comparison: pd.DataFrame | None  # both classes at matched width (split divisible only)
    wrapper_matmuls: int  # 3H, quoted under the comparison
    out_proj_params: int | None  # the split class's mixing layer (divisible only)
    book: Book
    exercise: pd.DataFrame  # exercise 3.2: printed, replayed with dim=1, today's
    measure_intro: str  # the stopwatch's grid, budget and BLAS


def build(
    s: Settings, *, run: Callable[..., Run] = forward, book_run: Callable[[], Book] = book_numbers
) -> View:
    """The page's numbers for ``s``, whatever the focus and the cell (:func:`focused` adds those);
    ``run`` and ``book_run`` are the page's cached :func:`forward` and :func:`book_numbers` (the
    same numbers, computed once per setting)."""
    cfg, n = s.config, len(s.labels)
    can_split = cfg.divisible
    width = mh.head_width(s.kind, cfg) if s.kind == "wrapper" or can_split else None
    r = None if width is None else run(s.kind, s.d_in, s.d_out, s.heads, s.seed, cfg.context_length, s.x)
    drawn = r is not None and r.error is None
    b = book_run()
    head_dim = cfg.head_dim if can_split else None
    params = None if width is None else mh.counts(s.kind, cfg).total_params
    output_wrapper = (BATCH, n, mh.counts("wrapper", cfg).output_width)
    output_split = (BATCH, n, mh.counts("split", cfg).output_width) if can_split else None
    projection_matmuls = mh.counts("wrapper", cfg).projection_matmuls if s.kind == "wrapper" else 3
    wrapper_matmuls = mh.counts("wrapper", cfg).projection_matmuls
    out_proj_params = mh.counts("split", cfg).out_proj_params if can_split else None
    return View(
        config=cfg,
        readouts=readouts(s.kind, width, output_wrapper, output_split, projection_matmuls, params),
        divisor_note=divisor_note(head_dim, s.d_out),
        out_proj_note=out_proj_note(s.heads) if s.kind == "split" else None,
        matched_note=matched_note(wrapper_matmuls, out_proj_params),
        exercise_note=exercise_note(b),
        caption=describe(s),
        gpt3_note=gpt3_note(b),
        head_width=width,
        divisor=None if width is None else width**0.5,
        head_dim=head_dim,
        head_dim_root=cfg.head_dim**0.5 if can_split else None,
        d_out_root=s.d_out**0.5,
        output_wrapper=output_wrapper,
        output_split=output_split,
        projection_matmuls=projection_matmuls,
        params=params,
        split_error=None if width is not None else split_error(cfg),
        split_fixes=None if width is not None else split_fixes(cfg),
        run=r,
        thinned=drawn and r is not None and r.w_query is not None and max(r.w_query.shape) > MAX_CELLS,
        trace=trace_table(r.steps, s.kind, s.heads) if drawn and r is not None else None,
        comparison=comparison_table(cfg) if can_split else None,
        wrapper_matmuls=wrapper_matmuls,
        out_proj_params=out_proj_params,
        book=b,
        exercise=exercise_table(b),
        measure_intro=measure_intro(),
    )


@dataclass(frozen=True)
class Focused:
    """What the focus and the cell add to a :class:`View`: the page's focus fragment shows it."""

    focus: int | None  # the focused query's row, or None (also when the run draws nothing)
    context: str | None  # the focused query's output row, as the focus note prints it
    head: int  # the head of the panel's cell (0-based): the one asked for, or 0 if the class lacks it
    key: int | None  # the column of the panel's cell (None without a focus or a drawn run)
    cell: Panel | None  # that cell's arithmetic, step by step


def focused(
    s: Settings,
    v: View,
    focus: int | None,
    key: int | None = None,
    head: int = 0,
    *,
    head_run: Callable[..., Head] = head_projections,
) -> Focused:
    """The focused query ``focus``, the cell panel's ``key`` (None: the query's largest weight) and
    ``head`` on top of ``v`` (:func:`build` of ``s``): cheap, but for one head's projections, which
    ``head_run`` (the page's cached :func:`head_projections`) computes once per setting and head."""
    r, cfg, n = v.run, v.config, len(s.labels)
    head = head if 0 <= head < s.heads else 0
    drawn = r is not None and r.error is None and r.weights is not None
    if not drawn or r is None or r.weights is None or focus is None or not 0 <= focus < n:
        return Focused(None, None, head, None, None)
    shown = r.weights[head]  # [n, n] the heatmap of this head
    j = chosen_key(key, shown[focus])
    q = head_run(s.kind, s.d_in, s.d_out, s.heads, s.seed, cfg.context_length, s.x, head)
    c = cell.cell(q.queries, q.keys, q.values, focus, j, r.head_width**0.5, causal=True, weights=shown)
    return Focused(focus, r.output_rows[focus], head, j, cell_panel(c, s.labels, s.kind, cfg, head))


def _columns(a: int, b: int) -> str:
    """``columns 3–4`` (1-based, as the W_q figure numbers them), or ``column 3`` for one."""
    return f"column {a + 1}" if b - a == 1 else f"columns {a + 1}–{b}"


def cell_notes(kind: str, cfg: AttentionConfig, head: int, query: str, i: int, n: int) -> tuple[str, ...]:
    """The panel's own lines for a cell of head ``head``: the stripe of W_q and W_k that made its q
    and k, its divisor, the causal mask, and where its context vector goes (before ``out_proj``).

    True at every setting: one head has no stripes to pick from, a head one column wide has one
    column, and the first query sees only itself.
    """
    h, heads = head + 1, cfg.num_heads
    width = cfg.d_out if kind == "wrapper" else cfg.head_dim
    a, b = head * width, (head + 1) * width
    cols = _columns(a, b)
    if kind == "wrapper":
        stripe = (
            f"Head {h} of {heads} is the wrapper's `CausalAttention` number {h}, with its own `W_query` and "
            f"`W_key` ({cfg.d_in} × {cfg.d_out} each). The W_q figure lays every head's matrix side by "
            f"side, so this head's W_q is its {cols}."
            if heads > 1
            else f"One head: its W_q (the whole W_q figure) and its W_k are {cfg.d_in} × {cfg.d_out} each."
        )
        divisor = (
            f"Each `CausalAttention` divides by √d_out = √{cfg.d_out}: "
            "`keys.shape[-1]` is its own keys' width."
        )
        context = (
            f"This z is head {h}'s output before anything else touches it: the wrapper has no `out_proj`, "
            f"and `torch.cat` places it unchanged in {cols} of the output's row for *{query}*."
        )
    else:
        stripe = (
            f"Head {h} of {heads}: its q and k are {cols} of XW_q and XW_k, made by the same {cols} of "
            f"W_q and W_k ({cfg.d_in} × {cfg.d_out}; `[:, {a}:{b}]` in code): "
            f"`.view(b, num_tokens, {heads}, {cfg.head_dim})` cuts each projection into {heads} stripes of "
            f"{cfg.head_dim} and `.transpose(1, 2)` puts the heads first."
            if heads > 1
            else f"One head: its stripe is the whole of W_q and W_k ({cfg.d_in} × {cfg.d_out})."
        )
        divisor = (
            f"The split class divides by √head_dim = √{cfg.head_dim}: `keys.shape[-1]` is read after the "
            + (f"reshape, so it is one head's width, not d_out = {cfg.d_out}." if heads > 1 else "reshape.")
        )
        mixes = "every head's columns" if heads > 1 else "its columns"
        context = (
            f"This z is head {h}'s context vector before `out_proj`: {cols} of the merged `context_vec` for "
            f"*{query}*. `out_proj` then mixes {mixes} and adds its bias, so the output figure's row is not "
            "this vector."
        )
    seen = "only key 1, itself" if i == 0 else f"keys 1 to {i + 1} of {n}"
    mask = (
        "Both classes are causal: `masked_fill_` sets every score of a key after the query to −∞ before "
        f"the softmax, so its weight is exactly 0. Query {i + 1}, *{query}*, sees {seen}."
    )
    return stripe, divisor, mask, context


def cell_panel(c: cell.Cell, labels: tuple[str, ...], kind: str, cfg: AttentionConfig, head: int) -> Panel:
    """The arithmetic of one cell of head ``head``'s weights, as section 3.4 works ω_22 out, with the
    stripe, the divisor and the mask of the class on screen."""
    width = cfg.d_out if kind == "wrapper" else cfg.head_dim
    a, b = head * width, (head + 1) * width
    query = fmt.md(labels[c.i])
    if kind == "wrapper":
        projected = f"x_{{i}} W_q and k_{{j}} = x_{{j}} W_k, with head {head + 1}'s own W_q and W_k"
        divisor_name = f"√d_out = √{cfg.d_out}"
    else:
        projected = f"x_{{i}} W_q[:, {a}:{b}] and k_{{j}} = x_{{j}} W_k[:, {a}:{b}], head {head + 1}'s stripe"
        divisor_name = f"√head_dim = √{cfg.head_dim}"
    p = cell_text.panel(
        c,
        labels,
        labels,
        projected=projected,
        divisor_name=divisor_name,
        notes=cell_notes(kind, cfg, head, query, c.i, len(labels)),
    )
    return dataclasses.replace(p, heading=f"head {head + 1}, {p.heading}")


HEAD_WIDTH = {"split": "head_dim", "wrapper": "Head width = d_out"}
DIVISOR = "Divisor √keys.shape[-1]"
OUTPUT_WRAPPER, OUTPUT_SPLIT = "Output, wrapper", "Output, split"
PROJECTION_MATMULS = "Projection matmuls"
PARAMETERS = "Parameters"
NONE = "—"  # a readout there is none of: the split class cannot cut d_out into H heads


def readouts(
    kind: str,
    width: int | None,
    output_wrapper: tuple[int, int, int],
    output_split: tuple[int, int, int] | None,
    projection_matmuls: int,
    params: int | None,
) -> tuple[Readout, ...]:
    """The six metrics in the page's order: one head's width, its divisor and the projection matmuls,
    then both classes' output shapes (section 3.6.1's ``[2, 6, 4]`` against 3.6.2's ``[2, 6, 2]``)
    and the parameters of the class as set."""
    return (
        Readout(HEAD_WIDTH[kind], NONE if width is None else str(width)),
        Readout(DIVISOR, NONE if width is None else root_text(width**0.5)),
        Readout(PROJECTION_MATMULS, str(projection_matmuls), "3H for the wrapper, 3 split."),
        Readout(OUTPUT_WRAPPER, shape(output_wrapper), "d_out × H wide: d_out is per head."),
        Readout(OUTPUT_SPLIT, shape(output_split), "d_out wide: d_out is the total."),
        Readout(
            PARAMETERS,
            NONE if params is None else fmt.integer(params),
            "Of the class as set, out_proj included.",
        ),
    )


def divisor_note(head_dim: int | None, d_out: int) -> str | None:
    """The split class's divisor is √head_dim, read after the reshape, not √d_out (section 3.6.2).

    Said only where the two differ (more than one head) and a head is wider than one number."""
    if head_dim is None or head_dim <= 1 or head_dim == d_out:
        return None
    root = d_out**0.5
    d_out_root = str(round(root)) if round(root) ** 2 == d_out else f"{root:.1f}"
    return (
        f"The split class divides its scores by √{head_dim} = {root_text(head_dim**0.5)}, not by "
        f"√d_out = √{d_out} = {d_out_root}: keys.shape[-1] is read after the reshape."
    )


def out_proj_note(heads: int) -> str:
    """Under the split class's output: ``out_proj`` mixes every column, so its output has no stripes."""
    if heads > 1:
        return "out_proj mixes the heads, so the output has no stripes; the line before it does."
    return "With one head there are no stripes to mix; out_proj still mixes the output's columns."


def matched_note(wrapper_matmuls: int, out_proj_params: int | None) -> str | None:
    """Under the matched-width table: what differs between the classes at this head count."""
    if out_proj_params is None:
        return None
    mixing = f"`out_proj`, a mixing layer of {fmt.integer(out_proj_params)} parameters the wrapper lacks."
    if wrapper_matmuls > 3:
        return (
            "The projections hold the same parameters either way; what differs is how many matrix "
            f"multiplications carry them, {wrapper_matmuls} against 3 here. The split class then adds "
            + mixing
        )
    return (
        "With one head the two classes run the same three projections, the same parameters in as many "
        "matrix multiplications. The split class only adds " + mixing
    )


def exercise_note(b: Book) -> str:
    """Under exercise 3.2's table: why the solution's print is stale, with the replayed numbers."""
    norms = np.linalg.norm(b.stale, axis=-1)
    grows = ", and the last token's outputs grow largest" if int(np.argmax(norms)) == len(norms) - 1 else ""
    return (
        f"The solutions notebook prints `{book.EXERCISE_3_2_SOLUTION[0]}` first; the book's classes "
        f"under PyTorch 2.13 give `{fmt.vec(b.outputs['exercise_3_2'][0, 0])}`. The middle column runs "
        "the same wrapper here with one change, `torch.softmax(..., dim=1)` in every head, and reproduces "
        "the stale print digit for digit. That was the chapter's own code until commit d4754f1 (4 March "
        "2024, “change dim=1 to dim=-1”); the solution's printed output was never regenerated. With "
        "`dim=1` each *column* of the weights sums to 1, so each query's row sums to "
        f"{fmt.vec(b.stale_row_sums, 2)} in head 1 instead of 1{grows}."
    )


def describe(s: Settings) -> str:
    """One caption naming the weights and the inputs on screen."""
    cfg, n, width = s.config, len(s.labels), s.x.shape[1]
    whose = "the book's six tokens" if _is_book(s) else f"your sentence's {fmt.count(n, 'token')}"
    inputs = (
        f"{whose}, stacked twice (batch [{BATCH}, {n}, {width}])"
        if cfg.d_in == width
        else f"{fmt.count(n, 'stand-in embedding')} torch.rand({n}, {cfg.d_in}) after "
        f"torch.manual_seed({mh.STAND_IN_SEED}), "
        f"stacked twice (d_in {cfg.d_in} is not the sentence's width, {width})"
    )
    cls = "MultiHeadAttentionWrapper" if s.kind == "wrapper" else "MultiHeadAttention"
    return (
        f"{cls}({cfg.d_in}, {cfg.d_out}, context_length={cfg.context_length}, dropout=0.0, "
        f"num_heads={cfg.num_heads}) with nn.Linear weights drawn after torch.manual_seed({s.seed}), "
        f"in the book's order. Inputs: {inputs}."
    )


def _is_book(s: Settings) -> bool:
    """The book's own ``inputs``: its six tokens with their printed embeddings."""
    return s.labels == tokens.TOKENS and np.array_equal(s.x, tokens.inputs())


def gpt3_note(b: Book) -> str:
    """The post's "GPT-3 has 96 of them", counted from the paper's configuration."""
    return (
        f"The post says the richness comes from many heads over many layers, “and GPT-3 has 96 of "
        f"them”. GPT-3 175B has {b.gpt3_heads} heads *in each* of its {b.gpt3_layers} layers: "
        f"{fmt.integer(b.gpt3_heads * b.gpt3_layers)} heads in all, each head_dim = "
        f"{fmt.integer(b.gpt3_d_model)} / {b.gpt3_heads} = {b.gpt3_head_dim} wide "
        "(Brown et al. 2020, table 2.1)."
    )


def shape(dims: tuple[int, ...] | None) -> str:
    """``[2, 6, 4]``, as the post writes a torch.Size; "—" for a shape there is none of."""
    return "—" if dims is None else "[" + ", ".join(str(d) for d in dims) + "]"


def root_text(x: float) -> str:
    """A square root as the page prints it: ``8`` for GPT-2's √64, ``1.4142`` for √2."""
    return fmt.num(x).rstrip("0").rstrip(".")


def split_fixes(cfg: AttentionConfig) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The nearest widths on the page's ladder the split class can cut into ``num_heads`` heads
    (one below ``d_out`` and one above, where there are), and every head count the slider offers
    that divides ``d_out``: what the reader can pick instead."""
    h, d = cfg.num_heads, cfg.d_out
    fits = [w for w in WIDTHS if w % h == 0]
    below, above = [w for w in fits if w < d], [w for w in fits if w > d]
    widths = (*below[-1:], *above[:1])
    heads = tuple(k for k in range(1, MAX_HEADS + 1) if d % k == 0)
    return widths, heads


def _either(values: tuple[int, ...]) -> str:
    """``5``, ``5 or 10``, ``1, 2, 3 or 6``."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def split_error(cfg: AttentionConfig) -> str:
    """Why the split class cannot be built (the book's ``assert d_out % num_heads == 0``), and the
    widths and head counts on this page that it can be built with."""
    if cfg.divisible:
        return ""
    widths, heads = split_fixes(cfg)
    return (
        f"d_out = {cfg.d_out} is not divisible by num_heads = {cfg.num_heads}: MultiHeadAttention cuts "
        f"d_out into {cfg.num_heads} slices of equal width head_dim = d_out / num_heads. Pick d_out = "
        f"{_either(widths)} (a multiple of {cfg.num_heads}), or H = {_either(heads)} (a head count that "
        f"divides {cfg.d_out})."
    )


def trace_table(steps: tuple[mh.Step, ...], kind: str, heads: int) -> pd.DataFrame:
    """The recorded steps; the wrapper's loop body is listed for head 1 and marked "× H"."""
    rows = []
    for step in steps:
        if step.head not in (None, 0):
            continue
        rows.append(
            {
                "step": step.name,
                "code": step.code,
                "shape": shape(step.shape),
                "contiguous": step.contiguous,
                "where": f"head 1 of {heads} (runs × {heads})" if step.head == 0 else "",
            }
        )
    table = pd.DataFrame(rows)
    return table if kind == "wrapper" else table.drop(columns="where")


def comparison_table(cfg: AttentionConfig) -> pd.DataFrame:
    """Both classes at matched output width: equal projections, 3H matmuls against 3."""
    wrapper, split = mh.matched_wrapper(cfg), mh.counts("split", cfg)
    pairs = [
        ("Wrapper, head_dim per head", wrapper.d_out, mh.counts("wrapper", wrapper)),
        ("Split", cfg.head_dim, split),
    ]
    rows = [
        {
            "class": label,
            "width of one head": head,
            "projection parameters": fmt.integer(c.projection_params),
            "out_proj parameters": fmt.integer(c.out_proj_params),
            "total parameters": fmt.integer(c.total_params),
            "projection matmuls": c.projection_matmuls,
            "attention matmuls": c.attention_matmuls,
            "output width": c.output_width,
        }
        for label, head, c in pairs
    ]
    return pd.DataFrame(rows).set_index("class").T.astype(str)


def sci_row(row: np.ndarray) -> str:
    """``[-9.1476e-02, 3.4164e-02]``: a row as PyTorch prints a tensor in scientific mode."""
    return "[" + ", ".join(f"{float(v):.4e}" for v in row) + "]"


def exercise_table(b: Book) -> pd.DataFrame:
    """Exercise 3.2's first batch item: as the solution prints it, replayed with the old
    ``softmax(dim=1)``, and as the book's code gives it today."""
    return pd.DataFrame(
        {
            "official solution prints": book.EXERCISE_3_2_SOLUTION,
            "the same wrapper with softmax(dim=1)": [sci_row(r) for r in b.stale],
            "the book's code today (dim=-1)": [fmt.vec(r) for r in b.outputs["exercise_3_2"][0]],
        },
        index=list(tokens.TOKENS),  # exercise 3.2 runs on the book's sentence
    )


def measure_intro() -> str:
    """The stopwatch's question, its grid and budget, and the BLAS it runs on."""
    lib, threads = speed.blas_info()
    ns, hs, d = speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D
    return (
        f"The post leaves one question open: at matched width, does the split class's single big "
        f"matmul beat H small ones once the reshapes are paid for? Time both in float32 NumPy on the "
        f"same inputs, d = {d}, n in {', '.join(f'{n:,}' for n in ns)}, H in {', '.join(map(str, hs))}, "
        f"batch 1, for **{speed.PAGE_BUDGET_S:g} seconds** in all. Each round times every setting "
        f"once as wrapper, split, split, wrapper, so both classes meet the same background load, and "
        f"the speed-up comes with a 95% interval over the rounds. With one head both classes do "
        f"identical work: that control must include 1, or the machine is too noisy to tell. "
        f"BLAS: {lib}; threads: {threads}. One press measures for every reader: whoever presses "
        f"Measure before the clock's next {speed.PAGE_REUSE_S // 60}-minute mark is shown the same "
        f"timings and told when they were taken. `python -m bench multihead` runs the full grid."
    )
