"""Learning to attend's figures: every mode's loss on one log-scaled chart, and the four token
heatmaps of the step shown, each with the focused query's row and the chosen cell picked out and
every cell a click away from the cell panel."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from core.attention import Mode
from topics.learning.training import Trajectory
from topics.learning.view import View
from ui import figures
from ui.figures import ACCENT, MUTED, SECOND, figure, layout, log_ticks

MODE_COLOURS = {"none": MUTED, "tied": SECOND, "three": ACCENT}
FLOOR = 1e-12  # the log axis needs a positive value; a loss gap this small is drawn at the floor
MARK = "#4a5568"  # the scrubbed step
MAX_POINTS = 1_000  # per curve: enough to keep Adam's spikes, small enough to rerun fast


def loss_curves(
    runs: Mapping[Mode, Trajectory],
    labels: Mapping[str, str],
    *,
    step: int,
    entropy_floor: float = 0.0,
    height: int = 360,
) -> go.Figure:
    """Loss against step for every mode, log y, with the scrubbed step marked.

    Both axes write numbers the app's way: steps with thousands separators, the log axis in
    1-2-5 steps or powers of ten (:func:`ui.figures.log_ticks`), never Plotly's mix of the two.

    What is drawn is the cross-entropy minus its floor (the target's own entropy), so every
    target can fall towards zero on a log axis; for one-hot targets the floor is 0. Long runs
    are thinned to their per-bucket maxima, so a spike survives the thinning.
    """
    traces = []
    for mode, run in runs.items():
        colour = MODE_COLOURS.get(mode, ACCENT)
        steps, values = _thin(np.maximum(run.losses - entropy_floor, FLOOR))
        traces.append(
            {
                "type": "scatter",
                "x": steps.tolist(),
                "y": values.tolist(),
                "mode": "lines",
                "name": labels[mode],
                "line": {"color": colour, "width": 2.5 if mode == "three" else 2},
                "hovertemplate": "step %{x}: %{y:.4g}<extra>" + labels[mode] + "</extra>",
            }
        )
        if run.diverged_at is not None:
            traces.append(
                {
                    "type": "scatter",
                    "x": [run.diverged_at],
                    "y": [max(float(run.losses[run.diverged_at - 1]) - entropy_floor, FLOOR)],
                    "mode": "markers",
                    "marker": {"symbol": "x", "size": 12, "color": colour},
                    "name": f"{labels[mode]}: diverged",
                    "hovertemplate": f"diverged at step {run.diverged_at}<extra></extra>",
                }
            )
    title = "cross-entropy" if entropy_floor == 0 else "cross-entropy above its floor"
    drawn = [v for t in traces for v in t["y"]]
    ticks = log_ticks(min(drawn), max(drawn))
    spec = layout(
        None,
        height,
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
        yaxis={"type": "log", "title": {"text": title}, **ticks},
        xaxis={"title": {"text": "step"}, "rangemode": "tozero", "tickformat": ","},
        shapes=[
            {
                "type": "line",
                "x0": step,
                "x1": step,
                "y0": 0,
                "y1": 1,
                "yref": "paper",
                "line": {"color": MARK, "dash": "dot", "width": 1},
            }
        ],
    )
    return figure(traces, spec)


def _thin(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """At most ``MAX_POINTS`` points: each bucket of steps drawn at its largest loss, then the last."""
    if len(values) <= MAX_POINTS:
        return np.arange(len(values)), values
    starts = np.linspace(0, len(values) - 1, MAX_POINTS).astype(int)
    peaks = np.maximum.reduceat(values[:-1], starts[:-1])
    return np.append(starts[:-1], len(values) - 1), np.append(peaks, values[-1])


def heatmaps(v: View) -> dict[str, go.Figure]:
    """The step shown's A, the target, Ω and Ω − Ωᵀ, by the widget key the page draws each under."""
    t, f, c, d = v.settings.labels, v.settings.focus, v.cell_key, v.decimals
    return {
        "learn_attention": figures.heatmap(
            v.attention, t, t, title="Attention A", zmin=0, zmax=1, focus=f, cell=c
        ),
        "learn_target": figures.heatmap(v.target, t, t, title="Target", zmin=0, zmax=1, focus=f, cell=c),
        "learn_scores": figures.heatmap(v.scores, t, t, title="Scores Ω", decimals=d, focus=f, cell=c),
        "learn_asym": figures.heatmap(
            v.asymmetry, t, t, title="Ω − Ωᵀ", diverging=True, decimals=d, focus=f, cell=c
        ),
    }
