"""The Recap page's script: attention without weights (book section 3.3), in PyTorch."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.reproduce.source import TORCH, Script, check_inputs, comment, filename, header, inputs_block, join


def recap(labels: Sequence[str], x: np.ndarray, query: int, key: int) -> Script:
    """``softmax(XXᵀ) X`` and the collapse readouts for the ``query`` and ``key`` tokens shown.

    The page computes in float64 from the float32 inputs; the script does the same, so the two
    agree to the last digit either prints (PyTorch's softmax and NumPy's may differ in the last
    bit of a float64, far below the 4 decimals).
    """
    names, v = check_inputs(labels, x)
    n = len(names)
    if not (0 <= query < n and 0 <= key < n):
        raise ValueError(f"query and key must be token positions 0 to {n - 1}, got {query} and {key}")
    q, k = names[query], names[key]
    code = join(
        ["import torch"],
        header(
            "Recap: attention without weights (book section 3.3), as the page shows it, with query "
            f"token {query + 1} and key token {key + 1}.",
            f"Needs {TORCH} only. The page computes in float64 from the book's float32 inputs, and "
            "so does this script: every number printed equals the page's to the 4 decimals both show.",
        ),
        inputs_block(names, v),
        [
            "attn_scores = inputs @ inputs.T",
            "attn_weights = torch.softmax(attn_scores, dim=-1)",
            "all_context_vecs = attn_weights @ inputs",
        ],
        [
            f"query, key = {query}, {key}  # {_pair(q, k)}",
            'print("Scores omega = inputs @ inputs.T:")',
            "print(attn_scores)",
            'print("Weights = softmax(scores), row by row:")',
            "print(attn_weights)",
            'print(f"Context vector for {tokens[query]}:", all_context_vecs[query])',
            'print(f"Raw affinity {tokens[query]}-{tokens[key]}:", attn_scores[query, key])',
            'print(f"...and {tokens[key]}-{tokens[query]}:", attn_scores[key, query])',
        ],
        [
            "# The collapse: every output is an average of all the inputs.",
            "spread_in = torch.pdist(inputs).mean()  # mean distance over all pairs",
            "spread_out = torch.pdist(all_context_vecs).mean()",
            'print("Mean pairwise distance, inputs:", spread_in)',
            'print("Mean pairwise distance, outputs:", spread_out)',
            "print(\"Outputs' spread as a share of the inputs':\", spread_out / spread_in)",
            'print("Outputs z, one row a token:")',
            "print(all_context_vecs)",
            "nearest = torch.cdist(all_context_vecs, inputs).argmin(dim=1)",
            'print("Nearest input embedding:", [tokens[i] for i in nearest])',
        ],
    )
    return Script(
        code,
        filename("recap", f"query-{query + 1}", f"key-{key + 1}"),
        "torch",
        "The script computes in float64 from the float32 inputs, as this page does: its numbers "
        "equal the page's to the 4 decimals both print.",
    )


def _pair(query: str, key: str) -> str:
    return f"{comment(query, 20)} and {comment(key, 20)}"
