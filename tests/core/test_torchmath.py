"""core.torchmath against torch itself: every comparison is bit-exact (np.array_equal on float32).

The grids are the proven domains listed in core/torchmath.py's docstring, trimmed to stay fast.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from core.torchmath import _fma, linear_f32, matmul_f32, softmax_f32  # noqa: E402

F32 = np.float32


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """One intra-op thread: these tiny ops run single-threaded anyway, and a busy machine makes
    OpenMP's spinning threads slow. Restored afterwards for other test modules."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _randn(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(F32)


def _t(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x))


def _same_bits(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Equal bit patterns (so NaN == NaN and -0.0 != 0.0 are judged like the hardware)."""
    return (
        ours.dtype == theirs.dtype == F32
        and ours.shape == theirs.shape
        and np.array_equal(ours.view(np.uint32), theirs.view(np.uint32))
    )


# --- matmul ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a_shape", "b_shape"),
    [
        ((6, 3), (3, 2)),  # inputs @ W_query
        ((6, 2), (2, 6)),  # queries @ keys.T (as a copy)
        ((6, 6), (6, 2)),  # attn_weights @ values
        ((2, 6, 3), (3, 2)),  # batch @ W: folded into one mm
        ((2, 6, 2), (2, 2, 6)),  # bmm
        ((2, 6, 6), (2, 6, 2)),
        ((2, 2, 6, 1), (2, 2, 1, 6)),  # heads: q @ k.transpose(2, 3), head_dim 1
        ((2, 4, 6, 2), (2, 4, 2, 6)),
        ((6, 8), (2, 8, 6)),  # 2-D @ batched broadcasts
        ((1, 6, 8), (3, 8, 5)),
    ],
)
def test_matmul_book_shapes(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    for _ in range(30):
        a, b = _randn(rng, *a_shape), _randn(rng, *b_shape)
        assert _same_bits(matmul_f32(a, b), (_t(a) @ _t(b)).numpy())


@pytest.mark.parametrize("k", range(1, 17))
def test_mm_grid(k: int) -> None:
    """2-D @ 2-D (MKL sgemm) with a C-contiguous right operand, widths 1..11, rows up to 13."""
    rng = np.random.default_rng(100 + k)
    for n in (1, 2, 3, 4, 5, 6, 7, 9, 12, 13):
        for m in range(1, 12):
            if m == 1 and k >= 12 and n % 4:
                continue  # sgemv's leftover rows for k >= 12: a known gap
            a, b = _randn(rng, n, k), _randn(rng, k, m)
            assert _same_bits(matmul_f32(a, b), (_t(a) @ _t(b)).numpy()), (n, k, m)


@pytest.mark.parametrize("k", range(1, 13))
def test_mm_transposed_view_grid(k: int) -> None:
    """``x @ w.T`` with ``w.T`` a transposed view in both libraries (sgemm with transb)."""
    rng = np.random.default_rng(200 + k)
    for n in (1, 2, 3, 4, 5, 6, 7, 9, 12, 13):
        for m in range(1, 12):
            if k >= 12 and (m == 1 or n == 1):
                continue  # sgemv for k >= 12: a known gap
            x, w = _randn(rng, n, k), _randn(rng, m, k)
            assert _same_bits(matmul_f32(x, w.T), (_t(x) @ _t(w).T).numpy()), (n, k, m)


def test_mm_wide_outputs() -> None:
    rng = np.random.default_rng(3)
    for k in range(1, 17):
        for m in (12, 16):
            for n in (1, 3, 4, 6, 12, 24):
                a, b = _randn(rng, n, k), _randn(rng, k, m)
                assert _same_bits(matmul_f32(a, b), (_t(a) @ _t(b)).numpy()), (n, k, m)


def test_bmm_small_any_layout() -> None:
    """torch's own bmm loop (n * k * m < 400): plain sequential sums, strides do not matter."""
    rng = np.random.default_rng(4)
    for batch in ((1,), (2,), (2, 2), (2, 4)):
        for n in (1, 2, 6):
            for k in range(1, 9):
                for m in (1, 2, 6, 8):
                    q, key = _randn(rng, *batch, n, k), _randn(rng, *batch, m, k)
                    ours = matmul_f32(q, np.swapaxes(key, -1, -2))
                    theirs = (_t(q) @ _t(key).transpose(-1, -2)).numpy()
                    assert _same_bits(ours, theirs), (batch, n, k, m)


def test_matmul_masked_attention_pipeline() -> None:
    """scores -> causal -inf mask -> softmax -> @ values, as in the book's CausalAttention."""
    rng = np.random.default_rng(5)
    mask = np.triu(np.ones((6, 6), bool), k=1)
    for d_out in range(1, 9):
        q, k, v = (_randn(rng, 2, 6, d_out) for _ in range(3))
        scores = matmul_f32(q, np.swapaxes(k, 1, 2))
        tq, tk, tv = _t(q), _t(k), _t(v)
        t_scores = tq @ tk.transpose(1, 2)
        assert _same_bits(scores, t_scores.numpy())
        scaled = np.where(mask, F32(-np.inf), scores) / F32(np.sqrt(F32(d_out)))
        t_scaled = t_scores.masked_fill(torch.from_numpy(mask), -torch.inf) / d_out**0.5
        assert _same_bits(scaled.astype(F32), t_scaled.numpy())
        weights = softmax_f32(scaled.astype(F32))
        t_weights = torch.softmax(t_scaled, dim=-1)
        assert _same_bits(weights, t_weights.numpy())
        assert _same_bits(matmul_f32(weights, v), (t_weights @ tv).numpy())


# --- linear ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("d_in", range(1, 12))
def test_linear_grid(d_in: int, bias: bool) -> None:
    rng = np.random.default_rng(300 + d_in + 50 * bias)
    for n in (1, 2, 3, 5, 6, 8, 12, 13):
        for d_out in range(1, 12):
            x, w = _randn(rng, n, d_in), _randn(rng, d_out, d_in)
            b = _randn(rng, d_out) if bias else None
            theirs = torch.nn.functional.linear(_t(x), _t(w), None if b is None else _t(b))
            assert _same_bits(linear_f32(x, w, b), theirs.numpy()), (n, d_in, d_out)


@pytest.mark.parametrize("bias", [False, True])
def test_linear_batched_input(bias: bool) -> None:
    """nn.Linear on [batch, tokens, d_in]: torch flattens to one mm/addmm."""
    rng = np.random.default_rng(6)
    for d_in in range(1, 9):
        for d_out in range(1, 9):
            x, w = _randn(rng, 2, 6, d_in), _randn(rng, d_out, d_in)
            b = _randn(rng, d_out) if bias else None
            theirs = torch.nn.functional.linear(_t(x), _t(w), None if b is None else _t(b))
            assert _same_bits(linear_f32(x, w, b), theirs.numpy()), (d_in, d_out)


# --- softmax --------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [*range(1, 65), 100, 257])
def test_softmax_rows(length: int) -> None:
    rng = np.random.default_rng(400 + length)
    for scale in (0.3, 8.0):
        x = _randn(rng, 12, length, scale=scale)
        assert _same_bits(softmax_f32(x), torch.softmax(_t(x), dim=-1).numpy())
        masked = np.where(rng.random(x.shape) < 0.5, F32(-np.inf), x)
        masked[:, rng.integers(length)] = x[:, 0]  # keep one finite entry per row
        assert _same_bits(softmax_f32(masked), torch.softmax(_t(masked), dim=-1).numpy())


def test_softmax_causal_and_degenerate_rows() -> None:
    rng = np.random.default_rng(7)
    for t in (1, 6, 9, 33):
        x = _randn(rng, 2, 4, t, t, scale=3.0)
        x[..., np.triu(np.ones((t, t), bool), k=1)] = -np.inf
        assert _same_bits(softmax_f32(x, axis=3), torch.softmax(_t(x), dim=-1).numpy())
    special = np.array(
        [[-np.inf] * 6, [0.0] * 6, [88.0, -88.0, 0, 1, 2, 3], [1e-30, -1e30, 1e30, 0, 0, 0]], F32
    )
    assert _same_bits(softmax_f32(special), torch.softmax(_t(special), dim=-1).numpy())


# --- helpers and errors ---------------------------------------------------------------------


def test_fma_rounds_once() -> None:
    rng = np.random.default_rng(8)
    a, b = _randn(rng, 400), _randn(rng, 400)
    c = _randn(rng, 400)
    # Halfway cases: c cancels a*b's top bits so a*b + c lands near a float32 tie.
    c[:200] = (-(a[:200].astype(np.float64) * b[:200])).astype(F32)
    ours = _fma(a, b, c)
    for x, y, z, r in zip(a, b, c, ours, strict=True):
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        lo = F32(float(exact))  # nearest double, then float32: check against both neighbours
        cands = [lo, np.nextafter(lo, F32(np.inf)), np.nextafter(lo, F32(-np.inf))]
        best = min(cands, key=lambda v: (abs(Fraction(float(v)) - exact), int(v.view(np.uint32)) & 1))
        assert r == best


def test_bad_arguments() -> None:
    a32 = np.ones((2, 3), F32)
    with pytest.raises(ValueError):
        matmul_f32(a32, np.ones((2, 3), F32))
    with pytest.raises(ValueError):
        matmul_f32(a32.astype(np.float64), np.ones((3, 2), F32))
    with pytest.raises(ValueError):
        matmul_f32(np.ones(3, F32), np.ones((3, 2), F32))
    with pytest.raises(ValueError):
        matmul_f32(np.ones((2, 2, 3), F32), np.ones((3, 3, 2), F32))
    with pytest.raises(ValueError):
        linear_f32(a32, np.ones((4, 2), F32))
    with pytest.raises(ValueError):
        linear_f32(a32, np.ones((4, 3), F32), np.ones(3, F32))
    with pytest.raises(ValueError):
        softmax_f32(a32, axis=0)
    with pytest.raises(ValueError):
        softmax_f32(np.ones((2, 0), F32))
