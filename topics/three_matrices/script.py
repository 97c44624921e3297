"""The Three matrices page's script: W_q, W_k, W_v in the page's mode, in PyTorch."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.attention import MODES, Mode
from core.reproduce import weights as rw
from core.reproduce.source import TORCH, Script, check_inputs, comment, filename, header, inputs_block, join
from core.weights import WeightSet

MODE_NAMES = {"none": "no matrices", "tied": "tied W_q = W_k", "three": "three matrices"}


def three_matrices(
    labels: Sequence[str],
    x: np.ndarray,
    ws: WeightSet,
    mode: Mode,
    pair: tuple[int, int] | None = None,
) -> Script:
    """The page's three-mode comparison in ``mode`` on the weights ``ws``: Ω, Ω − Ωᵀ, A, Q, K, V, Z,
    both errors, and the table of all three modes (with ``pair``'s two weights, journey → starts on the page).

    The weights are the book's class after ``torch.manual_seed``; the arithmetic is float64 from
    the float32 draw, as the page's, so every printed number equals the page's at 4 decimals.
    """
    names, v = check_inputs(labels, x)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if pair is not None and not all(0 <= i < len(names) for i in pair):
        raise ValueError(f"pair must hold two token positions below {len(names)}, got {pair}")
    source, build, read = rw.build_lines(ws, v.shape[1])
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    table = []
    if pair is not None:
        i, j = pair
        table = [
            f"i, j = {i}, {j}  # {comment(names[i], 20)} and {comment(names[j], 20)}",
            'for m in ("none", "tied", "three"):',
            "    *_, scores, weights, _ = attention(inputs, m)",
            "    row = [error(scores), error(weights), weights[i, j], weights[j, i]]",
            "    print(",
            '        f"Mode {m}, [score error, weight error, {tokens[i]} -> {tokens[j]}, "',
            '        f"{tokens[j]} -> {tokens[i]}]:",',
            "        torch.stack(row),",
            "    )",
        ]
    book_forward = (
        [f'print("The book\'s forward, {cls}(inputs), gives Z too:")', "print(sa(inputs))"]
        if mode == "three"
        else []
    )
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f'Three matrices as the page shows it: mode "{MODE_NAMES[mode]}", weights '
            f"{cls} after torch.manual_seed({ws.seed}).",
            f"Needs {TORCH} only. The page computes in float64 from the book's float32 weights and "
            "inputs, and so does this script: every number printed equals the page's to the 4 "
            "decimals both show.",
        ),
        source,
        inputs_block(names, v),
        [
            "torch.set_grad_enabled(False)  # nothing is trained here",
            "# Print as the page shows numbers, 4 fixed decimals: where the page's symmetric scores",
            "# give an exact 0, PyTorch's matmul may leave 1e-16, which reads 0.0000 on both.",
            "torch.set_printoptions(precision=4, sci_mode=False)",
            *build,
            *read,
        ],
        '''
def attention(x, mode):
    """The page's three modes; every one divides by sqrt(d_k), the projection width."""
    d_k = W_key.shape[-1]
    if mode == "none":
        queries = keys = values = x
    elif mode == "tied":
        queries = keys = x @ W_query
        values = x @ W_value
    else:
        queries, keys, values = x @ W_query, x @ W_key, x @ W_value
    attn_scores = queries @ keys.T
    attn_weights = torch.softmax(attn_scores / d_k**0.5, dim=-1)
    return queries, keys, values, attn_scores, attn_weights, attn_weights @ values
''',
        '''
def error(m):
    """max |M - M^T|: 0 exactly when every affinity reads the same from either end."""
    return (m - m.T).abs().max()
''',
        [
            f'queries, keys, values, scores, weights, context = attention(inputs, "{mode}")',
            'print("Score error max|omega - omega^T|:", error(scores))',
            'print("Weight error max|A - A^T|:", error(weights))',
            'print("Divisor sqrt(d_k):", W_key.shape[-1] ** 0.5)',
            'print("Scores omega:")',
            "print(scores)",
            'print("omega - omega^T:")',
            "print(scores - scores.T)",
            'print("Weights A = softmax(omega / sqrt(d_k)):")',
            "print(weights)",
        ],
        table,
        [
            'print("Row sums of inputs @ inputs.T:", (inputs @ inputs.T).sum(dim=1))',
            *(
                line
                for name, var in (("Q", "queries"), ("K", "keys"), ("V", "values"), ("Z = AV", "context"))
                for line in (f'print("{name}:")', f"print({var})")
            ),
            *book_forward,
            *(
                line
                for name in ("W_query", "W_key", "W_value")
                for line in (f'print("{name}:")', f"print({name})")
            ),
        ],
    )
    return Script(
        code,
        filename("three-matrices", mode, f"seed-{ws.seed}", ws.init, f"d-out-{ws.w_query.shape[1]}"),
        "torch",
        "The script builds the book's class after torch.manual_seed and computes in float64 from "
        "its float32 weights, as this page does: its numbers equal the page's to the 4 decimals "
        "both print.",
    )
