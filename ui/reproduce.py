"""The "Reproduce in PyTorch" expander: the script for the view on screen, shown and downloadable.

Each page makes one call near its end, passing a function that builds the script from its
settings (the topic's ``script.py``). The expander is lazy (``on_change="rerun"``): nothing is
generated until a reader opens it, so the pages rerun as fast as before. It is a fragment: opening
or closing it reruns only the expander, with the settings of the page's last run, never the page's
figures. A view no script can reproduce says why instead, and a script that cannot be built from a
setting (any URL value the controls let through) becomes that message, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from core.reproduce import Script

CODE_HEIGHT = 560  # pixels: a long script scrolls inside its box instead of stretching the page
RUNTIME_WORDS = {"torch": "PyTorch 2.13 (CPU)", "numpy": "NumPy", "python": "Python's standard library"}


def expander(page: str, make: Callable[[], Script], *, label: str = "Reproduce in PyTorch") -> None:
    """A lazy expander holding ``make()``'s script, its note and a ``.py`` download.

    ``page`` names the widget keys (``reproduce_<page>``): stable, and not URL-bound.
    """
    _fragment(page, make, label)


@st.fragment
def _fragment(page: str, make: Callable[[], Script], label: str) -> None:
    box = st.expander(label, key=f"reproduce_{page}", on_change="rerun", icon=":material/terminal:")
    if not box.open:
        return
    with box:
        try:
            script = make()
        except ValueError as err:
            st.info(f"No script for this view: {err}", icon=":material/block:")
            return
        st.caption(f"{script.note} Runs with {RUNTIME_WORDS[script.runtime]}, nothing else.")
        st.download_button(
            f"Download {script.filename}",
            script.code,
            file_name=script.filename,
            mime="text/x-python",
            key=f"reproduce_{page}_download",
            on_click="ignore",
            icon=":material/download:",
        )
        st.code(script.code, language="python", height=CODE_HEIGHT)
