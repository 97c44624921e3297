"""Every chart text reads at 4.5:1 from the browser's pixels, and every chart is drawn whole, on
every page, at 1, 6, 12 and 32 tokens, in both themes (issues 38, item 6, and 42).

The cell colours and their text are chosen by computation (``ui.colors``: each scale skips the
mid-tones where neither black nor white text reaches 5:1, and a focus fades the other rows along
the same scale). This holds the result to what Chromium draws: each page opened with a middle
token focused (so faded rows are measured too), every chart's texts hidden, the screen
photographed, and each text's colour held against the pixels under it; a number's glyphs are
measured as drawn as well (``tests.e2e.a11y.too_low``). Past 8 tokens the cells print no values
(``ui.figures.TEXT_MAX``), so 12 and 32 measure the axes, the colour bars and the titles.

The viewport is 1,400 px wide and tall enough for a whole page, so one photograph of the screen
serves every chart on it (a chart below it is photographed on its own). On each page the charts'
texts are also measured where they land (``tests.e2e.whole.chart_faults``): the other half of
issue 42's sweep, at every token count, where ``test_charts_whole`` walks every page and tour step
at the book's sentence. Where a text lands does not depend on the theme, so it is measured in the
light pass.

One test a token count, one server, one browser tab (kept from test to test on a worker). In the
light theme the first page is loaded and each next one visited as Back and Forward bring a tab's
entries (``tests.e2e.browser.visit``): a rerun that draws the page's charts, without loading the
frontend again, which cost Chromium three times the CPU. Then the browser turns dark, as a reader's
system setting does, and the pages are walked again: the first loaded afresh in dark, the rest
visited, each chart checked to be drawn in the dark theme's colours before its texts are measured.
"""

from __future__ import annotations

import pytest

from tests.e2e.a11y import low_chart_texts, sweep_urls
from tests.e2e.conftest import handing, kept, kept_tab
from tests.e2e.whole import chart_faults
from ui.theme import DARK, LIGHT

COUNTS = (1, 6, 12, 32)
TALL = {"width": 1400, "height": 6000}


@pytest.fixture(scope="session")
def kept_tall(browser):
    ctx = kept(browser, viewport=TALL, color_scheme="light")
    yield ctx
    ctx.close()


@pytest.fixture
def tall_tab(kept_tall, server):
    """A kept tab 1,400 px wide and tall enough for a whole page, in the light theme, as new
    (``tests.e2e.conftest.handing``), and in the light theme again after the test."""
    gen = handing(kept_tall, server)
    page = kept_tab(next(gen))
    yield page
    page.emulate_media(color_scheme="light")
    next(gen, None)


@pytest.mark.slow
@pytest.mark.parametrize("count", COUNTS)
def test_every_chart_text_on_every_page_reads_at_4_5_to_1_from_pixels_in_both_themes(server, tall_tab, count):
    urls = sweep_urls(server.url, (count,), fixed=count == COUNTS[0])  # the fixed pages once
    page = tall_tab
    lows, faults = low_chart_texts(page, urls, also=chart_faults, ink=LIGHT.text)
    page.emulate_media(color_scheme="dark")
    dark, inked = low_chart_texts(page, urls, ink=DARK.text)
    found = [(f"light {url}", c) for url, c in lows] + [(f"dark {url}", c) for url, c in dark]
    assert not found, "\n".join(f"{where}: {c}" for where, c in found)
    assert not faults + inked, "\n".join(faults + inked)
