"""Learning to attend's figures: every mode's loss on one log-scaled chart, and the four token
heatmaps of the step shown, each with the focused query's row and the chosen cell picked out and
every cell a click away from the cell panel.

Each comes as a :class:`ui.figures.Chart`: its name says what it shows at the page's settings, for
a screen reader, and its table holds its numbers as the page prints them. The loss curves differ by
dash as well as colour (``MODE_DASHES``), so they stay apart for a reader who cannot tell the
colours apart, and in print."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.attention import Mode
from topics.learning.readouts import TARGET_LABELS, loss_text
from topics.learning.training import Trajectory
from topics.learning.view import View
from ui import figures
from ui import format as fmt
from ui.figures import ACCENT, MUTED, SECOND, Chart, Relative, figure, layout, log_ticks
from ui.weights import MODE_LABELS

MODE_COLOURS = {"none": MUTED, "tied": SECOND, "three": ACCENT}
# Told apart by dash as well as colour: the flat no-matrix line dotted, tied dashed, three solid.
MODE_DASHES = {"none": "dot", "tied": "dash", "three": "solid"}
DASH_WORDS = {"dot": "dotted", "dash": "dashed", "solid": "solid"}  # for the chart's name
TABLE_ROWS = 11  # the loss table's evenly spaced steps (0, a tenth of the run, ...), with the step shown
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
                "x": steps,  # arrays, packed as typed arrays: thousands of numbers as lists were
                "y": values,  # most of the chart's JSON
                "mode": "lines",
                "name": labels[mode],
                "line": {
                    "color": colour,
                    "dash": MODE_DASHES.get(mode, "solid"),
                    "width": 2.5 if mode == "three" else 2,
                },
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
    drawn = np.concatenate([np.asarray(t["y"], dtype=np.float64) for t in traces])
    ticks = log_ticks(float(drawn.min()), float(drawn.max()))
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


def loss_name(runs: Mapping[Mode, Trajectory], labels: Mapping[str, str], step: int, floor: float) -> str:
    """The loss chart's name: what is plotted against what, which line is which, the step marked."""
    steps = max(len(run.losses) for run in runs.values()) - 1
    what = "Cross-entropy" if floor == 0 else "Cross-entropy above its floor"
    lines = ", ".join(f"{labels[m]} {DASH_WORDS[MODE_DASHES.get(m, 'solid')]}" for m in runs)
    return (
        f"{what} against step, 0 to {steps:,}, log scale, one line per mode ({lines}); step {step:,} marked"
    )


def loss_table(
    runs: Mapping[Mode, Trajectory], labels: Mapping[str, str], step: int, floor: float
) -> pd.DataFrame:
    """The loss curves' values at evenly spaced steps and at the step shown, as the page prints a
    loss (:func:`topics.learning.readouts.loss_text`); what is drawn, the floor taken off."""
    last = max(len(run.losses) for run in runs.values()) - 1
    steps = sorted({*np.linspace(0, last, TABLE_ROWS).round().astype(int).tolist(), min(step, last)})
    what = "cross-entropy" if floor == 0 else "above the floor"
    frame = pd.DataFrame(
        {
            f"{labels[m]}, {what}": [loss_text(max(float(run.losses[k]) - floor, 0.0)) for k in steps]
            for m, run in runs.items()
        },
        index=pd.Index([f"{k:,}" for k in steps], name="step"),
    )
    return frame


def loss_chart(v: View) -> Chart:
    """The loss curves of every mode, named, with their values as a table."""
    fig = loss_curves(v.runs, MODE_LABELS, step=v.step, entropy_floor=v.floor)
    return Chart(
        fig, loss_name(v.runs, MODE_LABELS, v.step, v.floor), loss_table(v.runs, MODE_LABELS, v.step, v.floor)
    )


def heatmap_specs(v: View, relative: Relative | None = None) -> dict[str, dict[str, object]]:
    """What each of the four heatmaps shows (the step shown's A, the target, Ω and Ω − Ωᵀ), by the
    widget key the page draws it under: :func:`one_heatmap`'s arguments. ``relative`` colours the
    two weights matrices only (A and the target), never the signed scores."""
    t, f, c, d = v.settings.labels, v.settings.focus, v.cell_key, v.decimals
    n = len(t)
    size = fmt.size(n, n)
    at = f"{MODE_LABELS[v.settings.mode]}, step {v.step:,}"
    target = TARGET_LABELS[v.settings.target].lower()
    if v.settings.target == "token":
        target = f"every query attends to {t[v.token]}"
    ops = (
        ("learn_attention", v.attention, "Attention A", f"Attention weights A, {at}, {size}", 4, True),
        ("learn_target", v.target, "Target", f"Target attention pattern ({target}), {size}", 4, True),
        ("learn_scores", v.scores, "Scores Ω", f"Scores Ω, {at}, {size}", d, False),
        ("learn_asym", v.asymmetry, "Ω − Ωᵀ", f"Asymmetry of the scores Ω − Ωᵀ, {at}, {size}", d, False),
    )
    specs: dict[str, dict[str, object]] = {}
    for key, m, title, name, places, weights in ops:
        specs[key] = dict(
            matrix=m, labels=tuple(t), title=title, name=name, places=places, weights=weights, focus=f,
            cell=c, diverging=key == "learn_asym", relative=relative if weights else None,
        )  # fmt: skip
    return specs


def one_heatmap(
    matrix: np.ndarray,
    labels: tuple[str, ...],
    title: str,
    name: str,
    places: int,
    weights: bool,
    focus: int | None,
    cell: int | None,
    diverging: bool,
    relative: Relative | None,
) -> Chart:
    """One of the page's token heatmaps, named, with its values as a table; a weights matrix on
    the 0–1 scale (or ``relative``)."""
    fig = figures.heatmap(
        matrix, labels, labels, title=title, decimals=places, focus=focus, cell=cell,
        diverging=diverging, zmin=0 if weights else None, zmax=1 if weights else None, relative=relative,
    )  # fmt: skip
    return Chart(fig, name, figures.matrix_frame(matrix, labels, labels, decimals=places))


def heatmaps(v: View, relative: Relative | None = None) -> dict[str, Chart]:
    """The step shown's A, the target, Ω and Ω − Ωᵀ, by the widget key the page draws each under,
    each named and with its values as a table (:func:`heatmap_specs`)."""
    return {key: one_heatmap(**spec) for key, spec in heatmap_specs(v, relative).items()}  # type: ignore[arg-type]
