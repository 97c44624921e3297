"""The Dropout page's script (figure 04): the book's section 3.5.2 run, and the page's many draws.

With PyTorch's generator the script is the book's own code: ``torch.manual_seed(seed)``, then
``nn.Dropout(p)`` on the causal weights. ``n`` successive calls consume the stream exactly as one
call on ``n`` stacked copies does, so the page's 10,000 draws are one call. NumPy's generator
(``default_rng``, the page's fast option) has no PyTorch equivalent, so that view gets a NumPy
script, which repeats the page's arithmetic operation for operation and prints its numbers bit
for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.reproduce import weights as rw
from core.reproduce.source import (
    TORCH,
    Script,
    check_inputs,
    filename,
    header,
    inputs_block,
    join,
    list_literal,
    string,
    tensor_literal,
)
from core.weights import WeightSet
from topics.dropout.sampling import GENERATORS, MAX_DRAWS, Generator


def _check(p: float, draws: int, seed: int, generator: Generator) -> None:
    if not 0.0 <= float(p) < 1.0:
        raise ValueError(f"p must be in [0, 1), got {p!r}")
    if not 1 <= int(draws) <= MAX_DRAWS:
        raise ValueError(f"draws must be 1 to {MAX_DRAWS:,}, got {draws}")
    if not 0 <= int(seed) < 2**63:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    if generator not in GENERATORS:
        raise ValueError(f"generator must be one of {GENERATORS}, got {generator!r}")


def dropout(
    labels: Sequence[str],
    x: np.ndarray,
    ws: WeightSet,
    p: float,
    scale: bool,
    seed: int,
    draws: int,
    generator: Generator,
) -> Script:
    """The page's view: causal weights, the first draw, and the statistics over ``draws`` draws."""
    _check(p, draws, seed, generator)
    names, v = check_inputs(labels, x)
    rw.check_weight_set(ws, v.shape[1])
    make = _torch if generator == "torch" else _numpy
    code, note = make(names, v, ws, float(p), bool(scale), int(seed), int(draws))
    return Script(
        code,
        filename("dropout", f"p-{p:g}", "scaled" if scale else "unscaled", generator, f"seed-{seed}", draws),
        "torch" if generator == "torch" else "numpy",
        note,
    )


def _torch(
    names: tuple[str, ...], x: np.ndarray, ws: WeightSet, p: float, scale: bool, seed: int, draws: int
) -> tuple[str, str]:
    source, build, _ = rw.build_lines(ws, x.shape[1], name="sa")
    project = (
        ["queries = inputs @ sa.W_query", "keys = inputs @ sa.W_key"]
        if ws.init == "rand"
        else ["queries = sa.W_query(inputs)", "keys = sa.W_key(inputs)"]
    )
    if scale:
        one = ["dropped = dropout(attn_weights)"]
        many = ["many = dropout(attn_weights.repeat(draws, 1, 1))  # [draws, n, n]"]
    else:
        one = [
            "# Scaling off: nn.Dropout's own keep mask, without its factor 1 / (1 - p).",
            "dropped = attn_weights * (dropout(torch.ones_like(attn_weights)) != 0)",
        ]
        many = [
            "stack = attn_weights.repeat(draws, 1, 1)  # [draws, n, n]",
            "many = stack * (dropout(torch.ones_like(stack)) != 0)",
        ]
    book = seed == 123 and p == 0.5 and scale
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f"Dropout as the page shows it: p = {p!r}, scaling "
            f"{'on' if scale else 'off'}, PyTorch random numbers from torch.manual_seed({seed}), "
            f"{draws:,} draws, on the causal weights of section 3.5 (the book's code)."
            + (" At these settings the first draw is the book's printed run." if book else ""),
            f"Needs {TORCH} only. The page computes in float64 from the book's float32 weights, and "
            "so does this script: every number printed equals the page's to the 4 decimals PyTorch "
            "prints (nn.Dropout multiplies by 1 / (1 - p) in the tensor's own dtype); the page rounds "
            "a figure over many draws further, to the digits its standard error supports.",
        ),
        source,
        inputs_block(names, x),
        ["torch.set_grad_enabled(False)  # nothing is trained here", *build],
        [
            *project,
            "attn_scores = queries @ keys.T",
            "context_length = attn_scores.shape[0]",
            "mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)",
            "masked = attn_scores.masked_fill(mask.bool(), -torch.inf)",
            "attn_weights = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)",
            'print("Causal weights, before dropout:")',
            "print(attn_weights)",
        ],
        [
            f"p, draws = {p!r}, {draws}",
            f"torch.manual_seed({seed})",
            "dropout = torch.nn.Dropout(p)",
            *one,
            'print("One draw after dropout:")',
            "print(dropped)",
            'print("Its row sums:", dropped.sum(dim=-1))',
            'print("Zero rows in this draw:", int((dropped == 0).all(dim=-1).sum()))',
        ],
        [
            f"# {draws:,} calls in a row draw what one call on {draws:,} stacked copies draws.",
            f"torch.manual_seed({seed})",
            *many,
            "row_sums = many.sum(dim=-1)  # [draws, n]",
            'print(f"Mean row sum over {draws:,} draws:", row_sums.mean())',
            f'print("Expected mean row sum:", {"1.0" if scale else "1 - p"})',
            'print("Each row\'s mean sum:", row_sums.mean(dim=0))',
            "zero = (many == 0).all(dim=-1).double().mean(dim=0)",
            'print("Share of draws where row i is the zero vector:", zero)',
            "rows = torch.arange(1, context_length + 1, dtype=torch.float64)",
            'print("Theory p**i:", p**rows)',
        ],
        [
            "# Standard errors from the exact variance: each weight is kept with probability 1 - p.",
            f"c = {'1 / (1 - p)' if scale else '1.0'}  # what a survivor is multiplied by",
            "square = attn_weights.double() ** 2",
            "mean_sd = c * (p * (1 - p) * square.sum()) ** 0.5 / context_length",
            'print("Standard error of the mean row sum:", mean_sd / draws**0.5)',
            "row_sd = c * (p * (1 - p) * square.sum(dim=-1)) ** 0.5",
            'print("Standard error of each row\'s mean sum:", row_sd / draws**0.5)',
            "theory = p**rows",
            'print("Standard error of each zero share:", (theory * (1 - theory) / draws) ** 0.5)',
        ],
    )
    note = (
        "The script is the book's code on this page's settings: torch.manual_seed, then nn.Dropout "
        "on the causal weights, in float64 as this page computes. Its numbers equal the page's to "
        "the 4 decimals PyTorch prints; the page rounds a figure over many draws to the digits its "
        "standard error supports."
    )
    return code, note


def _numpy(
    names: tuple[str, ...], x: np.ndarray, ws: WeightSet, p: float, scale: bool, seed: int, draws: int
) -> tuple[str, str]:
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    scaled = "many = attn_weights * keep * (1.0 / (1.0 - p))  # [draws, n, n]"
    unscaled = "many = attn_weights * keep  # [draws, n, n], scaling off: no factor"
    code = join(
        ["import numpy as np"],
        header(
            f"Dropout as the page shows it: p = {p!r}, scaling {'on' if scale else 'off'}, "
            f"NumPy random numbers from default_rng({seed}), {draws:,} draws.",
            "NumPy's generator has no PyTorch equivalent, so this script is NumPy (and needs NumPy "
            "only). It repeats the page's arithmetic operation for operation, so every number "
            "equals the page's bit for bit. Switch the page to PyTorch random numbers for the book's "
            "own torch code.",
        ),
        ['np.set_printoptions(precision=4, suppress=True, floatmode="fixed")'],
        [
            *list_literal("tokens", (string(t) for t in names)),
            *tensor_literal("inputs", x, names, suffix=".astype(np.float64)", lib="np"),
        ],
        [
            f"# {cls}'s W_query and W_key after torch.manual_seed({ws.seed}), read as (d_in, d_out):",
            "# exactly the float32 numbers torch draws (the PyTorch script draws them itself).",
            *tensor_literal("W_query", ws.w_query, suffix=".astype(np.float64)", lib="np"),
            *tensor_literal("W_key", ws.w_key, suffix=".astype(np.float64)", lib="np"),
        ],
        [
            "# Causal weights: scores, the future filled with -inf, divided by sqrt(d_k), softmax.",
            "queries, keys = inputs @ W_query, inputs @ W_key",
            "scores = queries @ keys.T",
            "n = len(tokens)",
            "future = np.triu(np.ones((n, n), dtype=bool), k=1)",
            "scaled = np.where(future, -np.inf, scores) / float(np.sqrt(keys.shape[-1]))",
            "e = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))",
            "attn_weights = e / np.sum(e, axis=-1, keepdims=True)",
            'print("Causal weights, before dropout:")',
            "print(attn_weights)",
        ],
        [
            f"p, draws = {p!r}, {draws}",
            f"rng = np.random.default_rng({seed})",
            "keep = rng.random((draws, n, n)) < 1.0 - p  # one uniform per weight per draw",
            scaled if scale else unscaled,
            "dropped = many[0]",
            'print("One draw after dropout (the first):")',
            "print(dropped)",
            'print("Its row sums:", dropped.sum(axis=1))',
            'print("Zero rows in this draw:", int((~dropped.any(axis=1)).sum()))',
        ],
        [
            "row_sums = many.sum(axis=-1)  # [draws, n]",
            "running_mean = np.cumsum(row_sums.mean(axis=-1)) / np.arange(1, draws + 1)",
            'print(f"Mean row sum over {draws:,} draws:", float(running_mean[-1]))',
            f'print("Expected mean row sum:", {"1.0" if scale else "1.0 - p"})',
            'print("Each row\'s mean sum:", row_sums.mean(axis=0))',
            "zero = np.mean(~np.any(many != 0.0, axis=-1), axis=0)",
            'print("Share of draws where row i is the zero vector:", zero)',
            "theory = p ** np.arange(1, n + 1, dtype=np.float64)",
            'print("Theory p**i:", theory)',
        ],
        [
            "# Standard errors from the exact variance: each weight is kept with probability 1 - p.",
            f"c = {'1.0 / (1.0 - p)' if scale else '1.0'}  # what a survivor is multiplied by",
            "mean_sd = c * np.sqrt(p * (1.0 - p) * np.sum(attn_weights * attn_weights)) / n",
            'print("Standard error of the mean row sum:", mean_sd / np.sqrt(draws))',
            "row_sd = c * np.sqrt(p * (1.0 - p) * np.sum(attn_weights * attn_weights, axis=-1))",
            'print("Standard error of each row\'s mean sum:", row_sd / np.sqrt(draws))',
            "zero_sd = np.sqrt(theory * (1.0 - theory))",
            'print("Standard error of each zero share:", zero_sd / np.sqrt(draws))',
        ],
    )
    note = (
        "NumPy's generator has no PyTorch equivalent, so this view's script is NumPy: it repeats "
        "the page's arithmetic step for step and prints its numbers bit for bit. Choose PyTorch "
        "random numbers for the book's own torch code."
    )
    return code, note
