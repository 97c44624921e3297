"""The Class page's figures: a step's split of first guesses as a named bar chart with its values
table, and the per-step table of the live view. Built from ``view``'s numbers, nothing computed here."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from topics.classroom.view import Split, StepRow
from ui import figures
from ui.figures import Chart


def split_chart(sp: Split, title: str, mark: bool) -> Chart:
    """The first guesses at step ``title``: a bar per option or bin, the answer's bar named as the
    answer when ``mark`` (the instructor's view; a projector's view keeps it unmarked)."""
    labels = [f"{x} (the answer)" if mark and i == sp.answer else x for i, x in enumerate(sp.labels)]
    name = f"First guesses at {title}"
    fig = figures.bars(sp.counts, labels, title=name, decimals=0, y_range=None)
    return Chart(fig, name, pd.DataFrame({"Guess": labels, "Learners": sp.counts}))


def steps_table(rows: Sequence[StepRow]) -> pd.DataFrame:
    """Per step that asks: how many answered and the share right at the first try."""
    table = pd.DataFrame(
        {
            "Step": [f"{r.number}: {r.title}" for r in rows],
            "Answered": [r.answered for r in rows],
            "Right at the first try": [r.share for r in rows],
        }
    )
    return table.set_index("Step")
