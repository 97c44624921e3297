"""The book's two multi-head classes in NumPy (chapter 3, section 3.6; the post's figure 05).

``MultiHeadAttentionWrapper`` holds ``num_heads`` separate ``CausalAttention`` modules and
concatenates their outputs; ``MultiHeadAttention`` holds one projection per role, slices it into
heads with ``view`` and ``transpose(1, 2)``, and mixes the heads back with ``out_proj``. The
parameters are drawn with :class:`core.torchgen.TorchGenerator` in the order the book's
constructors create them, so ``seed`` reproduces ``torch.manual_seed(seed)``.

One forward function per class serves two kinds of arithmetic: :data:`FLOAT64` for everything the
page displays (stable ``core.attention.softmax``), and :data:`FLOAT32_TORCH`, which replays
PyTorch's float32 CPU kernels (``core.torchmath``) so the oracle tests can compare bit for bit.
Each forward records a shape trace while it runs: the trace is the computation, not a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from core import attention, tokens, torchmath
from core.config import AttentionConfig
from core.torchgen import TorchGenerator

Kind = Literal["wrapper", "split"]
KINDS: tuple[Kind, ...] = ("wrapper", "split")
STAND_IN_SEED = 0  # inputs for d_in != 3: torch.manual_seed(0); torch.rand(6, d_in)

# GPT-3 175B, Brown et al. 2020, "Language Models are Few-Shot Learners", table 2.1: n_layers 96,
# d_model 12,288, n_heads 96, d_head 128, context 2,048. The post's "GPT-3 has 96 of them"
# counts the heads of one layer; the model stacks 96 such layers.
GPT3_175B = AttentionConfig(d_in=12_288, d_out=12_288, num_heads=96, context_length=2_048)
GPT3_175B_LAYERS = 96


# --- parameters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Linear:
    """One ``nn.Linear``: ``weight`` [out, in] as PyTorch stores it, ``bias`` [out] or None."""

    weight: np.ndarray
    bias: np.ndarray | None

    @property
    def size(self) -> int:
        return int(self.weight.size + (0 if self.bias is None else self.bias.size))


@dataclass(frozen=True)
class Projections:
    """``W_query``, ``W_key``, ``W_value`` of one module, created in that order."""

    query: Linear
    key: Linear
    value: Linear

    @property
    def size(self) -> int:
        return self.query.size + self.key.size + self.value.size


@dataclass(frozen=True)
class WrapperParams:
    """``MultiHeadAttentionWrapper``: one ``CausalAttention`` (three projections) per head."""

    config: AttentionConfig
    heads: tuple[Projections, ...]


@dataclass(frozen=True)
class SplitParams:
    """``MultiHeadAttention``: three ``d_in -> d_out`` projections, then ``out_proj`` (with bias)."""

    config: AttentionConfig
    qkv: Projections
    out_proj: Linear


Params = WrapperParams | SplitParams


def _linear(gen: TorchGenerator, fan_in: int, fan_out: int, bias: bool) -> Linear:
    weight, b = gen.linear(fan_in, fan_out, bias=bias)
    return Linear(weight, b)


def _projections(gen: TorchGenerator, d_in: int, d_out: int, bias: bool) -> Projections:
    # CausalAttention.__init__ creates W_query, W_key, W_value in this order.
    return Projections(*(_linear(gen, d_in, d_out, bias) for _ in range(3)))


def _stream(seed: int | TorchGenerator) -> TorchGenerator:
    # A seed starts a fresh stream (torch.manual_seed); a generator continues one, so a caller
    # can build a module and then draw its dropout masks from the same stream, as torch does.
    return seed if isinstance(seed, TorchGenerator) else TorchGenerator(seed)


def init_causal_attention(cfg: AttentionConfig, seed: int | TorchGenerator) -> Projections:
    """``torch.manual_seed(seed); CausalAttention(d_in, d_out, ...)`` (section 3.5.3)."""
    return _projections(_stream(seed), cfg.d_in, cfg.d_out, cfg.qkv_bias)


def init_wrapper(cfg: AttentionConfig, seed: int | TorchGenerator) -> WrapperParams:
    """``torch.manual_seed(seed); MultiHeadAttentionWrapper(...)``: the heads are built one after
    another from one stream, so head 2's weights are the draws that follow head 1's."""
    gen = _stream(seed)
    heads = tuple(_projections(gen, cfg.d_in, cfg.d_out, cfg.qkv_bias) for _ in range(cfg.num_heads))
    return WrapperParams(cfg, heads)


def init_split(cfg: AttentionConfig, seed: int | TorchGenerator) -> SplitParams:
    """``torch.manual_seed(seed); MultiHeadAttention(...)``: W_query, W_key, W_value, out_proj.

    Raises ``ValueError`` (from ``cfg.head_dim``) when ``d_out`` is not divisible by the heads.
    """
    _ = cfg.head_dim
    gen = _stream(seed)
    qkv = _projections(gen, cfg.d_in, cfg.d_out, cfg.qkv_bias)
    return SplitParams(cfg, qkv, _linear(gen, cfg.d_out, cfg.d_out, bias=True))


def init_params(kind: Kind, cfg: AttentionConfig, seed: int | TorchGenerator) -> Params:
    """The parameters of either class, as the book's constructor draws them."""
    if kind == "wrapper":
        return init_wrapper(cfg, seed)
    if kind == "split":
        return init_split(cfg, seed)
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def parameter_count(params: Params) -> int:
    """``sum(p.numel() for p in module.parameters())``, counted from the arrays themselves."""
    if isinstance(params, WrapperParams):
        return sum(h.size for h in params.heads)
    return params.qkv.size + params.out_proj.size


def query_matrix(params: Params) -> tuple[np.ndarray, int]:
    """W_q as the equation reads it, ``[d_in, width]``, and the width of one head's columns.

    The post's picture: every head's query weights sit side by side in adjacent column groups.
    In the split class that is literally one matrix; for the wrapper it is the heads' matrices
    laid next to each other in head order, which is exactly what ``torch.cat`` assumes.
    """
    if isinstance(params, WrapperParams):
        w = np.concatenate([h.query.weight.T for h in params.heads], axis=1)  # [d_in, d_out * H]
        return w, params.config.d_out
    return params.qkv.query.weight.T.copy(), params.config.head_dim  # [d_in, d_out]


# --- counts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """What one class costs in parameters and matrix multiplications for one forward pass."""

    projection_params: int  # W_query, W_key, W_value (and their biases)
    out_proj_params: int  # the split class's out_proj; 0 for the wrapper
    projection_matmuls: int  # x @ W: 3 per head in the wrapper, 3 in all in the split class
    attention_matmuls: int  # QKᵀ and AV: 2 per head, or 2 batched over every head
    output_width: int  # the last axis of the output

    @property
    def total_params(self) -> int:
        return self.projection_params + self.out_proj_params

    @property
    def matmuls(self) -> int:
        return self.projection_matmuls + self.attention_matmuls + (1 if self.out_proj_params else 0)


def counts(kind: Kind, cfg: AttentionConfig) -> Counts:
    """Closed-form counts (the tests check them against the arrays and against torch).

    GPT-2 small's attention, ``MultiHeadAttention(768, 768, ..., 12)``: 3·768² projection
    parameters plus 768² + 768 for ``out_proj`` = 2,360,064, the book's printed count.
    """
    bias = cfg.d_out if cfg.qkv_bias else 0
    one_module = 3 * (cfg.d_in * cfg.d_out + bias)
    if kind == "wrapper":
        h = cfg.num_heads
        return Counts(h * one_module, 0, 3 * h, 2 * h, cfg.d_out * h)
    if kind == "split":
        _ = cfg.head_dim
        return Counts(one_module, cfg.d_out * cfg.d_out + cfg.d_out, 3, 2, cfg.d_out)
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def head_width(kind: Kind, cfg: AttentionConfig) -> int:
    """The width of one head: ``d_out`` in the wrapper, ``head_dim = d_out / H`` in the split class.

    It is also what ``keys.shape[-1]`` reads inside the forward, so the divisor is its root.
    """
    if kind == "wrapper":
        return cfg.d_out
    if kind == "split":
        return cfg.head_dim
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def matched_wrapper(cfg: AttentionConfig) -> AttentionConfig:
    """The wrapper with the same output width as the split class: ``head_dim`` per head.

    At matched width the projections hold exactly the same number of parameters (the post's
    second trap); only the number of matrix multiplications differs, 3H against 3.
    """
    return AttentionConfig(
        cfg.d_in, cfg.head_dim, cfg.num_heads, cfg.context_length, cfg.qkv_bias, cfg.dropout
    )


# --- arithmetic ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Arith:
    """The arithmetic a forward pass runs on: float64 for display, or torch's float32 kernels."""

    name: str
    dtype: type
    linear: Callable[[np.ndarray, np.ndarray, np.ndarray | None], np.ndarray]
    matmul: Callable[[np.ndarray, np.ndarray], np.ndarray]
    softmax: Callable[[np.ndarray], np.ndarray]


def _linear64(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    y = x @ weight.astype(np.float64).T  # [..., in] -> [..., out]
    return y if bias is None else y + bias.astype(np.float64)


FLOAT64 = Arith("float64", np.float64, _linear64, np.matmul, attention.softmax)
FLOAT32_TORCH = Arith(
    "float32 (torch CPU kernels)",
    np.float32,
    torchmath.linear_f32,
    torchmath.matmul_f32,
    torchmath.softmax_f32,
)


# --- the forward passes, traced -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One line of a forward pass as it ran: what it does, the book's code, the result's shape."""

    name: str
    code: str
    shape: tuple[int, ...]
    contiguous: bool  # False after transpose: why the book needs .contiguous() before .view
    head: int | None = None  # the wrapper's head index (0-based), None outside the head loop


@dataclass
class _Tracer:
    steps: list[Step] = field(default_factory=list)
    head: int | None = None

    def __call__(self, name: str, code: str, value: np.ndarray) -> np.ndarray:
        self.steps.append(Step(name, code, tuple(value.shape), bool(value.flags.c_contiguous), self.head))
        return value


@dataclass(frozen=True)
class MultiHeadResult:
    """The output and everything a figure needs, so no page recomputes the forward."""

    kind: Kind
    output: np.ndarray  # [b, n, d_out * H] (wrapper) or [b, n, d_out] (split)
    heads_output: np.ndarray  # the concatenated heads before out_proj (= output for the wrapper)
    weights: np.ndarray  # attention weights per head [b, H, n, n]
    divisor: float  # keys.shape[-1] ** 0.5, read where the book reads it
    steps: tuple[Step, ...]


def causal_mask(context_length: int, n: int) -> np.ndarray:
    """``torch.triu(torch.ones(L, L), diagonal=1).bool()[:n, :n]``: True above the diagonal."""
    if n > context_length:
        raise ValueError(f"{n} tokens do not fit context_length = {context_length}; raise context_length")
    return np.triu(np.ones((context_length, context_length), dtype=bool), k=1)[:n, :n]


def _dropout(weights: np.ndarray, p: float, gen: TorchGenerator | None, arith: Arith) -> np.ndarray:
    if p == 0.0:
        return weights
    if gen is None:
        raise ValueError(f"dropout = {p} needs a TorchGenerator to draw its mask; pass gen=")
    noise = gen.dropout(np.ones(weights.shape, np.float32), p)  # kept: 1/(1-p) in float32
    return weights * noise.astype(arith.dtype)


def _check_input(x: np.ndarray, cfg: AttentionConfig, arith: Arith) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim != 3 or x.shape[-1] != cfg.d_in:
        raise ValueError(f"x must be [batch, tokens, d_in = {cfg.d_in}], got shape {x.shape}")
    return x.astype(arith.dtype)


def causal_attention(
    x: np.ndarray,
    p: Projections,
    cfg: AttentionConfig,
    arith: Arith = FLOAT64,
    gen: TorchGenerator | None = None,
    rec: Callable[[str, str, np.ndarray], np.ndarray] | None = None,
    softmax_dim: int = -1,
) -> tuple[np.ndarray, np.ndarray]:
    """``CausalAttention.forward`` (section 3.5.3): returns the context [b, n, d_out] and the
    attention weights [b, n, n]. The divisor is ``keys.shape[-1] ** 0.5``, the head's width.

    ``softmax_dim = 1`` replays the book's code before commit d4754f1 (March 2024), which
    normalised over the queries (each column) instead of the keys: :func:`exercise_3_2_as_printed`.
    """
    rec = rec or (lambda _name, _code, v: v)
    x = _check_input(x, cfg, arith)
    _, n, _ = x.shape
    keys = rec("project keys", "keys = self.W_key(x)", arith.linear(x, p.key.weight, p.key.bias))
    queries = rec(
        "project queries", "queries = self.W_query(x)", arith.linear(x, p.query.weight, p.query.bias)
    )
    values = rec("project values", "values = self.W_value(x)", arith.linear(x, p.value.weight, p.value.bias))
    scores = rec(
        "scores",
        "attn_scores = queries @ keys.transpose(1, 2)",
        arith.matmul(queries, keys.transpose(0, 2, 1)),  # [b, n, d_out] @ [b, d_out, n] -> [b, n, n]
    )
    scores = rec(
        "causal mask",
        "attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)",
        np.where(causal_mask(cfg.context_length, n), arith.dtype(-np.inf), scores),
    )
    divisor = keys.shape[-1] ** 0.5
    if softmax_dim not in (-1, 1):
        raise ValueError(f"softmax_dim must be -1 (the book's code) or 1 (its old bug), got {softmax_dim}")
    scaled = scores / arith.dtype(divisor)
    weights = rec(
        "softmax",
        f"attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim={softmax_dim})",
        arith.softmax(scaled) if softmax_dim == -1 else arith.softmax(scaled.swapaxes(1, 2)).swapaxes(1, 2),
    )
    weights = _dropout(weights, cfg.dropout, gen, arith)
    context = rec("weighted values", "context_vec = attn_weights @ values", arith.matmul(weights, values))
    return context, weights  # [b, n, d_out], [b, n, n]


def wrapper_forward(
    x: np.ndarray, params: WrapperParams, arith: Arith = FLOAT64, gen: TorchGenerator | None = None
) -> MultiHeadResult:
    """``MultiHeadAttentionWrapper.forward``: every head in turn, then ``torch.cat(..., dim=-1)``."""
    cfg = params.config
    rec = _Tracer()
    rec("input", "x", _check_input(x, cfg, arith))
    outs, weights = [], []
    for h, head in enumerate(params.heads):
        rec.head = h
        out, w = causal_attention(x, head, cfg, arith, gen, rec)
        outs.append(out)
        weights.append(w)
    rec.head = None
    output = rec(
        "concatenate heads",
        "torch.cat([head(x) for head in self.heads], dim=-1)",
        np.concatenate(outs, axis=-1),  # H × [b, n, d_out] -> [b, n, d_out * H]
    )
    divisor = float(cfg.d_out**0.5)
    return MultiHeadResult("wrapper", output, output, np.stack(weights, axis=1), divisor, tuple(rec.steps))


def split_forward(
    x: np.ndarray, params: SplitParams, arith: Arith = FLOAT64, gen: TorchGenerator | None = None
) -> MultiHeadResult:
    """``MultiHeadAttention.forward`` line by line (section 3.6.2), ending with ``out_proj``.

    ``keys.shape[-1]`` is read after the reshape, so the divisor is ``sqrt(head_dim)``, not
    ``sqrt(d_out)``: the post's third trap (GPT-2 divides by 8, not 27.7).
    """
    cfg = params.config
    h, hd = cfg.num_heads, cfg.head_dim
    rec = _Tracer()
    x = rec("input", "x", _check_input(x, cfg, arith))
    b, n, _ = x.shape
    q, k, v = params.qkv.query, params.qkv.key, params.qkv.value
    keys = rec("project keys", "keys = self.W_key(x)", arith.linear(x, k.weight, k.bias))
    queries = rec("project queries", "queries = self.W_query(x)", arith.linear(x, q.weight, q.bias))
    values = rec("project values", "values = self.W_value(x)", arith.linear(x, v.weight, v.bias))
    # .view on a contiguous array: the columns of head i are already adjacent, nothing moves.
    keys = rec(
        "split keys into heads",
        "keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)",
        keys.reshape(b, n, h, hd),
    )
    values = values.reshape(b, n, h, hd)
    queries = queries.reshape(b, n, h, hd)
    keys = rec("heads first", "keys = keys.transpose(1, 2)", keys.transpose(0, 2, 1, 3))  # [b, H, n, hd]
    queries = queries.transpose(0, 2, 1, 3)
    values = values.transpose(0, 2, 1, 3)
    scores = rec(
        "scores, every head at once",
        "attn_scores = queries @ keys.transpose(2, 3)",
        arith.matmul(queries, keys.transpose(0, 1, 3, 2)),  # [b, H, n, hd] @ [b, H, hd, n] -> [b, H, n, n]
    )
    scores = rec(
        "causal mask",
        "attn_scores.masked_fill_(mask_bool, -torch.inf)",
        np.where(causal_mask(cfg.context_length, n), arith.dtype(-np.inf), scores),
    )
    divisor = keys.shape[-1] ** 0.5  # head_dim, because keys was reshaped above
    weights = rec(
        "softmax",
        "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)",
        arith.softmax(scores / arith.dtype(divisor)),
    )
    weights = _dropout(weights, cfg.dropout, gen, arith)
    context = rec(
        "weighted values, tokens first again",
        "context_vec = (attn_weights @ values).transpose(1, 2)",
        arith.matmul(weights, values).transpose(0, 2, 1, 3),  # [b, H, n, hd] -> [b, n, H, hd]
    )
    context = rec(
        "merge heads",
        "context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)",
        np.ascontiguousarray(context).reshape(b, n, cfg.d_out),
    )
    o = params.out_proj
    output = rec(
        "mix heads", "context_vec = self.out_proj(context_vec)", arith.linear(context, o.weight, o.bias)
    )
    return MultiHeadResult("split", output, context, weights, float(divisor), tuple(rec.steps))


def exercise_3_2_as_printed(seed: int = 123) -> tuple[np.ndarray, np.ndarray]:  # -> [2, 6, 2], [2, 2, 6, 6]
    """What the official solution of exercise 3.2 prints: the wrapper with ``d_out = 1``, two
    heads, built after ``torch.manual_seed(seed)``, but with ``softmax(dim=1)`` in every head.

    The solutions notebook (rasbt/LLMs-from-scratch, ``ch03/01_main-chapter-code/
    exercise-solutions.ipynb``) prints ``[-9.1476e-02, 3.4164e-02]`` first. Its own
    ``CausalAttention`` normalised with ``dim=1``, over the queries; the chapter's code was fixed
    to ``dim=-1`` in commit d4754f1 (4 March 2024, "change dim=1 to dim=-1") and the printed
    output of the solution was not regenerated. The same wrapper with the fixed softmax prints
    ``[-0.5740, 0.2216]`` first (torch 2.13). Returns the output and each head's weights, whose
    columns, not rows, sum to 1.
    """
    cfg = AttentionConfig(d_in=3, d_out=1, num_heads=2)
    params = init_wrapper(cfg, seed)
    x = example_batch(3)
    heads = [causal_attention(x, head, cfg, softmax_dim=1) for head in params.heads]
    return np.concatenate([o for o, _ in heads], axis=-1), np.stack([w for _, w in heads], axis=1)


def forward(
    x: np.ndarray, params: Params, arith: Arith = FLOAT64, gen: TorchGenerator | None = None
) -> MultiHeadResult:
    """Either class's forward pass, chosen by the type of ``params``."""
    if isinstance(params, WrapperParams):
        return wrapper_forward(x, params, arith, gen)
    return split_forward(x, params, arith, gen)


def per_head_loop(x: np.ndarray, params: SplitParams) -> np.ndarray:
    """The split class computed head by head over slices of the same weights, in float64.

    Head i uses columns ``i*head_dim:(i+1)*head_dim`` of each projection, as a ``CausalAttention``
    of width head_dim would; concatenating the heads and applying ``out_proj`` must give the split
    class's output. The tests use it to show the reshapes are bookkeeping, not arithmetic.
    """
    cfg = params.config
    hd = cfg.head_dim
    heads = []
    for i in range(cfg.num_heads):
        cols = slice(i * hd, (i + 1) * hd)

        def part(lin: Linear, cols: slice = cols) -> Linear:
            return Linear(lin.weight[cols], None if lin.bias is None else lin.bias[cols])

        one = Projections(part(params.qkv.query), part(params.qkv.key), part(params.qkv.value))
        head_cfg = AttentionConfig(cfg.d_in, hd, 1, cfg.context_length, cfg.qkv_bias, 0.0)
        heads.append(causal_attention(x, one, head_cfg)[0])
    merged = np.concatenate(heads, axis=-1)  # H × [b, n, hd] -> [b, n, d_out]
    return _linear64(merged, params.out_proj.weight, params.out_proj.bias)


# --- inputs -------------------------------------------------------------------------------


def example_batch(d_in: int = 3, dtype: type = np.float32) -> np.ndarray:  # -> [2, 6, d_in]
    """The batch the book feeds its classes, ``torch.stack((inputs, inputs))``.

    The book's embeddings are 3 wide. For any other ``d_in`` the six tokens get stand-in
    embeddings, ``torch.manual_seed(0); torch.rand(6, d_in)``, fixed whatever the weight seed.
    """
    if d_in < 1:
        raise ValueError(f"d_in must be a positive integer, got {d_in}")
    if d_in == 3:
        return tokens.batch(dtype)
    x: np.ndarray = TorchGenerator(STAND_IN_SEED).rand(len(tokens.TOKENS), d_in).astype(dtype)
    return np.stack((x, x))
