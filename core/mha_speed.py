"""Does one big projection sliced into heads beat H separate heads? A measurement, in NumPy.

The post leaves the question open (figure 05): at matched output width both classes hold the
same projection parameters and differ only in 3H matrix multiplications against 3, plus the
split class's reshapes. Here both are written as plain float32 NumPy on the same inputs and the
same weights, and timed. "wrapper" owns a separate ``[d, head_dim]`` matrix per head and role;
"split" multiplies by the ``[d, d]`` matrices those slices come from, then ``reshape`` /
``transpose`` into heads and ``ascontiguousarray(...).reshape`` back, as the book's
``.view / .transpose(1, 2) / .contiguous().view`` do. Neither applies ``out_proj``, which only
the split class has: the timing compares equal work.

Two modes: ``"forward"`` times the whole causal attention (projections, scores, mask, softmax,
weighted values, merge); ``"projections"`` times only the part that differs (projections and the
split/merge of heads), where the n² attention in the middle cannot hide the difference.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Mode = Literal["forward", "projections"]
MODES: tuple[Mode, ...] = ("forward", "projections")
MAX_SCORE_BYTES = 512 * 2**20  # the split class holds b·H·n² float32 scores at once; skip above this


@dataclass(frozen=True)
class Case:
    """One cell of the grid: ``batch`` sequences of ``n`` tokens, width ``d``, ``heads`` heads."""

    batch: int
    n: int
    d: int
    heads: int

    def __post_init__(self) -> None:
        for name in ("batch", "n", "d", "heads"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.d % self.heads:
            raise ValueError(f"d = {self.d} is not divisible by heads = {self.heads}; pick a divisor of d")

    @property
    def head_dim(self) -> int:
        return self.d // self.heads

    @property
    def score_bytes(self) -> int:
        """Bytes of the split class's float32 score tensor ``[b, H, n, n]`` (the wrapper's is 1/H)."""
        return 4 * self.batch * self.heads * self.n * self.n


@dataclass(frozen=True)
class Inputs:
    """The same input and the same weights for both classes, in the layout each one owns."""

    x: np.ndarray  # [b, n, d]
    w: tuple[np.ndarray, np.ndarray, np.ndarray]  # W_q, W_k, W_v, each [d, d]
    w_heads: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]  # per head: contiguous [d, hd] copies
    neg_mask: np.ndarray  # [n, n]: 0 on and below the diagonal, -inf above


def make_inputs(case: Case, rng: np.random.Generator) -> Inputs:
    """Random float32 inputs and weights (scaled like ``nn.Linear``'s ±1/√d), split per head."""
    b, n, d, hd = case.batch, case.n, case.d, case.head_dim
    x = rng.standard_normal((b, n, d), dtype=np.float32)
    bound = 1.0 / math.sqrt(d)
    w = tuple(rng.uniform(-bound, bound, (d, d)).astype(np.float32) for _ in range(3))
    w_heads = tuple(
        tuple(np.ascontiguousarray(m[:, h * hd : (h + 1) * hd]) for m in w) for h in range(case.heads)
    )
    neg_mask = np.triu(np.full((n, n), -np.inf, dtype=np.float32), k=1)
    return Inputs(x, w, w_heads, neg_mask)  # type: ignore[arg-type]


def causal_attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, neg_mask: np.ndarray) -> np.ndarray:
    """Scaled causal attention over the last two axes, in place where it can be.

    ``[..., n, hd]`` three times -> ``[..., n, hd]``; the same code serves one head (the
    wrapper's loop) and every head at once (the split class), so the two differ only in layout.
    """
    scores = q @ np.swapaxes(k, -1, -2)  # [..., n, n]
    scores *= np.float32(1.0 / math.sqrt(k.shape[-1]))
    scores += neg_mask
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores @ v


def wrapper_numpy(inp: Inputs, mode: Mode = "forward") -> np.ndarray:
    """H heads, each with its own three ``[d, head_dim]`` projections; outputs concatenated."""
    outs = []
    for wq, wk, wv in inp.w_heads:
        q, k, v = inp.x @ wq, inp.x @ wk, inp.x @ wv  # [b, n, hd] each, 3 matmuls per head
        outs.append(causal_attend(q, k, v, inp.neg_mask) if mode == "forward" else v)
    return np.concatenate(outs, axis=-1)  # H × [b, n, hd] -> [b, n, d]


def split_numpy(inp: Inputs, heads: int, mode: Mode = "forward") -> np.ndarray:
    """Three ``[d, d]`` projections, ``view`` + ``transpose(1, 2)`` into heads, and back."""
    b, n, d = inp.x.shape
    hd = d // heads
    wq, wk, wv = inp.w
    q, k, v = (
        (inp.x @ m).reshape(b, n, heads, hd).transpose(0, 2, 1, 3)  # [b, n, d] -> [b, H, n, hd]
        for m in (wq, wk, wv)
    )
    context = causal_attend(q, k, v, inp.neg_mask) if mode == "forward" else v
    return np.ascontiguousarray(context.transpose(0, 2, 1, 3)).reshape(b, n, d)  # -> [b, n, d]


def best_time(fn: Callable[[], object], repeat: int = 3, budget_s: float = 2.0) -> float:
    """Fastest of up to ``repeat`` calls, in seconds; stops early once ``budget_s`` is spent.

    The minimum, not the mean: on a shared machine the noise only ever adds time.
    """
    best = math.inf
    spent = 0.0
    for _ in range(max(1, int(repeat))):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best, spent = min(best, dt), spent + dt
        if spent > budget_s:
            break
    return best


def paired_times(
    f: Callable[[], object], g: Callable[[], object], repeat: int = 5, budget_s: float = 2.0
) -> tuple[float, float]:
    """Fastest time of ``f`` and of ``g``, timed in alternation (f, g, g, f, f, g, ...).

    Alternating puts both under the same background load, so a burst from another process
    slows both instead of one; the ABBA order cancels a steady drift. At least ``repeat``
    rounds, more while the budget lasts (cheap calls get many tries), at most 50.
    """
    best_f = best_g = math.inf
    spent = 0.0
    for i in range(50):
        order = ((f, 0), (g, 1)) if i % 2 == 0 else ((g, 1), (f, 0))
        for fn, which in order:
            t0 = time.perf_counter()
            fn()
            dt = time.perf_counter() - t0
            spent += dt
            if which == 0:
                best_f = min(best_f, dt)
            else:
                best_g = min(best_g, dt)
        if i + 1 >= repeat and spent > budget_s:
            break
    return best_f, best_g


@dataclass(frozen=True)
class Timing:
    """One measured cell: seconds per forward for each class, or None when skipped."""

    case: Case
    mode: Mode
    wrapper_s: float | None
    split_s: float | None

    @property
    def speedup(self) -> float | None:
        """``wrapper time / split time``: above 1 means the single big matmul won."""
        if self.wrapper_s is None or self.split_s is None or self.split_s <= 0:
            return None
        return self.wrapper_s / self.split_s


def measure(
    cases: Sequence[Case],
    mode: Mode = "forward",
    *,
    repeat: int = 3,
    budget_s: float = 1.0,
    seed: int = 0,
    max_score_bytes: int = MAX_SCORE_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> list[Timing]:
    """Time both classes on every case: same inputs, a warm-up call each, then
    :func:`paired_times` (at least ``repeat`` alternating rounds, more within ``budget_s``).

    Cases whose split-class score tensor would exceed ``max_score_bytes`` are recorded as
    skipped (``None``) in ``"forward"`` mode rather than run: b·H·n² floats at once is the
    split class's memory price, and on a laptop it arrives before the time does.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    rng = np.random.default_rng(seed)
    out = []
    for i, case in enumerate(cases):
        if mode == "forward" and case.score_bytes > max_score_bytes:
            out.append(Timing(case, mode, None, None))
        else:
            inp = make_inputs(case, rng)

            def wrapper(inp: Inputs = inp) -> np.ndarray:
                return wrapper_numpy(inp, mode)

            def split(inp: Inputs = inp, h: int = case.heads) -> np.ndarray:
                return split_numpy(inp, h, mode)

            wrapper(), split()  # warm-up: first-touch page faults and BLAS thread start
            tw, ts = paired_times(wrapper, split, repeat, budget_s)
            out.append(Timing(case, mode, tw, ts))
        if progress is not None:
            progress(i + 1, len(cases))
    return out


def grid(ns: Iterable[int], heads: Iterable[int], batches: Iterable[int], d: int = 768) -> list[Case]:
    """Every (batch, n, heads) combination at width ``d``, heads that do not divide ``d`` left out."""
    return [Case(b, n, d, h) for b in batches for h in heads for n in ns if d % h == 0]


def summary(timings: Sequence[Timing]) -> str:
    """One sentence that says what the measured numbers show, written from the numbers."""
    done = [t for t in timings if t.speedup is not None]
    if not done:
        return "Nothing was measured: every setting was skipped."
    ups = np.array([t.speedup for t in done])
    wins = int(np.sum(ups > 1.0))
    lo, hi = min(done, key=lambda t: t.speedup), max(done, key=lambda t: t.speedup)  # type: ignore[arg-type,return-value]
    single = [t.speedup for t in done if t.case.heads == 1]
    parts = [
        f"The split class (one big projection per role) was faster in {wins} of {len(done)} settings",
        f"its speed-up ranged from {lo.speedup:.2f}× (H = {lo.case.heads}, n = {lo.case.n}) "
        f"to {hi.speedup:.2f}× (H = {hi.case.heads}, n = {hi.case.n})",
    ]
    many = [t for t in done if t.case.heads == max(c.case.heads for c in done)]
    if single and many and many[0].case.heads > 1:
        hmax = many[0].case.heads
        med = float(np.median([t.speedup for t in many]))
        lo1, hi1 = min(single), max(single)
        parts.append(
            f"with one head the two do the same work, so {lo1:.2f}–{hi1:.2f}× is this machine's noise, "
            f"and at H = {hmax} the median speed-up is {med:.2f}×"
        )
        if lo1 <= med <= hi1:
            parts.append(f"inside that band, so this run cannot tell the classes apart at H = {hmax}")
        else:
            verdict = "faster" if med > hi1 else "slower"
            parts.append(f"outside that band: at H = {hmax} the split class measured {verdict}")
    return "; ".join(parts) + "."


# The small grid the page measures behind its button (the benchmark runs the large one).
PAGE_NS: tuple[int, ...] = (64, 256, 1024)
PAGE_HEADS: tuple[int, ...] = (1, 2, 4, 12)
PAGE_D = 768


def blas_info() -> tuple[str, str]:
    """The BLAS NumPy was built against and its thread count, as far as can be told.

    Thread counts come from threadpoolctl when it is installed, else from the environment
    variables BLAS libraries read at start-up; otherwise they are unknown (OpenBLAS then uses
    one thread per core).
    """
    import os

    try:
        deps = np.show_config(mode="dicts")["Build Dependencies"]  # type: ignore[index]
        blas = deps.get("blas", {})
        name = f"{blas.get('name', 'unknown')} {blas.get('version', '')}".strip()
    except Exception:  # an unusual NumPy build; the name is a nicety, not a number
        name = "unknown"
    try:
        from threadpoolctl import threadpool_info

        threads = ", ".join(f"{p['internal_api']}: {p['num_threads']}" for p in threadpool_info())
        return name, threads or "unknown"
    except ImportError:
        pass
    for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        if os.environ.get(var):
            return name, f"{os.environ[var]} ({var})"
    return name, f"unknown (no threadpoolctl; OpenBLAS defaults to one per core: {os.cpu_count()})"
