"""The whole layer's Reproduce script: the book's causal self-attention (sections 3.4 to 3.5.3),
stage by stage, at the page's sentence and weights, printing every stage the page draws.

Nothing here imports torch: the script is text until a reader (or ``tests/layer``) runs it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.reproduce import weights as rw
from core.reproduce.source import TORCH, Script, check_inputs, filename, header, inputs_block, join
from core.sentence import weights_for
from core.weights import WeightSet

STAGES = ("X", "W_query", "W_key", "W_value", "queries", "keys", "values", "attn_scores", "masked",
          "attn_weights", "dropped", "context_vec")  # fmt: skip


def build(labels: Sequence[str], x: np.ndarray, ws: WeightSet, p: float, seed: int) -> Script:
    """The layer from X to Z with dropout ``p`` drawn after ``torch.manual_seed(seed)``."""
    names, v = check_inputs(labels, x)
    source, make, read = rw.build_lines(weights_for(ws, v.shape[1]), v.shape[1], name="sa")
    code = join(
        ["import torch", "from torch import nn"],
        header(
            "The whole layer as the page shows it: the book's causal self-attention, one stage a "
            f"line, weights after torch.manual_seed({ws.seed}), dropout p = {p:g} after "
            f"torch.manual_seed({seed}).",
            f"Needs {TORCH} only. Float64 from the book's float32 weights and inputs, as the page.",
        ),
        source,
        inputs_block(names, v),
        ["torch.set_grad_enabled(False)  # nothing is trained here", *make, *read],
        [
            "X = inputs",
            "queries = X @ W_query",
            "keys = X @ W_key",
            "values = X @ W_value",
            "attn_scores = queries @ keys.T",
            "mask = torch.triu(torch.ones(len(X), len(X)), diagonal=1)",
            "masked = attn_scores.masked_fill(mask.bool(), -torch.inf)",
            "attn_weights = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)",
            f"torch.manual_seed({seed})",
            f"dropped = nn.Dropout({p:g})(attn_weights)",
            "context_vec = dropped @ values",
        ],
        [f'print("{name}", tuple({name}.shape))\nprint({name})' for name in STAGES],
    )
    return Script(
        code,
        filename("layer", f"seed-{ws.seed}", ws.init),
        "torch",
        "The script runs every stage of the layer in float64, as this page does, and prints each "
        "stage's shape and values.",
    )
