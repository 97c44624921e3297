"""The "What n² costs" page: the post's numbers by default, every control, presets, extremes, URLs."""

import io

import pandas as pd
import pytest
from streamlit.testing.v1 import app_test

from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics import page_at
from topics.cost import arithmetic as cost
from topics.cost import format as cost_format

PAGE = "topics/cost/page.py"
CARDS = "H100 (80 GiB) cards to buy"


def _text(at) -> str:
    return " ".join([c.value for c in at.caption] + [m.value for m in at.markdown])


def _checks(at):
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    return exp


@pytest.fixture(scope="module")
def default():
    return open_page(PAGE)


def test_default_view_shows_every_figure06_number(default):
    at = default
    assert_clean(at)
    m = metrics(at)
    assert m["Bytes"] == "2,194,830,951,552"
    assert m[CARDS] == "26"
    assert m["Time per token, the post's model"] == "104,658 s"
    text = _text(at)
    assert "1.996 TiB" in text
    assert "Exact ratio 25.55" in text
    assert "= 29.07 h" in text
    assert "≈28 h" in text  # the post's rounded figure, quoted as his
    table = at.dataframe[0].value
    assert table.loc[table["n"] == 1_024, "size"].item() == "2 MiB"
    assert "12 of 12 match" in _checks(at).label
    assert "FlashAttention" in " ".join(i.value for i in at.info)


def test_the_table_runs_from_1024_to_2097152_plus_the_current_n(default):
    table = default.dataframe[0].value
    assert list(table["n"]) == sorted([2**k for k in range(10, 22)] + [1_047_576])
    assert table.loc[table["current"], "n"].tolist() == [1_047_576]


@pytest.mark.parametrize("n", [1_024, 8_192, 131_072, 1_047_576])
def test_every_preset_sets_n_and_the_readouts(n):
    at = open_page(PAGE, {"n": "5"})
    (button,) = [b for b in at.button if b.key == f"preset_{n}"]
    button.click().run()
    assert_clean(at)
    assert widget(at, "n").value == n
    assert metrics(at)["Bytes"] == f"{n * n * 2:,}"
    assert at.dataframe[0].value.loc[lambda d: d["current"], "n"].tolist() == [n]


@pytest.mark.parametrize(
    ("n", "nbytes", "cards"),
    [(1, "2", "1"), (2_000_000, "8,000,000,000,000", "94"), (2_097_152, "8,796,093,022,208", "103")],
)
def test_extreme_context_lengths(n, nbytes, cards):
    # 2,000,000² × 2 = 8·10¹² bytes; / 80 GiB = 93.13 → 94. 2²¹ tokens: 2⁴³ bytes = 102.4 cards → 103.
    at = open_page(PAGE, {"n": str(n)})
    assert_clean(at)
    m = metrics(at)
    assert m["Bytes"] == nbytes
    assert m[CARDS] == cards
    assert n in at.dataframe[0].value["n"].tolist()


def test_bytes_per_score_gpu_heads_and_layers_move_the_bill():
    at = open_page(PAGE)
    widget(at, "bytes").set_value(4).run()
    assert metrics(at)["Bytes"] == f"{1_047_576**2 * 4:,}"
    widget(at, "cost_heads").set_value(12).run()
    widget(at, "layers").set_value(12).run()
    assert metrics(at)["Bytes"] == f"{1_047_576**2 * 4 * 144:,}"
    widget(at, "gpu").set_value("B200 (180 GB)").run()
    assert_clean(at)
    nbytes = 1_047_576**2 * 4 * 144
    assert metrics(at)["B200 (180 GB) cards to buy"] == f"{-(-nbytes // (180 * 10**9)):,}"
    assert "TiB/B200" in " ".join(h.value for h in at.subheader)
    assert "12 of 12 match" in _checks(at).label  # the checks stay at the post's settings


def test_gb_reading_of_the_h100_needs_more_cards():
    at = open_page(PAGE, {"gpu": "H100 (80 GB)"})
    assert metrics(at)["H100 (80 GB) cards to buy"] == "28"  # 2,194,830,951,552 / 80·10⁹ = 27.4


def test_baseline_time_scales_the_time_per_token():
    at = open_page(PAGE)
    widget(at, "t0_ms").set_value(200).run()
    assert metrics(at)["Time per token, the post's model"] == "209,315 s"  # 2 × 104,657.7 = 209,315.4
    widget(at, "n").set_value(1_024).run()
    assert metrics(at)["Time per token, the post's model"] == "200 ms"


def test_flop_controls_move_the_crossover():
    at = open_page(PAGE)
    assert metrics(at)["Quadratic part wins from n ="] == "1,153"
    widget(at, "cost_d_in").set_value(3).run()
    widget(at, "cost_d_k").set_value(2).run()
    m = metrics(at)
    assert m["Quadratic part wins from n ="] == "5"  # n > 1.5 · 3
    assert m["Projections Q, K, V (multiply-adds)"] == f"{3 * 1_047_576 * 3 * 2:,}"
    assert m["QKᵀ + AV (multiply-adds)"] == f"{2 * 1_047_576**2 * 2:,}"


def test_a_url_with_every_bound_key_renders_that_view():
    query = {
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
    assert widget(at, "n").value == 8_192
    assert widget(at, "gpu").value == "A100 (80 GB)"
    m = metrics(at)
    assert m["Bytes"] == f"{8_192**2 * 4 * 2 * 3:,}"
    assert m["A100 (80 GB) cards to buy"] == "1"
    assert m["Time per token, the post's model"] == "3.20 s"  # 0.05 s × 8²
    assert m["Quadratic part wins from n ="] == "1,537"


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
    (button,) = at.get("download_button")
    filename = button.proto.url.rsplit("/", 1)[1]
    data = stores[-1].get_file(filename).content
    shown = at.dataframe[0].value
    csv = pd.read_csv(io.BytesIO(data), dtype={"scores": str, "bytes": str})
    pd.testing.assert_frame_equal(csv, shown.reset_index(drop=True))
    assert 2_000_000 in csv["n"].tolist()
    # past 2⁵³ bytes, and still exact: 4·10¹² × 2 × 96 × 96
    assert csv.loc[csv["n"] == 2_000_000, "bytes"].item() == "73,728,000,000,000,000"


# --- issue #13, item 5: the post's time model is labelled as the post's, the FLOP model beside it --


def test_the_time_model_is_the_posts_and_the_flop_model_stands_beside_it(default):
    (models,) = [d.value for d in default.dataframe if "growth from 1,024 tokens" in d.value.columns]
    post, flops, cached = models.index
    assert post.startswith("The post's model")
    assert models.loc[post, "growth from 1,024 tokens"] == "×1,046,577"
    assert models.loc[flops, "growth from 1,024 tokens"] == "×493,048"
    assert models.iloc[0, 1] == "104,658 s = 29.07 h" and models.iloc[1, 1] == "49,305 s = 13.70 h"
    assert models.loc[cached, "growth from 1,024 tokens"] == "×482"
    text = _text(default)
    assert "below n = 1,153" in text and "linear in n" in text
    (m,) = [m for m in default.metric if m.label == "Time per token, the post's model"]
    assert "The post's assumption" in m.help and "for the whole model" not in m.help
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the book")]
    rows = " ".join(md.value for md in exp.markdown)
    assert "`×493,048` | `×493,048` | ✅" in rows and "`1,153` | `1,153` | ✅" in rows


def test_the_flop_model_follows_the_widths_and_the_context():
    at = open_page(PAGE, {"n": "131072", "d_in": "3", "d_k": "2"})
    assert_clean(at)
    (models,) = [d.value for d in at.dataframe if "growth from 1,024 tokens" in d.value.columns]
    growth = cost.flop_growth(131_072, 3, 2)
    assert models.iloc[1, 0] == f"×{cost_format.fixed(growth, 0)}"
    assert "3·n·3·2 + 2·n²·2" in models.index[1]
    assert "below n = 5" in _text(at)  # 1.5 · d_in: the book's toy width turns quadratic at once
