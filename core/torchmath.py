"""PyTorch's float32 CPU arithmetic for chapter 3, reproduced bit for bit in NumPy.

Floating-point addition is not associative, so "the same" matmul or softmax gives different last
bits depending on the order in which a kernel adds things up. To show the book's numbers exactly,
this module replays the order used by PyTorch 2.13 (CPU capability AVX2, MKL BLAS) on x86-64.
The orders were found by probing torch (one huge +x / -x pair in a row of ones tells which partial
sums meet first) and confirmed with ``np.array_equal`` against torch on random inputs
(``tests/core/test_torchmath.py``). Every product and sum is rounded to float32 one at a time,
which NumPy float32 arithmetic already does; a fused multiply-add (FMA) is emulated exactly.

Proven bit-exact domain (outside it the functions compute the same math in a nearby summation
order, so results agree with torch to rounding error but not necessarily bit for bit):

- ``matmul_f32``, batched operands (any side with more than two dims, except ``a`` with more dims
  than a 2-D ``b``): every shape with ``n * k * m < 400``, which covers all of the book's
  attention products (6 tokens, head widths up to 8). Larger batched products go to MKL's
  batched gemm in torch and are only approximated here (per matrix, like ``mm``).
- ``matmul_f32`` with 2-D ``b`` (``mm``; ``a`` with more dims is folded into rows, as torch does),
  ``b`` C-contiguous, output [n, m], inner size k: ``m`` in 2..11 for ``n <= 24, k <= 16`` and
  ``n <= 16, k <= 40``; ``m`` in {12, 16} for ``n <= 24, k <= 16``; ``m`` in 13..15 only for
  ``k <= 7``; ``m == 1`` (sgemv) for ``k <= 11`` or ``n % 4 == 0``.
- ``matmul_f32`` with ``b`` a transposed view (F-contiguous, e.g. ``w.T``), which is what
  ``linear_f32`` uses: ``m`` in 2..11 for ``n`` in 2..24 and ``k <= 16`` (``n <= 13`` up to
  ``k = 24``); ``n == 1`` or ``m == 1`` (sgemv) for ``k <= 11``. ``m >= 12`` is not modelled.
  A transposed ``a`` is copied first (torch would pass it to MKL transposed: not modelled).
- ``linear_f32``: as the transposed ``mm`` above on the flattened input, bias added afterwards.
- ``softmax_f32``: last axis, any row length (checked 1..69, 100, 128, 257), rows may hold -inf.

MKL's kernels peel elements until a 16-byte boundary, so two results depend on memory alignment;
the models assume every operand starts 16-byte aligned, as freshly allocated torch tensors do.
"""

from __future__ import annotations

import numpy as np

_F32 = np.float32
_F64 = np.float64

# torch.bmm uses its own triple loop below this many multiply-adds per matrix
# (aten/src/ATen/native/LinearAlgebra.cpp, bmm_out_or_baddbmm_: contraction_size * res_rows * res_cols < 400).
_BMM_NAIVE_LIMIT = 400


def _check_f32(x: np.ndarray, name: str, min_ndim: int) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype != _F32:
        raise ValueError(f"{name} must be float32, got {x.dtype}")
    if x.ndim < min_ndim:
        raise ValueError(f"{name} needs at least {min_ndim} dims, got shape {x.shape}")
    return x


def _seq_sum(p: np.ndarray) -> np.ndarray:
    """Sum the last axis one term at a time from +0, each step rounded to float32."""
    # [..., k] -> [...]
    acc = np.zeros(p.shape[:-1], _F32)
    for t in range(p.shape[-1]):
        acc = acc + p[..., t]
    return acc


def _lane_dot(p: np.ndarray, head: int, width: int) -> np.ndarray:
    """A SIMD dot product: ``head`` terms summed in order, then ``width`` lane accumulators.

    The head sum joins lane 0, the lanes are folded in halves (lane i + lane i + width/2, ...),
    and the leftover terms are added one by one. With fewer than ``width`` terms after the head
    the whole sum is sequential. This is the order of MKL's small sgemm/sgemv kernels.
    """
    # [..., k] -> [...]
    k = p.shape[-1]
    if k - head < width:
        return _seq_sum(p)
    kw = (k - head) // width * width
    lanes = p[..., head : head + width].copy()
    if head:
        lanes[..., 0] = _seq_sum(p[..., :head]) + lanes[..., 0]
    for c in range(head + width, head + kw, width):
        lanes = lanes + p[..., c : c + width]
    while lanes.shape[-1] > 1:
        half = lanes.shape[-1] // 2
        lanes = lanes[..., :half] + lanes[..., half:]
    acc = lanes[..., 0]
    for t in range(head + kw, k):
        acc = acc + p[..., t]
    return acc


def _split_half_sum(p: np.ndarray) -> np.ndarray:
    """MKL's order for the elements it peels to reach an aligned output: per block of 8 terms,
    the first 4 go into the running sum, the last 4 are summed apart and then added; a last
    partial block is added one by one."""
    # [..., k] -> [...]
    k = p.shape[-1]
    run = np.zeros(p.shape[:-1], _F32)
    for c in range(0, k, 8):
        if c + 8 > k:
            for t in range(c, k):
                run = run + p[..., t]
            break
        for t in range(c, c + 4):
            run = run + p[..., t]
        part = p[..., c + 4]
        for t in range(c + 5, c + 8):
            part = part + p[..., t]
        run = run + part
    return run


def _gemv_rows(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """MKL sgemv order for ``a @ x`` with contiguous rows: rows in groups of four use a head of
    ``(k - 1) % 4 + 1`` terms plus 4 lanes; the leftover rows sum in order."""
    # [r, k], [k] -> [r]
    r, _ = a.shape
    p = a * x[None, :]
    out = _seq_sum(p)
    r4 = r // 4 * 4
    if r4:
        out[:r4] = _lane_dot(p[:r4], (a.shape[1] - 1) % 4 + 1, 4)
    return out


def _mm_nn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for C-contiguous ``b``: MKL sums each output in order, except the elements of a
    row it peels to reach a 16-byte boundary of the output, which use ``_split_half_sum``."""
    # [n, k], [k, m] -> [n, m]
    n, k = a.shape
    m = b.shape[1]
    if m == 1:
        return _gemv_rows(a, b[:, 0])[:, None]
    p = a[:, None, :] * b.T[None, :, :]  # [n, m, k] products
    out = _seq_sum(p)
    if k >= 8 and m < 12:
        for i in range(n):
            peel = -(i * m) % 4
            if peel and m - peel >= 4:
                out[i, :peel] = _split_half_sum(p[i, :peel])
    elif m >= 12 and n >= 4:  # larger outputs: sequential FMA (seen for k <= 4; not proven)
        acc = np.zeros((n, m), _F32)
        for t in range(k):
            acc = _fma(a[:, t : t + 1], b[t : t + 1, :], acc)
        out = acc
    return out


def _mm_nt(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``a @ w.T`` with ``w`` [m, k] row-major (torch passes it to sgemm transposed): dot
    products along contiguous k. Rows of ``a`` start unaligned when ``i * k % 4 != 0``; MKL
    sums the peeled head in order. Output columns in groups of four use 4 lanes, the rest 8."""
    # [n, k], [m, k] -> [n, m]
    n, k = a.shape
    m = w.shape[0]
    if m == 1:
        return _gemv_rows(a, w[0])[:, None]
    if n == 1:
        return _gemv_rows(w, a[0])[None, :]
    p = a[:, None, :] * w[None, :, :]  # [n, m, k] products
    out = np.empty((n, m), _F32)
    m4 = m // 4 * 4
    for i in range(n):
        head = -(i * k) % 4
        if m4:
            out[i, :m4] = _lane_dot(p[i, :m4], head, 4)
        if m4 < m:
            out[i, m4:] = _lane_dot(p[i, m4:], head, 8)
    return out


def _mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``torch.mm`` on CPU: MKL sgemm, with ``b`` passed transposed when it is a transposed view."""
    # [n, k], [k, m] -> [n, m]
    a = np.ascontiguousarray(a)
    if b.flags.f_contiguous and not b.flags.c_contiguous:
        return _mm_nt(a, b.T)
    return _mm_nn(a, np.ascontiguousarray(b))


def _bmm_naive(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``baddbmm_cpu_kernel``: ``acc = 0; acc += a[i, t] * b[t, j]`` in order, no FMA."""
    # [..., n, k], [..., k, m] -> [..., n, m]
    acc = np.zeros(np.broadcast_shapes((*a.shape[:-1], 1), (*b.shape[:-2], 1, b.shape[-1])), _F32)
    for t in range(a.shape[-1]):
        acc = acc + a[..., :, t : t + 1] * b[..., t : t + 1, :]
    return acc


def matmul_f32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``torch.matmul(a, b)`` (``a @ b``) for float32 arrays of 2 or more dims, bit for bit.

    Mirrors at::matmul's dispatch: 2-D @ 2-D is ``mm`` (MKL sgemm); ``a`` with more dims times a
    2-D ``b`` is folded into one ``mm``; anything else broadcasts the batch dims and calls
    ``bmm``, which for small matrices runs torch's own sequential loop. A ``b`` that is a
    transposed view (``k.T``, ``w.T``) takes MKL's transposed path, as in torch.
    """
    a = _check_f32(a, "a", 2)
    b = _check_f32(b, "b", 2)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"inner dimensions differ: {a.shape} @ {b.shape}")
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if b.ndim == 2:
        if a.ndim == 2:
            return _mm(a, b)
        # [..., n, k] @ [k, m] -> fold into [(...) * n, k] @ [k, m]
        folded = _mm(np.ascontiguousarray(a).reshape(-1, k), b)
        return folded.reshape((*a.shape[:-1], m))
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError as err:
        raise ValueError(f"batch dims do not broadcast: {a.shape} @ {b.shape}") from err
    if n * k * m < _BMM_NAIVE_LIMIT:
        return _bmm_naive(a, b)
    # Larger batches go to MKL's batched gemm in torch; apply the 2-D model per matrix (not proven).
    a_b = np.broadcast_to(a, (*batch, n, k)).reshape(-1, n, k)
    b_b = np.broadcast_to(b, (*batch, k, m)).reshape(-1, k, m)
    out = np.stack([_mm(x, y) for x, y in zip(a_b, b_b, strict=True)])
    return out.reshape((*batch, n, m))


def linear_f32(x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """``torch.nn.functional.linear(x, weight, bias)`` in float32, bit for bit.

    torch computes ``x @ weight.t()`` with ``weight`` [out, in] passed to sgemm transposed
    (``addmm`` when a bias is given, on the flattened input for 3-D ``x``); MKL adds the bias
    to the finished dot products, so the result is ``(x @ weight.T) + bias`` rounded twice.
    """
    x = _check_f32(x, "x", 2)
    weight = _check_f32(weight, "weight", 2)
    if weight.ndim != 2 or weight.shape[1] != x.shape[-1]:
        raise ValueError(f"weight must be [out, {x.shape[-1]}], got {weight.shape}")
    out_features = weight.shape[0]
    # [..., in] -> [rows, in] @ [in, out] -> [..., out]
    flat = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
    y = _mm_nt(flat, np.ascontiguousarray(weight))
    if bias is not None:
        bias = _check_f32(bias, "bias", 1)
        if bias.shape != (out_features,):
            raise ValueError(f"bias must be [{out_features}], got {bias.shape}")
        y = y + bias[None, :]
    return y.reshape((*x.shape[:-1], out_features))


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Fused multiply-add ``a * b + c`` with one float32 rounding (``_mm256_fmadd_ps``).

    ``a * b`` is exact in float64; the float64 sum can round onto a float32 halfway point, so
    that case is settled with the exact TwoSum error to avoid double rounding.
    """
    a64, b64, c64 = (np.asarray(v, _F32).astype(_F64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        prod = a64 * b64
        total = prod + c64
        bv = total - prod
        err = (prod - (total - bv)) + (c64 - bv)
        near = total.astype(_F32)
        near64 = near.astype(_F64)
        diff = total - near64
        toward = np.where(diff > 0, _F32(np.inf), _F32(-np.inf)).astype(_F32)
        other = np.nextafter(near, toward)
        halfway = (diff != 0) & (diff == (other.astype(_F64) - near64) / 2) & (err != 0)
        beyond = np.sign(err) == np.sign(diff)
        return np.where(halfway & beyond, other, near).astype(_F32)


# Sleef_expf8_u10 (sleef xexpf, AVX2 build with FMA), which Vectorized<float>::exp() calls.
_R_LN2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = _F32(0.693145751953125)
_L2L = _F32(1.428606765330187045e-06)
_EXP_POLY = tuple(
    _F32(v)
    for v in (
        0.000198527617612853646278381,
        0.00139304355252534151077271,
        0.00833336077630519866943359,
        0.0416664853692054748535156,
        0.166666671633720397949219,
        0.5,
    )
)


def _pow2i(q: np.ndarray) -> np.ndarray:
    """``2**q`` built from exponent bits, as sleef's ``vpow2i_vf_vi2``."""
    return (((q + 127) << 23) & 0xFFFFFFFF).astype(np.uint32).view(_F32)


def _sleef_expf(d: np.ndarray) -> np.ndarray:
    """Sleef's u10 single-precision exp: Cody-Waite reduction by ln 2, degree-7 polynomial."""
    d = np.asarray(d, _F32)
    with np.errstate(all="ignore"):
        qf = d * _R_LN2
        q = np.rint(np.where(np.isfinite(qf), qf, _F32(0))).astype(np.int64)
        qv = q.astype(_F32)
        s = _fma(qv, -_L2U, d)
        s = _fma(qv, -_L2L, s)
        u = np.full(d.shape, _EXP_POLY[0], _F32)
        for coef in _EXP_POLY[1:]:
            u = _fma(u, s, np.full(d.shape, coef, _F32))
        u = _F32(1) + _fma(s * s, u, s)
        u = (u * _pow2i(q >> 1)) * _pow2i(q - (q >> 1))
        u = np.where(d < _F32(-104), _F32(0), u)
        u = np.where(d > _F32(100), _F32(np.inf), u)
        u = np.where(np.isnan(d), d, u)  # NaN passes through (x86 default NaN from -inf - -inf)
    return u.astype(_F32)


def _vec_reduce_all(x: np.ndarray, op) -> np.ndarray:
    """``at::vec::reduce_all`` with 8-lane ``Vectorized<float>``: fewer than 8 values fold in
    order; otherwise 8 lane accumulators, a partial last vector updates the first lanes, and the
    lanes fold as (i, i+4), then (i, i+2), then (0, 1)."""
    # [..., L] -> [...]
    size = x.shape[-1]
    if size < 8:
        acc = x[..., 0]
        for i in range(1, size):
            acc = op(acc, x[..., i])
        return acc
    acc = x[..., :8].copy()
    d = 8
    while d <= size - 8:
        acc = op(acc, x[..., d : d + 8])
        d += 8
    if d < size:
        acc[..., : size - d] = op(acc[..., : size - d], x[..., d:size])
    acc = op(acc[..., :4], acc[..., 4:])
    acc = op(acc[..., :2], acc[..., 2:])
    return op(acc[..., 0], acc[..., 1])


def _vec_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``vec::maximum``: NaN-propagating max."""
    return np.maximum(a, b)


def _vec_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def softmax_f32(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """``torch.softmax(x, dim=-1)`` in float32, bit for bit.

    Mirrors ``_vec_softmax_lastdim`` (aten/src/ATen/native/cpu/SoftMaxKernel.cpp): max by
    ``vec::reduce_all``, ``exp(x - max)`` by Sleef's vectorised expf (not torch.exp, which uses
    MKL's VML), the sum by ``reduce_all``, then ``e * (1 / sum)``. Rows with -inf (masked
    attention) give 0 there; a row of only -inf gives NaN, as in torch. Only the last axis is
    modelled: torch uses another kernel for inner axes.
    """
    x = _check_f32(x, "x", 1)
    if axis not in (-1, x.ndim - 1):
        raise ValueError(f"only the last axis is supported, got axis={axis} for {x.ndim} dims")
    if x.shape[-1] == 0:
        raise ValueError("softmax over an empty axis")
    with np.errstate(invalid="ignore", over="ignore"):
        peak = _vec_reduce_all(x, _vec_maximum)  # [...]
        e = _sleef_expf(x - peak[..., None])  # [..., L]
        inv = _F32(1) / _vec_reduce_all(e, _vec_add)  # [...]
        return (e * inv[..., None]).astype(_F32)
