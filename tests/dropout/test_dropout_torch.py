"""Dropout against PyTorch itself: the book's printed run and random seeds and rates, bit for bit.

The float32 weights run through ``core.torchmath`` under the kernel profile calibrated for this
host (tests/conftest.py). Skipped where torch cannot be imported.
"""

from typing import Any

import numpy as np
import pytest

from core import book, masking, tokens, weights
from core.torchgen import TorchGenerator
from topics.dropout import sampling
from ui import format as fmt

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures("host_profile")


def _book_causal_weights(seed: int = 789) -> Any:  # a torch.Tensor
    """Book section 3.5.1, verbatim in spirit: sa_v2's queries and keys, masked_fill -inf, / √d_k."""
    torch.manual_seed(seed)
    w_query, w_key = torch.nn.Linear(3, 2, bias=False), torch.nn.Linear(3, 2, bias=False)
    torch.nn.Linear(3, 2, bias=False)  # W_value, drawn last, unused by the weights
    inputs = torch.tensor(tokens.inputs(np.float32))
    with torch.no_grad():
        queries, keys = w_query(inputs), w_key(inputs)
        scores = queries @ keys.T
        n = scores.shape[0]
        mask = torch.triu(torch.ones(n, n), diagonal=1)
        masked = scores.masked_fill(mask.bool(), -torch.inf)
        return torch.softmax(masked / keys.shape[-1] ** 0.5, dim=1)


def test_causal_weights_equal_torchs(torch_exact):
    ref = _book_causal_weights().numpy()
    np.testing.assert_allclose(
        masking.causal_weights_f32(tokens.inputs(), weights.section_3_5()), ref, atol=1e-6
    )
    np.testing.assert_allclose(masking.causal_weights(tokens.inputs(), weights.section_3_5()), ref, atol=1e-6)
    # The float32 path runs PyTorch's own kernels (core.torchmath): equal, not just close.
    torch_exact.check(masking.causal_weights_f32(tokens.inputs(), weights.section_3_5()), ref)


def test_the_books_dropout_run_bit_for_bit(torch_exact):
    attn = _book_causal_weights()
    torch.manual_seed(123)
    printed = torch.nn.Dropout(0.5)(attn).numpy()
    np.testing.assert_array_equal(TorchGenerator(123).dropout(attn.numpy(), 0.5), printed)
    # Our own float32 weights round to the same printout, row for row.
    mine = sampling.book_dropout_run(tokens.inputs(), weights.section_3_5())
    np.testing.assert_allclose(mine, printed, atol=1e-6)
    torch_exact.check(mine, printed)
    for row, theirs, quoted in zip(mine, printed, book.FIGURE_04["book_dropped"], strict=True):
        assert fmt.vec(row) == fmt.vec(theirs) == quoted


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_random_seeds_and_rates_bit_for_bit(seed):
    attn = _book_causal_weights()
    p = float(np.random.default_rng(seed).uniform(0.0, 0.95))
    torch.manual_seed(seed)
    layer = torch.nn.Dropout(p)
    ref = np.stack([layer(attn).numpy() for _ in range(4)])
    gen = TorchGenerator(seed)
    np.testing.assert_array_equal(np.stack([gen.dropout(attn.numpy(), p) for _ in range(4)]), ref)
    # The vectorised masks are the same four calls, and rescale them the same way to float32 rounding.
    keep = sampling.keep_masks(seed, 4, 6, p, "torch")
    np.testing.assert_array_equal(keep & (attn.numpy() > 0), ref != 0)
    np.testing.assert_allclose(sampling.apply_dropout(attn.numpy(), keep, p), ref, rtol=1e-6, atol=0)


def test_p_zero_draws_nothing_in_torch_either():
    attn = _book_causal_weights()
    torch.manual_seed(5)
    out = torch.nn.Dropout(0.0)(attn)
    after = torch.rand(3).numpy()
    gen = TorchGenerator(5)
    np.testing.assert_array_equal(sampling.keep_masks_torch(gen, 1, 6, 0.0)[0] * attn.numpy(), out.numpy())
    np.testing.assert_array_equal(gen.rand(3), after)
