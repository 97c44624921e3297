"""The Overview: the notation's values are the book toy's, read from the code the pages run on, and
the page shows them, the six tokens and a link to every other page."""

from __future__ import annotations

import numpy as np

from core import tokens
from tests.app.conftest import assert_clean, open_page
from topics import PAGES
from topics.overview import view


def test_the_notation_holds_the_book_toys_values():
    v = view.build()
    assert {row.symbol: row.toy for row in v.notation} == {
        "n": 6,
        "d_{in}": 3,
        "d_{out}": 2,
        "d_k": 2,
        "H": 2,
        "\\text{head\\_dim}": 1,
    }
    assert v.tokens == tokens.TOKENS and v.inputs.shape == (6, 3)


def test_the_page_shows_the_view_and_links_every_other_page():
    at = open_page("topics/overview/page.py")
    assert_clean(at)
    v = view.build()
    notation = next(m.value for m in at.markdown if m.value.startswith("| symbol |"))
    for row in v.notation:
        assert f"| ${row.symbol}$ | {row.meaning} | {row.toy} |" in notation
    table = at.dataframe[0].value
    assert list(table.index) == list(v.tokens)
    np.testing.assert_array_equal(table.to_numpy(), v.inputs)
    links = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
    assert links == [(p.url_path, p.title) for p in PAGES[1:]] + [
        (PAGES[1].url_path, f"Next: {PAGES[1].title}")
    ]
    assert [c.value for c in at.caption][1:] == [p.blurb for p in PAGES[1:]]
