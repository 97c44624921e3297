"""The torch-compatible generator and the book's weight sets against PyTorch itself.

The float32 forward passes run through ``core.torchmath`` under the kernel profile calibrated for
this host (tests/conftest.py). Skipped where torch cannot be imported; CI installs torch
2.13.0 so these always run there.
"""

import numpy as np
import pytest

from core import attention, tokens, weights
from core.torchgen import TorchGenerator

torch = pytest.importorskip("torch")
SEEDS = range(200)
pytestmark = pytest.mark.usefixtures("host_profile")


@pytest.mark.parametrize("seed", SEEDS)
def test_rand_linear_and_dropout_streams_equal_torch(seed):
    gen = TorchGenerator(seed)
    torch.manual_seed(seed)
    r = torch.rand(4, 5)
    lin = torch.nn.Linear(7, 3)
    lin_nb = torch.nn.Linear(2, 4, bias=False)
    p = (0.1, 0.2, 0.5, 0.7, 0.9)[seed % 5]
    dropped = torch.nn.Dropout(p)(r)
    np.testing.assert_array_equal(gen.rand(4, 5), r.numpy())
    w, b = gen.linear(7, 3, bias=True)
    np.testing.assert_array_equal(w, lin.weight.detach().numpy())
    np.testing.assert_array_equal(b, lin.bias.detach().numpy())
    np.testing.assert_array_equal(gen.linear(2, 4)[0], lin_nb.weight.detach().numpy())
    np.testing.assert_array_equal(gen.dropout(r.numpy(), p), dropped.numpy())
    # The stream stays in step: the next draw agrees too.
    np.testing.assert_array_equal(gen.rand(3), torch.rand(3).numpy())


@pytest.mark.parametrize("seed", SEEDS)
def test_both_initialisations_equal_the_books_modules(seed):
    torch.manual_seed(seed)
    v1 = [torch.rand(3, 2) for _ in range(3)]
    torch.manual_seed(seed)
    v2 = [torch.nn.Linear(3, 2, bias=False).weight.detach().T for _ in range(3)]
    for ws, ref in ((weights.init_weights(seed, "rand"), v1), (weights.init_weights(seed, "linear"), v2)):
        for mine, theirs in zip((ws.w_query, ws.w_key, ws.w_value), ref, strict=True):
            np.testing.assert_array_equal(mine, theirs.numpy())


def test_the_books_two_weight_sets():
    torch.manual_seed(123)
    v1 = [torch.rand(3, 2) for _ in range(3)]
    torch.manual_seed(789)
    v2 = [torch.nn.Linear(3, 2, bias=False).weight.detach().T for _ in range(3)]
    for ws, ref in ((weights.section_3_4(), v1), (weights.section_3_5(), v2)):
        for mine, theirs in zip((ws.w_query, ws.w_key, ws.w_value), ref, strict=True):
            np.testing.assert_array_equal(mine, theirs.numpy())


def test_inputs_are_the_books_float32_tensor():
    ref = torch.tensor(
        [
            [0.43, 0.15, 0.89],
            [0.55, 0.87, 0.66],
            [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33],
            [0.77, 0.25, 0.10],
            [0.05, 0.80, 0.55],
        ]
    )
    np.testing.assert_array_equal(tokens.inputs(np.float32), ref.numpy())


def _book_forward(x, w_query, w_key, w_value, *, linear: bool):
    """The book's SelfAttention_v1 / v2 forward, verbatim in PyTorch."""
    if linear:
        keys, queries, values = (torch.nn.functional.linear(x, w) for w in (w_key, w_query, w_value))
    else:
        keys, queries, values = x @ w_key, x @ w_query, x @ w_value
    attn_scores = queries @ keys.T
    attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
    return attn_weights @ values


@pytest.mark.parametrize("seed", SEEDS)
def test_trainable_attention_outputs_equal_torch_bit_for_bit(seed, torch_exact):
    x = torch.tensor(tokens.inputs(np.float32))
    torch.manual_seed(seed)
    v1 = [torch.rand(3, 2) for _ in range(3)]
    torch.manual_seed(seed)
    v2 = [torch.nn.Linear(3, 2, bias=False).weight.detach() for _ in range(3)]
    with torch.no_grad():
        out_v1 = _book_forward(x, *v1, linear=False).numpy()
        out_v2 = _book_forward(x, *v2, linear=True).numpy()
    torch_exact.check(attention.self_attention_f32(x.numpy(), weights.init_weights(seed, "rand")), out_v1)
    torch_exact.check(attention.self_attention_f32(x.numpy(), weights.init_weights(seed, "linear")), out_v2)
