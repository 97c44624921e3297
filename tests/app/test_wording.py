"""Every page speaks to a learner who has not read the post (issues #21 and #24): no page names the
post's figure or section numbers, and "the audit" is not a source a reader can look up."""

from __future__ import annotations

import re

import pytest

from tests.app.conftest import assert_clean, open_page
from topics import PAGES

UNREADABLE = re.compile(r"figure 0\d|section 0\d|\baudit", re.IGNORECASE)


def shown_text(at) -> list[str]:
    """Every text a reader sees on the page, the expanders' contents included."""
    return [
        *(m.value for m in at.markdown),
        *(c.value for c in at.caption),
        *(e.label for e in at.expander),
        *(m.label for m in at.metric),
        *(str(m.help or "") for m in at.metric),
        *(c.value for c in at.code),
        *(i.value for i in at.info),
        *(w.value for w in at.warning),
        *(h.value for h in at.header),
        *(h.value for h in at.subheader),
        *(t.value for t in at.title),
    ]


@pytest.mark.parametrize("info", PAGES, ids=[p.url_path for p in PAGES])
def test_no_page_names_the_posts_figures_or_an_audit(info):
    at = open_page(info.path)
    assert_clean(at)
    texts = shown_text(at)
    assert len(texts) > 3
    found = [m.group(0) for t in texts for m in UNREADABLE.finditer(t)]
    assert found == [], found
