"""Cumulative layout shift in Chromium, read with a PerformanceObserver.

:func:`install` adds the observer to a Playwright context or page before it navigates; each
``layout-shift`` entry (buffered, so shifts before the observer ran count too) is kept with its
time, except those within 0.5 s of a reader's input (``hadRecentInput``: a shift the reader asked
for). Two readings:

- :func:`layout_shift`: the plain sum of every shift since the page's navigation, over its whole
  life: never lower than CLS.
- :func:`session_shift`: CLS as the web-vitals library and Chrome define it since 2021, the largest
  session window: shifts less than 1 s apart, a window at most 5 s long, summed per window.
"""

from __future__ import annotations

OBSERVER = """(() => {
    window.__cls = 0;
    window.__shifts = [];
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
            if (e.hadRecentInput) continue;
            window.__cls += e.value;
            window.__shifts.push([e.startTime, e.value]);
        }
    }).observe({type: "layout-shift", buffered: true});
})();"""

GAP_MS, WINDOW_MS = 1_000, 5_000  # web-vitals' session windows


def install(context_or_page) -> None:
    """Observe layout shifts on every page the context (or the page) navigates to from now on."""
    context_or_page.add_init_script(OBSERVER)


def layout_shift(page) -> float:
    """The page's cumulative layout shift since it navigated (0 without :func:`install`)."""
    return float(page.evaluate("() => window.__cls || 0"))


def session_shift(page) -> float:
    """The page's CLS by the web-vitals definition: its largest session window (:func:`windowed`)."""
    return windowed(page.evaluate("() => window.__shifts || []"))


def windowed(shifts: list[list[float]]) -> float:
    """The largest sum of a session window of ``shifts`` (``[time ms, value]`` in time order): a
    window ends at a gap of 1 s or more, or after 5 s."""
    best = current = 0.0
    start = last = None
    for t, value in shifts:
        if start is None or last is None or t - last >= GAP_MS or t - start > WINDOW_MS:
            start, current = t, 0.0
        current += value
        last = t
        best = max(best, current)
    return best
