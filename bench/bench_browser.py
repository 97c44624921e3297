"""Each page's control change in headless Chromium, as a multiple of a bare Streamlit app's.

Two servers run side by side (``bench.serve``): the app, and :data:`bench.pages.BARE` (a slider,
a title, a line of text) on its own. For each page, in a fresh tab:

- ``*_load``: from navigation to the page settled (:mod:`bench.clock`: the script run finished,
  every chart drawn, nothing changing for half a second; the quiet wait itself is not counted).
  The first visit of each page, so its caches may be cold.
- ``*_change``: the median wait after moving the page's most-moved control (``CHANGES`` in
  ``bench.bench_pages``; the Overview's colour scale, Read along's step), one step and back
  (:mod:`bench.moves`), ``WARM`` moves first untimed. ``*_change_vs_bare``: that median over the
  bare app's, measured the same way in the same run, before the pages (and again after them, to
  show how far the machine's load moved meanwhile). Beside each wall time, the server's
  CPU (``*_server_cpu``: the ``streamlit`` process, user + system) and the page's renderer main
  thread CPU (``*_browser_cpu``: Chrome's ``ThreadTime``, script, style, layout, paint) per move:
  on a shared machine the CPU times are the steadier figures, and ``*_vs_bare_cpu`` is the ratio
  of their sums. ``*_change_vs_bare_browser_cpu``: the page's renderer CPU per change over the bare
  app's, alone (issue 36: the browser's share of a change, the part a chart drawn anew inflates).
- ``*_focus`` (pages with a focus control, a key ending in ``focus``): the median wait after
  moving the focus between two tokens; ``*_focus_vs_change`` is the fragment rerun over the full
  rerun (issue 25: a focus click reruns only what shows the focus), ``*_focus_vs_change_cpu`` the
  same for CPU; ``*_focus_vs_bare`` (and its ``_cpu``, ``_browser_cpu``) the focus move over the
  bare app's change (issue 36's goal: within 3×).
- ``*_cls``: cumulative layout shift over the load and every move (:mod:`bench.cls`: the plain
  sum), ``*_cls_window`` the same shifts read as CLS is defined (the largest session window), and
  ``*_cls_beyond_shell``: that less ``browser_shell_cls``, the shift of Streamlit's multipage shell
  alone (:data:`bench.pages.SHELL`: the page links and one control in the sidebar, loaded the same
  way). At 1,400 px the shell's main column moves 300 px right as the sidebar arrives (0.21), on
  every page of every multipage app; what is beyond it is the page's own. ``*_load_cls`` and
  ``*_load_cls_beyond_shell``: the same over the load alone, before any move (a move can change
  what the page says, and text that lands more than 0.5 s after the move counts as a shift).
- ``browser_phone_*_load_cls``: each page's layout shift as it loads at 390 px, in the dark theme
  (:func:`phone_shifts`).
- ``*_slow_moves`` and ``*_slow_moves_with_spinner``: how many timed waits (the load included) took
  over 0.5 s, and in how many of them a spinner, a progress bar or Streamlit's "Running…" status
  widget showed within 0.5 s of the action.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from bench import Figure

WARM = 2  # untimed moves first: both values of the control computed once
FOCUS_TOKENS = (1, 2)  # a focus select box's options: "no focus", then the tokens; move between two
# Pages CHANGES leaves out: the Overview's colour scale, and Read along's step slider (the step is
# a URL key the page writes itself; the slider is an unbound control, keyed by nav.SLIDER_KEY).
BROWSER_KEYS = {"overview": "overview_scale", "read-along": "_read_along_step"}


def moved_key(url_path: str) -> str | None:
    from bench.bench_pages import CHANGES

    return CHANGES.get(url_path, (None, ()))[0] or BROWSER_KEYS.get(url_path)


@dataclass
class Moves:
    """Timed waits of one control's moves: wall seconds, server and browser CPU seconds each."""

    wall: list[float] = field(default_factory=list)
    server_cpu: list[float] = field(default_factory=list)
    browser_cpu: list[float] = field(default_factory=list)
    slow: int = 0
    slow_with_spinner: int = 0

    @property
    def cpu(self) -> float:
        """The median server CPU plus the median browser CPU of a move, in seconds."""
        return statistics.median(self.server_cpu) + statistics.median(self.browser_cpu)

    def vs(self, other: Moves, name: str) -> Iterator[Figure]:
        """This median wall time, and CPU time, as multiples of ``other``'s."""
        yield Figure(name, statistics.median(self.wall) / statistics.median(other.wall), "x")
        yield Figure(f"{name}_cpu", self.cpu / other.cpu, "x")
        browser = statistics.median(self.browser_cpu) / statistics.median(other.browser_cpu)
        yield Figure(f"{name}_browser_cpu", browser, "x")

    def figures(self, name: str) -> Iterator[Figure]:
        yield Figure(name, statistics.median(self.wall) * 1e3, "ms")
        yield Figure(f"{name}_server_cpu", statistics.median(self.server_cpu) * 1e3, "ms")
        yield Figure(f"{name}_browser_cpu", statistics.median(self.browser_cpu) * 1e3, "ms")


class Tab:
    """One page in its own tab, with the clock, the layout-shift observer and Chrome's metrics."""

    def __init__(self, context, server) -> None:
        self.page, self.server = context.new_page(), server
        self.cdp = context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")

    def thread_s(self) -> float:
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "ThreadTime")

    def load(self, url: str, moves: Moves) -> float:
        from bench import clock

        wait = clock.loaded(self.page, url)
        moves.slow += wait.slow
        moves.slow_with_spinner += wait.slow and wait.spinner_in_time
        return wait.seconds

    def time(self, action: Callable[[], None], moves: Moves) -> None:
        from bench import clock

        c0, t0 = self.server.cpu_s(), self.thread_s()
        wait = clock.timed(self.page, action)
        moves.wall.append(wait.seconds)
        moves.server_cpu.append(self.server.cpu_s() - c0)
        moves.browser_cpu.append(self.thread_s() - t0)
        moves.slow += wait.slow
        moves.slow_with_spinner += wait.slow and wait.spinner_in_time


def moved(tab: Tab, key: str, repeats: int, moves: Moves, indices: tuple[int, int] | None = None) -> Moves:
    from bench.moves import Mover

    mover = Mover(tab.page, key, indices)
    for _ in range(WARM):
        tab.time(mover, Moves())
    for _ in range(repeats):
        tab.time(mover, moves)
    return moves


def bare_moves(context, server, repeats: int) -> tuple[Moves, float]:
    """The bare app's slider moved; its cumulative layout shift over the load and the moves."""
    from bench.cls import layout_shift

    tab = Tab(context, server)
    moves = Moves()
    tab.load(server.url, Moves())
    moved(tab, "x", repeats, moves)
    shift = layout_shift(tab.page)
    tab.page.close()
    return moves, shift


def shell_shift(context, server) -> tuple[float, float]:
    """The multipage shell's cumulative layout shift over its load, and its largest session window."""
    from bench.cls import layout_shift, session_shift

    tab = Tab(context, server)
    tab.load(server.url, Moves())
    shift = layout_shift(tab.page), session_shift(tab.page)
    tab.page.close()
    return shift


def page_figures(context, server, info, repeats: int, bare: Moves, shell: float) -> Iterator[Figure]:
    from bench.cls import layout_shift, session_shift
    from tests.e2e.test_browser import page_url

    name = f"browser_{info.url_path.replace('-', '_')}"
    tab, change = Tab(context, server), Moves()
    yield Figure(f"{name}_load", tab.load(page_url(server, info), change) * 1e3, "ms")
    loaded = layout_shift(tab.page)
    yield Figure(f"{name}_load_cls", loaded, "")
    yield Figure(f"{name}_load_cls_beyond_shell", loaded - shell, "")
    key = moved_key(info.url_path)
    if key is not None:
        moved(tab, key, repeats, change)
        yield from change.figures(f"{name}_change")
        yield from change.vs(bare, f"{name}_change_vs_bare")
    focus = next((k for k in info.keys if k.endswith("focus")), None)
    if focus is not None:
        focused = moved(tab, focus, repeats, Moves(), FOCUS_TOKENS)
        yield from focused.figures(f"{name}_focus")
        yield from focused.vs(bare, f"{name}_focus_vs_bare")
        if change.wall:
            yield from focused.vs(change, f"{name}_focus_vs_change")
        change.slow += focused.slow
        change.slow_with_spinner += focused.slow_with_spinner
    shift = layout_shift(tab.page)
    yield Figure(f"{name}_cls", shift, "")
    yield Figure(f"{name}_cls_window", session_shift(tab.page), "")
    yield Figure(f"{name}_cls_beyond_shell", shift - shell, "")
    yield Figure(f"{name}_slow_moves", change.slow, "")
    yield Figure(f"{name}_slow_moves_with_spinner", change.slow_with_spinner, "")
    tab.page.close()


def phone_shifts(browser, server) -> Iterator[Figure]:
    """Each page's layout shift as it loads on a 390 px phone in the dark theme, one tab after
    another in one browser, as a reader walks the pages. A phone's sidebar starts closed, so
    Streamlit's shell does not move; the shift is the page's own, with Streamlit's placeholders."""
    from bench import clock, cls
    from tests.e2e.test_browser import page_url
    from topics import PAGES

    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    context.set_default_timeout(180_000)
    clock.install(context)
    cls.install(context)
    for info in PAGES:
        tab = Tab(context, server)
        tab.load(page_url(server, info), Moves())
        name = f"browser_phone_{info.url_path.replace('-', '_')}"
        yield Figure(f"{name}_load_cls", cls.layout_shift(tab.page), "")
        tab.page.close()
    context.close()


def run(quick: bool) -> Iterable[Figure]:
    from playwright.sync_api import sync_playwright

    from bench import clock, cls
    from bench.serve import Served, bare_app, port, shell_app
    from tests.e2e.conftest import CHROMIUM_FLAGS, chromium_path
    from topics import PAGES

    repeats = 3 if quick else 7
    path = chromium_path()
    if path is None:
        raise RuntimeError("bench browser needs Chromium (apt-get install chromium) and Playwright")
    bare, shell_server, app = bare_app(), shell_app(), Served(port(0))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
            context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="light")
            context.set_default_timeout(180_000)  # a click, on a loaded machine, while a page draws
            clock.install(context)
            cls.install(context)
            before, shift = bare_moves(context, bare, repeats)
            yield from before.figures("browser_bare_change")
            yield Figure("browser_bare_cls", shift, "")
            shell, shell_window = shell_shift(context, shell_server)
            yield Figure("browser_shell_cls", shell, "")
            yield Figure("browser_shell_cls_window", shell_window, "")
            for info in PAGES:
                yield from page_figures(context, app, info, repeats, before, shell)
            after, _ = bare_moves(context, bare, repeats)  # the machine's load may have moved
            yield from after.figures("browser_bare_change_at_end")
            yield from phone_shifts(browser, app)
            browser.close()
    finally:
        bare.stop()
        shell_server.stop()
        app.stop()
