"""Every page passes the accessibility audit (tests/e2e/a11y.py, issue 23), expanders open: on a
desktop (1,400 px) in the light theme and on a phone (390 px, touch) in the dark one, so each
theme and each width is audited on every page in two visits.

A failure prints what was found: axe-core's rule and the nodes it names, each chart text under
4.5:1 with its measured ratio, the charts without a name, the document title, heading skips.
"""

from __future__ import annotations

import pytest

from tests.e2e.a11y import audit
from tests.e2e.browser import open_settled
from tests.e2e.test_browser import page_url
from topics import PAGES

IDS = [p.url_path for p in PAGES]
SETTINGS = {
    "desktop-light": {"viewport": {"width": 1400, "height": 1000}, "color_scheme": "light"},
    "phone-dark": {
        "viewport": {"width": 390, "height": 844},
        "color_scheme": "dark",
        "is_mobile": True,
        "has_touch": True,
    },
}


@pytest.mark.parametrize("where", sorted(SETTINGS))
@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_every_page_passes_the_audit(server, browser, info, where):
    ctx = browser.new_context(**SETTINGS[where])
    try:
        page = ctx.new_page()
        open_settled(page, page_url(server, info))
        found = audit(page, info.title)
        assert {k: v for k, v in found.items() if v} == {}
    finally:
        ctx.close()
