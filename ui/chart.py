"""The app's chart element: a Plotly chart that keeps its place across reruns and is updated in place.

``st.plotly_chart`` makes a chart's spec part of its element's identity (Streamlit 1.67), so any
change to a chart, even a focus outline, remounted it: Plotly built new axes, new text for every
cell and, for a 3-D scene, a new WebGL context, and most of a focus click's wait was that. This
element is a Components v2 custom component (``st.components.v2.component``), frameless, whose
identity is its ``key`` alone: a rerun hands its JavaScript the new spec, which it passes to
Plotly's own ``Plotly.react``, and Plotly updates what changed.

What the element does itself, so nothing lands under the wrong block:

- its plot is the chart's accessible name (``role="img"`` with ``aria-label``; a 3-D scene, which
  a reader turns by dragging, a named ``role="figure"``), from the first paint, before Plotly loads;
- PNG and SVG buttons under the plot, by Plotly's own ``toImage``, on the page's background;
- a click on a heatmap cell (``ui.figures.grid``'s markers carry ``[tile, i, j]``) is sent back as
  the element's ``click`` trigger, and ``on_click_change`` (``ui.cell.picker``) picks the cell;
- its height, the chart's own plus the button row, is reserved before its code arrives, so nothing
  below it moves as it loads.

The files are served the way Streamlit serves a component's files: from the asset directory an
installed package declares in its ``pyproject.toml`` (``chart_component/``, installed by
requirements.txt). ``plotly.min.js`` there is the installed ``plotly`` package's own file, hard
linked (copied where a link cannot be made) when this module is imported, so the browser runs the
plotly.js of the pinned plotly and fetches it from nowhere else.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import streamlit as st

COMPONENT = "aww-chart.chart"  # "<project>.<component>", as chart_component/pyproject.toml names them
ROW_PX = 28  # the PNG/SVG row under the plot (ui.style's .aww-export), reserved with the plot


def _assets() -> Path:
    return Path(str(resources.files("aww_chart"))) / "assets"


def plotly_js() -> Path:
    """The installed plotly package's ``plotly.min.js``, the one the browser runs."""
    return Path(str(resources.files("plotly"))) / "package_data" / "plotly.min.js"


def link_plotly_js() -> Path:
    """Put the installed ``plotly.min.js`` among the element's assets (a hard link to the same file,
    or a copy across file systems), once: the asset directory is the only place Streamlit serves a
    component's files from, and it must lie inside the component's package."""
    source, target = plotly_js(), _assets() / "plotly.min.js"
    if target.exists() and target.stat().st_size == source.stat().st_size:
        same = os.path.samefile(source, target) or target.read_bytes() == source.read_bytes()
        if same:
            return target
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        os.link(source, tmp)
    except OSError:
        shutil.copyfile(source, tmp)
    os.replace(tmp, target)  # atomic: a browser never reads half a file
    return target


link_plotly_js()


@functools.cache
def _mount() -> Any:
    """The element's mounting command, registered on first use: Streamlit finds the component's
    files through the running server's registry of installed components, which exists only in a
    script run (a module imported by a test has none)."""
    return st.components.v2.component(COMPONENT, js="chart.js", isolate_styles=False)


def payload(spec_json: str, head: dict[str, Any]) -> bytes:
    """What the element's JavaScript reads: one line of JSON (``head``), then the spec's JSON as it
    was written, never parsed and written again here."""
    return (json.dumps(head, separators=(",", ":")) + "\n" + spec_json).encode()


def draw(
    spec_json: str,
    *,
    name: str,
    height: int,
    key: str,
    file: str,
    config: dict[str, Any],
    scene: bool,
    background: str,
    pick: Callable[[], None] | None = None,
) -> None:
    """Draw the chart whose spec is ``spec_json`` under ``key`` (its identity across reruns).

    ``name`` is its accessible name, ``height`` its plot's height in pixels, ``file`` the name of
    its PNG and SVG files, ``config`` Plotly's config, ``background`` the page's colour (the
    exported images' background). With ``pick``, a click on a cell runs it before the rerun, with
    the cell's ``[tile, i, j]`` in ``st.session_state[key]["click"]``."""
    head = {
        "name": name,
        "height": height,
        "file": file,
        "config": config,
        "scene": scene,
        "background": background,
        "pick": pick is not None,
    }
    if not st.runtime.exists():  # a script run outside a server (bare mode) draws nothing
        return
    data = payload(spec_json, head)
    if pick is None:
        _mount()(key=key, data=data, height=height + ROW_PX)
    else:
        _mount()(key=key, data=data, height=height + ROW_PX, on_click_change=pick)


def clicked_cell(state: Any) -> tuple[int, int, int] | None:
    """``(tile, i, j)`` of the cell a click picked, from the element's state in
    ``st.session_state[key]``; None when it holds no click."""
    value = state.get("click") if hasattr(state, "get") else None
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return int(value[0]), int(value[1]), int(value[2])
    return None
