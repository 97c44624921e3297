"""What comes next's kept parts (``topics/next/study.py``) are those of the settings on screen: the
view without its focus, the block's charts and the shuffle's charts, each keyed on what it shows."""

from __future__ import annotations

import json

import plotly.io as pio
import pytest

from core import sentence
from topics.next import figures, study, view
from topics.next.block import BlockConfig
from topics.next.view import Settings
from ui.figures import Built
from ui.figures import built as as_built

CAT = sentence.build("the cat sat on the mat", width=5)
SETTINGS = [
    Settings(),
    Settings(focus=2, cell=1, kv_tokens=4096, kv_bytes=4, kv_batch=8),
    Settings(
        CAT.labels,
        CAT.embeddings,
        BlockConfig(1024, 16, 24),
        (0, 2, 1, 3, 5, 4),
        focus=4,
        kv_tokens=7,
        cell=2,
    ),
]


def spec(kept: Built) -> str:
    return json.dumps(json.loads(pio.to_json(kept.spec, validate=False)), sort_keys=True)


@pytest.mark.parametrize("s", SETTINGS)
@pytest.mark.parametrize("relative", [None, "row"])
def test_the_kept_charts_are_the_charts_of_the_settings_on_screen(s, relative):
    v = view.build(s)
    built = figures.charts(v, relative)
    kept = {
        **study.block_charts(s.block, s.kv_tokens, s.kv_bytes, s.kv_batch, "light"),
        **study.shuffle_charts(s.labels, s.embeddings, s.perm, s.focus, s.cell, relative, "light"),
    }
    assert set(kept) == set(built)
    for key, chart in built.items():
        want = as_built(chart)
        assert spec(kept[key]) == spec(want), key
        assert kept[key].name == want.name, key
        table, wanted = kept[key].table, want.table
        assert table is not None and wanted is not None and table.equals(wanted), key
    assert study.page_view(s).shuffle.focus is None
