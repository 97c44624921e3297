"""Cumulative layout shift in Chromium, read the way Lighthouse reads it.

:func:`layout_shift` installs, on its first call for a Playwright ``page``, a ``PerformanceObserver``
for ``layout-shift`` entries (buffered, so shifts before the observer ran count too) on every
document the page opens from then on, and returns the sum of the shifts so far (0 before the first
navigation). Shifts within 500 ms of a reader's own input (``hadRecentInput``) do not count: a page
may move where the reader just clicked.

    layout_shift(page)                      # install, before the navigation
    page.goto(url); settle(page)
    load = layout_shift(page)               # CLS of the load
    click(); settle(page)
    change = layout_shift(page) - load      # CLS of a control change

The sum covers the document's whole life (Lighthouse's session windows cap each window at 5 s; a
sum is never lower, so a sum under 0.1 passes either way).
"""

from __future__ import annotations

_OBSERVER = """(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: "layout-shift", buffered: true });
})();"""


def layout_shift(page) -> float:
    """The layout shift summed over ``page``'s current document; the first call installs the
    observer for the documents the page opens next, and reads 0."""
    if not getattr(page, "_cls_observed", False):
        page.add_init_script(_OBSERVER)
        page._cls_observed = True
    return float(page.evaluate("() => window.__cls ?? 0"))
