"""Issue #24 on "What comes next": each item's test failed on the page as it was before the fix.

Item 1: a link naming a preset (``?block=``, or the legacy ``?preset=``) shows that preset's numbers.
Item 2: the cache "equals" the blocks' weights at one count and "exceeds" them from the next.
Item 3: the unmasked gap is rounding noise, shown as a bound, never as a value.
Item 10: the largest change names what happened to its token; two stacked layers are two layers.
Item 11 is the Reproduce oracle itself (``test_next_reproduce.py``): the script prints the differences.
"""

from __future__ import annotations

import pytest

from core import tokens
from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics.next import block, view
from topics.next import text as prose
from topics.next.block import BlockConfig
from topics.next.controls import CUSTOM as BOX_CUSTOM
from topics.next.view import Settings
from ui import format as fmt

PAGE = "topics/next/page.py"
PRESETS = list(block.GPT2_PRESETS)
T = tokens.TOKENS


def box_name(v: view.View) -> str:
    """What the preset box should say for the view on screen."""
    return BOX_CUSTOM if v.name == view.CUSTOM else v.name


def assert_shows(at, cfg: BlockConfig) -> None:
    v = view.build(Settings(block=cfg))
    assert_clean(at)
    m = metrics(at)
    assert m["Attention"] == fmt.integer(v.params.attention)
    assert m["Whole block"] == fmt.integer(v.params.total)
    assert f"Showing **{v.name}**: emb_dim {cfg.emb_dim:,}" in at.caption[0].value
    assert widget(at, "block").value == box_name(v)
    assert tuple(widget(at, k).value for k in ("emb_dim", "n_heads", "n_layers")) == (
        cfg.emb_dim,
        cfg.n_heads,
        cfg.n_layers,
    )


# --- item 1 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["block", "preset"])  # the current key, and the legacy one
@pytest.mark.parametrize("name", PRESETS)
def test_a_link_naming_a_preset_shows_that_presets_numbers(key, name):
    assert_shows(open_page(PAGE, {key: name}), block.GPT2_PRESETS[name])


def test_a_link_naming_custom_and_no_values_names_the_block_it_shows():
    assert_shows(open_page(PAGE, {"block": BOX_CUSTOM}), BlockConfig())


def test_a_link_with_a_presets_values_and_no_preset_names_the_preset():
    at = open_page(PAGE, {"emb_dim": "1600", "n_heads": "25", "n_layers": "48"})
    assert_shows(at, block.GPT2_PRESETS["GPT-2 XL (1558M)"])


def test_a_link_with_a_preset_and_one_changed_value_is_custom_from_that_preset():
    at = open_page(PAGE, {"block": "GPT-2 XL (1558M)", "n_layers": "24"})
    assert_shows(at, BlockConfig(1600, 25, 24))


# --- item 2 -----------------------------------------------------------------------------------------


def test_the_cache_equals_the_weights_at_4613_tokens_and_exceeds_them_from_4614():
    v = view.build(Settings())
    kv = v.kv
    size = kv.per_token  # bytes per token at this batch
    assert (kv.equal_at, kv.exceeds) == (4_613, 4_614)
    assert 4_613 * size == kv.weight_bytes == 170_053_632
    assert kv.exceeds * size > kv.weight_bytes >= (kv.exceeds - 1) * size
    text = prose.kv_text(v)
    assert "At 4,613 tokens the cache equals the blocks' weights (170,053,632 bytes each)" in text
    assert "from 4,614 tokens on it exceeds them" in text
    assert "outgrows" not in text.lower()


@pytest.mark.parametrize(
    "cfg", [BlockConfig(), BlockConfig(1024, 16, 24), BlockConfig(emb_dim=1536, ff_mult=3)]
)
@pytest.mark.parametrize("batch", [1, 3, 4096])
def test_exceeds_is_the_first_token_count_whose_cache_is_larger(cfg, batch):
    kv = view.build(Settings(block=cfg, kv_batch=batch)).kv
    assert kv.exceeds * kv.per_token > kv.weight_bytes >= (kv.exceeds - 1) * kv.per_token
    assert (kv.equal_at is not None) == (kv.weight_bytes % kv.per_token == 0)


# --- item 3 -----------------------------------------------------------------------------------------


def test_the_unmasked_gap_is_shown_as_a_bound_not_as_a_value():
    v = view.build(Settings())
    gap = v.shuffle.free.gap
    assert 0 < gap <= v.shuffle.limit  # rounding noise on this machine, under the stated bound
    text = prose.order_text(v, T)
    assert fmt.sci(gap) not in text and f"{gap:.3e}" not in text
    bound = fmt.noise(gap, v.shuffle.limit)
    assert bound.startswith("below ") and bound.replace(" (float64 rounding)", "") in text
    # The one-layer prefix shuffle is rounding too.
    assert fmt.sci(v.prefix.one_layer) not in text
    assert fmt.noise(v.prefix.one_layer, v.prefix.limit) in text


# --- item 10 ----------------------------------------------------------------------------------------


def test_a_token_that_did_not_move_is_not_said_to_have_moved():
    v = view.build(Settings(perm=(0, 1, 4, 3, 2, 5)))
    m = v.shuffle.moved
    assert m is not None and m.before == m.after == 4  # "with" stays fourth; "starts" and "one" swap
    text = prose.order_text(v, T)
    assert "moved to position" not in text
    assert (
        "The largest change is at position 4, **with**, which did not move: the tokens before it changed."
        in text
    )
    assert "It saw *Your*, *journey*, *starts*, *with*; it now sees *Your*, *journey*, *one*, *with*." in text


def test_two_stacked_layers_are_two_layers_drawn_one_after_the_other():
    v = view.build(Settings())
    assert fmt.num(v.prefix.two_layers) == "0.1436"  # PyTorch: test_next_torch reproduces it
    text = prose.order_text(v, T)
    assert "after two stacked layers it is 0.1436" in text
    assert "layer 1's three matrices, then layer 2's three" in text
