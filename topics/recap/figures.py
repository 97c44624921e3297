"""The Recap's charts: the scores XXᵀ and their softmax, the followed query's row and key picked out,
and the inputs beside the outputs in 3-D; each with its name and its values as a table."""

from __future__ import annotations

import pandas as pd

from topics.recap.view import View
from ui import figures
from ui import format as fmt
from ui.figures import Chart, Relative


def heatmaps(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The scores and the weights, by the widget key the page draws each under. ``relative``
    colours the weights only: the scores are not weights."""
    t, c, n = v.labels, v.collapse, len(v.labels)
    size = fmt.size(n, n)
    ops = (
        ("recap_scores", c.scores, "Scores Ω = XXᵀ", f"Scores Ω = XXᵀ, {size}", None),
        (
            "recap_w",
            c.weights,
            "Weights A = softmax(Ω), row by row",
            f"Attention weights A = softmax(Ω), {size}",
            relative,
        ),
    )
    return {
        key: Chart(
            figures.heatmap(m, t, t, title=title, focus=v.query, cell=v.key, relative=scale),
            name,
            figures.matrix_frame(m, t, t),
        )
        for key, m, title, name, scale in ops
    }


def collapse(v: View) -> Chart:
    """The inputs and the outputs as points in their first three dimensions, the followed query's
    joined; its table holds every token's input and output there, 4 decimals."""
    c, t = v.collapse, v.labels
    shown = min(3, v.width)
    dims = f", the first 3 of {v.width} dimensions" if v.width > 3 else ""
    fig = figures.scatter3d_tokens(
        [("inputs X", v.inputs), ("outputs Z = AX", c.context)],
        t,
        title="Inputs and outputs" + dims,
        focus=v.query,
    )
    n = len(t)
    name = f"Inputs X and outputs Z = AX of {n} token{'s' * (n != 1)} as points in 3-D{dims}"
    table = pd.DataFrame(
        {
            **{
                f"input, dim {d + 1}": [figures.cell_text(x, 4) for x in v.inputs[:, d]] for d in range(shown)
            },
            **{
                f"output, dim {d + 1}": [figures.cell_text(z, 4) for z in c.context[:, d]]
                for d in range(shown)
            },
        },
        index=pd.Index(figures.distinct(list(t)), name="token"),
    )
    return Chart(fig, name, table)
