"""What comes next's weights scale (issue 23): the "Colour the weights" choice reaches the shuffled
weights heatmap from the URL (``next_scale``), never the signed gaps, and a value it does not know
falls back to the fixed 0–1 scale. Each chart is named and has its values as a table."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.conftest import assert_clean, charts, open_page, widget
from ui.scale import LABELS, pale_hint

PAGE = "topics/next/page.py"
TWELVE = " ".join(f"w{i}" for i in range(12))


def specs(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in charts(at)]


def captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.caption)


def test_the_row_scale_from_the_url_colours_the_weights_only():
    at = open_page(PAGE, {"next_scale": LABELS["row"], "text": TWELVE})
    assert_clean(at)
    assert widget(at, "next_scale").value == "row"
    _, free, masked, weights, _ = specs(at)
    trace = weights["data"][0]
    assert trace["showscale"] is True and trace["colorbar"]["title"]["text"] == "÷ its row's<br>largest"
    for gap in (free, masked):  # signed: a diverging scale, never relative
        assert "title" not in gap["data"][0]["colorbar"] and gap["data"][0]["zmin"] < 0
    assert "pale on the fixed 0–1 scale" not in captions(at)


def test_an_unknown_scale_falls_back_to_the_fixed_one_with_the_hint():
    at = open_page(PAGE, {"next_scale": "🙂", "text": TWELVE})
    assert_clean(at)
    assert widget(at, "next_scale").value == "fixed"
    trace = specs(at)[3]["data"][0]
    assert (trace["zmin"], trace["zmax"]) == (0.0, 1.0) and "title" not in trace["colorbar"]
    hint = pale_hint(12, None)
    assert hint is not None and hint in captions(at)


def test_every_chart_is_named_and_has_its_values_as_a_table():
    at = open_page(PAGE)
    assert_clean(at)
    boxes = [e.label for e in at.expander if e.label.startswith("Values as a table: ")]
    assert len(boxes) == len(charts(at)) == 5
    assert (
        boxes[3]
        == "Values as a table: Causal attention weights of the shuffled sentence, 6 queries by 6 keys"
    )
    assert boxes[1].startswith("Values as a table: Without the mask: the gap P·f(X) − f(P·X), 6 positions")
