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

The Multi-head page's Measure button runs a small grid within a time budget
(:func:`measure_interleaved`, ``PAGE_*``); ``python -m bench multihead`` runs the large one.
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Mode = Literal["forward", "projections"]
MODES: tuple[Mode, ...] = ("forward", "projections")
MODE_TITLES: dict[Mode, str] = {
    "forward": "Whole forward (projections, scores, softmax, merge)",
    "projections": "Only what differs (projections and the head split/merge)",
}
MAX_ROUNDS = 100  # the most rounds measure_interleaved times: bounds a measurement's size
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


def make_inputs(case: Case, rng: np.random.Generator, like: Inputs | None = None) -> Inputs:
    """Random float32 inputs and weights (scaled like ``nn.Linear``'s ±1/√d), split per head.

    ``like``: inputs of a case with the same ``d`` and ``heads``, whose weights are reused (only
    ``x`` and the mask are new), so a grid over n holds one set of weights per head count."""
    b, n, d, hd = case.batch, case.n, case.d, case.head_dim
    x = rng.standard_normal((b, n, d), dtype=np.float32)
    neg_mask = np.triu(np.full((n, n), -np.inf, dtype=np.float32), k=1)
    if like is not None and like.w[0].shape == (d, d) and len(like.w_heads) == case.heads:
        return Inputs(x, like.w, like.w_heads, neg_mask)
    bound = 1.0 / math.sqrt(d)
    wq, wk, wv = (rng.uniform(-bound, bound, (d, d)).astype(np.float32) for _ in range(3))

    def head(m: np.ndarray, h: int) -> np.ndarray:
        return np.ascontiguousarray(m[:, h * hd : (h + 1) * hd])

    w_heads = tuple((head(wq, h), head(wk, h), head(wv, h)) for h in range(case.heads))
    return Inputs(x, (wq, wk, wv), w_heads, neg_mask)


def working_set(cells: Sequence[tuple[Case, Mode]]) -> int:
    """Bytes :func:`measure_interleaved` holds at its peak for ``cells``: every case's inputs (one
    set of weights per width and head count, shared across n and modes, as it builds them), and
    the largest call's temporaries (the split class's q, k, v, context and merged output, five
    ``[b, n, d]`` float32 arrays and one spare, and its ``[b, H, n, n]`` scores in forward mode).
    ``tests/multihead`` checks it against the peak ``tracemalloc`` sees."""
    f32 = 4
    weights = {(c.d, c.heads): 2 * 3 * c.d * c.d * f32 for c, _ in cells}  # W and its per-head copies
    per_case = {c: c.batch * c.n * c.d * f32 + c.n * c.n * f32 for c, _ in cells}  # x, the mask
    calls = [6 * c.batch * c.n * c.d * f32 + (c.score_bytes if m == "forward" else 0) for c, m in cells]
    return sum(weights.values()) + sum(per_case.values()) + max(calls, default=0)


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


# --- the page's stopwatch: paired, interleaved timings with a confidence interval ------------

# Student's t, 97.5th percentile, for 1 to 10 degrees of freedom (a two-sided 95% interval).
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281)


def t975(df: int) -> float:
    """The 97.5th percentile of Student's t with ``df`` degrees of freedom.

    A table to 10, then the Cornish–Fisher expansion around the normal's 1.95996 (Abramowitz
    and Stegun 26.7.5), within 1e-3 of the exact value from 11 on (the tests check it against
    SciPy). No SciPy at run time: the app ships with NumPy alone.
    """
    if df < 1:
        raise ValueError(f"a t interval needs at least 1 degree of freedom (2 rounds), got {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


@dataclass(frozen=True)
class Interval:
    """A speed-up (wrapper time / split time) with its 95% confidence interval."""

    ratio: float  # geometric mean over the rounds
    lo: float
    hi: float
    rounds: int

    @property
    def verdict(self) -> Literal["faster", "slower", "cannot tell"]:
        """Which class is faster, only when the whole interval sits on one side of 1."""
        return "faster" if self.lo > 1 else "slower" if self.hi < 1 else "cannot tell"


def interval(ratios: Sequence[float]) -> Interval | None:
    """The t interval on the log ratios, mapped back: ``None`` with fewer than two rounds.

    Logs, because a ratio of times is multiplicative noise: 2× and 0.5× are equally far from 1.
    """
    r = np.asarray(ratios, dtype=np.float64)
    if r.size < 2 or not np.all(np.isfinite(r) & (r > 0)):
        return None
    logs = np.log(r)
    half = t975(r.size - 1) * float(np.std(logs, ddof=1)) / np.sqrt(r.size)
    m = float(np.mean(logs))
    return Interval(float(np.exp(m)), float(np.exp(m - half)), float(np.exp(m + half)), int(r.size))


Calls = tuple[list[float], list[float]]  # one cell's wrapper and split call times


@dataclass(frozen=True)
class Paired:
    """One cell timed in ABBA blocks (wrapper, split, split, wrapper), interleaved with the others."""

    case: Case
    mode: Mode
    ratios: tuple[float, ...]  # one per block: (both wrapper times) / (both split times)
    wrapper_s: float | None  # median seconds per call
    split_s: float | None

    @property
    def interval(self) -> Interval | None:
        return interval(self.ratios)


def measure_interleaved(
    cells: Sequence[tuple[Case, Mode]],
    budget_s: float,
    *,
    seed: int = 0,
    max_rounds: int = MAX_ROUNDS,
    progress: Callable[[int, int, float], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Paired]:
    """Time every cell in rounds until ``budget_s`` is spent: round r runs one ABBA block of each.

    Pairing (wrapper and split back to back, ratio per block) cancels the machine's slow drifts;
    ABBA cancels a linear trend inside the block; interleaving the cells spreads each over the
    whole budget, so a burst of load hits many cells a little rather than one a lot. The budget
    is checked before every call, warm-up included, so the total is at most ``budget_s`` plus
    one call. ``progress(cell, round, elapsed)`` is called after each block.
    """
    rng = np.random.default_rng(seed)
    start = clock()
    runners = []
    made: dict[Case, Inputs] = {}  # a case's inputs serve both modes
    for case, mode in cells:
        if case not in made:
            like = next((i for c, i in made.items() if (c.d, c.heads) == (case.d, case.heads)), None)
            made[case] = make_inputs(case, rng, like)
        inp = made[case]
        runners.append(
            (
                lambda inp=inp, mode=mode: wrapper_numpy(inp, mode),
                lambda inp=inp, h=case.heads, mode=mode: split_numpy(inp, h, mode),
            )
        )
    ratios: list[list[float]] = [[] for _ in cells]
    calls: list[Calls] = [([], []) for _ in cells]
    for w, s in runners:  # warm-up: first-touch page faults, BLAS threads
        if clock() - start > budget_s:
            break
        w(), s()
    for r in range(max_rounds):
        for i, (w, s) in enumerate(runners):
            times = []
            for fn in (w, s, s, w):
                if clock() - start > budget_s:  # a block cut short is dropped, not counted
                    return _paired(cells, ratios, calls)
                t0 = clock()
                fn()
                times.append(clock() - t0)
            ratios[i].append((times[0] + times[3]) / (times[1] + times[2]))
            calls[i][0].extend((times[0], times[3]))
            calls[i][1].extend((times[1], times[2]))
            if progress is not None:
                progress(i, r, clock() - start)
    return _paired(cells, ratios, calls)


def _paired(
    cells: Sequence[tuple[Case, Mode]],
    ratios: list[list[float]],
    calls: list[tuple[list[float], list[float]]],
) -> list[Paired]:
    out = []
    for (case, mode), rs, (ws, ss) in zip(cells, ratios, calls, strict=True):
        w = float(np.median(ws)) if ws else None
        s = float(np.median(ss)) if ss else None
        out.append(Paired(case, mode, tuple(rs), w, s))
    return out


def _cell(p: Paired) -> str:
    iv = p.interval
    if iv is None:
        return f"n = {p.case.n:,}: {len(p.ratios)} round{'s' * (len(p.ratios) != 1)}, too few to tell"
    return f"n = {p.case.n:,}: {iv.ratio:.2f}× (95% interval {iv.lo:.2f}–{iv.hi:.2f}×, {iv.rounds} rounds)"


def verdict(results: Sequence[Paired]) -> str:
    """What the timings of one mode show, in words, from the intervals alone.

    The one-head cells are the control: both classes then do identical work, so their interval
    must include 1. If one does not, the noise on this machine is larger than the intervals
    admit, and the answer is "cannot tell on this machine" whatever the other cells say. Else the
    cells with the most heads decide: faster (every interval above 1), slower (every interval
    below 1), cannot tell (every interval includes 1), or it depends on n.
    """
    if not results:
        return "Nothing was measured."
    if all(p.interval is None for p in results):
        most = max(len(p.ratios) for p in results)
        return (
            f"Cannot tell on this machine: within the time budget it finished at most {most} "
            f"round{'s' * (most != 1)} per setting, and an interval needs two. The machine is busy "
            "or slow for this grid; `python -m bench multihead` takes its time."
        )
    control = [p for p in results if p.case.heads == 1]
    off = [(p, iv) for p in control if (iv := p.interval) is not None and iv.verdict != "cannot tell"]
    if off:
        return (
            "Cannot tell on this machine: with one head both classes do identical work, yet at "
            f"{'; '.join(_cell(p) for p, _ in off)} the split class measured "
            f"{off[0][1].verdict}. The noise here is larger than the intervals admit."
        )
    h = max(p.case.heads for p in results)
    many = sorted((p for p in results if p.case.heads == h), key=lambda p: p.case.n)
    if h == 1:
        return f"Only one head was timed: {'; '.join(_cell(p) for p in many)}."
    found = {p.interval.verdict if p.interval is not None else "cannot tell" for p in many}
    cells = "; ".join(_cell(p) for p in many)
    if found == {"faster"}:
        head = f"At H = {h} the split class (one big projection per role) is faster on this machine"
    elif found == {"slower"}:
        head = f"At H = {h} the split class (one big projection per role) is slower on this machine"
    elif found == {"cannot tell"}:
        head = f"At H = {h} this machine cannot tell the two classes apart"
    else:
        head = f"At H = {h} the answer depends on the sequence length"
    checked = (
        " The one-head control, where both do identical work, includes 1 at every n."
        if control and all(p.interval is not None for p in control)
        else ""
    )
    return f"{head}: {cells}.{checked}"


# The small grid the page measures behind its button (the benchmark runs the large one): the
# one-head control and GPT-2's twelve heads, at two lengths, within a fixed time budget.
PAGE_NS: tuple[int, ...] = (64, 256)
PAGE_HEADS: tuple[int, ...] = (1, 12)
PAGE_D = 768
PAGE_BUDGET_S = 4.0  # the whole button press, warm-up included: at most this plus one block
# One measurement serves every reader who presses Measure within this many seconds of wall clock
# (a window: ``int(time.time() // PAGE_REUSE_S)``); the first press in a new window measures again.
PAGE_REUSE_S = 600


def page_cells(ns: Sequence[int], heads: Sequence[int], d: int) -> list[tuple[Case, Mode]]:
    """The page's grid (``PAGE_NS``, ``PAGE_HEADS``, ``PAGE_D``), every mode of every case, batch
    1: what Measure times, in this order."""
    return [(case, mode) for mode in MODES for case in grid(ns, heads, (1,), d)]


def blas_info() -> tuple[str, str]:
    """The BLAS NumPy was built against and its thread count, as far as can be told.

    Thread counts come from threadpoolctl when it is installed, else from the environment
    variables BLAS libraries read at start-up; otherwise they are unknown (OpenBLAS then uses
    one thread per core).
    """
    try:
        deps = np.show_config(mode="dicts")["Build Dependencies"]
        blas = deps.get("blas", {})
        name = f"{blas.get('name', 'unknown')} {blas.get('version', '')}".strip()
    except Exception:  # an unusual NumPy build; the name is a nicety, not a number
        name = "unknown"
    try:  # optional, not in requirements.txt: imported by name, so no checker needs its stubs
        threadpoolctl = importlib.import_module("threadpoolctl")
    except ImportError:
        pass
    else:
        threads = ", ".join(
            f"{p['internal_api']}: {p['num_threads']}" for p in threadpoolctl.threadpool_info()
        )
        return name, threads or "unknown"
    for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        if os.environ.get(var):
            return name, f"{os.environ[var]} ({var})"
    return name, f"unknown (no threadpoolctl; OpenBLAS defaults to one per core: {os.cpu_count()})"


def rows(results: Sequence[Paired]) -> list[dict[str, object]]:
    """The page's table of measured times: one row per timed cell, medians in ms, the speed-up and
    its 95% interval."""
    out: list[dict[str, object]] = []
    for p in results:
        iv = p.interval
        out.append(
            {
                "mode": p.mode,
                "H": p.case.heads,
                "n": p.case.n,
                "rounds": len(p.ratios),
                "wrapper (ms, median)": None if p.wrapper_s is None else round(1e3 * p.wrapper_s, 3),
                "split (ms, median)": None if p.split_s is None else round(1e3 * p.split_s, 3),
                "speed-up": None if iv is None else round(iv.ratio, 2),
                "95% interval": "" if iv is None else f"{iv.lo:.2f}–{iv.hi:.2f}×",
                "verdict": "too few rounds" if iv is None else iv.verdict,
            }
        )
    return out
