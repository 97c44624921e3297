"""Every chart text reads at 4.5:1 from the browser's pixels, on every page at the book's six
tokens, in both themes (issues 38, item 6, 42 and 46).

The cell colours and their text are chosen by computation (``ui.colors``: each scale skips the
mid-tones where neither black nor white text reaches 5:1, and a focus fades the other rows along
the same scale), and every text's colour is held to what lies under it, from the spec alone, on
every page at 1, 6, 12 and 32 tokens in both themes (``tests/app/test_chart_text_contrast.py``).
This confirms it from what Chromium draws, on a sample: six tokens, where the cells print their
values, each page opened with a middle token focused (so faded rows are measured too), every
chart's texts hidden, the screen photographed, and each text's colour held against the pixels
under it; a number's glyphs are measured as drawn as well (``tests.e2e.a11y.too_low``). At 1, 12
and 32 tokens the browser measures where each text lands (``test_charts_whole``), without
photographs: the photographs at four counts in two themes made this sweep CI's longest test.

The viewport is 1,400 px wide and tall enough for a whole page, so one photograph of the screen
serves every chart on it (a chart below it is photographed on its own). In the light pass the
charts' texts are also measured where they land (``tests.e2e.whole.chart_faults``), with the focus
on; where a text lands does not depend on the theme.

One test a theme, one server, one browser tab (kept from test to test on a worker). The first page
is loaded and each next one visited as Back and Forward bring a tab's entries
(``tests.e2e.browser.visit``): a rerun that draws the page's charts, without loading the frontend
again, which cost Chromium three times the CPU. In the dark theme, as a reader's system setting
turns it, each chart is checked to be drawn in the dark theme's colours before its texts are
measured.
"""

from __future__ import annotations

import pytest

from tests.e2e.a11y import low_chart_texts, sweep_urls
from tests.e2e.conftest import handing, kept, kept_tab
from tests.e2e.whole import chart_faults
from ui.theme import DARK, LIGHT

SAMPLE = 6  # tokens: the book's sentence, where every token heatmap prints its values
TALL = {"width": 1400, "height": 6000}


@pytest.fixture(scope="session")
def kept_tall(browser):
    ctx = kept(browser, viewport=TALL, color_scheme="light")
    yield ctx
    ctx.close()


@pytest.fixture
def tall(kept_tall, server):
    yield from handing(kept_tall, server)


@pytest.fixture
def tall_tab(tall):
    """A kept tab 1,400 px wide and tall enough for a whole page, as new; each test sets its theme."""
    return kept_tab(tall)


@pytest.mark.slow
@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_chart_text_on_every_page_reads_at_4_5_to_1_from_pixels(server, tall_tab, palette):
    urls = sweep_urls(server.url, (SAMPLE,))  # every token page, and the fixed pages
    tall_tab.emulate_media(color_scheme=palette.mode)
    light = palette is LIGHT
    lows, faults = low_chart_texts(tall_tab, urls, also=chart_faults if light else None, ink=palette.text)
    assert not lows, "\n".join(f"{palette.mode} {url}: {c}" for url, c in lows)
    assert not faults, "\n".join(faults)
