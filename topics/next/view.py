"""Every number "What comes next" (the post's figure 07) shows, from the page's settings.

The page draws a :class:`View`, its prose and its checks read their numbers from it, and the
Reproduce oracle (``tests/next/test_next_reproduce.py``) holds the script's printout against the
same object: one computation, whoever asks. Three sections, as the page has them: one block's
parameters (chapter 4's ``TransformerBlock``), the sentence shuffled with and without the causal
mask (section 3.5), and the KV cache. Nothing here is heavy (a few milliseconds in all); the
page still keeps what a focus or cell click leaves alone (:func:`unfocused`, ``study.py``), and a
click recomputes only :func:`focused`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

import numpy as np

from core import cell, sentence, tokens, weights
from core.attention import AttentionTrace, self_attention
from core.weights import WeightSet
from topics.next import block, equivariance, limits
from topics.next.block import BlockConfig, BlockParams
from topics.next.equivariance import PermutationTest
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel, chosen_key

CUSTOM = "a custom block"  # what the page calls a configuration that matches no GPT-2 preset
PREFIX_ORDER = (4, 3, 2, 1, 0, 5)  # the book's first five tokens reversed; the last stays last
KV_GRID = 2 ** np.arange(22)  # the KV chart's token counts: 1 to 2,097,152, the most the controls allow


@dataclass(frozen=True)
class Settings:
    """Every control of the page, as plain values; the defaults are the page's.

    ``block`` is the configuration the sidebar describes (the last good one when the reader's
    was rejected); ``perm`` the new order (row ``i`` of the shuffle is token ``perm[i]``);
    ``focus`` a token index or ``None``; ``cell`` the key token (an index into the sentence, not
    into the shuffle) of the cell panel's cell, or ``None`` for the focused row's largest weight.
    """

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, width]
    block: BlockConfig = field(default_factory=BlockConfig)
    perm: tuple[int, ...] = (5, 4, 3, 2, 1, 0)  # the sentence reversed
    focus: int | None = None
    kv_tokens: int = 1024
    kv_bytes: int = 2  # bytes per number: float16 / bfloat16
    kv_batch: int = 1
    cell: int | None = None  # last, so the settings before it keep their places


@dataclass(frozen=True)
class PresetRow:
    """One row of the presets table: a GPT-2 size with the book's ``qkv_bias=False``."""

    name: str
    params: BlockParams
    all_blocks: int


@dataclass(frozen=True)
class Moved:
    """The token whose output the shuffle changes most under the mask, and the prefixes it saw and
    sees. It may not have moved (``before == after``): then the tokens in front of it did."""

    token: int  # its index in the sentence
    before: int  # its position before the shuffle, 1-based
    after: int  # its position after, 1-based
    saw: tuple[int, ...]  # the tokens it saw before the shuffle, in order (itself last)
    sees: tuple[int, ...]  # the tokens it sees after the shuffle, in order (itself last)

    @property
    def stayed(self) -> bool:
        return self.before == self.after


@dataclass(frozen=True)
class Focus:
    """The focused token in the shuffle: where it lands and its context vector both ways."""

    token: int  # its index in the sentence
    row: int  # its row in the shuffled order (0-based, as the heatmaps count)
    before: int  # its position before the shuffle, 1-based
    after: int  # … after, 1-based
    masked_original: np.ndarray  # with the mask, in the original order: its row of P·f(X)
    masked_shuffled: np.ndarray  # with the mask, shuffled: its row of f(P·X)
    free: np.ndarray  # without the mask, in the original order: its row of P·f(X)
    free_shuffled: np.ndarray  # … shuffled: its row of f(P·X), equal to ``free`` up to rounding


@dataclass(frozen=True)
class Shuffle:
    """Section 3.4's self-attention on the shuffled sentence, without and with the causal mask."""

    weights: WeightSet  # section 3.4's set, drawn as wide as the sentence
    perm: tuple[int, ...]
    rows: tuple[str, ...]  # the heatmaps' rows: the labels in the new order
    free: PermutationTest  # without the mask
    masked: PermutationTest  # with the causal mask
    limit: float  # the most float64 rounding can make either gap (``equivariance.rounding_limit``)
    same_mix: tuple[bool, ...]  # per row: its token sees the same embeddings, in the same proportions
    bound: float  # the heatmaps' shared colour scale, ±bound: the largest gap above ``limit``, or 1
    moved: Moved | None  # None when the masked gap is rounding (at most ``limit``)
    focus: Focus | None
    causal: AttentionTrace  # the masked attention on the shuffled sentence: f(P·X)'s weights, query × key
    cell_col: int | None  # the column (shuffled position) of the panel's key; None without a focus
    cell: Panel | None  # that cell of ``causal.weights``, step by step; None without a focus

    @property
    def identity(self) -> bool:
        return self.perm == tuple(range(len(self.perm)))


@dataclass(frozen=True)
class Curve:
    """One line of the KV chart: a configuration's cache bytes at each of the grid's token counts."""

    name: str
    bytes: tuple[int, ...]
    current: bool  # the configuration on screen (drawn bold)


@dataclass(frozen=True)
class KvCache:
    """The KV cache of the configuration on screen, every count exact."""

    tokens: int  # tokens cached: those asked for, capped at the context length
    capped: bool  # more tokens were asked for than the model attends to
    bytes: int  # the cache at ``tokens``
    per_token: int
    full: int  # the cache at the full context length
    weight_bytes: int  # the blocks' weights at the cache's bytes per number
    equal_at: int | None  # the token count whose cache holds exactly the weights' bytes, if one does
    exceeds: int  # the fewest tokens whose cache holds more than the weights' bytes
    context_length: int
    batch: int
    full_share: float  # the cache at the full context over the blocks' weights
    factors: tuple[int, ...]  # 2 × layers × tokens × width × bytes × batch, as the formula shows them
    grid: np.ndarray  # the chart's token counts: KV_GRID and ``tokens``
    curves: tuple[Curve, ...]  # the current configuration first, then the presets it is not


@dataclass(frozen=True)
class View:
    """Every number the page shows, its prose's and its checks' included."""

    block: BlockConfig  # the configuration shown (its head_dim and ff_hidden are in the caption)
    name: str  # its GPT-2 preset, or CUSTOM
    params: BlockParams  # one block, by component
    stack: int  # all n_layers blocks
    ff_share: float  # the feed-forward's share of one block, for the lead
    presets: tuple[PresetRow, ...]
    shuffle: Shuffle
    first: limits.FirstToken  # token 1 under the mask, from the book's MultiHeadAttention
    prefix: limits.PrefixShuffle  # one layer against two, on the book's sentence
    kv: KvCache
    gpt2: BlockParams  # GPT-2 small as the book configures it: the checks' live counts


def cell_notes(
    labels: tuple[str, ...],
    x: np.ndarray,
    ws: WeightSet,
    p: tuple[int, ...],
    shown: np.ndarray,
    row: int,
    col: int,
) -> tuple[str, ...]:
    """What the shuffle does to the cell ``(row, col)`` of the shuffled causal weights ``shown``:
    which attention it is, where its two tokens sat and sit, its weight before and after with the
    mask, and without it (the same in both orders: the shuffle moves that cell, never changes it)."""
    q, k = p[row], p[col]  # the two tokens, as indices into the sentence
    qn, kn = (fmt.md(labels[t]) for t in (q, k))
    which = (
        "One layer, one head, with the causal mask: section 3.5's CausalAttention (dropout 0) with the "
        f"weights of {ws.label}, on the shuffled sentence. Its outputs are f(P·X) in the "
        "“With the causal mask” differences above."
    )
    if q == k:
        where = f"Before the shuffle **{qn}** was at position {q + 1}; now it is at {row + 1}."
        if q == row:
            where = f"The shuffle leaves **{qn}** at position {q + 1}."
    elif (q, k) == (row, col):
        where = f"The shuffle leaves **{qn}** at position {q + 1} and **{kn}** at position {k + 1}."
    else:
        where = (
            f"Before the shuffle **{qn}** was at position {q + 1} and **{kn}** at {k + 1}; now they are at "
            f"{row + 1} and {col + 1}."
        )
    w0 = float(equivariance.causal_self_attention(x, ws).weights[q, k])
    w1 = float(shown[row, col])
    hid0, hid1 = k > q, col > row
    if hid0 and hid1:
        masked = f"{kn} comes after {qn} in both orders, so the mask hides it either way: weight 0."
    elif hid0:
        masked = (
            f"With the mask: {kn} came after {qn}, so it was hidden (weight 0); now it comes before "
            f"{qn} and gets {fmt.num(w1)}."
        )
    elif hid1:
        masked = (
            f"With the mask: {kn} came before {qn} and got {fmt.num(w0)}; now it comes after, so the "
            "mask hides it (weight 0)."
        )
    else:
        masked = (
            f"With the mask its weight was {fmt.num(w0)} and is {fmt.num(w1)}. The score is a dot product "
            f"of the same two tokens; what can change is the row's denominator, a sum over the tokens up "
            f"to {qn}: {q + 1} of them before the shuffle, {row + 1} now."
        )
    f0 = fmt.num(float(self_attention(x, ws).weights[q, k]))
    f1 = fmt.num(float(self_attention(x[list(p)], ws).weights[row, col]))
    both = f"is {f0} in both orders" if f0 == f1 else f"is {f0} and {f1}, equal up to rounding"
    over = "its one key" if len(p) == 1 else f"all {len(p)} keys whatever their order"
    free = (
        f"Without the mask this weight {both}: the same score, over {over}. The shuffle moves the cell; "
        "only the mask changes it."
    )
    return which, where, masked, free


def shuffle(labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, perm: tuple[int, ...]) -> Shuffle:
    """Both permutation tests on the sentence ``x`` with ``ws`` and what the prose says about them,
    with no token focused (:func:`focus_on` adds the focus and its cell)."""
    free, masked = (equivariance.permutation_test(x, ws, perm, causal) for causal in (False, True))
    p = masked.perm
    limit = equivariance.rounding_limit(x, ws)
    moved = None
    if masked.gap > limit:
        i = int(np.argmax(np.max(np.abs(masked.difference), axis=1)))
        moved = Moved(p[i], p[i] + 1, i + 1, tuple(range(p[i] + 1)), p[: i + 1])
    rows = tuple(labels[i] for i in p)
    bound = max((g for g in (free.gap, masked.gap) if g > limit), default=1.0)  # noise reads as white
    mix = equivariance.same_mix(x, p)
    causal = equivariance.causal_self_attention(x[list(p)], ws)
    return Shuffle(ws, p, rows, free, masked, limit, mix, bound, moved, None, causal, None, None)


def focus_on(
    sh: Shuffle, labels: tuple[str, ...], x: np.ndarray, focus: int | None, key: int | None = None
) -> Shuffle:
    """``sh`` (of the sentence ``labels``, ``x``) with ``focus`` followed, and the cell panel of its
    row of the shuffled causal weights (its key ``key``, a token of the sentence, or its largest
    weight). Cheap: everything else was computed by :func:`shuffle`, which a focus never changes."""
    if focus is None:
        return replace(sh, focus=None, cell_col=None, cell=None)
    p, free, masked, causal = sh.perm, sh.free, sh.masked, sh.causal
    row = p.index(focus)
    spot = Focus(
        focus,
        row,
        focus + 1,
        row + 1,
        masked.permuted_outputs[row],
        masked.outputs_of_permuted[row],
        free.permuted_outputs[row],
        free.outputs_of_permuted[row],
    )
    col = chosen_key(p.index(key) if key is not None and 0 <= key < len(p) else None, causal.weights[row])
    c = cell.cell(causal.queries, causal.keys, causal.values, row, col, causal.divisor, causal=True)
    d_k = causal.keys.shape[-1]
    panel = cell_text.panel(
        c,
        sh.rows,
        sh.rows,
        divisor_name=f"√d_k = √{d_k}",
        notes=cell_notes(labels, x, sh.weights, p, causal.weights, row, col),
    )
    return replace(sh, focus=spot, cell_col=col, cell=panel)


def kv_cache(cfg: BlockConfig, asked: int, nbytes: int, batch: int, name: str) -> KvCache:
    """The cache for ``asked`` tokens (a model attends to at most its context length), and the chart."""
    for what, value in (("kv_tokens", asked), ("kv_bytes", nbytes), ("kv_batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{what} must be a positive integer, got {value!r}")
    cached = min(asked, cfg.context_length)

    def size(c: BlockConfig, n: int) -> int:
        return block.kv_cache_bytes(c.n_layers, n, c.emb_dim, nbytes, batch)

    per_token = size(cfg, 1)
    weight_bytes = block.stack_params(cfg) * nbytes
    grid = np.unique(np.concatenate([KV_GRID, [cached]])).astype(np.int64)
    matching = block.matching_preset(cfg)
    curves = [Curve(f"{name} (current)", tuple(size(cfg, int(n)) for n in grid), True)]
    curves += [
        Curve(n, tuple(size(p, int(t)) for t in grid), False)
        for n, p in block.GPT2_PRESETS.items()
        if n != matching
    ]
    return KvCache(
        tokens=cached,
        capped=asked > cfg.context_length,
        bytes=size(cfg, cached),
        per_token=per_token,
        full=size(cfg, cfg.context_length),
        weight_bytes=weight_bytes,
        equal_at=block.tokens_to_equal(per_token, weight_bytes),
        exceeds=block.tokens_to_exceed(per_token, weight_bytes),
        context_length=cfg.context_length,
        batch=batch,
        full_share=size(cfg, cfg.context_length) / weight_bytes,
        factors=(2, cfg.n_layers, cached, cfg.emb_dim, nbytes, batch),
        grid=grid,
        curves=tuple(curves),
    )


@functools.cache
def book_first_token() -> limits.FirstToken:
    """Token 1 under the mask: on the book's sentence, whatever the page's settings (computed once)."""
    return limits.first_token()


@functools.cache
def book_prefix_shuffle() -> limits.PrefixShuffle:
    """One layer against two, on the book's sentence, whatever the page's settings (computed once)."""
    return limits.prefix_shuffle(tokens.inputs(), limits.stack_weights(), PREFIX_ORDER)


def weights_for(width: int) -> WeightSet:
    """Section 3.4's weight set, as wide as the sentence's embeddings."""
    return sentence.weights_for(weights.section_3_4(), width)


def preset_name(cfg: BlockConfig) -> str:
    """The GPT-2 preset ``cfg`` is, or :data:`CUSTOM`."""
    return block.matching_preset(cfg) or CUSTOM


def build(s: Settings) -> View:
    """The page's numbers for ``s``. A ``perm`` that is not an order of the sentence's tokens, or a
    KV setting below 1, raises ``ValueError`` (the page's controls let neither through)."""
    return focused(unfocused(s), s.labels, s.embeddings, s.focus, s.cell)


def focused(v: View, labels: tuple[str, ...], x: np.ndarray, focus: int | None, key: int | None) -> View:
    """``v`` (of the sentence ``labels``, ``x``) with ``focus`` and the cell's ``key`` followed: only
    the shuffle's focus, its cell and its panel change (:func:`focus_on`)."""
    return replace(v, shuffle=focus_on(v.shuffle, labels, x, focus, key))


def default_order(s: Settings) -> Settings:
    """``s`` at its sentence reversed (the shuffle box's default), no focus: the block's parameters,
    the presets and the KV cache read no order, so the page draws them from this view before the
    shuffle box is read."""
    return replace(s, perm=tuple(range(len(s.labels) - 1, -1, -1)), focus=None, cell=None)


def unfocused(s: Settings) -> View:
    """The page's numbers for ``s`` with no token focused: every part a focus or cell click leaves
    as it is (``s.focus`` and ``s.cell`` are not read)."""
    cfg = s.block
    params = block.block_params(cfg)
    ws = weights_for(s.embeddings.shape[1])
    name = preset_name(cfg)
    presets = tuple(
        PresetRow(n, block.block_params(p), block.stack_params(p)) for n, p in block.GPT2_PRESETS.items()
    )
    return View(
        block=cfg,
        name=name,
        params=params,
        stack=block.stack_params(cfg),
        ff_share=params.feed_forward / params.total,
        presets=presets,
        shuffle=shuffle(s.labels, s.embeddings, ws, s.perm),
        first=book_first_token(),
        prefix=book_prefix_shuffle(),
        kv=kv_cache(cfg, s.kv_tokens, s.kv_bytes, s.kv_batch, name),
        gpt2=block.block_params(BlockConfig()),
    )
