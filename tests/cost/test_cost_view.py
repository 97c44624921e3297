"""What "What n² costs" shows, read from its view: the post's figure 06 by default, every control,
the extremes of n, the cost table and the charts drawn from the same view, the time models."""

from __future__ import annotations

import io
import math
from fractions import Fraction

import pandas as pd
import plotly.graph_objects as go
import pytest

from topics.cost import arithmetic, checks, figures, table, time_models, view
from topics.cost import format as cf

GPT41 = 1_047_576


@pytest.fixture(scope="module")
def default() -> view.View:
    return view.build(view.Settings())


def test_the_default_view_is_the_posts_figure_06(default):
    row = default.row
    assert (default.n, default.gpu.name, row.nbytes) == (GPT41, "H100 (80 GiB)", 2_194_830_951_552)
    assert cf.binary_size(row.nbytes) == "1.996 TiB"
    assert (row.cards_to_buy, cf.fixed(row.cards, 2)) == (26, "25.55")
    assert (cf.seconds(row.seconds), cf.hours(row.seconds)) == ("104,658 s", "29.07 h")
    assert row.live_cells == GPT41 * (GPT41 + 1) // 2
    assert default.giles_hours == "≈28 h"  # the post's rounded figure, quoted as his
    assert [r.n for r in default.table] == sorted([2**k for k in range(10, 22)] + [GPT41])


def test_the_time_models_and_the_paragraphs_numbers(default):
    post, flops, cached = default.models
    assert (post.kind, flops.kind, cached.kind) == ("post", "flops", "cached")
    assert post.seconds == default.row.seconds  # the post's model is the readout's
    assert [cf.fixed(m.growth, 0) for m in default.models] == ["1,046,577", "493,048", "482"]
    assert [time_models.duration(m.seconds) for m in default.models[:2]] == [
        "104,658 s = 29.07 h",
        "49,305 s = 13.70 h",
    ]
    assert default.token_macs == 3 * 768 * 64 == 147_456
    assert (default.crossover, cf.fixed(100 * default.projection_share, 1)) == (1_153, "0.1")
    assert cf.fixed(default.post_over_flops, 2) == "2.12"
    text = default.paragraph
    assert "×1,046,577 at 1,047,576 tokens" in text and "from n = 1,153 on" in text and "linear in n" in text
    frame = time_models.frame(default)
    assert frame.index[0].startswith("The post's model") and frame.iloc[2, 0] == "×482"


def test_the_checks_hold_at_the_posts_settings_whatever_the_controls(default):
    other = view.build(
        view.Settings(n=5, bytes_per_score=4, gpu="B200 (180 GB)", heads=9, t0_ms=1, d_in=3, d_k=2)
    )
    assert other.checks == default.checks
    rows = checks.rows(other.checks)
    assert len(rows) == 12 and all(r.ok for r in rows), [
        (r.label, r.quoted, r.live) for r in rows if not r.ok
    ]
    live = {r.label: r.live for r in rows}
    assert live["One head's multiply-adds, 1,024 → 1,047,576 tokens (768, 64)"] == "×493,048.40"
    assert live["Quadratic part wins from n = (d_in 768)"] == "1,153"


def test_bytes_heads_layers_and_the_card_move_the_bill():
    v = view.build(view.Settings(bytes_per_score=4, heads=12, layers=12, gpu="B200 (180 GB)"))
    nbytes = GPT41**2 * 4 * 144
    assert v.row.nbytes == nbytes and v.row.cards_to_buy == -(-nbytes // (180 * 10**9))
    assert v.row.seconds == view.build(view.Settings()).row.seconds  # time is per token, not per head


def test_the_gb_reading_of_the_h100_needs_more_cards():
    assert view.build(view.Settings(gpu="H100 (80 GB)")).row.cards_to_buy == 28  # 2,194,830,951,552 / 80·10⁹


def test_the_baseline_scales_the_time_per_token():
    assert cf.seconds(view.build(view.Settings(t0_ms=200)).row.seconds) == "209,315 s"  # 2 × 104,657.7
    assert cf.seconds(view.build(view.Settings(n=1_024, t0_ms=200)).row.seconds) == "200 ms"


def test_the_widths_move_the_flop_split_and_its_model():
    v = view.build(view.Settings(n=131_072, d_in=3, d_k=2))
    assert v.crossover == 5  # n > 1.5 · 3: the book's toy width turns quadratic at once
    assert (v.macs.linear, v.macs.quadratic) == (3 * 131_072 * 3 * 2, 2 * 131_072**2 * 2)
    frame = time_models.frame(v)
    assert "3·n·3·2 + 2·n²·2" in frame.index[1]
    assert frame.iloc[1, 0] == f"×{cf.fixed(arithmetic.flop_growth(131_072, 3, 2), 0)}"
    assert "from n = 5 on" in v.paragraph


@pytest.mark.parametrize(
    ("n", "nbytes", "cards"),
    [(1, 2, 1), (2_000_000, 8_000_000_000_000, 94), (2_097_152, 8_796_093_022_208, 103)],
)
def test_extreme_context_lengths(n, nbytes, cards):
    # 2,000,000² × 2 = 8·10¹² bytes; / 80 GiB = 93.13 → 94. 2²¹ tokens: 2⁴³ bytes = 102.4 cards → 103.
    v = view.build(view.Settings(n=n))
    assert (v.row.nbytes, v.row.cards_to_buy) == (nbytes, cards)
    assert n in [r.n for r in v.table] and sum(r.n == n for r in v.table) == 1


def test_every_setting_a_link_can_carry():
    v = view.build(view.Settings(8_192, 4, "A100 (80 GB)", 2, 3, 50, 1_024, 128))
    assert v.row.nbytes == 8_192**2 * 4 * 2 * 3 and v.row.cards_to_buy == 1
    assert cf.seconds(v.row.seconds) == "3.20 s"  # 0.05 s × 8²
    assert v.crossover == 1_537


# --- the cost table, from the view ----------------------------------------------------------------


def test_the_table_row_at_1024_by_hand(default):
    df = table.frame(default)
    row = df[df["n"] == 1_024].iloc[0]
    assert row["scores"] == "1,048,576"  # 1,024²
    assert row["bytes"] == "2,097,152"  # × 2 bytes
    assert row["size"] == "2 MiB"
    assert row["cards (ratio)"] == 2_097_152 / 85_899_345_920  # = 1/40,960 of an H100
    assert row["cards to buy"] == 1
    assert row["time per token (s)"] == 0.1
    assert row["time per token (h)"] == 0.1 / 3600
    assert not row["current"]


def test_the_table_row_at_gpt41_by_hand(default):
    df = table.frame(default)
    row = df[df["n"] == GPT41].iloc[0]
    assert row["scores"] == "1,097,415,475,776"  # (2²⁰ − 1,000)² = 2⁴⁰ − 2,000·2²⁰ + 10⁶
    assert row["bytes"] == "2,194,830,951,552"
    assert row["size"] == "1.996 TiB"
    assert round(row["cards (ratio)"], 2) == 25.55
    assert row["cards to buy"] == 26
    assert row["time per token (s)"] == pytest.approx(1_097_415_475_776 / 10 / 1_048_576, rel=1e-15)
    assert round(row["time per token (h)"], 2) == 29.07
    assert row["current"] and df["current"].sum() == 1
    assert list(df.columns) == list(table.COLUMNS)


def test_the_table_scales_with_heads_layers_and_bytes(default):
    base = table.frame(default)
    big = table.frame(view.build(view.Settings(bytes_per_score=4, heads=96, layers=96)))
    for small, large in zip(base["bytes"], big["bytes"], strict=True):
        assert int(large.replace(",", "")) == 2 * 96 * 96 * int(small.replace(",", ""))
    assert list(big["time per token (s)"]) == list(base["time per token (s)"])


def test_the_csv_holds_the_frame():
    df = table.frame(view.build(view.Settings(n=77, gpu="B200 (180 GB)")))
    back = pd.read_csv(io.BytesIO(table.csv(df)), dtype={"scores": str, "bytes": str})
    pd.testing.assert_frame_equal(back, df)


# --- the charts draw the view's values, as valid Plotly ---------------------------------------------


@pytest.mark.parametrize("n", [1, 1_024, GPT41, arithmetic.MAX_N])
def test_chart_specs_validate_and_draw_the_views_values(n):
    v = view.build(
        view.Settings(n=n, bytes_per_score=4, gpu="A100 (80 GB)", heads=128, layers=128, d_in=3, d_k=2)
    )
    for spec in (figures.memory_spec(v), figures.flops_spec(v)):
        go.Figure(spec)  # Plotly's own validation raises on any invalid property
        for trace in spec["data"]:
            assert all(math.isfinite(x) and x > 0 for x in (*trace["x"], *trace["y"]))
    memory = figures.memory_spec(v)["data"]
    assert (
        memory[0]["y"] == list(v.ladder_bytes) and memory[1]["x"] == [n] and memory[1]["y"] == [v.row.nbytes]
    )
    assert v.row.nbytes == arithmetic.attention_bytes(n, 4, 128, 128)
    assert {t["y"][0] for t in memory[2:]} == {g.memory_bytes for g in arithmetic.GPUS}
    assert memory[-1]["name"] == "A100 (80 GB)"  # the chosen card is drawn last, in the legend
    flops = figures.flops_spec(v)
    assert flops["data"][2]["y"] == [v.macs.linear, v.macs.quadratic]
    assert flops["layout"]["shapes"][0]["x0"] == v.crossover == 5


def test_the_ratios_stay_exact_fractions(default):
    assert isinstance(default.row.cards, Fraction) and isinstance(default.post_over_flops, Fraction)
    assert all(isinstance(m.growth, Fraction) and isinstance(m.seconds, Fraction) for m in default.models)
