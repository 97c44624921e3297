"""The "Reproduce in PyTorch" expander: the script for the view on screen, shown and downloadable.

Each page makes one call near its end, passing a function that builds the script from its
settings (``core.reproduce``). The expander is lazy (``on_change="rerun"``): nothing is generated
until a reader opens it, so the pages rerun as fast as before. A view no script can reproduce
says why instead, and a script that cannot be built from a setting (any URL value the controls
let through) becomes that message, never an exception.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

import numpy as np
import streamlit as st

from core import multihead as mh
from core import reproduce, sentence
from core.config import AttentionConfig
from core.reproduce import Script
from core.weights import WeightSet, section_3_4
from topics.learning import script as script_builder
from topics.learning import training as core_learning
from topics.learning.training import Trajectory
from ui import cache
from ui.cache import MB

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


def _nudged_worst() -> list[tuple[object, ...]]:
    x = cache.largest_sentence()[1]
    ws = sentence.weights_for(section_3_4(), 16)
    return [("previous", 0, "adam", 0.02, 5_000, x, ws.w_query, ws.w_key)]


# The same run as Learning's, from weights nudged by one ulp, for the Reproduce expander's note:
# 828 KB at 32 tokens. Few entries: it is trained only while that expander is open.
@cache.data(
    entry_bytes=1 * MB,
    entries=2,
    worst=_nudged_worst,
    show_spinner="Probing how this run responds to a last-bit nudge…",
)
def _nudged(
    kind: str,
    token: int,
    optimiser: str,
    lr: float,
    steps: int,
    x: np.ndarray,
    w_query: np.ndarray,
    w_key: np.ndarray,
) -> dict[str, Trajectory]:
    target = core_learning.target_pattern(kind, len(x), token)  # type: ignore[arg-type]
    every = core_learning.record_every(steps, len(x))
    config = core_learning.TrainConfig(optimiser, lr, steps, record_every=every)  # type: ignore[arg-type]
    return script_builder.nudged(x, target, w_query, w_key, config)


def learning_script(
    labels: tuple[str, ...],
    x: np.ndarray,
    ws: WeightSet,
    kind: str,
    token: int,
    mode: str,
    optimiser: str,
    lr: float,
    steps: int,
    step: int,
    runs: Mapping[str, Trajectory],
) -> Script:
    """The learning script, its note saying how far PyTorch's run can end from the page's ``runs``.

    The note comes from a second NumPy run from weights nudged by one ulp
    (:func:`core.reproduce.drift`), trained only when the expander is open, and cached.
    """
    script = script_builder.learning(labels, x, ws, kind, token, mode, optimiser, lr, steps, step)
    nudged = _nudged(kind, token, optimiser, lr, steps, x, ws.w_query, ws.w_key)
    d = script_builder.drift(runs, nudged, mode, step)
    return dataclasses.replace(script, note=f"{script.note} {script_builder.drift_note(d)}")


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
