"""The "What n² costs" page as it runs: it shows its view, its presets, controls and URL keys move
it, garbage in a link falls back to the default view, the CSV download holds the table shown, and
the Reproduce expander holds the view's script.

The numbers themselves are tested on the view (``test_cost_view.py``); here each distinct page
state is opened once and read for everything it shows.
"""

from __future__ import annotations

import io
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import app_test

from tests.app.conftest import (
    all_match,
    assert_clean,
    chart_names,
    charts,
    metrics,
    open_page,
    open_values,
    widget,
)
from tests.app.test_reproduce_expander import open_with_script, script_shown
from topics import page_at
from topics.cost import arithmetic, figures, script, table, time_models, view
from topics.cost import format as cf
from ui import checks as checks_ui

PAGE = "topics/cost/page.py"


def readouts(v: view.View) -> dict[str, str]:
    """The page's metrics for the view ``v``, formatted as the page formats them."""
    return {
        "Bytes": f"{v.row.nbytes:,}",
        f"{v.gpu.name} cards to buy": f"{v.row.cards_to_buy:,}",
        "Time per token, the post's model": cf.seconds(v.row.seconds),
        "Projections Q, K, V (multiply-adds)": f"{v.macs.linear:,}",
        "QKᵀ + AV (multiply-adds)": f"{v.macs.quadratic:,}",
        "Quadratic part wins from n =": f"{v.crossover:,}",
    }


def _text(at) -> str:
    return " ".join([c.value for c in at.caption] + [m.value for m in at.markdown])


def _checks(at):
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    return exp


@pytest.fixture(scope="module")
def default():
    at = open_page(PAGE)
    assert_clean(at)
    return at


def test_the_default_view_shows_every_figure06_number(default):
    v = view.build(view.Settings())
    assert metrics(default) == readouts(v)
    assert (
        metrics(default)["Bytes"] == "2,194,830,951,552"
        and metrics(default)["Time per token, the post's model"] == "104,658 s"
    )
    text = _text(default)
    for part in (
        "1.996 TiB",
        "Ratio 25.55, exactly 17,147,116,809 / 671,088,640.",
        "= 29.07 h",
        "≈28 h",
        "from n = 1,153 on",
        "linear in n",
    ):
        assert part in text, part
    assert v.paragraph in [m.value for m in default.markdown]
    shown, models = default.dataframe[0].value, default.dataframe[1].value
    pd.testing.assert_frame_equal(shown, table.frame(v))
    pd.testing.assert_frame_equal(models, time_models.frame(v))
    assert "TiB/H100" in " ".join(h.value for h in default.header)
    assert default.sidebar.caption[0].value.startswith("80GB HBM3 (H100 SXM5): 85,899,345,920 bytes.")
    (m,) = [m for m in default.metric if m.label == "Time per token, the post's model"]
    assert "The post's assumption" in m.help and "for the whole model" not in m.help


def test_every_chart_is_named_and_its_values_are_a_table_under_it(default):
    """Issue 23: each chart's name reaches the page (a screen reader's label) and its values sit in a
    table under "Values as a table: <name>", the view's own."""
    v = view.build(view.Settings())
    names = chart_names(default)
    boxes = {e.label: e for e in open_values(open_page(PAGE)).expander}
    for chart in (figures.memory(v), figures.flops(v)):
        assert chart.name in names
        (shown,) = boxes[f"Values as a table: {chart.name}"].table
        assert chart.table is not None and shown.value.equals(chart.table)
    assert sum(checks_ui.parse_title(_checks(default).label).values()) == 12
    assert "0 differ" in _checks(default).label
    rows = " ".join(md.value for md in _checks(default).markdown)
    assert "`×493,048` | `×493,048.40` | ✅ within rounding" in rows and "`1,153` | `1,153` | ✅" in rows
    assert "FlashAttention" in " ".join(i.value for i in default.info)
    assert len(charts(default)) == 2


def test_every_preset_sets_n_and_the_readouts():
    at = open_page(PAGE, {"n": "5"})
    for n in arithmetic.PRESETS.values():
        (button,) = [b for b in at.button if b.key == f"preset_{n}"]
        button.click().run()
        assert_clean(at)
        assert widget(at, "n").value == n
        assert metrics(at) == readouts(view.build(view.Settings(n=n)))
        assert at.dataframe[0].value.loc[lambda d: d["current"], "n"].tolist() == [n]


def test_every_control_moves_the_readouts_and_the_checks_stay():
    at = open_page(PAGE)
    steps = [("bytes", 4), ("cost_heads", 12), ("layers", 12), ("gpu", "B200 (180 GB)"), ("t0_ms", 200)]
    steps += [("cost_d_in", 3), ("cost_d_k", 2), ("n", 1), ("n", 2_097_152)]
    settings: dict[str, Any] = dict(vars(view.Settings()))
    fields = {"bytes": "bytes_per_score", "cost_heads": "heads", "cost_d_in": "d_in", "cost_d_k": "d_k"}
    for key, value in steps:
        widget(at, key).set_value(value).run()
        assert_clean(at)
        settings[fields.get(key, key)] = value
        assert metrics(at) == readouts(view.build(view.Settings(**settings))), key
    assert "TiB/B200" in " ".join(h.value for h in at.header)
    assert all_match(_checks(at).label, 12)  # the checks stay at the post's settings


def test_a_url_with_every_bound_key_renders_that_view():
    query: dict[str, str | list[str]] = {
        "n": "8192",
        "bytes": "4 (fp32)",
        "gpu": "A100 (80 GB)",
        "cost_heads": "2",
        "layers": "3",
        "t0_ms": "50",
        "cost_d_in": "1024",
        "cost_d_k": "128",
    }
    at = open_page(PAGE, query)
    assert_clean(at)
    assert (widget(at, "n").value, widget(at, "gpu").value) == (8_192, "A100 (80 GB)")
    assert metrics(at) == readouts(view.build(view.Settings(8_192, 4, "A100 (80 GB)", 2, 3, 50, 1_024, 128)))


GARBAGE = [
    "",
    "nan",
    "inf",
    "-1",
    "0",
    "1e999",
    "2097153",
    "9" * 40,
    "'; DROP TABLE",
    "🙂" * 50,
    "x" * 10_000,
]
KEYS = page_at("n-squared").keys


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(junk, default):
    at = open_page(PAGE, {k: junk for k in KEYS})
    assert_clean(at)
    assert metrics(at) == metrics(default)


def test_the_csv_download_holds_the_table_shown(monkeypatch):
    stores = []

    class Recording(app_test.MemoryMediaFileStorage):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            stores.append(self)

    monkeypatch.setattr(app_test, "MemoryMediaFileStorage", Recording)
    at = open_page(PAGE, {"n": "2000000", "cost_heads": "96", "layers": "96", "gpu": "H200 (141 GB)"})
    (button,) = [b for b in at.get("download_button") if b.key == "csv"]
    filename = button.proto.url.rsplit("/", 1)[1]
    data = stores[-1].get_file(filename).content
    shown = at.dataframe[0].value
    csv = pd.read_csv(io.BytesIO(data), dtype={"scores": str, "bytes": str})
    pd.testing.assert_frame_equal(csv, shown.reset_index(drop=True))
    assert 2_000_000 in csv["n"].tolist()
    # past 2⁵³ bytes, and still exact: 4·10¹² × 2 × 96 × 96
    assert csv.loc[csv["n"] == 2_000_000, "bytes"].item() == "73,728,000,000,000,000"


def test_the_reproduce_expander_holds_the_views_script_and_its_download():
    at = open_with_script(PAGE)
    assert_clean(at)
    made = script.what_n_squared_costs(view.Settings())
    assert script_shown(at) == made.code.rstrip(
        "\n"
    )  # st.code drops the final newline; the download keeps it
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_cost_download"]
    assert made.filename in button.proto.label
    (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    assert box.label == "Reproduce in Python"
