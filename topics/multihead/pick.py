"""The Multi-head page's cell: which head, and the click on any head's heatmap that picks it.

The page picks a cell by a query (``mh_focus``), a key (``mh_cell``) and a head (``mh_head``), all
bound to the URL, so a link shares the cell. Each head's heatmap is its own chart, drawn by
``ui.figures.grid`` with ``tile = h``; a click on one of its cells sets all three controls
(``ui.cell.picker``), and the sidebar controls stay the keyboard's way to the same cells.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import cell as cell_ui
from ui import controls

FOCUS, CELL, HEAD = "mh_focus", "mh_cell", "mh_head"
HEAD_HELP = "The head whose cell the panel works out. A click on a cell of any head's heatmap picks it."


def chart_key(head: int) -> str:
    """The widget key of head ``head``'s heatmap (0-based)."""
    return f"mh_a{head}"


def head_control(heads: int) -> int:
    """The sidebar control: the panel's head, 0-based, shown and linked 1-based (``mh_head=2`` is
    head 2). A link naming a head the class lacks falls back to head 1."""
    return controls.select(
        "Head of the cell",
        tuple(range(heads)),
        key=HEAD,
        default=0,
        format_func=lambda h: str(h + 1),
        help=HEAD_HELP,
    )


def _set_head(head: int) -> None:
    st.session_state[HEAD] = head


def picker(head: int) -> Callable[[], None]:
    """The ``on_click_change`` callback (``ui.chart``) of head ``head``'s heatmap: a click sets the
    query, the key and the head (the tile its marker carries)."""
    return cell_ui.picker(chart_key(head), FOCUS, CELL, on_tile=_set_head)
