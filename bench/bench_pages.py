"""Every page's server time for a rerun after a control change (median, p95; warm cache) and
its first run; target (issue 25): the warm median at most 10× a bare Streamlit script's rerun
(:data:`bench.pages.BARE`), timed in the same process in turn with each page's reruns:
``*_rerun_vs_bare``.

Each token page is timed twice: on the book's sentence, and with a 32-token sentence set (the
most ``core.sentence`` allows), where its figures are largest (``page_<name>_32tok_*``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bench import Figure
from bench.pages import bare_rerun, rerun_times
from topics import PAGES

# The control a reader moves most on each page, and two values to move it between.
CHANGES: dict[str, tuple[str | None, tuple[object, ...]]] = {
    "overview": (None, ()),
    "recap": ("query", ("step", "journey")),
    "three-matrices": ("mode", ("tied", "three")),
    "learning-to-attend": ("learn_step", (2500, 5000)),
    "divide-by-sqrt-dk": ("d_k", (768, 64)),
    "masking": ("stage", (2, 4)),
    "dropout": ("p", (0.3, 0.5)),
    "multi-head": ("heads", (4, 2)),
    "n-squared": ("n", (1024, 1047576)),
    "what-comes-next": ("kv_tokens", (2048, 1024)),
}
# 32 tokens with repeats (step, to), keeping "journey" and "step" for Recap's control change.
SENTENCE_32 = (
    "Your journey starts with one step and every step after it teaches the model where to look so "
    "each token learns which earlier words matter most to what comes next in order"
)


def run(quick: bool) -> Iterable[Figure]:
    repeats = 9 if quick else 31
    bare, bare_cpu = bare_rerun()
    yield Figure("page_bare_rerun_median", bare * 1e3, "ms")
    yield Figure("page_bare_rerun_cpu_median", bare_cpu * 1e3, "ms")
    # Each page's ratio is to the yardstick timed in turn with it, rerun for rerun: on a shared
    # machine the bare rerun itself moves by half between the start and the end of a run.
    for info in PAGES:
        key, values = CHANGES.get(info.url_path, (None, ()))
        timing = rerun_times(info.path, key, values, repeats, interleave=True)
        yield from timing.figures(f"page_{info.url_path.replace('-', '_')}")
    for info in PAGES:
        if "text" not in info.keys:
            continue
        key, values = CHANGES.get(info.url_path, (None, ()))
        timing = rerun_times(info.path, key, values, repeats, query={"text": SENTENCE_32}, interleave=True)
        yield from timing.figures(f"page_{info.url_path.replace('-', '_')}_32tok")
    again, _ = bare_rerun()  # the machine's load may have moved: the yardstick again, at the end
    yield Figure("page_bare_rerun_median_at_end", again * 1e3, "ms")
