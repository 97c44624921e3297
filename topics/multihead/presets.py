"""The Multi-head page's preset box: a preset writes its values into the bound widgets, and a preset
whose values were changed since reads "Custom" (``topics.multihead.view.PRESETS``)."""

from __future__ import annotations

import streamlit as st

from topics.multihead.view import CUSTOM, PRESETS


def apply() -> None:
    """``on_change`` of the preset box: write the preset's values into the bound widgets."""
    for key, value in PRESETS.get(str(st.session_state.get("preset")), {}).items():
        st.session_state[key] = value


def _stale(preset: str | None) -> bool:
    values = PRESETS.get(preset or "", {})
    return any(key in st.session_state and st.session_state[key] != v for key, v in values.items())


def sync() -> None:
    """Before the widgets: apply a preset named by a hand-written link (``?preset=GPT-2 small``
    and none of its values), and turn a preset whose values were changed since into "Custom"."""
    if "mh_link_read" not in st.session_state:
        st.session_state["mh_link_read"] = True
        values = PRESETS.get(st.query_params.get("preset", ""), {})
        if values and not any(key in st.query_params for key in values):
            for key, value in values.items():
                st.session_state[key] = value
            return
    if _stale(st.session_state.get("preset")):
        st.session_state["preset"] = CUSTOM


def rerun_if_stale(preset: str) -> None:
    """After the widgets: a link that names a preset but other values reruns once as "Custom"."""
    if _stale(preset):
        st.rerun()
