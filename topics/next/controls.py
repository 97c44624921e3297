"""Controls of "What comes next": a block's configuration with GPT-2 presets, a KV cache, a shuffle.

The preset box writes the widths, heads and layers it names into the other widgets (an
``on_change`` callback, so the values land before they are drawn); moving any of those widgets
sets the box to the preset they now match, or to "Custom". Every widget is bound to the URL.
A configuration the book's ``MultiHeadAttention`` would reject (heads not dividing the width)
shows the reason inline and keeps the last good configuration on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import streamlit as st

from topics.next.block import GPT2_PRESETS, BlockConfig, matching_preset
from topics.next.equivariance import format_permutation, parse_permutation
from ui import controls
from ui.figures import picked

CUSTOM = "Custom"
PRESETS = (*GPT2_PRESETS, CUSTOM)
DEFAULT = BlockConfig()
LIMITS = {  # key: (label, min, max, help)
    "emb_dim": ("Embedding width emb_dim", 1, 16_384, "d_model: every block's input and output width."),
    "n_heads": (
        "Heads n_heads",
        1,
        256,
        "Must divide emb_dim; the count of parameters does not depend on it.",
    ),
    "n_layers": ("Layers n_layers", 1, 256, "Blocks in the stack."),
    "context_length": (
        "Context length",
        1,
        2_097_152,
        "The most tokens the model attends to: it caps the KV cache. It sizes the mask buffer, not the "
        "block's parameters.",
    ),
    "ff_mult": ("Feed-forward multiplier", 1, 16, "Hidden width of the feed-forward = multiplier × emb_dim."),
}
_LAST_GOOD = "_block_last_good"
_LINK_READ = "_block_link_read"
PRESET_KEY = "block"  # not "preset": Multi-head owns that URL key


def _apply_preset() -> None:
    cfg = GPT2_PRESETS.get(st.session_state[PRESET_KEY])
    if cfg is not None:
        for name in LIMITS:
            st.session_state[name] = getattr(cfg, name)


def _box_for(values: dict[str, Any]) -> str:
    """What the preset box should say for these widths, heads and layers: the preset they match."""
    try:
        return matching_preset(BlockConfig(**values)) or CUSTOM
    except ValueError:
        return CUSTOM


def _sync_preset() -> None:
    values = {name: st.session_state.get(name, getattr(DEFAULT, name)) for name in LIMITS}
    st.session_state[PRESET_KEY] = _box_for(values)


def _read_link() -> bool:
    """Before the widgets, once a session: a link naming a preset (``?block=GPT-2 XL (1558M)``,
    or the legacy ``?preset=``, renamed before the page runs) fills the values the link leaves out
    with the preset's, so the readouts show the block the box names (issue #24, item 1). Values the
    link does give win: ``?block=GPT-2 XL (1558M)&n_layers=24`` is XL's width and heads at 24 layers.

    On every later run, the box is set to the preset the widgets' values match (or "Custom") before
    it is drawn. Returns whether it was (the widgets' values were known before they were drawn).
    """
    if _LINK_READ not in st.session_state:
        st.session_state[_LINK_READ] = True
        preset = GPT2_PRESETS.get(str(st.query_params.get(PRESET_KEY, "")))
        if preset is not None:
            for name in LIMITS:
                if name not in st.query_params:
                    st.session_state[name] = getattr(preset, name)
        return False
    if not all(name in st.session_state for name in LIMITS):
        return False
    box = _box_for({name: st.session_state[name] for name in LIMITS})
    if st.session_state.get(PRESET_KEY) != box:
        st.session_state[PRESET_KEY] = box
    return True


def block_config_control() -> tuple[BlockConfig, str | None]:
    """The block configuration the sidebar describes, and an error message if it was rejected.

    On a rejected configuration the last good one (or GPT-2 small) is returned with the message.
    """
    st.sidebar.header("Block")
    synced = _read_link()
    shown = controls.select(
        "Preset",
        PRESETS,
        key=PRESET_KEY,
        default=PRESETS[0],
        on_change=_apply_preset,
        help="GPT-2's four sizes.",
    )
    values: dict[str, int] = {}
    for name, (label, low, high, help_text) in LIMITS.items():
        values[name] = controls.integer(
            label, low, high, getattr(DEFAULT, name), key=name, help=help_text, on_change=_sync_preset
        )
    if not synced and shown != _box_for(values):
        st.rerun()  # a link's box and values disagree: the next run names the block they show
    qkv_bias = controls.toggle(
        "qkv_bias",
        False,
        key="qkv_bias",
        help="The book: False (its printed counts). GPT-2's released weights: True.",
    )
    try:
        cfg = BlockConfig(**values, qkv_bias=qkv_bias)
    except ValueError as err:
        last = st.session_state.get(_LAST_GOOD, DEFAULT)
        return replace(last, qkv_bias=qkv_bias), str(err)
    st.session_state[_LAST_GOOD] = cfg
    return cfg, None


BYTES = {4: "4 (float32)", 2: "2 (float16 / bfloat16)", 1: "1 (int8 / fp8)"}
KV_LIMITS = {  # key: (label, min, max, default, help)
    "kv_tokens": ("Tokens cached", 1, 2_097_152, 1024, "Keys and values kept for every token seen."),
    "kv_batch": ("Batch size", 1, 4096, 1, "Sequences decoded at once."),
}


def kv_cache_control() -> tuple[int, int, int]:
    """Tokens in the cache, bytes per element and batch size for the KV-cache calculator."""
    st.sidebar.header("KV cache")
    label, low, high, default, help_text = KV_LIMITS["kv_tokens"]
    tokens = controls.integer(label, low, high, default, key="kv_tokens", help=help_text)
    bytes_per = controls.select(
        "Bytes per element", tuple(BYTES), key="kv_bytes", default=2, format_func=BYTES.__getitem__
    )
    label, low, high, default, help_text = KV_LIMITS["kv_batch"]
    batch = controls.integer(label, low, high, default, key="kv_batch", help=help_text)
    return tokens, bytes_per, batch


_LAST_PERM = "_perm_last_good"
_PERM_TOKENS = "_perm_tokens"  # the sentence the order was typed for


def _shuffle(n: int) -> None:
    """Write the next of a fixed sequence of shuffles into the text box (seeded by a click count)."""
    count = st.session_state.get("_shuffles", 0) + 1
    st.session_state["_shuffles"] = count
    rng = np.random.default_rng(count)
    perm = tuple(int(i) for i in rng.permutation(n))
    while n > 1 and perm == tuple(range(n)):
        perm = tuple(int(i) for i in rng.permutation(n))
    st.session_state["perm"] = format_permutation(perm)


def permutation_control(names: tuple[str, ...]) -> tuple[tuple[int, ...], str | None]:
    """A URL-bound text box (and a Shuffle button) for a new order of ``names``, the sentence
    reversed by default.

    The text is parsed, never evaluated. Input that is not a permutation returns the last valid
    order (or the default) with the reason, which the page shows inline. When the sentence has
    changed since the order was typed, the box starts again from the default.
    """
    default = tuple(range(len(names) - 1, -1, -1))
    if st.session_state.get(_PERM_TOKENS, names) != names:
        st.session_state["perm"] = format_permutation(default)
        st.session_state.pop(_LAST_PERM, None)
    st.session_state[_PERM_TOKENS] = names
    box, button = st.columns([5, 1], vertical_alignment="bottom")
    with box:
        text = controls.text(
            f"New order: positions 1–{len(names)} or token names",
            format_permutation(default),
            key="perm",
            max_chars=200,
            help="e.g. 6 5 4 3 2 1, or: step one with starts journey Your",
        )
    button.button("Shuffle", key="shuffle", on_click=_shuffle, args=(len(names),), width="stretch")
    try:
        perm = parse_permutation(text, names)
    except ValueError as err:
        last = st.session_state.get(_LAST_PERM, default)
        return (last if len(last) == len(names) else default), str(err)
    st.session_state[_LAST_PERM] = perm
    return perm, None


def row_picker(chart_key: str, focus_key: str, tokens: Sequence[int]) -> Callable[[], None]:
    """The ``on_click_change`` callback (``ui.chart``) of a positions × output dimensions
    heatmap: a click on a row focuses its token (``tokens[row]``, the shuffle's order) and leaves
    the cell's key alone, since a column there is a dimension, not a key (``ui.cell.picker`` sets
    both)."""

    def pick() -> None:
        cell = picked(st.session_state.get(chart_key))
        if cell is not None:
            st.session_state[focus_key] = tokens[cell[1]]

    return pick
