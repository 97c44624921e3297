"""core.torchmath against torch itself: bit-exact (np.array_equal on float32 bits) where proven.

The host's kernel profile is chosen by calibration (tests/conftest.py); every comparison
inside that profile's proven domain (core/torchmath.py's docstring, ``mm_is_proven``) must be
bit-exact, the rest within a few float32 ulps of the summed magnitude. The grids are trimmed to
stay fast.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from core import torchmath  # noqa: E402
from core.torchmath import _fma, linear_f32, matmul_f32, mm_is_proven, softmax_f32  # noqa: E402
from tests.torch_kernels import ULPS, probes, same_bits, within_ulps  # noqa: E402

F32 = np.float32
pytestmark = pytest.mark.usefixtures("host_profile")


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


def _t(x: np.ndarray):  # -> torch.Tensor (torch is imported only when installed)
    return torch.from_numpy(np.ascontiguousarray(x))


def _magnitude(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``|a| @ |b|``: what a product is summed from, the scale of its rounding differences."""
    return np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)


def _check_mm(torch_exact, ours, theirs, a, b, msg, *, transposed: bool = False) -> None:
    """Bit-exact inside the proven domain of the running profile, within ULPS outside it."""
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if mm_is_proven(n, k, m, transposed=transposed):
        torch_exact.check(ours, theirs, msg, scale=_magnitude(a, b))
    else:
        assert within_ulps(ours, theirs, _magnitude(a, b)), msg


# --- the host and its profile ---------------------------------------------------------------


def test_a_profile_reproduces_this_host(host_kernels) -> None:
    """Calibration found the profile the rest of this module runs under (skipped, with the
    reason, on a CPU no profile models: the other tests then check to ULPS)."""
    if not host_kernels.exact:
        pytest.skip(f"{host_kernels.reason} [missed: {host_kernels.details}]")
    assert torchmath.get_profile() == host_kernels.profile
    for probe in probes():
        assert same_bits(probe.model(host_kernels.profile), probe.torch_result(torch)), probe.name


def test_the_other_profiles_miss_bits_but_stay_within_the_tolerance(host_kernels) -> None:
    """The other profiles really differ on this host (so calibration means something), and by no
    more than the tolerance an unknown host is held to (so that fallback is not too strict; on an
    unknown host this checks every profile)."""
    others = [p for p in torchmath.PROFILES if p != host_kernels.profile]
    rng = np.random.default_rng(9)
    for profile in others:
        missed = 0
        for n, k, m in ((6, 3, 2), (12, 3, 2), (6, 8, 6), (12, 16, 12), (8, 20, 1), (1, 12, 16)):
            a, b, w = _randn(rng, n, k), _randn(rng, k, m), _randn(rng, m, k)
            for ours, theirs, scale in (
                (matmul_f32(a, b, profile=profile), (_t(a) @ _t(b)).numpy(), _magnitude(a, b)),
                (linear_f32(a, w, profile=profile), (_t(a) @ _t(w).T).numpy(), _magnitude(a, w.T)),
            ):
                missed += not same_bits(ours, theirs)
                assert within_ulps(ours, theirs, scale), (profile, n, k, m)
        x = _randn(rng, 8, 33, scale=3.0)
        ours, theirs = softmax_f32(x, profile=profile), torch.softmax(_t(x), dim=-1).numpy()
        missed += not same_bits(ours, theirs)
        assert within_ulps(ours, theirs, ulps=ULPS)
        if host_kernels.exact:
            assert missed, f"profile {profile} reproduced every check on a host calibrated otherwise"


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
def test_matmul_book_shapes(torch_exact, a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> None:
    """The book's products are inside the proven domain of every profile: always bit-exact."""
    rng = np.random.default_rng(0)
    for _ in range(30):
        a, b = _randn(rng, *a_shape), _randn(rng, *b_shape)
        torch_exact.check(matmul_f32(a, b), (_t(a) @ _t(b)).numpy(), scale=_magnitude(a, b))


@pytest.mark.parametrize("k", range(1, 17))
def test_mm_grid(torch_exact, k: int) -> None:
    """2-D @ 2-D (MKL sgemm) with a C-contiguous right operand, widths 1..11, rows up to 13."""
    rng = np.random.default_rng(100 + k)
    for n in (1, 2, 3, 4, 5, 6, 7, 9, 12, 13):
        for m in range(1, 12):
            a, b = _randn(rng, n, k), _randn(rng, k, m)
            _check_mm(torch_exact, matmul_f32(a, b), (_t(a) @ _t(b)).numpy(), a, b, (n, k, m))


@pytest.mark.parametrize("k", range(1, 13))
def test_mm_transposed_view_grid(torch_exact, k: int) -> None:
    """``x @ w.T`` with ``w.T`` a transposed view in both libraries (sgemm with transb)."""
    rng = np.random.default_rng(200 + k)
    for n in (1, 2, 3, 4, 5, 6, 7, 9, 12, 13):
        for m in range(1, 12):
            x, w = _randn(rng, n, k), _randn(rng, m, k)
            ours, theirs = matmul_f32(x, w.T), (_t(x) @ _t(w).T).numpy()
            _check_mm(torch_exact, ours, theirs, x, w.T, (n, k, m), transposed=True)


def test_mm_wide_outputs(torch_exact) -> None:
    rng = np.random.default_rng(3)
    for k in range(1, 17):
        for m in (12, 16):
            for n in (1, 3, 4, 6, 12, 24):
                a, b = _randn(rng, n, k), _randn(rng, k, m)
                _check_mm(torch_exact, matmul_f32(a, b), (_t(a) @ _t(b)).numpy(), a, b, (n, k, m))


def test_random_shapes_in_the_probed_box(torch_exact) -> None:
    """Shapes drawn from the whole box the AVX-512 orders were probed in (n <= 32, k and m <= 40),
    both layouts and ``nn.Linear`` with a bias: exact wherever the running profile claims it."""
    rng = np.random.default_rng(11)
    for _ in range(150):
        n, k, m = int(rng.integers(1, 33)), int(rng.integers(1, 41)), int(rng.integers(1, 41))
        a, b, w, bias = _randn(rng, n, k), _randn(rng, k, m), _randn(rng, m, k), _randn(rng, m)
        _check_mm(torch_exact, matmul_f32(a, b), (_t(a) @ _t(b)).numpy(), a, b, (n, k, m))
        theirs = torch.nn.functional.linear(_t(a), _t(w), _t(bias)).numpy()
        scale = _magnitude(a, w.T) + np.abs(bias)
        if torchmath.linear_is_proven(n, k, m):
            torch_exact.check(linear_f32(a, w, bias), theirs, (n, k, m), scale=scale)
        else:
            assert within_ulps(linear_f32(a, w, bias), theirs, scale), (n, k, m)


def test_bmm_small_any_layout(torch_exact) -> None:
    """torch's own bmm loop (n * k * m < 400): plain sequential sums, strides do not matter."""
    rng = np.random.default_rng(4)
    for batch in ((1,), (2,), (2, 2), (2, 4)):
        for n in (1, 2, 6):
            for k in range(1, 9):
                for m in (1, 2, 6, 8):
                    q, key = _randn(rng, *batch, n, k), _randn(rng, *batch, m, k)
                    ours = matmul_f32(q, np.swapaxes(key, -1, -2))
                    theirs = (_t(q) @ _t(key).transpose(-1, -2)).numpy()
                    torch_exact.check(ours, theirs, (batch, n, k, m))


def test_matmul_masked_attention_pipeline(torch_exact) -> None:
    """scores -> causal -inf mask -> softmax -> @ values, as in the book's CausalAttention."""
    rng = np.random.default_rng(5)
    mask = np.triu(np.ones((6, 6), bool), k=1)
    for d_out in range(1, 9):
        q, k, v = (_randn(rng, 2, 6, d_out) for _ in range(3))
        scores = matmul_f32(q, np.swapaxes(k, 1, 2))
        tq, tk, tv = _t(q), _t(k), _t(v)
        t_scores = tq @ tk.transpose(1, 2)
        torch_exact.check(scores, t_scores.numpy())
        scaled = np.where(mask, F32(-np.inf), scores) / F32(np.sqrt(F32(d_out)))
        t_scaled = t_scores.masked_fill(torch.from_numpy(mask), -torch.inf) / d_out**0.5
        assert same_bits(scaled.astype(F32), t_scaled.numpy())  # one rounding each: any host
        weights = softmax_f32(scaled.astype(F32))
        t_weights = torch.softmax(t_scaled, dim=-1)
        torch_exact.check(weights, t_weights.numpy())
        torch_exact.check(matmul_f32(weights, v), (t_weights @ tv).numpy())


# --- linear ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("d_in", range(1, 12))
def test_linear_grid(torch_exact, d_in: int, bias: bool) -> None:
    rng = np.random.default_rng(300 + d_in + 50 * bias)
    for n in (1, 2, 3, 5, 6, 8, 12, 13):
        for d_out in range(1, 12):
            x, w = _randn(rng, n, d_in), _randn(rng, d_out, d_in)
            b = _randn(rng, d_out) if bias else None
            theirs = torch.nn.functional.linear(_t(x), _t(w), None if b is None else _t(b))
            scale = _magnitude(x, w.T) + (0 if b is None else np.abs(b))
            ours = linear_f32(x, w, b)
            if torchmath.linear_is_proven(n, d_in, d_out):
                torch_exact.check(ours, theirs.numpy(), (n, d_in, d_out), scale=scale)
            else:
                assert within_ulps(ours, theirs.numpy(), scale), (n, d_in, d_out)


@pytest.mark.parametrize("bias", [False, True])
def test_linear_batched_input(torch_exact, bias: bool) -> None:
    """nn.Linear on [batch, tokens, d_in]: torch flattens to one mm/addmm (12 rows, inside both
    profiles' domains for these widths)."""
    rng = np.random.default_rng(6)
    for d_in in range(1, 9):
        for d_out in range(1, 9):
            assert torchmath.linear_is_proven(12, d_in, d_out)
            x, w = _randn(rng, 2, 6, d_in), _randn(rng, d_out, d_in)
            b = _randn(rng, d_out) if bias else None
            theirs = torch.nn.functional.linear(_t(x), _t(w), None if b is None else _t(b))
            torch_exact.check(linear_f32(x, w, b), theirs.numpy(), (d_in, d_out))


# --- softmax --------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [*range(1, 65), 100, 257])
def test_softmax_rows(torch_exact, length: int) -> None:
    rng = np.random.default_rng(400 + length)
    for scale in (0.3, 8.0):
        x = _randn(rng, 12, length, scale=scale)
        torch_exact.check(softmax_f32(x), torch.softmax(_t(x), dim=-1).numpy())
        masked = np.where(rng.random(x.shape) < 0.5, F32(-np.inf), x)
        masked[:, rng.integers(length)] = x[:, 0]  # keep one finite entry per row
        torch_exact.check(softmax_f32(masked), torch.softmax(_t(masked), dim=-1).numpy())


def test_softmax_causal_and_degenerate_rows(torch_exact) -> None:
    rng = np.random.default_rng(7)
    for t in (1, 6, 9, 33):
        x = _randn(rng, 2, 4, t, t, scale=3.0)
        x[..., np.triu(np.ones((t, t), bool), k=1)] = -np.inf
        torch_exact.check(softmax_f32(x, axis=3), torch.softmax(_t(x), dim=-1).numpy())
    special = np.array(
        [[-np.inf] * 6, [0.0] * 6, [88.0, -88.0, 0, 1, 2, 3], [1e-30, -1e30, 1e30, 0, 0, 0]], F32
    )
    torch_exact.check(softmax_f32(special), torch.softmax(_t(special), dim=-1).numpy())


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
