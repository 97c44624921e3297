"""Every chart drawn whole, on every page (issue 42): at 1,400 px in the light theme and on a 390 px
phone in the dark theme, and every token page at 1, 12 and 32 tokens at 1,400 px in light (where a
text lands does not depend on the theme; the contrast sweep, ``test_chart_contrast``, measures them
at 6). Each chart's tick labels, axis titles, legend entries, title and annotations lie inside its
box, none over another, every tick label Plotly computed is shown whole, and its legend names only
what is drawn (``tests.e2e.whole``). Every tour step is measured the same way by the walks through
the tour (``tests/e2e/test_read_along.py``), at both widths, as each step opens.

One server and one browser tab a width (the worker's kept desktop or phone tab,
``tests.e2e.conftest.kept_tab``) visit every URL in turn: the first is loaded, each next one
visited as the browser's Back and Forward bring a tab's entries (``tests.e2e.browser.visit``), a
rerun that draws the new page's charts without loading the frontend again. Each fault is named by
its URL, its chart and its text.
"""

from __future__ import annotations

import pytest

from tests.e2e.a11y import sweep_paths
from tests.e2e.browser import exceptions, open_settled, visit
from tests.e2e.whole import chart_faults
from topics import PAGES

TOUR = "read-along"  # its steps are measured by the walks through it
PAGE_URLS = [p.url_path for p in PAGES if p.url_path != TOUR]
# The pages that draw no chart of their own at their default settings are visited all the same:
# a chart added to one later is then measured without anyone thinking of it.
SWEEPS = {
    "desktop-light": ("tab", PAGE_URLS),  # 1,400 x 1,000 (tests.e2e.conftest)
    "phone-dark": ("phone_tab", PAGE_URLS),  # 390 x 844, touch
    # The token pages at 1, 12 and 32 tokens, a middle token focused, as the contrast sweep opens
    # them at 6 (tests.e2e.a11y.sweep_paths); a sweep a count, to share them among the workers.
    **{f"tokens-{n}": ("tab", sweep_paths((n,), fixed=False)) for n in (1, 12, 32)},
}


def faults_on(page, base: str, urls: list[str]) -> tuple[list[str], int]:
    """Every fault on every URL in turn, each named by its URL, and how many charts were measured.
    ``page`` is watched (``tests.e2e.browser.watch_reruns``), as a kept context's tabs are."""
    faults, charts = [], 0
    for k, url in enumerate(urls):
        (visit if k else open_settled)(page, f"{base}/{url}")
        charts += page.locator(".aww-chart").count()
        faults += [f"{url}: {fault}" for fault in chart_faults(page)]
        faults += [f"{url}: the page shows an exception: {e}" for e in exceptions(page)]
    return faults, charts


@pytest.mark.slow
@pytest.mark.parametrize("sweep", SWEEPS)
def test_every_chart_on_every_page_is_drawn_whole(server, request, sweep):
    fixture, urls = SWEEPS[sweep]
    faults, charts = faults_on(request.getfixturevalue(fixture), server.url, urls)
    assert charts >= len(urls), f"only {charts} charts on {len(urls)} pages: the sweep measured little"
    assert not faults, f"{len(faults)} faults on {charts} charts:\n" + "\n".join(faults)
