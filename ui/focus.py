"""One query followed across every view of a page (as Transformer Explainer and BertViz do).

A page with token heatmaps offers a "focus on query" control: a token, or none. The page passes
the chosen row to every heatmap it draws (``figures.heatmap(..., focus=i)`` veils the other rows
and outlines that one) and shows the query's context vector beside them with
:func:`context_note`, so one row can be read from its scores to its output.

The control is per page, bound to the URL under the page's own key (``ui.pages``), and works for
any list of token labels: the URL holds the label, so a link names the token, not a position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui import controls
from ui import format as fmt
from ui.sentence import md

# The "no focus" option: an index, not None (a selectbox reads None as "nothing selected"), with a
# label no token can have, since a token holds no space.
NONE, NONE_LABEL = -1, "no focus"
HELP = "Picks out this query's row in every heatmap on the page and shows its context vector."


def token_control(
    labels: Sequence[str],
    *,
    key: str,
    label: str,
    unset_label: str,
    help: str,
    default: int | None = None,
    where: DeltaGenerator | None = None,
) -> int | None:
    """A sidebar selectbox over a sentence's tokens, plus one "unset" option: the chosen token's
    index, or ``None``. The URL holds the token's label, so a link names the token, not a position.

    ``where`` is a container in the sidebar to draw it into (``ui.cell.controls``), else the
    sidebar's end. A ``with`` block cannot place it: ``ui.controls`` writes to ``st.sidebar``
    itself, which ignores the block."""
    names = list(labels)
    start = default if default is not None and 0 <= default < len(names) else NONE
    options = (NONE, *range(len(names)))

    def name(i: int) -> str:
        return unset_label if i == NONE else names[i]

    if where is None:
        choice = controls.select(label, options, key=key, default=start, format_func=name, help=help)
    else:  # the same selectbox as controls.select draws, in the slot
        choice = where.selectbox(
            label,
            options,
            index=options.index(start),
            key=key,
            bind=controls.BIND,
            format_func=name,
            help=help,
        )
    return None if choice == NONE else int(choice)


def focus_control(
    labels: Sequence[str],
    *,
    key: str,
    label: str = "Focus on a query",
    default: int | None = None,
    where: DeltaGenerator | None = None,
) -> int | None:
    """The sidebar control: the focused query's row index, or ``None`` for no focus (``where``: a
    sidebar container to draw it into, as :func:`token_control` says)."""
    return token_control(
        labels, key=key, label=label, unset_label=NONE_LABEL, help=HELP, default=default, where=where
    )


def marked(labels: Sequence[str], row: int | None) -> list[str]:
    """Row labels for a table with the focused query's row marked ``▸``."""
    return [f"▸ {t}" if i == row else t for i, t in enumerate(labels)]


def context_note(
    labels: Sequence[str],
    row: int,
    context: np.ndarray | str,
    *,
    most: str = "",
    extra: str = "",
    where: DeltaGenerator | None = None,
) -> None:
    """One line beside the heatmaps: the focused query, where its weights go, its context vector.

    ``most`` is where the query's row of weights goes, as its page's view wrote it with
    :func:`ui.format.most_weight` (one rule for ties on every page). ``extra`` is appended as
    written (a page's own remark). ``context`` may come as :func:`ui.format.short_vec` wrote it: a
    cache keeps that text of a wide output's rows, not the rows (``topics.multihead.view.Run``).
    """
    name = md(labels[row])  # a reader's token is text, never Markdown
    parts = [f"**Focus: {name}** (query {row + 1})."]
    if most:
        parts.append(most)
    text = context if isinstance(context, str) else fmt.short_vec(context)
    parts.append(f"Its context vector is **z = {text}**.")
    if extra:
        parts.append(extra)
    (where or st).markdown(" ".join(parts))
