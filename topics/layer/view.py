"""Every number and sentence "The whole layer" shows: the book's ``CausalAttention`` (section
3.5.3) at the reader's sentence, stage by stage, from X to Z.

:func:`build` runs the layer once with the app's own stage math (``core.attention`` for Q, K, V,
Ω, ``core.masking`` for the causal mask and its weights, ``core.torchgen`` for the book's dropout
draw) and returns each stage's matrix with its name, its live shape, the line of the book's code
that computes it, and the tour step and topic page that teach it. The page lays the stages out
left to right; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core import masking, tokens
from core.sentence import weights_for
from core.torchgen import TorchGenerator
from core.weights import WeightSet, section_3_4
from ui import format as fmt

P = 0.5  # the book's nn.Dropout(0.5) (section 3.5.2)
DROPOUT_SEED = 123  # and its torch.manual_seed(123) before the draw
# The book's lines, shared with the tour's code blocks (topics/read_along/lines.py)
MASK_CODE = "attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)"
SOFTMAX_CODE = "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)"
DROPOUT_CODE = "attn_weights = self.dropout(attn_weights)"
CONTEXT_CODE = "context_vec = attn_weights @ values"


@dataclass(frozen=True)
class Settings:
    """The page's controls; the defaults are the page's (the book's sentence, section 3.4, no focus)."""

    labels: tuple[str, ...] = tokens.TOKENS
    embeddings: np.ndarray = field(default_factory=tokens.inputs)  # [n, d_in]
    weights: WeightSet = field(default_factory=section_3_4)  # as the weight-set control gives it
    focus: int | None = None  # the query followed through every stage, or none


@dataclass(frozen=True)
class Stage:
    """One stage of the layer: a matrix, what it is called, its shape and where it is taught."""

    key: str  # the widget key its chart is drawn under
    symbol: str  # "Q", "Ω"
    what: str  # "queries": what a reader calls it
    code: str  # the book's line that computes it (CausalAttention.forward)
    matrix: np.ndarray  # [rows, cols], float64; the masked scores hold −∞, nothing holds NaN
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    row_title: str
    col_title: str
    by_token: bool  # one row per token: the focus is outlined in it and a click on it picks a query
    signed: bool  # drawn on the diverging scale (white at 0)
    step: str  # the key of the tour step that teaches it (topics/read_along/steps)
    topic: str  # the topic folder whose page teaches it

    @property
    def shape(self) -> str:
        """The live shape as the book prints a tensor's: ``[6, 2]``."""
        r, c = self.matrix.shape
        return f"[{r}, {c}]"

    @property
    def title(self) -> str:
        """The chart's title: symbol and live shape."""
        return f"{self.symbol} {self.shape}"

    @property
    def name(self) -> str:
        """The chart's accessible name: what it is, its shape, and its rows and columns."""
        r, c = self.matrix.shape
        size = fmt.size(r, c, self.row_title, self.col_title)
        return f"{self.symbol}, the {self.what}, shape {self.shape}: {size}"


@dataclass(frozen=True)
class View:
    """Every number the page shows for one :class:`Settings`."""

    labels: tuple[str, ...]
    weight_set: WeightSet  # the control's weights at the sentence's width
    d_in: int
    d_out: int
    divisor: float  # √d_k
    stages: tuple[Stage, ...]  # X, W_q, W_k, W_v, Q, K, V, Ω, masked Ω, A, dropout(A), Z
    focus: int | None
    lead: str
    focus_note: str  # the focused query's path in words, or how to pick one

    def stage(self, key: str) -> Stage:
        return next(s for s in self.stages if s.key == key)


def dims(n: int, prefix: str = "d") -> tuple[str, ...]:
    """Column labels of an embedding or projection: ``d1``, ``d2``, …"""
    return tuple(f"{prefix}{i + 1}" for i in range(n))


def dropout(weights: np.ndarray, p: float = P, seed: int = DROPOUT_SEED) -> np.ndarray:
    """``torch.manual_seed(seed); nn.Dropout(p)(weights)`` in training mode, in float64: the
    survivors scaled by ``1/(1 − p)``, the rest 0; the keep mask is PyTorch's draw
    (``core.torchgen``), so at the book's settings it is section 3.5.2's."""
    w = np.asarray(weights, dtype=np.float64)
    if p == 0.0:  # PyTorch draws nothing at p = 0
        return w.copy()
    keep = TorchGenerator(seed).bernoulli(w.shape, 1.0 - p)
    return np.where(keep, w / (1.0 - p), 0.0)


def build(s: Settings) -> View:
    """The layer at ``s``: every stage's matrix, name, shape, code and teacher."""
    x = np.asarray(s.embeddings, dtype=np.float64)
    n, d_in = x.shape
    ws = weights_for(s.weights, d_in)
    d_out = ws.w_query.shape[1]
    tr = masking.causal_attention(x, ws)  # CausalAttention.forward with dropout 0: Q, K, V, Ω, A
    q, k, v, scores, weights, divisor = tr.queries, tr.keys, tr.values, tr.scores, tr.weights, tr.divisor
    masked = masking.efficient_path(scores, divisor)[1].matrix  # the future filled with −∞
    dropped = dropout(weights)
    z = dropped @ v
    t, di, do = tuple(s.labels), dims(d_in), dims(d_out)

    def rows(
        key: str, sym: str, what: str, code: str, m: np.ndarray, cols: tuple[str, ...], step: str, topic: str
    ) -> Stage:  # one row a token: X, Q, K, V, Z
        return Stage(key, sym, what, code, m, t, cols, "token", "dim", True, True, step, topic)

    def square(
        key: str, sym: str, what: str, code: str, m: np.ndarray, signed: bool, step: str, topic: str
    ) -> Stage:  # query by key: Ω, masked Ω, A, dropout(A)
        return Stage(key, sym, what, code, m, t, t, "query", "key", True, signed, step, topic)

    def weight(key: str, sym: str, what: str, attr: str, m: np.ndarray) -> Stage:  # W_q, W_k, W_v
        return Stage(
            key,
            sym,
            what,
            f"self.{attr} = {init}",
            m.astype(np.float64),
            di,
            do,
            "input dim",
            "output dim",
            False,
            True,
            "projections",
            "three_matrices",
        )

    linear = ws.init == "linear"  # nn.Linear (sa_v2, CausalAttention) or torch.rand (SelfAttention_v1)
    init = "nn.Linear(d_in, d_out, bias=False)" if linear else "nn.Parameter(torch.rand(d_in, d_out))"

    def project(name: str, attr: str) -> str:  # the book's projection line, as the weights' class writes it
        return f"{name} = self.{attr}(x)" if linear else f"{name} = x @ self.{attr}"

    tm = "three_matrices"
    mask_code, softmax_code = MASK_CODE, SOFTMAX_CODE
    stages = (
        rows("fig_layer_x", "X", "inputs", "x  # the embedded tokens", x, di, "weightless", "recap"),
        weight("fig_layer_wq", "W_q", "query weights", "W_query", ws.w_query),
        weight("fig_layer_wk", "W_k", "key weights", "W_key", ws.w_key),
        weight("fig_layer_wv", "W_v", "value weights", "W_value", ws.w_value),
        rows("fig_layer_q", "Q", "queries", project("queries", "W_query"), q, do, "projections", tm),
        rows("fig_layer_k", "K", "keys", project("keys", "W_key"), k, do, "projections", tm),
        rows("fig_layer_v", "V", "values", project("values", "W_value"), v, do, "projections", tm),
        square("fig_layer_scores", "Ω", "attention scores", "attn_scores = queries @ keys.transpose(1, 2)",
               scores, True, "asymmetry", "three_matrices"),
        square("fig_layer_masked", "Masked Ω", "scores with the future masked", mask_code, masked, True,
               "which_triangle", "masking"),
        square("fig_layer_weights", "A = softmax(Ω/√d_k)", "attention weights", softmax_code, weights, False,
               "which_width", "scaling"),
        square("fig_layer_dropout", f"Dropout(A), p = {P:g}", "weights after dropout",
               DROPOUT_CODE, dropped, False, "dropout_one_draw", "dropout"),
        rows("fig_layer_z", "Z", "context vectors", CONTEXT_CODE, z, do, "context",
             "three_matrices"),
    )  # fmt: skip
    lead = (
        f"The book's `CausalAttention` (section 3.5.3) on your {fmt.count(n, 'token')}, left to right: "
        f"X {stages[0].shape} is projected by three {d_in} × {d_out} matrices into Q, K and V "
        f"{stages[4].shape}, every query scores every key (Ω {stages[7].shape}), the future is masked, "
        f"the scores divided by √d_k = {fmt.num(divisor)} go through a softmax, dropout "
        f"(p = {P:g}, `torch.manual_seed({DROPOUT_SEED})`) zeroes some weights and doubles the rest, "
        f"and Z = dropout(A) V {stages[-1].shape} holds one context vector per token."
    )
    return View(t, ws, d_in, d_out, divisor, stages, _focus(s.focus, n), lead,
                focus_note(t, _focus(s.focus, n), weights, dropped, z))  # fmt: skip


def _focus(focus: int | None, n: int) -> int | None:
    return focus if focus is not None and 0 <= focus < n else None


def focus_note(
    labels: tuple[str, ...], row: int | None, weights: np.ndarray, dropped: np.ndarray, z: np.ndarray
) -> str:
    """The focused query's path in words, at these numbers (or how to pick one)."""
    if row is None:
        return "Pick a query in the sidebar, or click a row of any token heatmap, to follow it from X to Z."
    name = fmt.md(labels[row])
    seen = row + 1
    kept = int(np.count_nonzero(dropped[row, :seen]))
    visible = "1 key, itself" if seen == 1 else f"{seen} keys, itself and those before it"
    return (
        f"**Focus: {name}** (query {row + 1}), outlined in every stage: its row of X becomes one "
        f"row each of Q, K and V; its row of Ω scores {_every_key(len(labels))}, the mask "
        f"leaves it {visible}, whose weights sum to {fmt.num(float(weights[row].sum()))}; dropout keeps "
        f"{kept} of {'that one' if seen == 1 else f'those {seen}'}, and its context "
        f"vector is **z = {fmt.short_vec(z[row])}**."
    )


def _every_key(n: int) -> str:
    """ "all 6 keys", or "the one key" of a one-token sentence."""
    return "the one key" if n == 1 else f"all {fmt.count(n, 'key')}"
