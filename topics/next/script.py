"""The "What comes next" page's script (figure 07): a shuffle, a block's parameters, the KV cache."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core import tokens
from core.reproduce import weights as rw
from core.reproduce.book_code import MULTI_HEAD_ATTENTION
from core.reproduce.source import (
    TORCH,
    Script,
    check_inputs,
    comment,
    filename,
    header,
    inputs_block,
    join,
    list_literal,
    tensor_literal,
)
from core.weights import WeightSet
from topics.next import limits
from topics.next.block import BlockConfig
from topics.next.equivariance import check_permutation
from topics.next.view import PREFIX_ORDER, Settings, View

# What the page shows of the shuffle is the difference P·f(X) − f(P·X) at 4 decimals (its heatmaps'
# cells), so the script prints that, never in scientific notation: rounding noise prints 0.0000.
PRINT_OPTIONS = "torch.set_printoptions(precision=4, sci_mode=False)  # as the page prints: 4 decimals"


def what_comes_next(
    labels: Sequence[str],
    x: np.ndarray,
    ws: WeightSet,
    perm: Sequence[int],
    cfg: BlockConfig,
    kv_tokens: int,
    kv_bytes: int,
    kv_batch: int,
    focus: int | None = None,
) -> Script:
    """Permutation equivariance with and without the causal mask on ``ws``; one block's parameter
    counts (the book's ``MultiHeadAttention`` and chapter 4's feed-forward and norms, built on the
    meta device, so a 16,384-wide block costs no memory); the KV cache in exact integers, for
    ``kv_tokens`` capped at the context length, as the page caps it. It prints what the page shows
    (issue #24, item 11): each difference ``P·f(X) − f(P·X)`` and its largest entry, the ``focus``
    token's context vectors, token 1 under the book's ``MultiHeadAttention``, the two-layer prefix
    shuffle, the counts and the cache.
    """
    names, v = check_inputs(labels, x)
    order = check_permutation(perm, len(names))
    for name, value in (("kv_tokens", kv_tokens), ("kv_bytes", kv_bytes), ("kv_batch", kv_batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    source, build, _ = rw.build_lines(ws, v.shape[1], name="sa")
    if ws.init == "rand":
        project = ["keys = x @ sa.W_key", "queries = x @ sa.W_query", "values = x @ sa.W_value"]
    else:
        project = ["keys = sa.W_key(x)", "queries = sa.W_query(x)", "values = sa.W_value(x)"]
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    shuffled = " ".join(comment(names[i], 12) for i in order)
    if focus is not None and not 0 <= focus < len(names):
        raise ValueError(f"focus must be a token index below {len(names)}, got {focus!r}")
    spot = []
    if focus is not None:
        row = order.index(focus)
        spot = [
            *header(f"The focused token, {comment(names[focus], 24)}: its row of both sides, both ways."),
            f"row = {row}  # its position in the new order, counted from 0",
            'for name, f in (("with the mask", causal), ("without the mask", sa)):',
            '    print(f"Focus, {name}, in the original order:", f(inputs)[perm][row])',
            '    print(f"Focus, {name}, shuffled:", f(inputs[perm])[row])',
        ]
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f"What comes next as the page shows it: the sentence shuffled, {cls} after "
            f"torch.manual_seed({ws.seed}) with and without the causal mask; one block's parameters "
            f"at emb_dim {cfg.emb_dim}; the KV cache for {min(kv_tokens, cfg.context_length):,} tokens.",
            f"Needs {TORCH} only. The page computes in float64 from the book's float32 weights and "
            "inputs, and so does this script: every number printed equals the page's to the 4 "
            "decimals both show, and every count exactly.",
        ),
        source,
        MULTI_HEAD_ATTENTION,
        inputs_block(names, v),
        ["torch.set_grad_enabled(False)  # nothing is trained here", PRINT_OPTIONS, *build],
        f'''
def causal(x):
    """{cls}'s forward with section 3.5's mask: scores above the diagonal are -inf."""
{chr(10).join("    " + line for line in project)}
    attn_scores = queries @ keys.T
    mask = torch.triu(torch.ones(len(x), len(x)), diagonal=1)
    attn_scores = attn_scores.masked_fill(mask.bool(), -torch.inf)
    attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
    return attn_weights @ values
''',
        [
            *header(f"The new order: {shuffled}"),
            *list_literal("perm", (str(i) for i in order)),
            'print("Shuffled sentence:", " ".join(tokens[i] for i in perm))',
        ],
        """
def difference(name, f):
    permuted = f(inputs)[perm]  # P f(X): shuffle the outputs
    of_permuted = f(inputs[perm])  # f(P X): attend over the shuffled inputs
    print(f"{name}, P f(X) - f(P X):")
    print(permuted - of_permuted)
    return (permuted - of_permuted).abs().max()
""",
        [
            "# Without the mask the gap is float64 rounding noise: its digits depend on the order of",
            "# the operations (PyTorch's and NumPy's differ), so the page states a bound, not them.",
            'gap = difference("Without the mask", sa)',
            'print("Without the mask, max |P f(X) - f(P X)|:", gap.item())',
            'gap = difference("With the causal mask", causal)',
            'print("With the causal mask, max |P f(X) - f(P X)|:", gap)',
            *spot,
        ],
        [
            *header(
                "Token 1 under the mask, on the book's sentence: section 3.6.2's MultiHeadAttention",
                "(seed 123) returns out_proj(W_value(x_1)), two linear maps.",
            ),
            *tensor_literal("book", tokens.inputs(), tokens.TOKENS, suffix=".double()"),
            f"torch.manual_seed({limits.BOOK_SEED})",
            "mha = MultiHeadAttention(3, 2, len(book), 0.0, num_heads=2).double()",
            "first = mha(torch.stack((book, book)))[0, 0]",
            "direct = mha.out_proj(mha.W_value(book[0]))",
            'print("Token 1, MultiHeadAttention:", first)',
            'print("Token 1, out_proj(W_value(x_1)):", direct)',
            'print("Token 1, max gap:", (first - direct).abs().max().item())',
        ],
        [
            *header(
                "Two stacked causal layers, each its own weights: the five tokens before the last",
                "reordered. One layer leaves the last token's output as it was, up to rounding.",
            ),
            f"torch.manual_seed({limits.STACK_SEED})",
            "layers = [[torch.rand(3, 3).double() for _ in range(3)] for _ in range(2)]",
            *list_literal("order", (str(i) for i in PREFIX_ORDER)),
        ],
        """
def layer(x, w):
    # One causal self-attention layer with square weights w = (query, key, value).
    queries, keys, values = x @ w[0], x @ w[1], x @ w[2]
    mask = torch.triu(torch.ones(len(x), len(x)), diagonal=1)
    attn_scores = (queries @ keys.T).masked_fill(mask.bool(), -torch.inf)
    return torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1) @ values
""",
        [
            "one = layer(book, layers[0])[-1] - layer(book[order], layers[0])[-1]",
            "two = (",
            "    layer(layer(book, layers[0]), layers[1])[-1]",
            "    - layer(layer(book[order], layers[0]), layers[1])[-1]",
            ")",
            'print("One layer, the last token\'s largest change:", one.abs().max().item())',
            'print("Two stacked layers, the last token\'s largest change:", two.abs().max())',
        ],
        [
            "# One block's parameters, built on the meta device: no memory, no random numbers.",
            f"emb_dim, n_heads, n_layers = {cfg.emb_dim}, {cfg.n_heads}, {cfg.n_layers}",
            f"context_length, ff_mult, qkv_bias = {cfg.context_length}, {cfg.ff_mult}, {cfg.qkv_bias}",
            'with torch.device("meta"):',
            "    attention = MultiHeadAttention(",
            "        emb_dim, emb_dim, context_length, 0.0, n_heads, qkv_bias=qkv_bias",
            "    )",
            "    # The book's FeedForward (chapter 4): its GELU has no parameters, as nn.GELU.",
            "    feed_forward = nn.Sequential(",
            "        nn.Linear(emb_dim, ff_mult * emb_dim),",
            "        nn.GELU(),",
            "        nn.Linear(ff_mult * emb_dim, emb_dim),",
            "    )",
            "    norms = nn.ModuleList([nn.LayerNorm(emb_dim), nn.LayerNorm(emb_dim)])",
        ],
        """
def count(module):
    return sum(p.numel() for p in module.parameters())
""",
        [
            "block = count(attention) + count(feed_forward) + count(norms)",
            'print("Attention:", count(attention))',
            'print("Feed-forward:", count(feed_forward))',
            'print("Layer norms:", count(norms))',
            'print("Whole block:", block)',
            'print(f"{n_layers} blocks:", n_layers * block)',
        ],
        [
            "# The KV cache: a key and a value of emb_dim numbers per token, layer and sequence.",
            f"kv_tokens, kv_bytes, kv_batch = {kv_tokens}, {kv_bytes}, {kv_batch}",
            "cached = min(kv_tokens, context_length)  # a model attends to at most its context",
            "per_token = 2 * n_layers * emb_dim * kv_bytes * kv_batch",
            "weight_bytes = n_layers * block * kv_bytes  # stored with the cache's bytes per number",
            'print("Cache size in bytes:", per_token * cached)',
            'print("Per token in bytes:", per_token)',
            'print("At the full context in bytes:", per_token * context_length)',
            'print("Blocks\' weights in bytes:", weight_bytes)',
            "whole, rest = divmod(weight_bytes, per_token)",
            "equal = whole if rest == 0 and whole > 0 else None  # None: no token count is equal",
            'print("Equals the blocks\' weights at tokens:", equal)',
            'print("Exceeds the blocks\' weights from tokens:", whole + 1)',
        ],
    )
    return Script(
        code,
        filename("what-comes-next", "perm-" + "-".join(str(i + 1) for i in order), f"emb-{cfg.emb_dim}"),
        "torch",
        "The script computes in float64 from the book's float32 weights, as this page does: its "
        "numbers equal the page's to the 4 decimals both print, and its counts exactly. Without the "
        "mask the gap is float64 rounding noise, whose digits depend on the kernels: the page states "
        "a bound on it.",
    )


def for_view(s: Settings, v: View) -> Script:
    """The script for the page's settings ``s``, on the weights its view ``v`` computed with."""
    sh = v.shuffle
    return what_comes_next(
        s.labels, s.embeddings, sh.weights, sh.perm, v.block, s.kv_tokens, s.kv_bytes, s.kv_batch, s.focus
    )
