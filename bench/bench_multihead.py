"""Figure 05's open question, measured: does one big projection beat H separate heads?

NumPy first (``topics.multihead.speed``): the wrapper's 3H projections of width head_dim against the
split class's 3 projections of width d_out plus its reshapes, same inputs, same total width,
no ``out_proj`` on either side. Then, where torch imports, the book's two PyTorch classes
(``core/reproduce/book_classes.py``) with ``out_proj`` replaced by the identity, for the same
comparison.

Prints a ratio table (speed-up = wrapper time / split time; above 1 the split class wins), the
BLAS library and thread counts, then one figure per cell. Also the page's server time for a
rerun after the head count moves with the GPT-2 small preset loaded (``bench.pages.rerun_times``,
warm cache; ``bench_pages`` moves the toy's head count, as ``page_multi_head_*``), the page's
first draw and forward at the GPT-2 preset (``topics.multihead.view.forward``, what its cache
holds), and last the headline answer: ``multihead.headline.*``, the
whole-forward speed-up at d = 768, H = 12, batch 1, n = 1,024 (NumPy, then torch if timed); a
grid without n = 1,024 uses its largest n and says so in the name (``..._n256``).

The page's Measure, programmatically (``multihead.page.measure_*``): :func:`page_measure` is one
press on a cache miss (the page's grid, its only and so its heaviest setting, under the heavy-work
budget); :func:`measuring` keeps pressing in a thread; :func:`rerun_while_measuring` times another
page's rerun idle and during it. In a browser the button is ``MEASURE_LABEL`` ("Measure"), key
``MEASURE_KEY`` (``mh_measure``, the element's class ``st-key-mh_measure``).
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Iterable, Iterator
from functools import partial

import numpy as np

from bench import Figure, best_of
from bench.pages import Timing as PageTiming
from bench.pages import rerun_times
from topics.multihead import speed, study, view
from topics.multihead.speed import Case, Timing
from ui import cache

FULL = dict(ns=(64, 256, 1024, 4096), heads=(1, 2, 4, 12, 16), batches=(1, 8))
QUICK = dict(ns=(64, 256), heads=(1, 12), batches=(1,))
D = 768
HEADLINE = dict(d=768, heads=12, batch=1, n=1024)  # GPT-2 small's shape, one sequence of 1,024 tokens


def _say(line: str = "") -> None:
    print(line, flush=True)


def _table(title: str, timings: list[Timing]) -> None:
    _say(f"# {title}: speed-up of the split class (wrapper time / split time); '-' = skipped (memory)")
    heads = sorted({t.case.heads for t in timings})
    _say("# " + f"{'batch':>5} {'n':>6} " + " ".join(f"{'H=' + str(h):>8}" for h in heads))
    for b, n in sorted({(t.case.batch, t.case.n) for t in timings}):
        cells = []
        for h in heads:
            t = next((t for t in timings if (t.case.batch, t.case.n, t.case.heads) == (b, n, h)), None)
            cells.append(f"{t.speedup:>7.2f}x" if t is not None and t.speedup is not None else f"{'-':>8}")
        _say("# " + f"{b:>5} {n:>6} " + " ".join(cells))


def _figures(prefix: str, timings: Iterable[Timing]) -> Iterator[Figure]:
    for t in timings:
        c = t.case
        cell = f"{prefix}.b{c.batch}.n{c.n}.H{c.heads}"
        if t.speedup is None or t.wrapper_s is None or t.split_s is None:  # skipped: both None
            yield Figure(f"{cell}.skipped_score_MiB", c.score_bytes / 2**20, "MiB")
            continue
        yield Figure(f"{cell}.wrapper", 1e3 * t.wrapper_s, "ms")
        yield Figure(f"{cell}.split", 1e3 * t.split_s, "ms")
        yield Figure(f"{cell}.speedup", t.speedup, "x")


def _torch_timings(cases: list[Case], repeat: int) -> tuple[list[Timing], str] | None:
    """The book's torch classes at matched width, out_proj made the identity; None without torch."""
    try:
        import torch

        from core.reproduce.book_classes import MultiHeadAttention, MultiHeadAttentionWrapper
    except ImportError:
        return None
    out = []
    for case in cases:
        if case.score_bytes > speed.MAX_SCORE_BYTES:
            out.append(Timing(case, "forward", None, None))
            continue
        torch.manual_seed(0)
        x = torch.randn(case.batch, case.n, case.d)
        wrapper = MultiHeadAttentionWrapper(case.d, case.head_dim, case.n, 0.0, case.heads).eval()
        split = MultiHeadAttention(case.d, case.d, case.n, 0.0, case.heads).eval()
        split.out_proj = torch.nn.Identity()
        with torch.inference_mode():
            wrapper(x), split(x)
            tw, ts = speed.paired_times(partial(wrapper, x), partial(split, x), repeat)
        out.append(Timing(case, "forward", tw, ts))
    return out, f"torch {torch.__version__}, {torch.get_num_threads()} intra-op threads"


def _headline(name: str, timings: list[Timing]) -> Iterator[Figure]:
    """The speed-up at the HEADLINE cell (or its largest n, named in the figure); none if skipped."""
    h = HEADLINE
    cells = [t for t in timings if (t.case.d, t.case.heads, t.case.batch) == (h["d"], h["heads"], h["batch"])]
    ns = {t.case.n for t in cells}
    n = h["n"] if h["n"] in ns else max(ns, default=None)
    t = next((t for t in cells if t.case.n == n), None)
    if t is None or t.speedup is None:
        _say(f"# {name}: no timing at d = {h['d']}, H = {h['heads']}, batch {h['batch']}, n = {n}")
        return
    yield Figure(name if n == h["n"] else f"{name}_n{n}", t.speedup, "x")


def _gpt2_page_rerun(reruns: int) -> Iterator[Figure]:
    """The page's rerun after the head count moves, GPT-2 small preset loaded from the URL."""
    from streamlit import config

    # The preset callback writes bound widgets through session state, as intended; silence the
    # once-per-process notice so the figures stay readable.
    config.set_option("global.disableWidgetStateDuplicationWarning", True)
    timing = rerun_times(
        "topics/multihead/page.py", "heads", (12, 6), reruns, query={"preset": "GPT-2 small"}
    )
    yield from timing.figures("multihead.page.gpt2_heads")


def run(quick: bool) -> Iterable[Figure]:
    grid = QUICK if quick else FULL
    repeat = 3 if quick else 5
    lib, threads = speed.blas_info()
    _say(f"# multihead: NumPy {np.__version__}, BLAS {lib}, threads {threads}")
    ns, hs, bs = grid["ns"], grid["heads"], grid["batches"]
    _say(f"# grid: d = {D}, n in {ns}, H in {hs}, batch in {bs}; fastest of >= {repeat} alternating rounds")
    cases = speed.grid(grid["ns"], grid["heads"], grid["batches"], D)
    forward: list[Timing] = []
    for mode in speed.MODES:
        timings = speed.measure(cases, mode, repeat=repeat, budget_s=1.0 if quick else 2.0)
        _table(f"NumPy, {mode}", timings)
        yield from _figures(f"multihead.numpy.{mode}", timings)
        if mode == "forward":
            forward = timings
    found = _torch_timings(cases, repeat)
    if found is None:
        _say("# torch not importable: the torch classes were not timed")
    else:
        timings, note = found
        _table(f"PyTorch classes ({note}), forward without out_proj", timings)
        yield from _figures("multihead.torch.forward", timings)
    yield from _page_measure(quick)
    yield from _gpt2_page_rerun(5 if quick else 20)
    yield Figure(
        "multihead.gpt2_split_init_and_forward",
        1e3 * best_of(_gpt2_cold, repeat=3),
        "ms",
    )
    # The question this module answers: does the single big matmul win? (above 1: yes)
    yield from _headline("multihead.headline.speedup_split_over_wrapper", forward)
    if found is not None:
        yield from _headline("multihead.headline.torch_speedup_split_over_wrapper", found[0])


# --- the page's Measure, programmatically (``bench interference`` may reuse these) ---------------

MEASURE_KEY, MEASURE_LABEL = "mh_measure", "Measure"  # the page's button (topics.multihead.stopwatch)


def page_measure() -> study.Measurement:
    """One press of the page's Measure as the server makes it on a cache miss: the page's grid (the
    only, hence heaviest, setting Measure has), timed by the plain body of the cached
    ``study.measure`` under the heavy-work budget. The plain body, so it always measures."""
    plain = cache.REGISTRY["topics.multihead.study.measure"].plain
    grid = (speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D, speed.PAGE_BUDGET_S)
    return plain(*grid, int(time.time() // speed.PAGE_REUSE_S))


@contextlib.contextmanager
def measuring() -> Iterator[list[study.Measurement]]:
    """Inside the block, presses of Measure run one after another in a thread (as a reader on the
    server would, pressing again as each finishes): the load another reader meets. Yields the
    measurements made so far."""
    done: list[study.Measurement] = []
    stop = threading.Event()

    def press() -> None:
        while not stop.is_set():
            done.append(page_measure())

    thread = threading.Thread(target=press, name="bench-measure", daemon=True)
    thread.start()
    try:
        time.sleep(0.5)  # past the warm-up, into the timing
        yield done
    finally:
        stop.set()
        thread.join()


def rerun_while_measuring(
    path: str, key: str, values: tuple[object, ...], repeats: int
) -> tuple[PageTiming, PageTiming]:
    """A page's warm reruns after a control change (``bench.pages.rerun_times``), idle and then
    while Measure runs: what another reader pays for a press (issue 25: at most 2×)."""
    idle = rerun_times(path, key, values, repeats)
    with measuring():
        busy = rerun_times(path, key, values, repeats)
    return idle, busy


def _page_measure(quick: bool) -> Iterator[Figure]:
    """The page's Measure button: its wall time against ``PAGE_BUDGET_S``, rounds per cell, its
    declared working set, a second press (the cache's hit), and another page's rerun during it."""
    cells = speed.page_cells(speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D)
    yield Figure("multihead.page.measure_working_set", speed.working_set(cells) / 2**20, "MiB")
    t0 = time.perf_counter()
    m = page_measure()
    yield Figure("multihead.page.measure_wall", time.perf_counter() - t0, "s")
    yield Figure("multihead.page.measure_budget", speed.PAGE_BUDGET_S, "s")
    yield Figure("multihead.page.measure_min_rounds", min(len(p.ratios) for p in m.results), "rounds")
    for mode in speed.MODES:
        _say(f"# page verdict, {mode}: " + speed.verdict([p for p in m.results if p.mode == mode]))
    args = (speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D, speed.PAGE_BUDGET_S, 0)
    study.measure(*args)  # the first press in a window fills the cache ...
    t0 = time.perf_counter()
    study.measure(*args)  # ... and the second reader's press reads it
    yield Figure("multihead.page.measure_second_press", 1e3 * (time.perf_counter() - t0), "ms")
    idle, busy = rerun_while_measuring("topics/masking/page.py", "stage", (2, 4), 5 if quick else 15)
    ratio = statistics.median(busy.wall_s) / statistics.median(idle.wall_s)
    yield Figure("multihead.page.measure_other_page_rerun_idle", 1e3 * statistics.median(idle.wall_s), "ms")
    yield Figure("multihead.page.measure_other_page_rerun_busy", 1e3 * statistics.median(busy.wall_s), "ms")
    yield Figure("multihead.page.measure_other_page_rerun_vs_idle", ratio, "x")


def _gpt2_cold() -> None:
    """What the page pays once per GPT-2 setting before its cache holds it: the view's forward."""
    g = view.Settings(preset="GPT-2 small", kind="split", d_in=768, d_out=768, heads=12)
    view.forward(g.kind, g.d_in, g.d_out, g.heads, g.seed, g.config.context_length, g.x)
