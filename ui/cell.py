"""The cell a reader picks: its controls, the click that picks it, and the panel that works it out.

A page with token heatmaps picks a cell by a query (its focus control) and a key (the control
here), both bound to the URL, so a link shares the cell. A click on any cell of a heatmap drawn by
``ui.figures.grid`` picks both: the chart's ``on_click_change`` callback (:func:`picker`) runs before the
rerun and sets the two controls, whose URL keys then follow. The controls stay the keyboard's way
to the same cells. The panel (:func:`panel`) draws what the page's view built with
``ui.cell_text.panel``. A page draws the two controls with :func:`controls` inside an
``st.fragment`` holding everything that shows the focus, so a pick reruns only that (issue 25).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.cell_text import Panel, Table
from ui.figures import picked
from ui.focus import NONE, focus_control, token_control

# The "largest weight" option: the focus control's unset index, with a label no token can have,
# since a token holds no space.
TOP, TOP_LABEL = NONE, "its largest weight"
HELP = "The key of the cell the panel works out. A click on any heatmap cell picks its query and key."
HINT = "Click any cell, or pick a query to focus on, to see its arithmetic step by step."


def cell_control(
    labels: Sequence[str],
    *,
    key: str,
    label: str = "Key of the cell",
    default: int | None = None,
    where: DeltaGenerator | None = None,
) -> int | None:
    """The sidebar control: the chosen key's column index, or ``None`` for the focused query's
    largest weight (``ui.cell_text.chosen_key``); ``where``: a sidebar container to draw it into
    (``ui.focus.token_control``)."""
    return token_control(
        labels, key=key, label=label, unset_label=TOP_LABEL, help=HELP, default=default, where=where
    )


def controls(
    labels: Sequence[str], *, where: DeltaGenerator, focus_key: str, cell_key: str
) -> tuple[int | None, int | None]:
    """The focus control and the cell control, drawn into ``where``, and their values.

    What a page's focus fragment calls first. The page makes ``where`` in its full run, in the
    sidebar where the two controls stand (``focus_slot = st.sidebar.container()``), and calls this
    inside its ``@st.fragment``: a change to either control then reruns only the fragment, and the
    fragment reads the focus from these values alone, never from the full run's variables::

        @st.fragment
        def focused(v: view.View) -> None:
            fq, fc = cell_ui.controls(v.labels, where=focus_slot, focus_key="focus", cell_key="cell")
            f = view.focused(v, fq, fc)
            ...  # every figure and line that shows the focus

    ``where`` places them: ``with focus_slot:`` would not, since the sidebar controls write to
    ``st.sidebar`` itself, so they would land at the sidebar's end.
    """
    return focus_control(labels, key=focus_key, where=where), cell_control(labels, key=cell_key, where=where)


def picker(
    chart_key: str,
    focus_key: str,
    cell_key: str,
    *,
    rows: Sequence[Any] | None = None,
    cols: Sequence[Any] | None = None,
    on_tile: Callable[[int], None] | None = None,
) -> Callable[[], None]:
    """The ``on_click_change`` callback (``ui.chart``) of the chart under ``chart_key``: a click on
    a cell sets the focus control to its row and the cell control to its column.

    The controls hold indices unless ``rows``/``cols`` give the option each index stands for (Recap's
    controls hold token labels). ``on_tile`` receives the tile of a tiled figure (a head). A click
    that picked no cell changes nothing. Setting the controls here, before the rerun, is what
    Streamlit allows for a widget's state, and its URL keys follow.
    """

    def pick() -> None:
        cell = picked(st.session_state.get(chart_key))
        if cell is None:
            return
        tile, i, j = cell
        st.session_state[focus_key] = rows[i] if rows is not None else i
        st.session_state[cell_key] = cols[j] if cols is not None else j
        if on_tile is not None:
            on_tile(tile)

    return pick


def _table(t: Table) -> str:
    """A Markdown table of short cells (already Markdown, tokens escaped): it wraps on a phone
    instead of cutting text off."""
    head = "| " + " | ".join(t.header) + " |"
    rule = "|" + "---:|" * len(t.header)
    body = ["| " + " | ".join(row) + " |" for row in t.rows]
    return "\n".join([head, rule, *body])


def panel(p: Panel, *, where: DeltaGenerator | None = None, title: str = "One cell, step by step") -> None:
    """The cell panel: the score's products and sum, the softmax, the context vector's terms."""
    box = (where or st).container(border=True)
    box.markdown(f"**{title}: {p.heading}**")
    box.markdown(p.score_intro)
    box.markdown(_table(p.products))
    box.markdown(p.score)
    box.markdown("\n".join(f"- {line}" for line in p.weight))
    box.markdown(p.context_intro)
    box.markdown(_table(p.terms))
    box.markdown(p.context)
    for note in p.notes:  # what this page adds (a mask, a draw, a head, a gradient): read, not fine print
        box.markdown(note)


def panel_or_hint(p: Panel | None, *, where: DeltaGenerator | None = None, hint: str = HINT) -> None:
    """The cell panel (:func:`panel`) when the view built one, else a caption saying how to pick a
    cell: what every page with a cell panel draws in its place."""
    if p is not None:
        panel(p, where=where)
    else:
        (where or st).caption(hint)
