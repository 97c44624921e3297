"""The book's lines beside each step (sections 3.3 to 3.6), with their results at the reader's
sentence, built from the view the step's figure draws (:mod:`topics.read_along.code`).

The lines are the Reproduce scripts' and the book's: ``attn_scores = inputs @ inputs.T`` (3.3),
``queries @ keys.T`` (3.4), ``masked_fill(mask.bool(), -torch.inf)`` (3.5.1), ``nn.Dropout(0.5)``
(3.5.2), ``.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)`` (3.6.2). The
softmax and the context line are written once, in ``topics.layer.view``, and reused here.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from core.attention import AttentionTrace
from core.weights import WeightSet
from topics.layer import view as layer
from topics.read_along.code import Code, Line, heads_setup, inputs_setup, pair, weights_setup

SOFTMAX = layer.SOFTMAX_CODE  # the scaled softmax of section 3.4 (CausalAttention's line too)
MASKED_SOFTMAX = SOFTMAX.replace("(attn_scores /", "(masked /")  # section 3.5.1, after the mask


def _shape(m: np.ndarray) -> tuple[int, ...]:
    return tuple(int(d) for d in np.shape(m))


def weightless(
    labels: tuple[str, ...], x: np.ndarray, scores: np.ndarray, weights: np.ndarray, context: np.ndarray,
    q: int, k: int, secret: bool,
) -> Code:  # fmt: skip
    """Section 3.3.2: Ω = XXᵀ, A = softmax(Ω), Z = AX; ``secret`` covers A's cell (the answer's part)."""
    a, b = labels[q], labels[k]
    return Code(
        (
            Line("attn_scores = inputs @ inputs.T", _shape(scores), scores[q, k], (q, k), pair(a, b)),
            Line("attn_weights = torch.softmax(attn_scores, dim=-1)", _shape(weights), weights[q, k], (q, k),
                 pair(a, b, "a"), secret),
            Line("all_context_vecs = attn_weights @ inputs", _shape(context), secret_shape=False),
        ),
        inputs_setup(labels, x),
        "section 3.3.2",
    )  # fmt: skip


def projections(labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, t: AttentionTrace, row: int,
                secret: bool) -> Code:  # fmt: skip
    """Section 3.4.1: Q, K and V; ``secret`` covers their shapes and the row's query."""
    return Code(
        (
            Line("W_query", _shape(ws.w_query)),
            Line("queries = inputs @ W_query", _shape(t.queries), t.queries[row, 0], (row, 0),
                 f'q("{labels[row]}")[0]', secret, secret),
            Line("keys = inputs @ W_key", _shape(t.keys), secret_shape=secret),
            Line("values = inputs @ W_value", _shape(t.values), secret_shape=secret),
        ),
        weights_setup(labels, x, ws),
        "section 3.4.1",
    )  # fmt: skip


def scores(labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, t: AttentionTrace, q: int, k: int,
           secret: bool) -> Code:  # fmt: skip
    """Section 3.4.1: Ω = QKᵀ, with the pair's score both ways (``secret``: covered)."""
    a, b = labels[q], labels[k]
    om = t.scores
    return Code(
        (
            Line("queries = inputs @ W_query", _shape(t.queries)),
            Line("keys = inputs @ W_key", _shape(t.keys)),
            Line("attn_scores = queries @ keys.T", _shape(om), om[q, k], (q, k), pair(a, b), secret),
            Line("attn_scores.T", _shape(om), om[k, q], (q, k), pair(b, a), secret),
        ),
        weights_setup(labels, x, ws),
        "section 3.4.1",
    )  # fmt: skip


def context(labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, t: AttentionTrace, row: int,
            col: int) -> Code:  # fmt: skip
    """Section 3.4.1: A = softmax(Ω/√d_k) and Z = AV, with the row's largest weight and z[0]."""
    a, b = labels[row], labels[col]
    return Code(
        (
            Line("queries = inputs @ W_query", _shape(t.queries)),
            Line("keys = inputs @ W_key", _shape(t.keys)),
            Line("values = inputs @ W_value", _shape(t.values)),
            Line("attn_scores = queries @ keys.T", _shape(t.scores)),
            Line(SOFTMAX, _shape(t.weights), t.weights[row, col], (row, col), pair(a, b, "a")),
            Line(layer.CONTEXT_CODE, _shape(t.context), t.context[row, 0], (row, 0), f'z("{a}")[0]'),
        ),
        weights_setup(labels, x, ws),
        "section 3.4.1",
    )  # fmt: skip


# The causal chain of section 3.5, line by line; a step shows the lines it draws (by key).
CHAIN = ("queries", "keys", "values", "scores", "mask", "masked", "weights", "seed", "dropout", "dropped",
         "context")  # fmt: skip


def causal(
    labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, show: Collection[str],
    values: dict[str, tuple[tuple[int, int], str, bool]] | None = None, after: Collection[str] = (),
) -> Code:  # fmt: skip
    """Section 3.5: the causal mask and dropout on the reader's sentence, as the layer page computes
    them (``topics.layer.view``: its X to Z at the same weights). ``values`` names, per line, a cell
    to print, its label and whether it is covered until the reveal; the lines in ``after`` give the
    answer away by themselves and wait for the reveal."""
    v = layer.build(layer.Settings(labels, x, ws))
    m = {s.key.removeprefix("fig_layer_"): s.matrix for s in v.stages}
    n = len(labels)
    text = {
        "queries": ("queries = inputs @ W_query", m["q"]),
        "keys": ("keys = inputs @ W_key", m["k"]),
        "values": ("values = inputs @ W_value", m["v"]),
        "scores": ("attn_scores = queries @ keys.T", m["scores"]),
        "mask": ("mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)",
                 np.triu(np.ones((n, n)), 1)),
        "masked": ("masked = attn_scores.masked_fill(mask.bool(), -torch.inf)", m["masked"]),
        "weights": (MASKED_SOFTMAX, m["weights"]),
        "seed": (f"torch.manual_seed({layer.DROPOUT_SEED})", None),
        "dropout": (f"dropout = torch.nn.Dropout({layer.P:g})", None),
        "dropped": ("attn_weights = dropout(attn_weights)", m["dropout"]),
        "context": (layer.CONTEXT_CODE, m["z"]),
    }  # fmt: skip
    out = []
    for key in CHAIN:
        if key == "mask" and "mask" in show:
            out.append(Line("context_length = attn_scores.shape[0]", after="mask" in after))
        if key not in show and not (key == "seed" and "dropped" in show):
            continue
        code, mat = text[key]
        if mat is None:
            out.append(Line(code, after=key in after))
            continue
        at, label, hidden = (values or {}).get(key, ((0, 0), "", False))
        value = float(mat[at]) if label else None
        out.append(Line(code, _shape(mat), value, at if label else (), label, hidden, after=key in after))
    section = (
        "sections 3.5.1 and 3.5.2"
        if "dropped" in show
        else "section 3.5.1"
        if "mask" in show
        else "section 3.4.1"
    )
    return Code(tuple(out), weights_setup(labels, x, ws), section)


def heads(labels: tuple[str, ...], batch: np.ndarray, trace: object, kind: str, d_out: int, num_heads: int,
          seed: int, context_length: int, secret: Collection[int] = ()) -> Code:  # fmt: skip
    """Section 3.6: the class's forward as the Multi-head page traced it (its code and live shapes);
    the rows numbered in ``secret`` have their shapes covered until the reveal."""
    cls = "MultiHeadAttention" if kind == "split" else "MultiHeadAttentionWrapper"
    d_in = int(np.shape(batch)[2])
    build = (f"torch.manual_seed({seed})", f"self = {cls}({d_in}, {d_out}, {context_length}, 0.0, "
             f"num_heads={num_heads})", "x = batch", "b, num_tokens, d_in = x.shape",
             "mask_bool = self.mask.bool()[:num_tokens, :num_tokens]" if kind == "split" else "")  # fmt: skip
    lines = []
    rows = trace.itertuples() if trace is not None else ()  # type: ignore[attr-defined]
    for i, r in enumerate(rows):
        dims = tuple(int(d) for d in str(r.shape).strip("[]").split(","))
        lines.append(Line(r.code, dims, secret_shape=i in secret))
        for other in ("queries", "values"):  # the trace follows the keys; the class splits all three
            if ".view(b, num_tokens, self.num_heads" in r.code or r.code == "keys = keys.transpose(1, 2)":
                lines.append(Line(r.code.replace("keys", other), dims, secret_shape=i in secret))
    return Code(tuple(lines), (*heads_setup(labels, batch), *(b for b in build if b)), "section 3.6")


def scaled(
    labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, t: AttentionTrace, secret: bool, unscaled: bool
) -> Code:
    """Section 3.4.1's divisor: the scores divided by √d_k, d_k the keys' width, before the softmax
    (``unscaled`` adds the softmax without it; ``secret`` covers the keys' width, the answer)."""
    out = [
        Line("queries = inputs @ W_query", _shape(t.queries), secret_shape=secret),
        Line("keys = inputs @ W_key", _shape(t.keys), secret_shape=secret),
        Line("attn_scores = queries @ keys.T", _shape(t.scores)),
    ]
    if unscaled:
        out.append(Line("torch.softmax(attn_scores, dim=-1)  # no divisor", _shape(t.scores)))
    out.append(Line(SOFTMAX, _shape(t.weights)))
    return Code(tuple(out), weights_setup(labels, x, ws), "section 3.4.1")


def zero_fill(labels: tuple[str, ...], x: np.ndarray, ws: WeightSet, weights: np.ndarray, row: int, col: int,
              secret: bool) -> Code:  # fmt: skip
    """Section 3.5.1's mask with 0 in the place of −∞, as the Masking page's 0 fill runs it: ``weights``
    is that page's softmax after the 0 fill; the asked cell is covered until the reveal (``secret``)."""
    n = len(labels)
    a, b = labels[row], labels[col]
    return Code(
        (
            Line("queries = inputs @ W_query", (n, ws.w_query.shape[1])),
            Line("keys = inputs @ W_key", (n, ws.w_key.shape[1])),
            Line("attn_scores = queries @ keys.T", (n, n)),
            Line("context_length = attn_scores.shape[0]"),
            Line("mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)", (n, n)),
            Line("masked = attn_scores.masked_fill(mask.bool(), 0)  # 0, not the book's -torch.inf", (n, n)),
            Line(MASKED_SOFTMAX, _shape(weights), weights[row, col], (row, col), pair(a, b, "a"), secret),
        ),
        weights_setup(labels, x, ws),
        "section 3.5.1, with 0 for −∞",
    )  # fmt: skip
