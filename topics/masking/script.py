"""Masking the future's Reproduce script (figure 03): the book's section 3.5.1 code, both causal paths.

Nothing here imports torch: the script is text until a reader (or ``tests/masking/
test_masking_reproduce.py``) runs it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.masking import STAGES
from core.reproduce import weights as rw
from core.reproduce.source import (
    TORCH,
    Script,
    check_inputs,
    filename,
    header,
    inputs_block,
    join,
    tensor_literal,
)
from core.weights import WeightSet
from topics.masking.box import MAX_LOGITS

FILLS = ("-inf", "zero")
NAIVE = ("scale", "softmax", "multiply by tril", "divide each row by its sum")
EFFICIENT = ("scores", "fill the future", "scale", "softmax")
_NAIVE_VARS = ("attn_scores / keys.shape[-1] ** 0.5", "attn_weights", "masked_simple", "masked_simple_norm")
_EFFICIENT_VARS = ("attn_scores", "masked", "masked / keys.shape[-1] ** 0.5", "masked_weights")


def build(
    labels: Sequence[str],
    x: np.ndarray,
    ws: WeightSet,
    stage: int,
    fill: str,
    logits: np.ndarray,
) -> Script:
    """Both paths at ``stage`` (1 to 4), the readouts, the future's share for both fills, and
    ``torch.softmax`` of the counterexample box's ``logits`` (float64, as parsed by the page).

    The differences between the two paths are float64 rounding noise with the −∞ fill; the
    script prints only their largest absolute value, because those last bits depend on the order
    of operations, which PyTorch and NumPy do not share. The page states a bound on it instead
    (``topics.masking.view.rounding_limit``), which both stay below.
    """
    names, v = check_inputs(labels, x)
    if not 1 <= int(stage) <= STAGES:
        raise ValueError(f"stage must be 1 to {STAGES}, got {stage}")
    if fill not in FILLS:
        raise ValueError(f"fill must be one of {FILLS}, got {fill!r}")
    box = np.asarray(logits, dtype=np.float64)
    if box.ndim != 1 or not 1 <= box.size <= MAX_LOGITS:
        raise ValueError(f"the box holds 1 to {MAX_LOGITS} logits, got shape {box.shape}")
    source, build, _ = rw.build_lines(ws, v.shape[1], name="sa")
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    project = (
        ["queries = inputs @ sa.W_query", "keys = inputs @ sa.W_key"]
        if ws.init == "rand"
        else ["queries = sa.W_query(inputs)", "keys = sa.W_key(inputs)"]
    )
    value = "-torch.inf" if fill == "-inf" else "0.0"
    s = int(stage)
    final = (
        [] if s == STAGES else ['print("Masked weights after step 4 (efficient):")', "print(masked_weights)"]
    )
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f"Masking the future as the page shows it: step {s} of {STAGES} of both "
            f"paths, the future filled with {'-inf (the book)' if fill == '-inf' else '0 (the shortcut)'}"
            f", weights {cls} after torch.manual_seed({ws.seed}). The lines between the prints are "
            "the book's section 3.5.1 code.",
            f"Needs {TORCH} only. The page computes in float64 from the book's float32 weights and "
            "inputs, and so does this script: every number printed equals the page's to the 4 "
            "decimals both show.",
        ),
        source,
        inputs_block(names, v),
        ["torch.set_grad_enabled(False)  # nothing is trained here", *build],
        [
            *project,
            "attn_scores = queries @ keys.T",
            "",
            "# The naive path: softmax the full rows, zero the future, renormalise each row.",
            "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)",
            "context_length = attn_scores.shape[0]",
            "mask_simple = torch.tril(torch.ones(context_length, context_length))",
            "masked_simple = attn_weights * mask_simple",
            "row_sums = masked_simple.sum(dim=-1, keepdim=True)",
            "masked_simple_norm = masked_simple / row_sums",
            "",
            "# The efficient path: fill the future of the raw scores, softmax once.",
            "mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)",
            f"masked = attn_scores.masked_fill(mask.bool(), {value})",
            "masked_weights = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)",
        ],
        [
            f'print("Naive, step {s} of {STAGES}, {NAIVE[s - 1]}:")',
            f"print({_NAIVE_VARS[s - 1]})",
            f'print("Efficient, step {s} of {STAGES}, {EFFICIENT[s - 1]}:")',
            f"print({_EFFICIENT_VARS[s - 1]})",
            *final,
            'print("Naive path masks (first entry), a weight:", attn_weights[0, 0])',
            'print("Efficient path masks (first entry), a score:", attn_scores[0, 0])',
            "# With the -inf fill the two paths are equal in exact arithmetic, so this prints float64",
            "# rounding: its last digits depend on the order of the sums, which PyTorch's and NumPy's",
            "# kernels do not share. The page states a bound on it instead of its digits.",
            'print("Largest |naive - efficient|:", (masked_simple_norm - masked_weights).abs().max())',
        ],
        [
            "# Each token's attention to the tokens after it, for both fills.",
            'for name, fill in (("-inf", -torch.inf), ("0", 0.0)):',
            "    filled = attn_scores.masked_fill(mask.bool(), fill)",
            "    weights = torch.softmax(filled / keys.shape[-1] ** 0.5, dim=-1)",
            '    print(f"Attention to later tokens, fill {name}:", (weights * mask).sum(dim=-1))',
        ],
        [
            "# A zero score is not a zero weight: the page's box.",
            *tensor_literal("logits", box),
            'print("softmax(logits):", torch.softmax(logits, dim=-1))',
        ],
    )
    return Script(
        code,
        filename("masking", f"step-{s}", f"fill-{fill}", f"seed-{ws.seed}", ws.init),
        "torch",
        "The script runs the book's section 3.5.1 code in float64 from the float32 weights, as "
        "this page does: its numbers equal the page's to the 4 decimals both print. The two paths' "
        "float64 rounding is printed as its largest value, which the page states as a bound: those "
        "last bits depend on the kernels.",
    )
