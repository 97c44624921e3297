"""The navigation: every page of the table of contents is registered, in reading order, and runs."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, ROOT, assert_clean, open_page
from topics import ORDER, PAGES


@pytest.mark.parametrize("path", [p.path for p in PAGES], ids=[p.url_path for p in PAGES])
def test_every_registered_page_runs_without_exception(path):
    at = open_page(path)
    assert_clean(at)
    assert at.title, f"{path} has no title"


def test_navigation_registers_exactly_the_table_of_contents_in_reading_order():
    """What ``st.navigation`` registered in a real run: each page's title, icon, URL path and
    script, in the chapter's order, plus the hidden root that redirects to the first page."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert_clean(at)
    registered = [info for info in at._registered_pages.values() if info.get("script_path")]
    assert [(i["page_name"], i["icon"], i["url_pathname"], Path(i["script_path"])) for i in registered] == [
        (p.title, p.icon, p.url_path, (ROOT / p.path).resolve()) for p in PAGES
    ]
    hidden = [info for info in at._registered_pages.values() if not info.get("script_path")]
    assert len(hidden) == 1 and hidden[0]["url_pathname"] == ""  # the root, served at "/"
    assert [p.path for p in PAGES] == [f"topics/{name}/page.py" for name in ORDER]
    assert len({p.url_path for p in PAGES}) == len(PAGES)
    assert at.title[0].value == "Attention, with weights"  # "/" opens the first page, the Overview


@pytest.mark.parametrize("at_index", range(len(PAGES)), ids=[p.url_path for p in PAGES])
def test_every_page_ends_with_links_to_its_neighbours_in_chapter_order(at_index):
    at = open_page(PAGES[at_index].path)
    assert_clean(at)
    foot = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
    info = PAGES[at_index]
    back, on = ("Page before", "Page after") if info.own_next else ("Previous", "Next")  # a tour's own Next
    foot = [(page, label) for page, label in foot if label.startswith((f"{back}: ", f"{on}: "))]
    want = []
    if at_index > 0:
        want.append((PAGES[at_index - 1].url_path, f"{back}: {PAGES[at_index - 1].title}"))
    if at_index + 1 < len(PAGES):
        want.append((PAGES[at_index + 1].url_path, f"{on}: {PAGES[at_index + 1].title}"))
    assert foot == want
    if info.own_next:  # the tour's Next is the only "Next" on the page
        assert not any(label.startswith("Next") for _, label in foot)
