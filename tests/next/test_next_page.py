"""The "What comes next" page through AppTest: it draws its view, and what only a running page shows
(widgets, the preset box's syncing, URL binding, inline messages, hostile URLs, the Reproduce
expander). The numbers themselves are tested on the view, in ``test_next_view.py``."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, all_match, assert_clean, charts, metrics, open_page, widget
from topics import page_at
from topics.next import block, equivariance, figures, script, view
from topics.next import text as prose
from topics.next.block import BlockConfig
from topics.next.view import Settings
from ui import checks as checks_ui
from ui import format as fmt
from ui.pages import SHARED_KEYS

PAGE = "topics/next/page.py"
PRESETS = list(block.GPT2_PRESETS)
ALL_KEYS = tuple(k for k in page_at("what-comes-next").keys if k not in SHARED_KEYS)  # sentence: elsewhere
FREE, MASKED = "Without the mask: max |P·f(X) − f(P·X)|", "With the causal mask: max |P·f(X) − f(P·X)|"


def shown(v: view.View) -> dict[str, str]:
    """Every readout the page should show for the view ``v``, as the page formats it."""
    p, kv = v.params, v.kv
    return {
        "Attention": fmt.integer(p.attention),
        "Feed-forward": fmt.integer(p.feed_forward),
        "Layer norms": fmt.integer(p.layer_norms),
        "Whole block": fmt.integer(p.total),
        FREE: prose.gap_readout(v.shuffle.free.gap, v.shuffle.limit),
        MASKED: prose.gap_readout(v.shuffle.masked.gap, v.shuffle.limit),
        "Cache size": figures.binary_size(kv.bytes),
        "Per token": fmt.count(kv.per_token, "byte"),
        f"At the full context, {fmt.count(v.block.context_length, 'token')}": figures.binary_size(kv.full),
        "Exceeds the blocks' weights from": fmt.count(kv.exceeds, "token"),
    }


def charts_are_finite(at: AppTest) -> bool:
    return all("NaN" not in c.proto.spec and "Infinity" not in c.proto.spec for c in charts(at))


@pytest.fixture(scope="module")
def default() -> AppTest:
    """The page as a link without a query opens it, its Reproduce expander open (as a click does)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.query_params.clear()
    at.session_state["reproduce_next"] = True
    return at.switch_page(PAGE).run()


def test_the_default_page_draws_its_view(default):
    assert_clean(default)
    v = view.build(Settings())
    assert metrics(default) == shown(v)
    assert widget(default, "block").value == "GPT-2 small (124M)"
    assert "Showing **GPT-2 small (124M)**: emb_dim 768, 12 heads of 64" in default.caption[0].value
    assert default.markdown[0].value == prose.lead(v)
    assert prose.order_text(v, Settings().labels) in [md.value for md in default.markdown]
    assert not default.warning
    assert len(charts(default)) == 5 and charts_are_finite(default)  # + the causal weights
    assert f"{v.kv.bytes:,}".replace(",", "{,}") in default.get("latex")[-1].value


def test_the_checks_expander_quotes_the_post_beside_live_values(default):
    (exp,) = [e for e in default.expander if e.label.startswith("Checks against the sources")]
    assert sum(checks_ui.parse_title(exp.label).values()) == 4 and "0 differ" in exp.label
    table = " ".join(md.value for md in exp.markdown)
    assert table.count("`2,360,064`") == 2 and table.count("`4,722,432`") == 2 and "❌" not in table
    assert (
        "| the post | `no per-position computation at all` | `[0.3190, 0.4858]` | `[0.3190, 0.4858]` | ✅"
        in table
    )


def test_the_reproduce_expander_shows_the_views_script(default):
    s = Settings()
    expected = script.for_view(s, view.build(s))
    (box,) = [e for e in default.expander if e.label.startswith("Reproduce in")]
    assert box.label == "Reproduce in PyTorch"
    assert [c.value for c in box.code] == [expected.code.rstrip("\n")]  # st.code drops the final newline
    (button,) = [b for b in default.get("download_button") if b.key == "reproduce_next_download"]
    assert expected.filename in button.proto.label


def test_the_preset_box_writes_the_widgets_and_the_url():
    at = open_page(PAGE)
    for name in [*PRESETS[1:], PRESETS[0]]:
        widget(at, "block").set_value(name).run()
        assert_clean(at)
        cfg = block.GPT2_PRESETS[name]
        assert tuple(widget(at, k).value for k in ("emb_dim", "n_heads", "n_layers")) == (
            cfg.emb_dim,
            cfg.n_heads,
            cfg.n_layers,
        )
        assert metrics(at) == shown(view.build(Settings(block=cfg)))
        # The callback's writes reach the URL, so the view is a share link (the browser writes the
        # preset box itself; AppTest does not play the browser's part, and defaults stay out of the URL).
        if cfg != BlockConfig():
            assert at.query_params.get("emb_dim") in (str(cfg.emb_dim), [str(cfg.emb_dim)])
        assert all_match(next(e.label for e in at.expander if e.label.startswith("Checks")), 4)


def test_the_block_controls_sync_the_preset_box_and_move_the_readouts():
    at = open_page(PAGE)
    steps = [
        ("emb_dim", 1536, "Custom", BlockConfig(emb_dim=1536)),
        ("emb_dim", 768, "GPT-2 small (124M)", BlockConfig()),
        ("qkv_bias", True, "GPT-2 small (124M)", BlockConfig(qkv_bias=True)),
        ("ff_mult", 2, "Custom", BlockConfig(qkv_bias=True, ff_mult=2)),
    ]
    for key, value, preset, cfg in steps:
        widget(at, key).set_value(value).run()
        assert_clean(at)
        assert widget(at, "block").value == preset
        v = view.build(Settings(block=cfg))
        assert metrics(at) == shown(v)
        assert at.markdown[0].value == prose.lead(v)  # the feed-forward's share follows the block


def test_heads_that_do_not_divide_the_width_warn_and_keep_the_last_good_config():
    at = open_page(PAGE)
    widget(at, "block").set_value("GPT-2 medium (355M)").run()
    medium = metrics(at)
    widget(at, "n_heads").set_value(7).run()
    assert_clean(at)
    assert len(at.warning) == 1 and "divisible" in at.warning[0].value
    assert metrics(at) == medium
    widget(at, "n_heads").set_value(16).run()
    assert not at.warning


Query = dict[str, str | list[str]]
EVERY_KEY: Query = {
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
    "next_focus": "journey",
    "next_cell": "starts",
}
LARGEST: Query = {
    "emb_dim": "16384",
    "n_heads": "256",
    "n_layers": "256",
    "context_length": "2097152",
    "ff_mult": "16",
    "kv_tokens": "2097152",
    "kv_bytes": "4 (float32)",
    "kv_batch": "4096",
}
INTEGERS = ("emb_dim", "n_heads", "n_layers", "context_length", "ff_mult", "kv_tokens", "kv_batch")
URLS: dict[str, tuple[Query, Settings]] = {  # case: (query, the view it shows)
    "every bound key": (
        EVERY_KEY,
        Settings(
            block=BlockConfig(1024, 8, 6, 4096, True, 3),
            perm=(1, 0, 2, 3, 4, 5),
            focus=1,
            kv_tokens=8192,
            kv_bytes=4,
            kv_batch=2,
            cell=2,
        ),
    ),
    "a preset": (
        {"block": PRESETS[3], "emb_dim": "1600", "n_heads": "25", "n_layers": "48"},
        Settings(block=block.GPT2_PRESETS[PRESETS[3]]),
    ),
    "the largest settings": (
        LARGEST,
        Settings(
            block=BlockConfig(16_384, 256, 256, 2_097_152, False, 16),
            kv_tokens=2_097_152,
            kv_bytes=4,
            kv_batch=4096,
        ),
    ),
    "the smallest settings": (
        dict.fromkeys(INTEGERS, "1"),
        Settings(block=BlockConfig(1, 1, 1, 1, False, 1), kv_tokens=1, kv_batch=1),
    ),
}


@pytest.mark.parametrize("case", list(URLS))
def test_a_url_renders_its_view(case):
    query, settings = URLS[case]
    at = open_page(PAGE, query)
    assert_clean(at)
    v = view.build(settings)
    assert metrics(at) == shown(v)
    assert charts_are_finite(at)
    if case == "every bound key":
        assert widget(at, "block").value == "Custom"
        # 8,192 tokens asked for, but the context length (4,096) caps what the model can cache.
        assert len(at.warning) == 1 and "context length" in at.warning[0].value
        assert v.shuffle.focus is not None
        assert prose.focus_text(v.shuffle.focus, settings.labels) in [md.value for md in at.markdown]
        assert v.shuffle.cell is not None and v.shuffle.cell.score in [md.value for md in at.markdown]


def test_the_context_length_caps_the_kv_cache_and_says_so():
    at = open_page(PAGE, {"kv_tokens": "8192"})
    assert_clean(at)
    assert metrics(at) == shown(view.build(Settings(kv_tokens=8192)))
    assert any("context length" in w.value for w in at.warning)
    widget(at, "context_length").set_value(16_384).run()
    assert_clean(at)
    longer = Settings(block=BlockConfig(context_length=16_384), kv_tokens=8192)
    assert metrics(at) == shown(view.build(longer))
    assert not at.warning


def test_typed_orders_drive_both_gaps():
    at = open_page(PAGE)
    for text in ("2 1 3 4 5 6", "journey Your starts with one step", "1 2 3 4 5 6", "3,1,2,6,4,5"):
        widget(at, "perm").set_value(text).run()
        assert_clean(at)
        assert not at.warning
        perm = equivariance.parse_permutation(text, view.Settings().labels)
        v = view.build(Settings(perm=perm))
        assert (metrics(at)[FREE], metrics(at)[MASKED]) == (shown(v)[FREE], shown(v)[MASKED])


def test_a_bad_order_shows_a_message_and_keeps_the_last_good_one():
    at = open_page(PAGE)
    widget(at, "perm").set_value("2 1 3 4 5 6").run()
    good = metrics(at)
    for bad in ("1 1 2 3 4 5", "1 2 3", "", "__import__('os').system('x')", "9" * 500, "🙂 " * 6):
        widget(at, "perm").set_value(bad).run()
        assert_clean(at)
        assert len(at.warning) == 1 and "Showing the last valid order, 2 1 3 4 5 6." in at.warning[0].value
        assert metrics(at) == good


def test_shuffle_writes_a_new_valid_order():
    at = open_page(PAGE)
    seen = set()
    for _ in range(3):
        next(b for b in at.button if b.key == "shuffle").click().run()
        assert_clean(at)
        assert not at.warning
        perm = equivariance.parse_permutation(widget(at, "perm").value, view.Settings().labels)
        assert perm != tuple(range(6))
        assert metrics(at)[MASKED] == shown(view.build(Settings(perm=perm)))[MASKED]
        seen.add(perm)
    assert len(seen) == 3


HOSTILE = ["", "nan", "inf", "-inf", "-1", "0", "1e999", "99999999999999999999", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", HOSTILE)
def test_hostile_values_in_every_key_render_the_default_view(junk):
    at = open_page(PAGE, dict.fromkeys(ALL_KEYS, junk))
    assert_clean(at)
    assert metrics(at) == shown(view.build(Settings()))
    # A junk order is shown as an inline message, never an error.
    assert all("Showing the last valid order" in w.value for w in at.warning)


def test_hostile_values_one_key_at_a_time_keep_the_others():
    # A good emb_dim survives a junk n_heads: the junk one alone falls back.
    at = open_page(PAGE, {"emb_dim": "1536", "n_heads": "1e999", "n_layers": "inf"})
    assert_clean(at)
    assert metrics(at) == shown(view.build(Settings(block=BlockConfig(emb_dim=1536))))
