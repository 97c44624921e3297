"""Read-along steps for dropout (section 3.5.2) and multi-head attention (section 3.6).

Dropout: the survivors' factor 1/(1 − p), one draw whose rows no longer sum to 1, and the average
over many draws that does. The one-draw steps run the book's own draw (PyTorch's generator after
``torch.manual_seed(123)``, p = 0.5) whatever the Dropout page's default generator is; the average
runs NumPy's generator, the fast one, at the smallest draw count the page offers.

Multi-head: which ``d_out`` is per head, the shapes ``.view`` and ``.transpose(1, 2)`` give, and
why one big projection cut into heads is the same as a projection per head.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core import multihead as mh
from core import rounding
from core.config import AttentionConfig
from core.sentence import Sentence, example_batch
from topics.dropout import view as drop
from topics.multihead import view as heads
from topics.read_along.step import RELATIVE, Figure, Question, Step, StepDef, token
from ui import format as fmt

# --- dropout ------------------------------------------------------------------------------

BOOK_P, BOOK_DROPOUT_SEED = drop.BOOK_P, drop.BOOK_DROPOUT_SEED  # p = 0.5, torch.manual_seed(123)
rate, worked_factor = drop.text.rate, drop.text.worked_factor  # the Dropout page's own wording
ONE_DRAW = 1  # the first draw is the same however many follow, so a one-draw step draws one
EARLY_DRAWS = 5  # the running mean's first draws, shown before the reveal (drawings.dropout_heads)
SUMS_TO_ONE = 1e-12  # |row sum − 1| at most this is a row that still sums to 1 (float64 rounding)


@dataclass(frozen=True, eq=False)
class DropPick:
    """A dropout view and the row (and cell) a drawing outlines."""

    view: drop.View
    row: int
    cell: int | None = None
    sums: bool = True  # the row sums are drawn (after the reveal); never on the factor's step


def _dropout(s: Sentence, generator: drop.Generator, draws: int) -> drop.View:
    """The Dropout page's view at the book's rate, seed and scaling, on the reader's sentence."""
    return drop.build(
        drop.Settings(s.labels, s.embeddings, BOOK_P, True, generator, BOOK_DROPOUT_SEED, draws)
    )


def _drop_link(generator: drop.Generator, **extra: str) -> dict[str, str]:
    """The Dropout page's URL keys for these settings (its generator named as its radio names it)."""
    return {
        "p": rate(BOOK_P),
        "scaling": "true",
        "generator": drop.GENERATOR_NAMES[generator],
        "drop_seed": str(BOOK_DROPOUT_SEED),
        **extra,
    }


def _where(v: drop.View) -> str:
    """Where this draw stands against the tensor the book prints."""
    if v.book_draw:
        return "On the book's sentence this is exactly the tensor section 3.5.2 prints."
    return "On the book's sentence, these settings give exactly the tensor section 3.5.2 prints."


def survivor(v: drop.View) -> tuple[int, int] | None:
    """The surviving weight the factor step points at: the largest live weight this draw kept
    (row 1's single weight, 1, when it survived), or None when the draw kept none."""
    live = np.tril(np.ones(v.weights.shape, dtype=bool))
    kept = live & v.first_keep
    if not kept.any():
        return None
    i, j = np.unravel_index(int(np.argmax(np.where(kept, v.weights, -1.0))), v.weights.shape)
    return int(i), int(j)


def _zeros(v: drop.View) -> str:
    """What the covered draw's zeros are: the causal mask's, above the diagonal, and the dropped."""
    live = np.tril(np.ones(v.weights.shape, dtype=bool))
    masked, dropped, n = int((~live).sum()), int((live & ~v.first_keep).sum()), int(live.sum())
    verb = "was" if dropped == 1 else "were"
    drops = f"{dropped} of the {n} weights on or below the diagonal {verb} dropped"
    if n == 1:
        drops = f"its one weight was {'' if dropped else 'not '}dropped"
    mask = f"the {masked} zeros above the diagonal are the causal mask's; " if masked else ""
    return f"the weights that survived show ?; {mask}{drops} by this draw."


def factor(s: Sentence) -> Step:
    """The survivors' factor 1/(1 − p): a number question on the book's draw."""
    v = _dropout(s, "torch", ONE_DRAW)
    T, p, f = v.labels, rate(v.p), f"{v.survivor_factor:.4g}"
    worked = worked_factor(v.keep, v.factor)
    at = survivor(v)
    if at is None:
        cell, shown = "Every weight was dropped in this draw, so no survivor shows it.", (0, 0)
    else:
        i, j = at
        before = drop.operand(float(v.weights[i, j]), v.survivor_factor, float(v.first[i, j]))
        after = fmt.num(v.first[i, j])
        cell = f"Outlined: {token(T[i])} → {token(T[j])}, {before} × {f} = {after} in this draw."
        shown = at
    text = (
        "During training, `nn.Dropout` zeroes each attention weight at random, with probability p, so "
        "no token can lean on one neighbour (section 3.5.2). The book applies it to the causal weights "
        f"at p = {p}, after `torch.manual_seed({BOOK_DROPOUT_SEED})`. This step runs that draw, computed "
        "here with a generator that reproduces PyTorch's random numbers. " + _where(v)
    )
    return Step(
        text=text,
        figure=Figure(
            "drop_draw",
            DropPick(v, shown[0], shown[1], sums=False),
            "One draw after dropout",
            f"Outlined: the row of {token(T[shown[0]])} and its weight for {token(T[shown[1]])}.",
            covered=_zeros(v),
        ),
        question=Question(
            prompt=f"At p = {p}, about half of the weights are zeroed. What does `nn.Dropout` multiply "
            "each weight that survives by?",
            options=(),
            answer=v.survivor_factor,
            answer_text=f"{f}, that is 1/(1 − p) = {worked}",
            explanation=(
                f"A weight survives with probability 1 − p = {v.keep:g} and is then multiplied by {f}, "
                f"so on average it keeps its value: {v.keep:g} × {f} = 1. " + cell
            ),
            tolerance=RELATIVE,
            relative=True,
            hint=(
                f"A weight survives with probability 1 − p = {v.keep:g}. By what must a survivor be "
                "multiplied so that, on average over many draws, it keeps its value?"
            ),
            secrets=("1/(1 − p)", fmt.num(v.first[shown[0], shown[1]])),
        ),
        link=_drop_link("torch", drop_focus=T[shown[0]], drop_cell=T[shown[1]]),
    )


def one_draw(s: Sentence) -> Step:
    """Does a row still sum to 1 after dropout, in one draw? A choice, on the book's draw."""
    v = _dropout(s, "torch", ONE_DRAW)
    T, p, f = v.labels, rate(v.p), f"{v.survivor_factor:.4g}"
    sums = v.row_sums
    all_one = bool(np.all(np.abs(sums - 1.0) <= SUMS_TO_ONE))
    row = v.dead_rows[0] - 1 if v.dead_rows else 0
    lo, hi = fmt.num(sums.min()), fmt.num(sums.max())
    weights = {fmt.num(x) for x in v.first.ravel()}  # a row sum that is also a weight gives nothing away
    first = f"Row 1 holds a single weight, 1, so it ends as 0 or {f}: here {fmt.num(sums[0])}."
    if all_one:
        why = "Every row's kept weights happen to add up to 1 in this draw. " + first
    else:
        why = f"Each row keeps a random subset of its weights, each multiplied by {f}. " + first
    if v.dead_rows:
        why += (
            f" Row {row + 1}, {token(T[row])}, lost every weight: its context vector is the zero vector in "
            "this draw."
        )
    text = (
        "Before dropout every row of causal weights sums to 1: the softmax makes it so. Dropout flips a "
        f"coin for each weight on its own, zeroing it with probability p = {p} and multiplying it by "
        f"{f} otherwise. The figure is one draw, with each row's sum beside it (PyTorch's generator, "
        f"seed {BOOK_DROPOUT_SEED}). " + _where(v)
    )
    return Step(
        text=text,
        figure=Figure(
            "drop_draw",
            DropPick(v, row),
            "One draw after dropout, row sums",
            f"Outlined: the row of {token(T[row])} and its sum"
            + (", a row dropped whole." if v.dead_rows else ", row 1."),
            covered="the row sums show ?; the weights are all there to add up.",
        ),
        question=Question(
            prompt="In this one draw, does each row of weights still sum to 1?",
            options=("Yes: every row still sums to 1", "No: not every row sums to 1"),
            answer=0 if all_one else 1,
            answer_text="yes, every row" if all_one else f"no: the sums run from {lo} to {hi}",
            explanation=why,
            hint=f"Add up the outlined row, or look for a row of zeros. Row 1 has one weight: 0 or {f}?",
            secrets=tuple(
                x for x in map(fmt.num, sums) if x not in weights and x not in ("0.0000", "1.0000")
            ),
        ),
        link=_drop_link("torch", drop_focus=T[row]),
    )


def average(s: Sentence) -> Step:
    """What a row sums to on average: a number question, with the Monte Carlo mean and its error."""
    draws = drop.draw_choices(s.n)[0]
    v = _dropout(s, "numpy", draws)
    p, f, keep = rate(v.p), f"{v.survivor_factor:.4g}", f"{v.keep:g}"
    mean = drop.estimate(v.mean_row_sum, v.mean_row_sum_se)
    text = (
        "One draw's row sums swing, but training runs thousands of draws. What does a row sum to on "
        f"average? Computed here: {draws:,} draws at p = {p} with the factor on, as `nn.Dropout` "
        f"applies it, from NumPy's generator (the fast one), seed {BOOK_DROPOUT_SEED}. The chart follows "
        "the mean row sum as the draws add up; before you answer it shows the first few draws only."
    )
    return Step(
        text=text,
        figure=Figure(
            "drop_running",
            DropPick(v, 0),
            "Running mean row sum",
            f"Marked: the mean after all {draws:,} draws, {mean} (± one standard error); dashed: "
            f"the expectation, {v.expectation:g}, in a band of ± 2 standard errors.",
            covered=f"the running mean over the first {EARLY_DRAWS} draws only, without the expectation.",
        ),
        question=Question(
            prompt=f"Averaged over many draws at p = {p}, what does a row of weights sum to after dropout?",
            options=(),
            answer=v.expectation,
            answer_text=f"{v.expectation:g} on average (computed here: {mean} over {draws:,} draws)",
            explanation=(
                f"Each weight survives with probability 1 − p = {keep} and is multiplied by {f}, so it "
                f"averages {keep} × {f} = 1 times its value, and each row keeps its sum of 1 on average. "
                f"Without the factor it would average 1 − p = {keep}. The band in the chart is ± 2 standard "
                "errors around the expectation."
            ),
            tolerance=RELATIVE,
            relative=True,
            hint=(
                f"Each weight is kept with probability {keep} and then multiplied by {f}: what does "
                "one weight average to? A row's weights summed to 1 before dropout."
            ),
            secrets=(mean,),
        ),
        link=_drop_link("numpy", drop_draws=str(draws)),
    )


# --- multi-head ---------------------------------------------------------------------------

SEED = 123  # the book's torch.manual_seed before each class (section 3.6)
BOOK_HEADS, BOOK_D_OUT = 2, 2  # the book's section 3.6 settings: outputs [2, 6, 4] and [2, 6, 2]
# (num_heads, d_out) for the split steps: heads 3 wide, so their stripes show; where the sentence
# has as many tokens as heads or as a head is wide, the next, so no two axes of a shape tie.
SPLITS = ((2, 6), (4, 20))


def split_settings(n: int) -> tuple[int, int]:
    """The split steps' (num_heads, d_out) for a sentence of ``n`` tokens."""
    for h, d in SPLITS:
        if n not in (h, d // h):
            return h, d
    raise AssertionError("unreachable: the two settings share no size")


def _heads(s: Sentence, kind: mh.Kind, num_heads: int, d_out: int) -> heads.View:
    """The Multi-head page's view of ``kind`` on the reader's tokens (d_in = the sentence's width)."""
    return heads.build(_heads_settings(s, kind, num_heads, d_out))


def _heads_settings(s: Sentence, kind: mh.Kind, num_heads: int, d_out: int) -> heads.Settings:
    values = {"kind": kind, "d_in": s.width, "d_out": d_out, "heads": num_heads}
    preset = next(
        (name for name, p in heads.PRESETS.items() if all(values[k] == v for k, v in p.items())), heads.CUSTOM
    )
    return heads.Settings(s.labels, s.embeddings, preset, kind, num_heads, s.width, d_out, SEED)


def _heads_link(v: heads.View, kind: mh.Kind, preset: str) -> dict[str, str]:
    c = v.config
    return {
        "preset": preset,
        "kind": kind.capitalize(),
        "heads": str(c.num_heads),
        "d_in": str(c.d_in),
        "d_out": str(c.d_out),
        "mh_seed": str(SEED),
    }


def _tokens(s: Sentence) -> str:
    return "the book's six tokens" if s.is_book else f"your {s.n} token" + ("" if s.n == 1 else "s")


@dataclass(frozen=True, eq=False)
class Classes:
    """Both classes at the same settings: what the per-head table lays side by side."""

    wrapper: heads.View
    split: heads.View


def d_out_per_head(s: Sentence) -> Step:
    """Which d_out is per head: the wrapper's output is heads × d_out wide, the split class's d_out."""
    w = _heads(s, "wrapper", BOOK_HEADS, BOOK_D_OUT)
    v = _heads(s, "split", BOOK_HEADS, BOOK_D_OUT)
    c = v.config
    assert v.output_split is not None  # the book's d_out divides into its heads
    wide, narrow = w.output_wrapper[-1], v.output_split[-1]
    pairs = ((narrow, narrow), (wide, narrow), (narrow, wide), (wide, wide))  # (wrapper, split)
    options = tuple(f"Both {a}" if a == b else f"Wrapper {a}, split {b}" for a, b in pairs)
    answer = pairs.index((wide, narrow))
    text = (
        "Section 3.6 builds multi-head attention twice. `MultiHeadAttentionWrapper` runs num_heads "
        "complete `CausalAttention` modules and concatenates their outputs; `MultiHeadAttention` "
        "projects once and cuts the result into heads. Both take an argument named `d_out`, and it "
        f"means two different things. Here both get the book's settings, d_out = {c.d_out} and "
        f"num_heads = {c.num_heads}, on {_tokens(s)} stacked twice into a batch."
    )
    return Step(
        text=text,
        figure=Figure(
            "heads_classes",
            Classes(w, v),
            "The two multi-head classes at the same arguments",
            "Marked ▸: the output shape, whose last number is the output's width.",
            covered="one head's width and each output shape show ?.",
        ),
        question=Question(
            prompt=f"Both classes get d_out = {c.d_out} and num_heads = {c.num_heads}. How wide is each "
            "one's output (the last number of its shape)?",
            options=options,
            answer=answer,
            answer_text=f"wrapper {heads.shape(w.output_wrapper)}, split {heads.shape(v.output_split)}",
            explanation=(
                f"In the wrapper d_out is one head's width: each of its {c.num_heads} heads outputs "
                f"{c.d_out} numbers a token and `torch.cat` lays them side by side, {wide} in all. In "
                f"`MultiHeadAttention` d_out is the total: it is cut into {c.num_heads} heads of head_dim = "
                f"d_out / num_heads = {v.head_dim} and merged back to {narrow}."
            ),
            hint=(
                "The wrapper builds num_heads whole CausalAttention modules, each with this d_out, and "
                "concatenates them; the split class cuts one d_out into num_heads pieces."
            ),
            secrets=(heads.shape(w.output_wrapper),),
        ),
        link=_heads_link(w, "wrapper", _heads_settings(s, "wrapper", BOOK_HEADS, BOOK_D_OUT).preset),
    )


@dataclass(frozen=True, eq=False)
class Trace:
    """The split class's shape trace and the row a drawing marks."""

    view: heads.View
    row: int  # the index into the trace's steps


def _step(v: heads.View, name: str) -> tuple[int, mh.Step]:
    assert v.run is not None
    rows = [st for st in v.run.steps if st.head in (None, 0)]  # the trace table's rows
    at = next(i for i, st in enumerate(rows) if st.name == name)
    return at, rows[at]


SHAPES = (
    "(b, num_tokens, num_heads, head_dim)",
    "(b, num_heads, num_tokens, head_dim)",
    "(b, num_heads, head_dim, num_tokens)",
    "(b, num_tokens, d_out)",
)


def shape_options(v: heads.View, n: int) -> tuple[tuple[int, ...], ...]:
    """The concrete shape each of :data:`SHAPES` names at this view's settings."""
    c, b, hd = v.config, heads.BATCH, v.head_dim or 0
    return ((b, n, c.num_heads, hd), (b, c.num_heads, n, hd), (b, c.num_heads, hd, n), (b, n, c.d_out))


def _order(viewed: mh.Step, moved: mh.Step) -> str:
    """What the trace's "contiguous" column says after ``.view`` and after ``.transpose(1, 2)``."""
    said = f"after `.view`, {'yes' if viewed.contiguous else 'no'}; after `.transpose(1, 2)`, "
    if moved.contiguous:
        return said + "yes too: one of the swapped axes has length 1 here, so nothing moves."
    return (
        said + "no: a transpose only changes the order the same numbers are read in, so the class calls "
        "`.contiguous()` before its last `.view`."
    )


def view_transpose(s: Sentence) -> Step:
    """The shapes after ``.view`` and ``.transpose(1, 2)`` in the split class, at the reader's n."""
    h, d = split_settings(s.n)
    v = _heads(s, "split", h, d)
    c = v.config
    _, viewed = _step(v, "split keys into heads")
    at, moved = _step(v, "heads first")
    after_view, after = heads.shape(viewed.shape), heads.shape(moved.shape)
    concrete = shape_options(v, s.n)
    answer = concrete.index(moved.shape)
    options = tuple(f"{name} = {heads.shape(dims)}" for name, dims in zip(SHAPES, concrete, strict=True))
    text = (
        f"`MultiHeadAttention` (section 3.6.2) projects the keys once: `self.W_key(x)` is b × num_tokens × "
        f"d_out. It then gives each head its slice without copying: `.view(b, num_tokens, num_heads, "
        f"head_dim)` cuts the last axis into heads, and `.transpose(1, 2)` swaps two axes. Here d_out = "
        f"{c.d_out} and num_heads = {c.num_heads}, so head_dim = {v.head_dim}; the batch is {_tokens(s)}, "
        f"stacked twice (b = {heads.BATCH})."
    )
    column = (  # the table's third column, said in both of its captions
        " Its “contiguous” column says whether a tensor's numbers lie in memory in the order its shape "
        f"reads them: {_order(viewed, moved)}"
    )
    return Step(
        text=text,
        figure=Figure(
            "heads_trace",
            Trace(v, at),
            "The split class's shape trace, as it ran",
            "Marked ▸: the keys after `.transpose(1, 2)`." + column,
            covered="the marked shape and the ones after it show ?." + column,
        ),
        question=Question(
            prompt="What shape do the keys have after `.view(b, num_tokens, num_heads, head_dim)` and then "
            "`.transpose(1, 2)`?",
            options=options,
            answer=answer,
            answer_text=f"{SHAPES[answer]} = {after}",
            explanation=(
                f"`.view` gives {after_view}: tokens still come before heads. `.transpose(1, 2)` swaps "
                f"axes 1 and 2, so heads come first, {after}, and `queries @ keys.transpose(2, 3)` scores "
                f"every head at once: {c.num_heads} matrices of {s.n} × {s.n} per batch item."
            ),
            hint="`.transpose(1, 2)` swaps axes 1 and 2 (counting from 0): which two names trade places?",
            secrets=(after,),
        ),
        link=_heads_link(v, "split", _heads_settings(s, "split", h, d).preset),
    )


@dataclass(frozen=True)
class Sameness:
    """One big projection cut into heads against a projection per head."""

    gap: float  # max |difference| over every head's q, k and v
    limit: float  # what float64 rounding can make of it


def own_projection(batch: np.ndarray, lin: mh.Linear, cols: slice) -> np.ndarray:  # -> [n, hd]
    """A head's own ``nn.Linear(d_in, head_dim)`` holding only columns ``cols`` of the big one, on the
    first batch item: what a separate ``CausalAttention`` of width head_dim would compute."""
    y = batch @ lin.weight[cols].astype(np.float64).T
    return (y if lin.bias is None else y + lin.bias[cols].astype(np.float64))[0]


def sameness(s: Sentence, settings: heads.Settings) -> Sameness:
    """Every head of the split class as the Multi-head view projects it (one matmul, then the head's
    columns) against each head projected on its own, with the bound float64 rounding puts on them."""
    cfg = settings.config
    params = mh.init_split(AttentionConfig(cfg.d_in, cfg.d_out, cfg.num_heads, cfg.context_length), SEED)
    batch = example_batch(settings.x, cfg.d_in).astype(np.float64)  # [2, n, d_in]
    gap, scale = 0.0, 0.0
    for h in range(cfg.num_heads):
        big = heads.head_projections("split", cfg.d_in, cfg.d_out, cfg.num_heads, SEED, cfg.context_length,
                                     settings.x, h)  # fmt: skip
        cols = slice(h * cfg.head_dim, (h + 1) * cfg.head_dim)
        roles = (params.qkv.query, params.qkv.key, params.qkv.value)
        for lin, mine in zip(roles, (big.queries, big.keys, big.values), strict=True):
            gap = max(gap, float(np.abs(own_projection(batch, lin, cols) - mine).max()))
            scale = max(scale, float((np.abs(batch[0]) @ np.abs(lin.weight.astype(np.float64)).T).max()))
    return Sameness(gap, rounding.bound(cfg.d_in, scale))


@dataclass(frozen=True, eq=False)
class Stripe:
    """W_q of the split class and the head whose stripe a drawing outlines (0-based)."""

    view: heads.View
    head: int


def one_big_projection(s: Sentence) -> Step:
    """Whether one big projection cut into heads equals a projection per head: yes, to the bit or
    within float64 rounding, since each head's projection is a block of the big matrix's columns."""
    h, d = split_settings(s.n)
    settings = _heads_settings(s, "split", h, d)
    v = heads.build(settings)
    c, hd = v.config, v.head_dim or 0
    last = c.num_heads - 1
    cols = f"its last {hd} columns"
    same = sameness(s, settings)
    equal = same.gap <= same.limit
    gap = fmt.noise(same.gap, same.limit)
    text = (
        f"The split class multiplies the inputs by one W_q, {c.d_in} × {c.d_out}, and hands head "
        f"{c.num_heads} {cols} of the result (likewise for keys and values). The wrapper would instead "
        f"give each head its own {c.d_in} × {hd} matrix. The figure: this W_q, in {c.num_heads} stripes "
        f"of {hd} columns (d_out = {c.d_out}, num_heads = {c.num_heads}, on {_tokens(s)})."
    )
    if equal:
        why = (
            "A matrix product keeps columns apart: column j of XW_q is X times column j of W_q and nothing "
            "else. Over every head's queries, keys and values, the largest difference between the two "
            f"ways is {gap}. So one matmul computes every head at once."
        )
    else:
        why = f"The two ways differ by {gap}, more than float64 rounding can explain here."
    return Step(
        text=text,
        figure=Figure(
            "heads_stripes",
            Stripe(v, last),
            f"W_q of MultiHeadAttention, {c.d_in} × {c.d_out}, in {c.num_heads} stripes",
            f"Outlined: head {c.num_heads}'s stripe, {cols} of W_q.",
            covered="nothing: W_q is all there, and the answer is a difference it does not show.",
        ),
        question=Question(
            prompt="Project the inputs with only W_q's outlined stripe (and the same columns of W_k and "
            f"W_v), as a separate head would. Is that the split class's head {c.num_heads}?",
            options=("Yes: the same numbers", "No: the big projection mixes the heads"),
            answer=0 if equal else 1,
            answer_text=f"{'yes' if equal else 'no'}: the largest difference is {gap}",
            explanation=why,
            hint="Column j of XW_q is X times column j of W_q alone. Which columns does the stripe use?",
            secrets=tuple(x for x in (gap,) if len(x) >= 5),
        ),
        link=_heads_link(v, "split", settings.preset),
    )


STEPS: tuple[StepDef, ...] = (
    StepDef("dropout_factor", "dropout", "Why survivors grow", factor, asks=True),
    StepDef("dropout_one_draw", "dropout", "Does a row still sum to 1?", one_draw, asks=True),
    StepDef("dropout_average", "dropout", "And on average, over many draws?", average, asks=True),
    StepDef("heads_d_out", "multihead", "Which d_out is per head?", d_out_per_head, asks=True),
    StepDef("heads_shapes", "multihead", "Shapes after view and transpose", view_transpose, asks=True),
    StepDef("heads_same", "multihead", "One big projection, or one per head?", one_big_projection, asks=True),
)
