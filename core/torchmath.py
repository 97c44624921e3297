"""PyTorch's float32 CPU arithmetic for chapter 3, reproduced bit for bit in NumPy.

Floating-point addition is not associative, so "the same" matmul or softmax gives different last
bits depending on the order in which a kernel adds things up. To show the book's numbers exactly,
this module replays the orders used by PyTorch 2.13 (MKL BLAS) on x86-64. Those orders depend on
the CPU: ATen and MKL pick their kernels by instruction set when the process starts. Two kernel
profiles are modelled, selected by :func:`set_profile` / :func:`use_profile` or the ``profile``
argument:

- ``"avx2"`` (:data:`DEFAULT_PROFILE`, what the app displays): torch reporting CPU capability
  AVX2, fitted on that host. Softmax runs ATen's 8-lane ``Vectorized<float>``; MKL's AVX2 kernels
  sum in lanes of 4 and 8 with peeled heads.
- ``"avx512"``: torch reporting CPU capability AVX512, fitted on an Intel Xeon with AVX-512 (and
  AMX) running the oneAPI MKL 2024.2 bundled with torch 2.13.0+cpu. Softmax runs 16-lane vectors;
  MKL's small sgemm is mostly one FMA chain per output, with a 16-lane dot kernel for thin
  ``x @ w.T`` and 16/8-lane sgemv.

A mix (``ATEN_CPU_CAPABILITY=avx2`` or ``MKL_ENABLE_INSTRUCTIONS=AVX2`` on an AVX-512 host; MKL's
AVX2 code path there did not match the ``"avx2"`` profile either) is neither profile.

The orders were found by probing torch (one huge +x / -x pair in a row of ones tells which partial
sums meet first: the result counts the ones added after the pair cancelled) and confirmed with
``np.array_equal`` against torch on random inputs (``tests/core/test_torchmath.py``, which picks
the profile matching its host by calibration). Every product and sum is rounded to float32 one at
a time, which NumPy float32 arithmetic already does; a fused multiply-add (FMA) is emulated
exactly. Whether a step is fused cannot be seen in the probes (sums of ones); random inputs
settled it.

Proven bit-exact domain (outside it the functions compute the same math in a nearby summation
order, so results agree with torch to rounding error but not necessarily bit for bit);
:func:`mm_is_proven`, :func:`linear_is_proven` and :func:`bmm_is_proven` state the same for code.

Under both profiles:

- The book's shapes: ``SelfAttention_v1`` / ``v2`` and ``CausalAttention`` (6 tokens, d_in 3,
  d_out 2), ``MultiHeadAttentionWrapper`` and ``MultiHeadAttention`` (``out_proj`` with its bias)
  on the book's batch of 2 × 6 tokens with ``d_in`` and ``d_out`` up to 8 and up to 16 heads,
  exercise 3.2 (``d_out = 1``) and the dropout run of section 3.5.2.
- ``matmul_f32``, batched operands (any side with more than two dims, except ``a`` with more dims
  than a 2-D ``b``): every shape with ``n * k * m < 400``, which covers all of the book's
  attention products (6 tokens, head widths up to 8): torch runs its own loop there, not MKL.
  Larger batched products go to MKL's batched gemm and are only approximated here (per matrix,
  like ``mm``).
- ``linear_f32``: as the transposed ``mm`` below on the flattened input; the bias is added to the
  finished products (one exception under ``"avx512"``, see :func:`linear_f32`).
- ``softmax_f32``: last axis, any row length (checked 1..69, 100, 128, 257), rows may hold -inf.
- A transposed ``a`` is copied first (torch would pass it to MKL transposed: not modelled).

``"avx2"``, 2-D ``mm`` (output [n, m], inner size k):

- ``b`` C-contiguous: ``m`` in 2..11 for ``n <= 24, k <= 16`` and ``n <= 16, k <= 40``; ``m`` in
  {12, 16} for ``n <= 24, k <= 16``; ``m`` in 13..15 for ``n <= 24, k <= 7``; ``m == 1``
  (sgemv) for ``k <= 11`` or ``n % 4 == 0``.
- ``b`` a transposed view (F-contiguous, e.g. ``w.T``), which is what ``linear_f32`` uses: ``m``
  in 2..11 for ``n`` in 2..24 and ``k <= 16`` (``n <= 13`` up to ``k = 24``); ``n == 1`` or
  ``m == 1`` (sgemv) for ``k <= 11``. ``m >= 12`` is not modelled.
- MKL's AVX2 kernels peel elements until a 16-byte boundary, so two results depend on memory
  alignment; the models assume every operand starts 16-byte aligned, as freshly allocated torch
  tensors do.

``"avx512"``, 2-D ``mm``: every shape with ``n <= 32, k <= 40, m <= 40`` (the probed box) except

- ``b`` C-contiguous: ``m == 1`` with ``n >= 2`` (sgemv) needs ``k <= 32``.
- ``b`` a transposed view (``linear_f32``): sgemv (``n == 1`` or ``m == 1``) needs ``k <= 32``,
  and the dot kernel (``m`` in {2, 3} with ``n * m <= 30``; ``m`` in 4..11 with ``n < m`` and
  ``k <= m``) needs ``k <= 31``: longer sums start a second accumulator, not modelled.
- Every shape of the box was compared on random inputs, at several memory alignments for a
  sample (no dependence seen). Beyond it, 3,000 random shapes up to ``n = 64, k = m = 128``
  matched for C-contiguous ``b`` (except sgemv), and batched products past torch's own loop
  matched per matrix on 278 random shapes with ``n, k, m`` in 2..32: observed, not claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

_F32 = np.float32
_F64 = np.float64

# torch.bmm uses its own triple loop below this many multiply-adds per matrix
# (aten/src/ATen/native/LinearAlgebra.cpp, bmm_out_or_baddbmm_: contraction_size * res_rows * res_cols < 400).
_BMM_NAIVE_LIMIT = 400

# --- kernel profiles ------------------------------------------------------------------------

PROFILES: tuple[str, ...] = ("avx2", "avx512")
# The app's figures were fitted and checked on the AVX2 host; both profiles give the same 4 decimals.
DEFAULT_PROFILE = "avx2"
_profile = DEFAULT_PROFILE

# The box the AVX-512 orders were probed in (output [n, m], inner size k); see the module docstring.
_AVX512_BOX = (32, 40, 40)  # n, k, m


def get_profile() -> str:
    """The kernel profile used when a function is not given one."""
    return _profile


def _pick(profile: str | None) -> str:
    name = _profile if profile is None else profile
    if name not in PROFILES:
        raise ValueError(f"unknown kernel profile {name!r}; expected one of {PROFILES}")
    return name


def set_profile(profile: str) -> str:
    """Select the kernel profile for every later call (``"avx2"`` or ``"avx512"``); returns the old one.

    Process-wide, like torch's own dispatch: the oracle tests set the profile their host's torch
    matches, the app keeps :data:`DEFAULT_PROFILE`.
    """
    global _profile
    previous, _profile = _profile, _pick(profile)
    return previous


@contextmanager
def use_profile(profile: str) -> Iterator[str]:
    """``with use_profile("avx512"): ...`` runs the block under that profile, then restores the old one."""
    previous = set_profile(profile)
    try:
        yield _profile
    finally:
        set_profile(previous)


def _nt_dot_kernel(n: int, k: int, m: int) -> bool:
    """Whether MKL (AVX-512) computes ``a @ w.T`` with its SIMD dot kernel rather than FMA chains.

    Found by classifying every shape with ``n <= 32, k <= 40, m <= 40`` against the candidate
    orders: thin outputs (``m`` 2 or 3 and at most 30 entries), and ``m`` in 4..11 when the output
    is wider than tall and the contraction no longer than ``m``. sgemv shapes are decided first.
    """
    return (m <= 3 and n * m <= 30) or (4 <= m <= 11 and n < m and k <= m)


def mm_is_proven(n: int, k: int, m: int, *, transposed: bool = False, profile: str | None = None) -> bool:
    """Whether the 2-D product ``[n, k] @ [k, m]`` is inside the bit-exact domain of ``profile``.

    ``transposed``: ``b`` is a transposed view (``x @ w.T``, as in :func:`linear_f32`), which MKL
    runs with other kernels. The domains are the lists in the module docstring, as code, so the
    oracle tests can tell which comparisons must be exact.
    """
    if min(n, k, m) < 1:
        return False
    if _pick(profile) == "avx2":
        if transposed:
            if n == 1 or m == 1:
                return k <= 11
            return 2 <= m <= 11 and n <= 24 and (k <= 16 or (k <= 24 and n <= 13))
        if m == 1:
            return k <= 11 or n % 4 == 0
        if m <= 11:
            return (n <= 24 and k <= 16) or (n <= 16 and k <= 40)
        if m in (12, 16):
            return n <= 24 and k <= 16
        return m <= 15 and n <= 24 and k <= 7
    box_n, box_k, box_m = _AVX512_BOX
    if n > box_n or k > box_k or m > box_m:
        return False
    if (transposed and (n == 1 or m == 1)) or (not transposed and m == 1 and n > 1):
        return k <= 32  # sgemv: longer sums start a second accumulator (not modelled)
    if transposed and _nt_dot_kernel(n, k, m):
        return k <= 31  # the same for the dot kernel
    return True


def linear_is_proven(rows: int, in_features: int, out_features: int, *, profile: str | None = None) -> bool:
    """Whether :func:`linear_f32` on ``rows`` flattened input rows is bit-exact under ``profile``."""
    return mm_is_proven(rows, in_features, out_features, transposed=True, profile=profile)


def bmm_is_proven(n: int, k: int, m: int) -> bool:
    """Whether a batched product of ``[n, k] @ [k, m]`` matrices is bit-exact (torch's own loop)."""
    return n * k * m < _BMM_NAIVE_LIMIT


def _check_f32(x: np.ndarray, name: str, min_ndim: int) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype != _F32:
        raise ValueError(f"{name} must be float32, got {x.dtype}")
    if x.ndim < min_ndim:
        raise ValueError(f"{name} needs at least {min_ndim} dims, got shape {x.shape}")
    return x


# --- profile "avx2": MKL's AVX2 kernels -----------------------------------------------------


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


def _mm_nn_avx2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
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
        out = _fma_chain(a, b)
    return out


def _mm_nt_avx2(a: np.ndarray, w: np.ndarray) -> np.ndarray:
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


# --- profile "avx512": MKL's AVX-512 kernels ------------------------------------------------
# Every order below was read off the +x / -x probes and then confirmed bit for bit on random
# inputs; the FMA-or-not choice at each step was settled by the random inputs (the probes, sums of
# ones, cannot see it).


def _fma_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``acc = fma(a[:, t], b[t, :], acc)`` for t = 0..k-1 from +0: one FMA chain per output.

    MKL's AVX-512 sgemm for most small shapes (and the AVX2 kernels for wide outputs): it
    broadcasts ``a[i, t]`` against a row of ``b``, so each output sees its terms in order.
    """
    # [n, k], [k, m] -> [n, m]
    acc = np.zeros((a.shape[0], b.shape[1]), _F32)
    for t in range(a.shape[1]):
        acc = _fma(a[:, t : t + 1], b[t : t + 1, :], acc)
    return acc


def _fold(lanes: np.ndarray) -> np.ndarray:
    """Reduce SIMD lanes by halves: lane i + lane i + w/2, ..., then lane 0 + lane 1."""
    # [..., w] -> [...]
    while lanes.shape[-1] > 1:
        half = lanes.shape[-1] // 2
        lanes = lanes[..., :half] + lanes[..., half:]
    return lanes[..., 0]


def _lanes_fma(a: np.ndarray, b: np.ndarray, width: int, lane0: np.ndarray | None = None) -> np.ndarray:
    """``width`` lane accumulators: chunk after chunk of ``width`` terms is FMA'd into the lanes;
    a last partial chunk updates only the first lanes (a masked load). ``lane0`` seeds lane 0."""
    # [..., r], [..., r] -> [..., width]
    acc = np.zeros((*np.broadcast_shapes(a.shape[:-1], b.shape[:-1]), width), _F32)
    if lane0 is not None:
        acc[..., 0] = lane0
    r = a.shape[-1]
    for c in range(0, r, width):
        w = min(width, r - c)
        acc[..., :w] = _fma(a[..., c : c + w], b[..., c : c + w], acc[..., :w])
    return acc


def _dot16(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MKL's SIMD dot kernel for thin ``a @ w.T``: term t goes to lane t % 16, then the lanes fold.
    Proven for k <= 31; longer sums use a second accumulator in an order not modelled."""
    # [..., k], [..., k] -> [...]
    return _fold(_lanes_fma(a, b, 16))


def _gemv_quad(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sgemv for rows in groups of four: term 0 seeds lane 0, terms 1.. fill 16 lanes (one masked
    chunk if fewer than 16, else the whole chunks), the lanes fold; the leftover terms (< 16) go
    to 8 lanes seeded with that sum, the first 8 by FMA and the rest as rounded products, and
    fold again. Proven for k <= 32."""
    # [..., k], [..., k] -> [...]
    head = a[..., 0] * b[..., 0]
    r = a.shape[-1] - 1
    whole = r if r < 16 else r // 16 * 16
    s = _fold(_lanes_fma(a[..., 1 : 1 + whole], b[..., 1 : 1 + whole], 16, head))
    if whole == r:
        return s
    ta, tb = a[..., 1 + whole :], b[..., 1 + whole :]
    lanes = _lanes_fma(ta[..., :8], tb[..., :8], 8, s)
    rest = ta[..., 8:] * tb[..., 8:]
    lanes[..., : rest.shape[-1]] += rest
    return _fold(lanes)


def _gemv_single(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sgemv for a leftover row: terms 1.. in 16 lanes (masked last chunk), folded, then + term 0.
    Proven for k <= 32 (beyond, a pair or triple of leftover rows is summed differently)."""
    # [..., k], [..., k] -> [...]
    return _fold(_lanes_fma(a[..., 1:], b[..., 1:], 16)) + a[..., 0] * b[..., 0]


def _gemv_rows_avx512(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``a @ x`` with contiguous rows (sgemv "T"): rows in groups of four, then one at a time."""
    # [r, k], [k] -> [r]
    r, k = a.shape
    xb = np.broadcast_to(x, (r, k))
    r4 = r // 4 * 4
    return np.concatenate([_gemv_quad(a[:r4], xb[:r4]), _gemv_single(a[r4:], xb[r4:])]).astype(_F32)


def _gemv_cols_avx512(x: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``x @ b`` for one row ``x`` and row-major ``b`` (sgemv "N"), as MKL runs it for ``m >= 16``.

    Per block of 16 columns and 8 terms c..c+7, four accumulators take the term pairs (c, c+2),
    (c+1, c+3), (c+4, c+6) and (c+5, c+7), each the later term first and the earlier one by FMA;
    the running sum seeds the (c+4, c+6) one, and the block ends as
    ``((c+4, c+6) + (c+5, c+7)) + ((c, c+2) + (c+1, c+3))``. Leftover terms are FMA'd one by one;
    columns past the last 16 are plain FMA chains.
    """
    # [k], [k, m] -> [m]
    k, m = b.shape
    m16 = m // 16 * 16
    y = np.zeros(m16, _F32)
    c = 0
    while k - c >= 8:
        blk, xs = b[c : c + 8, :m16], x[c : c + 8]
        p0, p1, p5 = (_fma(xs[j], blk[j], xs[j + 2] * blk[j + 2]) for j in (0, 1, 5))
        p4 = _fma(xs[4], blk[4], _fma(xs[6], blk[6], y))
        y = (p4 + p5) + (p0 + p1)
        c += 8
    for t in range(c, k):
        y = _fma(x[t], b[t, :m16], y)
    return np.concatenate([y, _fma_chain(x[None, :], b[:, m16:])[0]])


def _mm_nn_avx512(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for C-contiguous ``b``: FMA chains, except sgemv for one output column (m == 1)
    and for one row with 16 or more columns."""
    # [n, k], [k, m] -> [n, m]
    n, m = a.shape[0], b.shape[1]
    if m == 1 and n > 1:
        return _gemv_rows_avx512(a, b[:, 0])[:, None]
    if n == 1 and m >= 16:
        return _gemv_cols_avx512(a[0], b)[None, :]
    return _fma_chain(a, b)


def _mm_nt_avx512(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``a @ w.T`` with ``w`` [m, k] row-major: sgemv when either side is one vector, the SIMD dot
    kernel for the thin shapes of :func:`_nt_dot_kernel`, FMA chains otherwise."""
    # [n, k], [m, k] -> [n, m]
    n, k = a.shape
    m = w.shape[0]
    if m == 1:
        return _gemv_rows_avx512(a, w[0])[:, None]
    if n == 1:
        return _gemv_rows_avx512(w, a[0])[None, :]
    if _nt_dot_kernel(n, k, m):
        return _dot16(a[:, None, :], w[None, :, :])
    return _fma_chain(a, np.ascontiguousarray(w.T))


# --- dispatch -------------------------------------------------------------------------------

_MM_KERNELS: dict[str, tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]] = {
    "avx2": (_mm_nn_avx2, _mm_nt_avx2),
    "avx512": (_mm_nn_avx512, _mm_nt_avx512),
}


def _mm(a: np.ndarray, b: np.ndarray, profile: str) -> np.ndarray:
    """``torch.mm`` on CPU: MKL sgemm, with ``b`` passed transposed when it is a transposed view."""
    # [n, k], [k, m] -> [n, m]
    nn, nt = _MM_KERNELS[profile]
    a = np.ascontiguousarray(a)
    # A transposed view has its columns contiguous. NumPy calls a [k, 1] view of a [1, k] row both
    # C- and F-contiguous, but torch reads its strides (1, k) as transposed: so ask the last stride.
    if b.flags.f_contiguous and not (b.flags.c_contiguous and b.strides[-1] == b.itemsize):
        return nt(a, b.T)
    return nn(a, np.ascontiguousarray(b))


def _bmm_naive(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``baddbmm_cpu_kernel``: ``acc = 0; acc += a[i, t] * b[t, j]`` in order, no FMA."""
    # [..., n, k], [..., k, m] -> [..., n, m]
    acc = np.zeros(np.broadcast_shapes((*a.shape[:-1], 1), (*b.shape[:-2], 1, b.shape[-1])), _F32)
    for t in range(a.shape[-1]):
        acc = acc + a[..., :, t : t + 1] * b[..., t : t + 1, :]
    return acc


def matmul_f32(a: np.ndarray, b: np.ndarray, *, profile: str | None = None) -> np.ndarray:
    """``torch.matmul(a, b)`` (``a @ b``) for float32 arrays of 2 or more dims, bit for bit.

    Mirrors at::matmul's dispatch: 2-D @ 2-D is ``mm`` (MKL sgemm); ``a`` with more dims times a
    2-D ``b`` is folded into one ``mm``; anything else broadcasts the batch dims and calls
    ``bmm``, which for small matrices runs torch's own sequential loop. A ``b`` that is a
    transposed view (``k.T``, ``w.T``) takes MKL's transposed path, as in torch. ``profile``
    picks the kernel orders (default: :func:`get_profile`).
    """
    name = _pick(profile)
    a = _check_f32(a, "a", 2)
    b = _check_f32(b, "b", 2)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"inner dimensions differ: {a.shape} @ {b.shape}")
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    if b.ndim == 2:
        if a.ndim == 2:
            return _mm(a, b, name)
        # [..., n, k] @ [k, m] -> fold into [(...) * n, k] @ [k, m]
        folded = _mm(np.ascontiguousarray(a).reshape(-1, k), b, name)
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
    out = np.stack([_mm(x, y, name) for x, y in zip(a_b, b_b, strict=True)])
    return out.reshape((*batch, n, m))


def linear_f32(
    x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None = None, *, profile: str | None = None
) -> np.ndarray:
    """``torch.nn.functional.linear(x, weight, bias)`` in float32, bit for bit.

    torch computes ``x @ weight.t()`` with ``weight`` [out, in] passed to sgemm transposed
    (``addmm`` when a bias is given, on the flattened input for 3-D ``x``); MKL adds the bias
    to the finished dot products, so the result is ``(x @ weight.T) + bias`` rounded twice.
    The exception (``"avx512"`` only): with a single input feature and at least a 2 × 2 output,
    the product is fused into the bias, ``fma(x, w, bias)``, rounded once.
    """
    name = _pick(profile)
    x = _check_f32(x, "x", 2)
    weight = _check_f32(weight, "weight", 2)
    if weight.ndim != 2 or weight.shape[1] != x.shape[-1]:
        raise ValueError(f"weight must be [out, {x.shape[-1]}], got {weight.shape}")
    out_features = weight.shape[0]
    # [..., in] -> [rows, in] @ [in, out] -> [..., out]
    flat = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
    weight = np.ascontiguousarray(weight)
    if bias is None:
        y = _MM_KERNELS[name][1](flat, weight)
    else:
        bias = _check_f32(bias, "bias", 1)
        if bias.shape != (out_features,):
            raise ValueError(f"bias must be [{out_features}], got {bias.shape}")
        rows = flat.shape[0]
        if name == "avx512" and flat.shape[1] == 1 and rows > 1 and out_features > 1:
            # One-term products: MKL's AVX-512 sgemm FMAs straight into the bias (probed).
            y = _fma(flat, weight.T, np.broadcast_to(bias, (rows, out_features)))
        else:
            y = _MM_KERNELS[name][1](flat, weight) + bias[None, :]
    return y.reshape((*x.shape[:-1], out_features))


def _fma(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray) -> np.ndarray:
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


# Sleef_expf8_u10 / Sleef_expf16_u10 (sleef xexpf, AVX2 / AVX-512 builds with FMA), which
# Vectorized<float>::exp() calls: the same operations, so one model serves both profiles.
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


# ATen's Vectorized<float> width: 8 lanes in the AVX2 build, 16 in the AVX-512 one.
_VEC_LANES = {"avx2": 8, "avx512": 16}


def _vec_reduce_all(
    x: np.ndarray, op: Callable[[np.ndarray, np.ndarray], np.ndarray], lanes: int
) -> np.ndarray:
    """``at::vec::reduce_all`` (aten/src/ATen/cpu/vec/functional_base.h) with ``lanes``-wide
    vectors: fewer than ``lanes`` values fold in order; otherwise ``lanes`` accumulators, a
    partial last vector updates the first lanes, and the lanes fold by halves (i, i + lanes/2),
    ..., (0, 1), as ``vec_reduce_all``'s shuffles do."""
    # [..., L] -> [...]
    size = x.shape[-1]
    if size < lanes:
        acc = x[..., 0]
        for i in range(1, size):
            acc = op(acc, x[..., i])
        return acc
    acc = x[..., :lanes].copy()
    d = lanes
    while d <= size - lanes:
        acc = op(acc, x[..., d : d + lanes])
        d += lanes
    if d < size:
        acc[..., : size - d] = op(acc[..., : size - d], x[..., d:size])
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = op(acc[..., :half], acc[..., half:])
    return acc[..., 0]


def _vec_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``vec::maximum``: NaN-propagating max."""
    return np.maximum(a, b)


def _vec_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a + b


def softmax_f32(x: np.ndarray, axis: int = -1, *, profile: str | None = None) -> np.ndarray:
    """``torch.softmax(x, dim=-1)`` in float32, bit for bit.

    Mirrors ``_vec_softmax_lastdim`` (aten/src/ATen/native/cpu/SoftMaxKernel.cpp): max by
    ``vec::reduce_all``, ``exp(x - max)`` by Sleef's vectorised expf (not torch.exp, which uses
    MKL's VML), the sum by ``reduce_all``, then ``e * (1 / sum)``. Rows with -inf (masked
    attention) give 0 there; a row of only -inf gives NaN, as in torch. Only the last axis is
    modelled: torch uses another kernel for inner axes. ``profile`` sets the vector width (8
    lanes for ``"avx2"``, 16 for ``"avx512"``); Sleef's expf is the same algorithm in both builds.
    """
    lanes = _VEC_LANES[_pick(profile)]
    x = _check_f32(x, "x", 1)
    if axis not in (-1, x.ndim - 1):
        raise ValueError(f"only the last axis is supported, got axis={axis} for {x.ndim} dims")
    if x.shape[-1] == 0:
        raise ValueError("softmax over an empty axis")
    with np.errstate(invalid="ignore", over="ignore"):
        peak = _vec_reduce_all(x, _vec_maximum, lanes)  # [...]
        e = _sleef_expf(x - peak[..., None])  # [..., L]
        inv = _F32(1) / _vec_reduce_all(e, _vec_add, lanes)  # [...]
        return (e * inv[..., None]).astype(_F32)
