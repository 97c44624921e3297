"""The "Reproduce in PyTorch" expander: the script for the view on screen, shown and downloadable.

Each page makes one call near its end, passing a function that builds the script from its
settings (``core.reproduce``). The expander is lazy (``on_change="rerun"``): nothing is generated
until a reader opens it, so the pages rerun as fast as before. A view no script can reproduce
says why instead, and a script that cannot be built from a setting (any URL value the controls
let through) becomes that message, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from core import multihead as mh
from core import reproduce, sentence
from core.config import AttentionConfig
from core.reproduce import Script

CODE_HEIGHT = 560  # pixels: a long script scrolls inside its box instead of stretching the page
RUNTIME_WORDS = {"torch": "PyTorch 2.13 (CPU)", "numpy": "NumPy", "python": "Python's standard library"}


def expander(page: str, make: Callable[[], Script], *, label: str = "Reproduce in PyTorch") -> None:
    """A lazy expander holding ``make()``'s script, its note and a ``.py`` download.

    ``page`` names the widget keys (``reproduce_<page>``): stable, and not URL-bound.
    """
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


def multihead_script(
    labels: tuple[str, ...], x: np.ndarray, kind: str, cfg: AttentionConfig, seed: int, max_params: int
) -> Script:
    """The multi-head script on the page's inputs (the sentence's embeddings ``x``, or stand-ins
    drawn from ``torch.manual_seed(0)`` when d_in is not the sentence's width, as
    ``core.sentence.example_batch`` feeds the page); none for a setting the page does not draw."""
    if kind == "split" and not cfg.divisible:
        _ = cfg.head_dim  # raises the ValueError the page shows
    total = mh.counts(kind, cfg).total_params  # type: ignore[arg-type]
    if total > max_params:
        raise ValueError(
            f"the page draws no tensors for {total:,} parameters (over {max_params:,}), so there is "
            "nothing on screen to reproduce. Lower d_out or the number of heads."
        )
    batch = sentence.example_batch(x, cfg.d_in)[0].astype(np.float64)
    stand_in = None if x.shape[1] == cfg.d_in else sentence.STAND_IN_SEED
    return reproduce.multihead(labels, batch, kind, cfg, seed, stand_in_seed=stand_in)
