"""The whole layer's heatmaps: one a stage, titled with its symbol and live shape, the focused
query's row outlined in every stage that has one row a token."""

from __future__ import annotations

from topics.layer.view import Stage, View
from ui import figures
from ui.figures import Chart

HEIGHT = 260  # a small multiple: four to a row on a desktop, taller past a dozen tokens


def stage_chart(stage: Stage, focus: int | None, height: int) -> Chart:
    """One stage as a named heatmap with its values as a table; ``focus`` is outlined in a stage
    whose rows are tokens."""
    row = focus if stage.by_token else None
    fig = figures.heatmap(
        stage.matrix, stage.rows, stage.cols, title=stage.title, diverging=stage.signed,
        x_title=stage.col_title, y_title=stage.row_title, focus=row, height=height,
    )  # fmt: skip
    table = figures.matrix_frame(
        stage.matrix, stage.rows, stage.cols, row_title=stage.row_title, col_title=stage.col_title
    )
    return Chart(fig, stage.name, table)


def charts(v: View) -> dict[str, Chart]:
    """Every stage's chart by its widget key, all of one height so a row of them lines up."""
    height = figures.heatmap_height(len(v.labels), HEIGHT)
    return {s.key: stage_chart(s, v.focus, height) for s in v.stages}
