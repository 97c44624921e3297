"""Every chart text on every page reads at 4.5:1, from the spec's colours (issue 46), at 1, 6, 12
and 32 tokens, in both themes: each page opened as the pixel sweep opens it (a middle token
focused, so faded rows are measured too; ``tests.e2e.a11y.sweep_urls``), every chart it sends read
for what it prints and what lies under each text (``tests.app.chart_texts``). The browser confirms
it from pixels on a sample (``tests/e2e/test_chart_contrast.py``: 6 tokens, both themes)."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

import pytest

from tests.app.chart_texts import low_texts, texts
from tests.app.conftest import charts, open_page
from tests.e2e.a11y import sweep_paths
from topics import PAGES
from ui import theme

COUNTS = (1, 6, 12, 32)
SCRIPT = {p.url_path: p.path for p in PAGES}


def _links(count: int) -> list[tuple[str, dict[str, str]]]:
    """The pages at ``count`` tokens, each with its query, as the pixel sweep links them
    (``tests.e2e.a11y.sweep_paths``); the pages whose charts do not follow the sentence at 6 only."""
    out = []
    for link in sweep_paths((count,), fixed=count == 6):
        path, _, query = link.partition("?")
        out.append((path, dict(parse_qsl(query))))
    return out


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("palette", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_every_chart_text_reads_at_4_5_to_1_from_the_specs_colours(monkeypatch, palette, count):
    monkeypatch.setattr(theme, "active", lambda: palette)
    lows, measured, cells = [], 0, 0
    for path, query in _links(count):
        at = open_page(SCRIPT[path], query)
        for chart in charts(at):
            spec = json.loads(chart.proto.spec)
            found = list(texts(spec, palette))
            measured += len(found)
            cells += sum(1 for what, _, _ in found if " cell " in f" {what} ")
            lows += [f"{path} {chart.proto.alt!r}: {low}" for low in low_texts(spec, palette)]
    assert measured > 50, f"only {measured} texts measured"
    # Every count prints the weights' cells; up to ui.figures.TEXT_MAX tokens, an n x n matrix's too.
    assert cells >= (count * count if count <= 8 else 1), f"{cells} cell values measured at {count} tokens"
    assert not lows, "\n".join(lows)
