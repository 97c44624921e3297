"""What one attention layer does and does not do, made exact (the post's figure 07, issue #13 item 9).

Two of the post's sentences are true only with a qualifier, and each gets a computation here:

- "Attention ... does no per-position computation at all." It does no per-position *nonlinear*
  computation: ``W_v`` and ``out_proj`` act on every position, linearly. Under the causal mask the
  first token sees only itself, its weight is exactly 1, and its output is exactly
  ``out_proj(W_v x₁)`` (:func:`first_token`).
- "The mask tells a token which others came before it, never how far back or in what order."
  True of one layer: a token's output there depends on the *set* of tokens before it. Stack a
  second layer (with its own weights, as a model's layers have) and the order leaks in, because
  each earlier token's first-layer output already depends on its own prefix (:func:`prefix_shuffle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core import multihead
from core.config import BOOK_TOY, AttentionConfig
from core.torchgen import TorchGenerator
from core.weights import WeightSet
from topics.next.equivariance import causal_self_attention, check_permutation, rounding_limit

BOOK_SEED = 123  # the book's MultiHeadAttention examples: torch.manual_seed(123)
STACK_SEED = 123  # the two-layer stack: torch.manual_seed(123), then torch.rand(3, 3) six times


@dataclass(frozen=True)
class FirstToken:
    """Token 1's output from the book's ``MultiHeadAttention``, and the same from two linear maps."""

    output: np.ndarray  # MultiHeadAttention(batch)[0, 0]  [d_out]
    direct: np.ndarray  # out_proj(W_value(x₁))  [d_out]
    weight: float  # token 1's attention weight on itself: exactly 1 under the mask
    gap: float  # max |output − direct|


def first_token(cfg: AttentionConfig = BOOK_TOY, seed: int = BOOK_SEED) -> FirstToken:
    """Token 1 under the causal mask: ``MultiHeadAttention`` reduces to ``out_proj(W_v x₁)``.

    The softmax of a row with one visible entry is exactly 1 in floating point, so the context
    vector is ``W_v x₁`` bit for bit and the gap is exactly 0. With the book's settings
    (section 3.6.2, seed 123) the output is the printed first row, ``[0.3190, 0.4858]``.
    """
    params = multihead.init_split(cfg, seed)
    x = multihead.example_batch(cfg.d_in, np.float64)  # [2, 6, d_in]
    result = multihead.split_forward(x, params)
    v, o = params.qkv.value, params.out_proj
    x1 = x[0, 0]  # [d_in]
    value = x1 @ v.weight.T.astype(np.float64) + (0.0 if v.bias is None else v.bias)  # [d_out]
    direct = value @ o.weight.T.astype(np.float64) + o.bias  # [d_out]
    output = result.output[0, 0]
    return FirstToken(
        output, direct, float(result.weights[0, :, 0, 0].min()), float(np.max(np.abs(output - direct)))
    )


def stack_weights(seed: int = STACK_SEED, width: int = 3, layers: int = 2) -> tuple[WeightSet, ...]:
    """Square weights, so one causal layer can feed another: after ``torch.manual_seed(seed)``,
    layer 1's query, key and value (``torch.rand(width, width)`` each), then layer 2's, drawn on
    from the same generator, as two ``SelfAttention_v1`` built one after the other draw them."""
    gen = TorchGenerator(seed)
    drawn = [[gen.rand(width, width) for _ in "qkv"] for _ in range(layers)]
    return tuple(
        WeightSet(f"layer {i + 1}, torch.rand, seed {seed}", seed, "rand", *m) for i, m in enumerate(drawn)
    )


@dataclass(frozen=True)
class PrefixShuffle:
    """The last token's output before and after shuffling the tokens in front of it."""

    order: tuple[int, ...]  # the shuffled order; the last token stays last
    one_layer: float  # max |change| of the last token's output after one causal layer (layer 1)
    two_layers: float  # … after two stacked causal layers (layer 1, then layer 2)
    limit: float  # the most rounding can make ``one_layer`` (``equivariance.rounding_limit``)


def prefix_shuffle(x: np.ndarray, layers: Sequence[WeightSet], order: Sequence[int]) -> PrefixShuffle:
    """Shuffle the tokens before the last one and measure how much the last token's output moves.

    One causal layer (``layers[0]``): not at all (up to rounding), because the last token attends
    to the same set of tokens and a softmax does not care in which order its terms arrive. Two
    layers (``layers[0]`` then ``layers[1]``): it moves, because layer 1 gave each earlier token an
    output that depends on its own, now different, prefix. The weights must be square
    (``d_in = d_out``) for the layers to stack.
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[0]
    p = check_permutation(order, n)
    if p[-1] != n - 1:
        raise ValueError(f"the last token must stay last (position {n}); got the order {[i + 1 for i in p]}")
    if len(layers) != 2:
        raise ValueError(f"two layers are stacked, got {len(layers)}")
    for ws in layers:
        if ws.w_value.shape[0] != ws.w_value.shape[1]:
            raise ValueError(f"stacking needs square weights (d_in = d_out), got {ws.w_value.shape}")
    first, second = layers

    def layer(z: np.ndarray, ws: WeightSet) -> np.ndarray:  # [n, d] -> [n, d]
        return causal_self_attention(z, ws).context

    shuffled = x[list(p)]
    one = float(np.max(np.abs(layer(x, first)[-1] - layer(shuffled, first)[-1])))
    stacked, stacked_shuffled = layer(layer(x, first), second), layer(layer(shuffled, first), second)
    two = float(np.max(np.abs(stacked[-1] - stacked_shuffled[-1])))
    return PrefixShuffle(p, one, two, rounding_limit(x, first))
