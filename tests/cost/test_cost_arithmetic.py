"""Figure 06's arithmetic (topics/cost/arithmetic.py) and its exact formatting: the post's numbers
exactly, counts that never round, the FLOP split, the ladders.

What the page shows from them is tested on its view: test_cost_view.py.
"""

import itertools
from fractions import Fraction
from math import floor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from topics.cost import arithmetic as cost
from topics.cost import format as cost_format

GPT41 = 1_047_576
H100 = cost.gpu("H100 (80 GiB)")


# --- The post's numbers for figure 06, exactly -------------------------------------------------


def test_one_head_at_1024_tokens_two_bytes_a_score_is_2_mib():
    nbytes = cost.attention_bytes(1_024, 2)
    assert nbytes == 2 * 1024 * 1024
    assert cost_format.binary_size(nbytes) == "2 MiB"


def test_one_head_at_gpt41_window_is_2194830951552_bytes_about_2_tib():
    nbytes = cost.attention_bytes(GPT41, 2)
    assert type(nbytes) is int
    assert nbytes == 2_194_830_951_552
    assert round(Fraction(nbytes, 2**40)) == 2
    assert cost_format.binary_size(nbytes).endswith(" TiB")


def test_h100_cards_at_80_gib_are_25_55_rounded_up_to_26():
    assert H100.memory_bytes == 80 * 2**30
    ratio = cost.cards(2_194_830_951_552, H100.memory_bytes)
    assert isinstance(ratio, Fraction)
    assert ratio == Fraction(2_194_830_951_552, 85_899_345_920)
    assert cost_format.fixed(ratio, 2) == "25.55"
    assert cost.cards_to_buy(2_194_830_951_552, H100.memory_bytes) == 26
    assert floor(ratio) == 25  # Giles Thomas's "25 H100 cards"


def test_time_per_token_exact_scaling_is_104658_s_or_29_07_h():
    t = cost.time_per_token(GPT41)
    assert t == Fraction(1, 10) * Fraction(GPT41, 1_024) ** 2
    assert round(t) == 104_658
    assert cost_format.seconds(t) == "104,658 s"
    assert cost_format.hours(t) == "29.07 h"


def test_the_posts_rounded_time_is_about_28_h_and_not_the_exact_one():
    rounded = cost.post_rounded_time()
    assert rounded == 100_000
    assert round(rounded / 3600) == 28
    assert round(cost.time_per_token(GPT41) / 3600) == 29


def test_the_causal_mask_discards_just_under_half():
    assert cost.causal_live_cells(GPT41) == GPT41 * (GPT41 + 1) // 2
    share = cost.masked_share(GPT41)
    assert Fraction(49, 100) < share < Fraction(1, 2)


# --- Exact arithmetic --------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [1024.0, True, "1024", None, Fraction(1024)])
def test_counts_must_be_exact_ints(bad):
    with pytest.raises(ValueError, match="must be an int"):
        cost.attention_bytes(bad)


@pytest.mark.parametrize(("kwargs", "word"), [({"n": 0}, "n"), ({"n": 8, "heads": 0}, "heads")])
def test_counts_must_be_positive(kwargs, word):
    with pytest.raises(ValueError, match=f"{word} must be at least 1"):
        cost.scores(**kwargs)


def test_unknown_gpu_and_bad_baseline_say_what_to_do():
    with pytest.raises(ValueError, match="choose one of"):
        cost.gpu("H800")
    with pytest.raises(ValueError, match="positive"):
        cost.time_per_token(1_024, Fraction(0))


@given(st.integers(1, 2**40), st.sampled_from([1, 2, 4]), st.integers(1, 128), st.integers(1, 128))
def test_bytes_are_exact_past_float_precision(n, b, h, layers):
    nbytes = cost.attention_bytes(n, b, h, layers)
    assert nbytes == n * n * b * h * layers
    assert nbytes // (n * b * h * layers) == n  # no rounding anywhere, even past 2**53


@given(st.integers(0, 10**30), st.integers(1, 10**15))
def test_cards_to_buy_is_the_ceiling_of_the_ratio(nbytes, memory):
    buy = cost.cards_to_buy(nbytes, memory)
    assert buy - 1 < cost.cards(nbytes, memory) <= buy


@given(st.integers(1, 2**22))
def test_time_is_quadratic_from_the_baseline(n):
    t = cost.time_per_token(n)
    assert cost.time_per_token(2 * n) == 4 * t
    assert cost.time_per_token(1_024) == Fraction(1, 10)


@given(st.integers(1, 300))
def test_causal_live_cells_count_the_lower_triangle(n):
    assert cost.causal_live_cells(n) == int(np.tril(np.ones((n, n), dtype=bool)).sum())


@pytest.mark.parametrize(("text", "value"), [("80 GiB", 80 * 2**30), ("80 GB", 80 * 10**9)])
def test_gib_and_gb_readings_of_80_differ(text, value):
    (g,) = [g for g in cost.GPUS if g.name == f"H100 ({text})"]
    assert g.memory_bytes == value
    assert g.unit in text


def test_every_gpu_memory_matches_the_unit_it_names():
    for g in cost.GPUS:
        amount, unit = g.name.split("(")[1].rstrip(")").split()
        assert unit == g.unit
        assert g.memory_bytes == int(amount) * {"GiB": 2**30, "GB": 10**9}[unit], g.name
        assert g.source and g.stated
    assert len(set(cost.GPU_NAMES)) == len(cost.GPUS)


# --- FLOP split --------------------------------------------------------------------------------


def test_head_macs_for_the_books_toy_head():
    m = cost.head_macs(6, 3, 2)
    assert (m.projections, m.scores, m.mix) == (3 * 6 * 3 * 2, 6 * 2 * 6, 6 * 6 * 2)
    assert m.total == m.linear + m.quadratic


def test_gpt2_small_crossover_is_at_1153():
    assert cost.crossover(768, 64) == 1_153  # n > 1.5 · 768 = 1,152


@given(st.integers(1, 20_000), st.integers(1, 512), st.integers(1, 512))
def test_crossover_is_the_first_n_where_quadratic_wins(d_in, d_k, d_v):
    n = cost.crossover(d_in, d_k, d_v)
    assert cost.head_macs(n, d_in, d_k, d_v).quadratic > cost.head_macs(n, d_in, d_k, d_v).linear
    if n > 1:
        before = cost.head_macs(n - 1, d_in, d_k, d_v)
        assert before.quadratic <= before.linear


def test_macs_match_pytorchs_flop_counter():
    torch = pytest.importorskip("torch")
    from torch.utils.flop_counter import FlopCounterMode

    n, d_in, d_k, d_v = 37, 24, 8, 5
    x = torch.rand(n, d_in)
    wq, wk, wv = torch.rand(d_in, d_k), torch.rand(d_in, d_k), torch.rand(d_in, d_v)
    with FlopCounterMode(display=False) as counter:
        q, k, v = x @ wq, x @ wk, x @ wv
        a = torch.softmax(q @ k.T / d_k**0.5, dim=-1)
        _ = a @ v
    assert counter.get_total_flops() == 2 * cost.head_macs(n, d_in, d_k, d_v).total  # FLOPs = 2 × MACs


def test_bytes_match_a_torch_tensor_of_the_scores():
    torch = pytest.importorskip("torch")
    for n, dtype, b in ((1, torch.float32, 4), (1_024, torch.bfloat16, 2), (300, torch.float8_e4m3fn, 1)):
        t = torch.empty((3, 2, n, n), dtype=dtype)  # [layers, heads, n, n]
        assert t.untyped_storage().nbytes() == cost.attention_bytes(n, b, heads=2, layers=3)


# --- Ladders and the cost table ----------------------------------------------------------------


def test_context_ladder_is_log_spaced_and_holds_every_named_length():
    ladder = cost.context_ladder()
    assert ladder[0] == 1 and ladder[-1] == cost.MAX_N == 2_097_152
    assert all(a < b for a, b in itertools.pairwise(ladder))
    assert {*cost.PRESETS.values(), 2_000_000, 1_000_000} <= set(ladder)
    ratios = [b / a for a, b in itertools.pairwise(ladder) if a >= 64]
    assert max(ratios) <= 2 ** (1 / 8) + 0.01  # fine: at most one eighth of an octave apart


def test_table_ladder_is_the_powers_of_two_from_1024_to_2097152():
    assert cost.table_ladder() == tuple(2**k for k in range(10, 22))
    with pytest.raises(ValueError, match="power of two"):
        cost.table_ladder(1_000)


def test_cost_table_adds_the_current_n_once():
    assert [r.n for r in cost.cost_table(cost.CostConfig(n=2_048))] == list(cost.table_ladder())
    rows = cost.cost_table(cost.CostConfig(n=5))
    assert [r.n for r in rows] == [5, *cost.table_ladder()]


# --- Formatting exact values -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(1, 8), 2, "0.13"),
        (Fraction(-1, 8), 2, "-0.13"),
        (Fraction(10**20 + 1, 2), 0, "50,000,000,000,000,000,001"),
    ],
)
def test_fixed_rounds_half_up_exactly(value, places, text):
    assert cost_format.fixed(value, places) == text


@pytest.mark.parametrize(
    ("nbytes", "text"), [(1, "1 B"), (1_536, "1.500 KiB"), (2**53 + 1, "8.000 PiB"), (0, "0 B")]
)
def test_binary_size(nbytes, text):
    assert cost_format.binary_size(nbytes) == text


@pytest.mark.parametrize(
    ("t", "text"),
    [(Fraction(4, 10), "400 ms"), (Fraction(1, 10) / 1_024**2, "95.4 ns"), (Fraction(256, 10), "25.60 s")],
)
def test_seconds_picks_a_readable_unit(t, text):
    assert cost_format.seconds(t) == text


# --- issue #13, item 5: the post's time model against one head's multiply-adds -----------------


def test_one_heads_multiply_adds_grow_493048_fold_where_the_posts_model_says_1046577():
    growth = cost.flop_growth(GPT41, 768, 64)
    assert growth == Fraction(
        3 * GPT41 * 768 * 64 + 2 * GPT41**2 * 64, 3 * 1024 * 768 * 64 + 2 * 1024**2 * 64
    )
    assert round(growth) == 493_048
    assert round(Fraction(GPT41, 1024) ** 2) == 1_046_577
    assert cost.crossover(768, 64) == 1_153


def test_the_flop_model_turns_the_posts_baseline_into_13_70_hours_not_29_07():
    t = cost.flop_time_per_token(GPT41, 768, 64)
    assert round(float(t)) == 49_305 and cost_format.hours(t) == "13.70 h"
    assert cost_format.hours(cost.time_per_token(GPT41)) == "29.07 h"  # the post's model, kept as the post's
    with pytest.raises(ValueError, match="positive"):
        cost.flop_time_per_token(GPT41, 768, 64, Fraction(0))


def test_with_a_kv_cache_a_new_tokens_attention_is_linear_in_n():
    a, b, c = (cost.cached_token_macs(n, 768, 64) for n in (1_000, 2_000, 3_000))
    assert b - a == c - b == 1_000 * 2 * 64  # constant steps: linear
    assert cost.cached_token_macs(1, 768, 64) == cost.token_projection_macs(768, 64) + 2 * 64
    assert cost.token_projection_macs(768, 64) == 768 * 3 * 64
    assert round(cost.cached_growth(GPT41, 768, 64)) == 482
    # without the cache, recomputing the prefix grows like the full forward
    assert cost.flop_growth(GPT41, 768, 64) > 1_000 * cost.cached_growth(GPT41, 768, 64)
