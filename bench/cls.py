"""Cumulative layout shift in Chromium, read with a PerformanceObserver.

:func:`install` adds the observer to a Playwright context or page before it navigates; each
``layout-shift`` entry (buffered, so shifts before the observer ran count too) adds its value,
except those within 0.5 s of a reader's input (``hadRecentInput``: a shift the reader asked for).
:func:`layout_shift` reads the sum since the page's navigation. This is the plain sum over the
page's life, not the web-vitals "largest session window", so it never reads lower than CLS.
"""

from __future__ import annotations

OBSERVER = """(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({type: "layout-shift", buffered: true});
})();"""


def install(context_or_page) -> None:
    """Observe layout shifts on every page the context (or the page) navigates to from now on."""
    context_or_page.add_init_script(OBSERVER)


def layout_shift(page) -> float:
    """The page's cumulative layout shift since it navigated (0 without :func:`install`)."""
    return float(page.evaluate("() => window.__cls || 0"))
