"""Issue 23: the embeddings editor says it scrolls when its columns do not fit the sidebar."""

from __future__ import annotations

import pytest

from tests.app.conftest import assert_clean, open_page
from ui import sentence as ui_sentence


@pytest.mark.parametrize("dim", [3, 16])
def test_the_editor_says_it_scrolls_sideways_past_the_columns_the_sidebar_shows(dim):
    at = open_page("topics/recap/page.py", {"dim": str(dim)}, state={ui_sentence.EDITOR_OPEN: True})
    assert_clean(at)
    captions = " ".join(c.value for c in at.sidebar.caption)
    hint = f"Scroll the table sideways for all {dim} columns."
    assert (hint in captions) == (dim > ui_sentence.EDITOR_FITS)
