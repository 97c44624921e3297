"""Every text a chart spec prints, with the colour it is printed in and the colour under it, read
from the spec alone (issue 46: the contrast of every chart text from the spec's colours, confirmed
from pixels on a sample by ``tests/e2e/test_chart_contrast.py``).

What lies under a text, as the chart element draws a spec (``ui.chart``, on a transparent paper over
the page's background):

- a heatmap's cell value (``ui.figures.grid``'s click markers, or an annotation at the cell's
  place): the fill of the heatmap layer that covers that cell, as Plotly interpolates its scale
  (``ui.colors.fills``, held to Plotly's interpolation in ``tests/app/test_colors.py``); a cell no
  layer fills shows the page;
- a bar's value: the page where it stands outside the bar, the bar's colour inside it;
- every other text (titles, tick labels, axis titles, legend entries, colour-bar texts,
  annotations, a scatter's labels): the page, or the box the spec draws under it (an annotation's
  ``bgcolor``, a legend's, a 3-D scene's).

A text's colour is its own where the spec sets one, else the layout's font colour; a colour with
an alpha is laid over what is under it. A trace kind that prints text in a way not listed here is
reported as a fault, so a new kind of chart is measured before it ships.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ui import colors
from ui.theme import Palette

NAMED = {"white": "#ffffff", "black": "#000000"}


def _rgba(css: str) -> tuple[np.ndarray, float]:
    """A CSS colour as RGB in 0–1 and its alpha."""
    c = NAMED.get(css.strip().lower(), css.strip())
    if c.startswith("#"):
        return np.array(colors.parse(c)), 1.0
    if c.startswith("rgb"):
        parts = [float(p) for p in c[c.index("(") + 1 : c.index(")")].split(",")]
        return np.array(parts[:3]) / 255, parts[3] if len(parts) > 3 else 1.0
    raise ValueError(f"a colour this reader does not know: {css!r}")


def over(css: str | None, under: np.ndarray) -> np.ndarray:
    """``css`` laid over ``under`` (no colour, or a transparent one, leaves ``under``)."""
    if not css:
        return under
    rgb, alpha = _rgba(css)
    return rgb * alpha + under * (1 - alpha)


def _font(node: Any, default: str) -> str:
    font = node.get("font") if isinstance(node, dict) else None
    return (font or {}).get("color") or default


def _titled(node: Any) -> str:
    title = node.get("title") if isinstance(node, dict) else None
    text = title.get("text") if isinstance(title, dict) else title
    return str(text or "")


def _cell_fills(
    spec: dict[str, Any], refs: tuple[str, str], page: np.ndarray
) -> dict[tuple[Any, Any], np.ndarray]:
    """Each cell a heatmap on axes ``refs`` fills, by its (x, y) position, and its fill's RGB."""
    out: dict[tuple[Any, Any], np.ndarray] = {}
    for t in spec.get("data", []):
        if t.get("type") != "heatmap" or (t.get("xaxis") or "x", t.get("yaxis") or "y") != refs:
            continue
        z = t.get("z") or []
        xs = t.get("x") or list(range(len(z[0]) if z else 0))
        ys = t.get("y") or list(range(len(z)))
        for i, row in enumerate(z):
            for j, v in enumerate(row):
                if v is None:
                    continue
                fill = colors.fills(np.array([v], dtype=np.float64), t["colorscale"], t["zmin"], t["zmax"])[0]
                # A category axis (string labels) places a number at that position: an annotation
                # may name a cell by its row's position rather than its label.
                x_at = [xs[j]] + ([j] if isinstance(xs[j], str) else [])
                y_at = [ys[i]] + ([i] if isinstance(ys[i], str) else [])
                for place in ((x, y) for x in x_at for y in y_at):
                    out[place] = over(colors.hex_of(fill), page)
    return out


def texts(spec: dict[str, Any], pal: Palette) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """Every text ``spec`` prints: ``(what, its colour, what is under it)``, colours as RGB in 0–1."""
    layout = spec.get("layout", {})
    page = over(layout.get("paper_bgcolor"), np.array(colors.parse(pal.background)))
    plot = over(layout.get("plot_bgcolor"), page)
    ink = _font(layout, pal.text)

    def say(what: str, colour: str, under: np.ndarray) -> tuple[str, np.ndarray, np.ndarray]:
        return what, over(colour, under), under

    if _titled(layout):
        yield say(f"title {_titled(layout)!r}", _font(layout.get("title"), ink), page)
    for key, axis in layout.items():
        if not isinstance(axis, dict):
            continue
        if key.startswith(("xaxis", "yaxis")) and axis.get("visible", True):
            if axis.get("showticklabels", True):
                yield say(f"{key} tick labels", (axis.get("tickfont") or {}).get("color") or ink, page)
            if _titled(axis):
                yield say(f"{key} title {_titled(axis)!r}", _font(axis.get("title"), ink), page)
        if key.startswith("scene"):
            ground = over(axis.get("bgcolor"), page)
            for name in ("xaxis", "yaxis", "zaxis"):
                a = axis.get(name) or {}
                yield say(f"{key}.{name} tick labels", (a.get("tickfont") or {}).get("color") or ink, ground)
                if _titled(a):
                    yield say(f"{key}.{name} title {_titled(a)!r}", _font(a.get("title"), ink), ground)
    legend = layout.get("legend") or {}
    named = [t for t in spec.get("data", []) if t.get("name") and t.get("showlegend", True)]
    if named and layout.get("showlegend", True):
        yield say("legend", _font(legend, ink), over(legend.get("bgcolor"), page))
    for note in layout.get("annotations") or []:
        if not note.get("text"):
            continue
        refs = (note.get("xref") or "x", note.get("yref") or "y")
        cell = _cell_fills(spec, refs, plot).get((note.get("x"), note.get("y")))
        under = over(note.get("bgcolor"), plot if cell is None else cell)
        what = "cell" if cell is not None else "annotation"
        yield say(f"{what} {note['text']!r} (annotation)", _font(note, ink), under)
    for k, t in enumerate(spec.get("data", [])):
        yield from _trace_texts(spec, k, t, ink, page, plot)


def _trace_texts(
    spec: dict[str, Any], k: int, t: dict[str, Any], ink: str, page: np.ndarray, plot: np.ndarray
) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    kind = t.get("type", "scatter")
    if kind == "heatmap" and t.get("showscale", True):
        bar = t.get("colorbar") or {}
        colour = (bar.get("tickfont") or {}).get("color") or ink
        yield f"trace {k} colour bar ticks", over(colour, page), page
        if _titled(bar):
            yield f"trace {k} colour bar title", over(_font(bar.get("title"), ink), page), page
    printed = [s for s in (t.get("text") or []) if s] if isinstance(t.get("text"), list) else t.get("text")
    if not printed or (kind == "heatmap" and not t.get("texttemplate")):
        return  # a heatmap's ``text`` is its hover unless a template prints it
    font = (t.get("textfont") or {}).get("color") or ink
    if kind in ("scatter", "scatter3d", "scattergl"):
        if "text" not in (t.get("mode") or "").split("+"):
            return
        refs = (t.get("xaxis") or "x", t.get("yaxis") or "y")
        cells = _cell_fills(spec, refs, plot) if t.get("customdata") else {}
        ground = over((spec["layout"].get(t.get("scene") or "scene") or {}).get("bgcolor"), page)
        for n, s in enumerate(t["text"] if isinstance(t["text"], list) else [t["text"]]):
            if not s:
                continue
            colour = font[n] if isinstance(font, list) else font
            cell = None if kind == "scatter3d" else cells.get((t["x"][n], t["y"][n]))
            under = ground if kind == "scatter3d" else plot if cell is None else cell
            yield f"trace {k} {'cell' if cell is not None else 'text'} {s!r}", over(colour, under), under
    elif kind == "bar":
        where = t.get("textposition", "auto")
        if where == "none":
            return
        if where != "outside":
            yield f"trace {k}: bar values printed {where!r}, which this reader does not measure", page, page
            return
        for s in t["text"] if isinstance(t["text"], list) else [t["text"]]:
            if s:
                colour = font if isinstance(font, str) else ink
                yield f"trace {k} bar value {s!r}", over(colour, plot), plot
    else:
        yield f"trace {k}: a {kind} that prints text, which this reader does not measure", page, page


def low_texts(spec: dict[str, Any], pal: Palette, floor: float = 4.5) -> list[str]:
    """Each text of ``spec`` under ``floor``:1 against what is under it, with its ratio."""
    out = []
    for what, fore, under in texts(spec, pal):
        ratio = float(colors.contrast(fore, under))
        if ratio < floor:
            out.append(f"{what}: {ratio:.2f}:1")
    return out
