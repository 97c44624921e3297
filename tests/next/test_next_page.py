"""The "What comes next" page (figure 07) through AppTest: numbers, controls, URLs, hostile input."""

import pytest

from core import block, equivariance, limits, tokens, weights
from core.block import BlockConfig
from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics import page_at
from ui.next_figures import binary_size
from ui.pages import SHARED_KEYS

PAGE = "topics/next/page.py"
PRESETS = list(block.GPT2_PRESETS)
INT_KEYS = ("emb_dim", "n_heads", "n_layers", "context_length", "ff_mult", "kv_tokens", "kv_batch")
ALL_KEYS = tuple(
    k for k in page_at("what-comes-next").keys if k not in SHARED_KEYS
)  # sentence: test_sentence


@pytest.fixture(scope="module")
def default():
    return open_page(PAGE)


def checks_label(at) -> str:
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    return exp.label


def gaps(at) -> tuple[str, str]:
    m = metrics(at)
    return m["Without the mask: max |P·f(X) − f(P·X)|"], m["With the causal mask: max |P·f(X) − f(P·X)|"]


def live_gap(perm, causal) -> str:
    r = equivariance.permutation_test(tokens.inputs(), weights.section_3_4(), perm, causal)
    return f"{r.gap:.4f}"


def test_default_view_shows_the_posts_two_counts(default):
    assert_clean(default)
    m = metrics(default)
    assert m["Attention"] == "2,360,064"
    assert m["Feed-forward"] == "4,722,432"
    assert "4 of 4 match" in checks_label(default)
    assert widget(default, "block").value == "GPT-2 small (124M)"
    assert "GPT-2 small (124M)" in " ".join(c.value for c in default.caption)
    assert not default.warning


def test_the_checks_expander_quotes_the_post_beside_live_values(default):
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the book")]
    table = " ".join(md.value for md in exp.markdown)
    assert table.count("`2,360,064`") == 2 and table.count("`4,722,432`") == 2
    assert "❌" not in table


def test_default_permutation_demo_shows_zero_without_the_mask_and_not_with_it(default):
    free, masked = gaps(default)
    assert free == "0.0000"
    assert masked == live_gap((5, 4, 3, 2, 1, 0), causal=True) != "0.0000"
    text = " ".join(md.value for md in default.markdown)
    assert "position embeddings" in text
    assert "step one with starts journey Your" in text


def test_the_page_lists_what_the_module_still_lacks(default):
    lead = default.markdown[0].value
    for item in ("residual connection", "layer norm", "feed-forward network", "KV cache"):
        assert item in lead


def test_kv_cache_default_readouts(default):
    m = metrics(default)
    cache = block.kv_cache_bytes(12, 1024, 768, 2, 1)
    assert m["Cache size"] == binary_size(cache) == "36.00 MiB"
    assert m["Per token"] == f"{block.kv_cache_bytes(12, 1, 768, 2, 1):,} bytes"
    assert f"{cache:,}".replace(",", "{,}") in default.get("latex")[-1].value


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_writes_the_widgets_and_the_counts(name):
    at = open_page(PAGE)
    widget(at, "block").set_value(name).run()
    assert_clean(at)
    cfg = block.GPT2_PRESETS[name]
    assert (widget(at, "emb_dim").value, widget(at, "n_heads").value, widget(at, "n_layers").value) == (
        cfg.emb_dim,
        cfg.n_heads,
        cfg.n_layers,
    )
    p = block.block_params(cfg)
    m = metrics(at)
    assert m["Attention"] == f"{p.attention:,}" and m["Feed-forward"] == f"{p.feed_forward:,}"
    assert m["Whole block"] == f"{p.total:,}"
    # The callback's writes reach the URL, so the view is a share link (the browser writes the
    # preset box itself; AppTest does not play the browser's part, and defaults stay out of the URL).
    if cfg != BlockConfig():
        assert at.query_params.get("emb_dim") in (str(cfg.emb_dim), [str(cfg.emb_dim)])
    assert "4 of 4 match" in checks_label(at)  # the checks stay at GPT-2 small


def test_moving_a_width_makes_the_preset_custom_and_back():
    at = open_page(PAGE)
    widget(at, "emb_dim").set_value(1536).run()
    assert widget(at, "block").value == "Custom"
    assert metrics(at)["Attention"] == f"{block.block_params(BlockConfig(emb_dim=1536)).attention:,}"
    widget(at, "emb_dim").set_value(768).run()
    assert widget(at, "block").value == "GPT-2 small (124M)"
    assert metrics(at)["Attention"] == "2,360,064"


def test_qkv_bias_adds_three_bias_vectors():
    at = open_page(PAGE)
    widget(at, "qkv_bias").set_value(True).run()
    assert metrics(at)["Attention"] == f"{2_360_064 + 3 * 768:,}"
    assert widget(at, "block").value == "GPT-2 small (124M)"


def test_feed_forward_multiplier_moves_only_the_feed_forward():
    at = open_page(PAGE)
    widget(at, "ff_mult").set_value(2).run()
    m = metrics(at)
    assert m["Attention"] == "2,360,064"
    assert m["Feed-forward"] == f"{block.block_params(BlockConfig(ff_mult=2)).feed_forward:,}"


def test_heads_that_do_not_divide_the_width_warn_and_keep_the_last_good_config():
    at = open_page(PAGE)
    widget(at, "block").set_value("GPT-2 medium (355M)").run()
    medium = metrics(at)["Attention"]
    widget(at, "n_heads").set_value(7).run()
    assert_clean(at)
    assert any("divisible" in w.value for w in at.warning)
    assert metrics(at)["Attention"] == medium
    widget(at, "n_heads").set_value(16).run()
    assert not at.warning


def test_extreme_values_render_without_nan():
    at = open_page(PAGE)
    for key, value in (
        ("emb_dim", 16_384),
        ("n_heads", 256),
        ("n_layers", 256),
        ("context_length", 2_097_152),
        ("ff_mult", 16),
        ("kv_tokens", 2_097_152),
        ("kv_batch", 4096),
    ):
        widget(at, key).set_value(value).run()
    widget(at, "kv_bytes").set_value(4).run()
    assert_clean(at)
    cache = block.kv_cache_bytes(256, 2_097_152, 16_384, 4, 4096)
    assert metrics(at)["Cache size"] == binary_size(cache)
    cfg = BlockConfig(16_384, 256, 256, 2_097_152, False, 16)
    assert metrics(at)["Whole block"] == f"{block.block_params(cfg).total:,}"
    for chart in at.get("plotly_chart"):
        assert "NaN" not in chart.proto.spec and "Infinity" not in chart.proto.spec


def test_smallest_values_render():
    at = open_page(PAGE, dict.fromkeys(INT_KEYS, "1"))
    assert_clean(at)
    cfg = BlockConfig(1, 1, 1, 1, False, 1)
    assert metrics(at)["Whole block"] == f"{block.block_params(cfg).total:,}"
    assert metrics(at)["Cache size"] == binary_size(block.kv_cache_bytes(1, 1, 1, 2, 1))


@pytest.mark.parametrize(
    "text", ["2 1 3 4 5 6", "journey Your starts with one step", "1 2 3 4 5 6", "3,1,2,6,4,5"]
)
def test_a_typed_order_drives_both_gaps(text):
    at = open_page(PAGE)
    widget(at, "perm").set_value(text).run()
    assert_clean(at)
    assert not at.warning
    perm = equivariance.parse_permutation(text, tokens.TOKENS)
    assert gaps(at) == ("0.0000", live_gap(perm, causal=True))
    identity = perm == tuple(range(6))
    assert (gaps(at)[1] == "0.0000") == identity


@pytest.mark.parametrize(
    "bad", ["1 1 2 3 4 5", "1 2 3", "", "__import__('os').system('x')", "9" * 500, "🙂 " * 6]
)
def test_a_bad_order_shows_a_message_and_keeps_the_last_good_one(bad):
    at = open_page(PAGE)
    widget(at, "perm").set_value("2 1 3 4 5 6").run()
    good = gaps(at)
    widget(at, "perm").set_value(bad).run()
    assert_clean(at)
    assert len(at.warning) == 1 and "2 1 3 4 5 6" in at.warning[0].value
    assert gaps(at) == good


def test_shuffle_writes_a_new_valid_order():
    at = open_page(PAGE)
    seen = set()
    for _ in range(3):
        next(b for b in at.button if b.key == "shuffle").click().run()
        assert_clean(at)
        assert not at.warning
        perm = equivariance.parse_permutation(widget(at, "perm").value, tokens.TOKENS)
        assert perm != tuple(range(6))
        assert gaps(at)[1] == live_gap(perm, causal=True)
        seen.add(perm)
    assert len(seen) == 3


def test_a_url_with_every_bound_key_renders_that_view():
    query = {
        "block": "Custom",
        "emb_dim": "1024",
        "n_heads": "8",
        "n_layers": "6",
        "context_length": "4096",
        "ff_mult": "3",
        "qkv_bias": "true",
        "kv_tokens": "8192",
        "kv_bytes": "4 (float32)",
        "kv_batch": "2",
        "perm": "2 1 3 4 5 6",
    }
    at = open_page(PAGE, query)
    assert_clean(at)
    cfg = BlockConfig(1024, 8, 6, 4096, True, 3)
    p = block.block_params(cfg)
    m = metrics(at)
    assert (m["Attention"], m["Feed-forward"]) == (f"{p.attention:,}", f"{p.feed_forward:,}")
    # 8,192 tokens asked for, but the context length (4,096) caps what the model can cache.
    assert m["Cache size"] == binary_size(block.kv_cache_bytes(6, 4096, 1024, 4, 2))
    assert any("context length" in w.value for w in at.warning)
    assert gaps(at)[1] == live_gap((1, 0, 2, 3, 4, 5), causal=True)
    assert widget(at, "block").value == "Custom"


def test_the_context_length_caps_the_kv_cache():
    at = open_page(PAGE, {"kv_tokens": "8192"})
    assert_clean(at)
    full = binary_size(block.kv_cache_bytes(12, 1024, 768, 2, 1))  # GPT-2 small: context 1,024
    m = metrics(at)
    assert m["Cache size"] == m["At the full context, 1,024 tokens"] == full
    widget(at, "context_length").set_value(16_384).run()
    assert_clean(at)
    m = metrics(at)
    assert m["Cache size"] == binary_size(block.kv_cache_bytes(12, 8192, 768, 2, 1))
    assert m["At the full context, 16,384 tokens"] == binary_size(block.kv_cache_bytes(12, 16_384, 768, 2, 1))
    assert not any("context length" in w.value for w in at.warning)


def test_a_preset_url_matches_its_preset():
    at = open_page(PAGE, {"block": PRESETS[3], "emb_dim": "1600", "n_heads": "25", "n_layers": "48"})
    assert_clean(at)
    assert metrics(at)["Attention"] == f"{block.block_params(block.GPT2_PRESETS[PRESETS[3]]).attention:,}"


HOSTILE = ["", "nan", "inf", "-inf", "-1", "0", "1e999", "99999999999999999999", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", HOSTILE)
def test_hostile_values_in_every_key_render_the_default_view(junk, default):
    at = open_page(PAGE, dict.fromkeys(ALL_KEYS, junk))
    assert_clean(at)
    assert metrics(at) == metrics(default)
    # A junk order is shown as an inline message, never an error.
    assert all("Showing the last valid order" in w.value for w in at.warning)


def test_hostile_values_one_key_at_a_time_keep_the_others():
    # A good emb_dim survives a junk n_heads: the junk one alone falls back.
    at = open_page(PAGE, {"emb_dim": "1536", "n_heads": "1e999", "n_layers": "inf"})
    assert_clean(at)
    assert metrics(at)["Attention"] == f"{block.block_params(BlockConfig(emb_dim=1536)).attention:,}"


def test_no_chart_carries_a_non_finite_number(default):
    for chart in default.get("plotly_chart"):
        assert "NaN" not in chart.proto.spec and "Infinity" not in chart.proto.spec
    assert len(default.get("plotly_chart")) == 4


# --- issue #13, item 9: what is true beside what the post says ------------------------------------


def _text(at) -> str:
    return " ".join(md.value for md in at.markdown)


def test_attention_does_no_per_position_nonlinear_computation_and_the_page_shows_it(default):
    lead = default.markdown[0].value
    assert "no per-position *nonlinear* computation" in lead
    assert "“no per-position computation at all” overstates it" in lead
    text = _text(default)
    assert (
        "returns [0.3190, 0.4858] for it: exactly `out_proj`($W_v x_1$) = [0.3190, 0.4858], a gap of 0"
        in text
    )
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the book")]
    rows = " ".join(md.value for md in exp.markdown)
    assert (
        "| the post | `no per-position computation at all` | `[0.3190, 0.4858]` | `[0.3190, 0.4858]` | ✅"
        in rows
    )


def test_the_kv_cache_has_the_books_three_costs_not_memory_alone(default):
    lead, text = default.markdown[0].value, _text(default)
    assert "“because it increases memory requirements”" in lead  # the post's reason, as the post's
    assert "adds complexity to the code, increases memory use, and cannot be used during training" in lead
    assert "can't be used during training" in text and "ch04/03_kv-cache/README.md" in text


def test_never_how_far_back_is_said_of_one_layer_and_two_layers_are_measured(default):
    text = _text(default)
    assert "In one layer, the mask tells a token which others came before it, never how far back" in text
    stack = limits.prefix_shuffle(tokens.inputs(), limits.stack_weights(), (4, 3, 2, 1, 0, 5))
    assert f"after two stacked layers by {stack.two_layers:.4f}" in text


def test_the_feed_forward_share_in_the_lead_follows_the_block():
    at = open_page(PAGE)
    assert "holds 66.6% of this block's parameters" in at.markdown[0].value
    widget(at, "ff_mult").set_value(2).run()
    p = block.block_params(BlockConfig(ff_mult=2))
    assert f"holds {100 * p.feed_forward / p.total:.1f}% of this block's parameters" in at.markdown[0].value
