"""The weight-set control every page with projections shares.

Chapter 3 runs on two unrelated initialisations (section 3.4: seed 123, ``torch.rand``;
section 3.5: ``sa_v2``, seed 789, ``nn.Linear``), so every page says which one it shows and
lets the reader switch, or pick any seed with either initialisation.
"""

from __future__ import annotations

import streamlit as st

from core.weights import WeightSet, init_weights, section_3_4, section_3_5
from ui import controls

# Figure 01's modes as every page names them; the label is also what a share link carries.
MODE_LABELS = {"none": "No matrices", "tied": "Tied W_q = W_k", "three": "Three matrices"}

SETS = ("Section 3.4", "Section 3.5", "Any seed")
CAPTIONS = (
    "SelfAttention_v1: seed 123, torch.rand(3, 2)",
    "sa_v2: seed 789, nn.Linear(3, 2, bias=False)",
    "either initialisation, your seed",
)
INITS = ("torch.rand", "nn.Linear")


def weight_set_control(default: str = "Section 3.4", *, prefix: str = "") -> WeightSet:
    """Sidebar controls for the weights; returns the chosen set.

    Their URL keys are ``weights``, ``seed`` and ``init`` behind the page's ``prefix`` (a page
    owns its keys: see ``ui.pages``).
    """
    choice = controls.radio("Weights", SETS, key=f"{prefix}weights", default=default, captions=CAPTIONS)
    if choice == "Section 3.4":
        return section_3_4()
    if choice == "Section 3.5":
        return section_3_5()
    seed = controls.integer("Seed", 0, 2**31 - 1, 123, key=f"{prefix}seed", help="torch.manual_seed(seed)")
    init = controls.radio("Initialisation", INITS, key=f"{prefix}init", default="torch.rand", horizontal=True)
    return init_weights(seed, "rand" if init == "torch.rand" else "linear")


def weight_set_caption(ws: WeightSet) -> None:
    """One line under the title naming the weights on screen."""
    st.caption(f"Weights shown: **{ws.label}**. Matrices are (d_in, d_out) = {ws.w_query.shape}.")
