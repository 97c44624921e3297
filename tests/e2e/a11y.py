"""An accessibility audit of one page as Chromium draws it (issue 23): axe-core, chart text contrast
measured from pixels, chart names, the document title and the heading outline.

- **axe-core 4.12.1** (``vendor/axe.min.js``, MPL-2.0, vendored so CI needs no npm) runs the
  WCAG 2.0, 2.1 and 2.2 A and AA rules on the whole document, expanders open. A violation whose
  every node is one of Streamlit's own controls, listed in ``STREAMLIT_OWNED`` with the reason, is
  Streamlit's to fix (the README's known limits); any other is the app's and fails.
- **Chart text contrast**, for text axe cannot judge (SVG text over a heatmap's pixels): every
  text of every Plotly chart is hidden, the chart is photographed, and each text's background is
  read from the pixels under its box (the median colour there). Its contrast with the text's own
  fill must reach 4.5:1 (WCAG 1.4.3). Text under 1 px of box, or empty, is skipped.
- **Code text contrast**, for text axe leaves out (each highlighted token of a code block, and
  inline code): its colour, faded by the opacities down to it, against the background behind it.
- Every chart's plot has ``role="img"`` and a non-empty ``aria-label`` (ui.chart); the
  document's title names the page; the main area has one h1 and no heading skips a level.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ui.colors import contrast

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]

# Violations that sit wholly inside Streamlit's own widgets, which the app cannot change. Each is
# listed in the README's known limits. Keys are axe rule ids; values, CSS selectors a node's target
# must match (any of them) to count as Streamlit's.
STREAMLIT_OWNED: dict[str, tuple[str, ...]] = {}


def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def open_expanders(page) -> None:
    """Open every closed expander on the page (their contents are audited too)."""
    page.evaluate(
        """() => { for (const d of document.querySelectorAll("[data-testid='stExpander'] details"))
                     if (!d.open) d.querySelector('summary').click(); }"""
    )


def axe_violations(page) -> list[dict]:
    """axe-core's WCAG A/AA violations on the page, each as ``{"id", "help", "targets"}``."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    result = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        TAGS,
    )
    out = []
    for v in result["violations"]:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"]]
        out.append(
            {
                "id": v["id"],
                "help": v["help"],
                "targets": targets,
                "html": [n["html"][:160] for n in v["nodes"]],
            }
        )
    return out


def _inside(page, target: str, selector: str) -> bool:
    return page.evaluate("([t, s]) => !!document.querySelector(t)?.closest(s)", [target, selector])


def app_violations(page) -> list[dict]:
    """The violations that are the app's: those not wholly inside ``STREAMLIT_OWNED`` widgets."""
    owned = []
    for v in axe_violations(page):
        selectors = STREAMLIT_OWNED.get(v["id"], ())
        mine = [t for t in v["targets"] if not any(_inside(page, t, s) for s in selectors)]
        if mine:
            owned.append({**v, "targets": mine})
    return owned


@dataclass(frozen=True)
class TextContrast:
    """One chart text's contrast with the pixels under it: ``ratio`` for its colour as styled,
    ``drawn`` for its glyphs as drawn (the glyph pixel that contrasts most with the background: an
    anti-aliased stroke's fullest pixel, which can fall short of the styled colour); ``None``
    where the text left no pixel of its own (drawn over an identical colour)."""

    chart: int
    text: str
    ratio: float
    drawn: float | None = None

    @property
    def least(self) -> float:
        return self.ratio if self.drawn is None else min(self.ratio, self.drawn)


_TEXTS = """() => {
    const charts = Array.from(document.querySelectorAll(".aww-chart .js-plotly-plot"));
    return charts.map((plot) => {
        const box = plot.getBoundingClientRect();
        // Not a hover label: Plotly draws it on demand, in its own box, under the pointer.
        const texts = Array.from(plot.querySelectorAll("svg text")).filter((t) => !t.closest(".hoverlayer"));
        return texts.map((t) => {
            const r = t.getBoundingClientRect();
            const style = getComputedStyle(t);
            return {text: t.textContent.trim(), fill: style.fill, opacity: Number(style.opacity),
                    visible: style.visibility !== "hidden" && style.display !== "none",
                    x: r.left - box.left, y: r.top - box.top, w: r.width, h: r.height};
        }).filter((t) => t.text && t.visible && t.w >= 1 && t.h >= 1);
    });
}"""

_HIDE = """(hide) => {
    // The texts, so the pixels under them show; and what only a pointer brings up over a chart
    // (Streamlit's element toolbar, Plotly's hover label), so they are not read as its background.
    const sel = ".aww-chart svg text, [data-testid='stElementToolbar'], .hoverlayer";
    for (const t of document.querySelectorAll(sel)) t.style.visibility = hide ? "hidden" : "";
}"""


def _rgb(css: str) -> np.ndarray:
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    return np.array([float(p) for p in parts[:3]]) / 255


def _shot(plot) -> np.ndarray:
    return _unit(_image(plot.screenshot()))


_BOXES = """() => Array.from(document.querySelectorAll(".aww-chart .js-plotly-plot")).map((p) => {
    const r = p.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
})"""


class _Photos:
    """Each chart's photograph: cut from one screenshot of the screen where the chart lies wholly
    on it (a tall viewport holds a whole page: one photograph a page instead of one a chart), else
    the chart's own screenshot, scrolled to. The screenshot spans only the band of the screen
    that holds those charts, and is kept as bytes: a chart's cut becomes floats when asked for
    (a whole 1,400 × 6,000 screen as float64 is 200 MB). A scroll moves every chart, so each
    chart's place is read when it is photographed, and the screen is taken again after one."""

    def __init__(self, page, plots) -> None:
        self.page, self.plots = page, plots
        self.screen: tuple[int, np.ndarray] | None = None  # the band's top, and its pixels

    def _places(self) -> tuple[list[tuple[int, ...]], list[bool]]:
        boxes = [tuple(round(v) for v in box) for box in self.page.evaluate(_BOXES)]
        size = self.page.viewport_size or {"width": 0, "height": 0}
        on = [
            x >= 0 and y >= 0 and x + w <= size["width"] and y + h <= size["height"] for x, y, w, h in boxes
        ]
        return boxes, on

    def __call__(self, k: int) -> np.ndarray:
        boxes, on = self._places()
        x, y, w, h = boxes[k]
        if on[k]:
            if self.screen is None:
                bands = [(by, by + bh) for (_, by, _, bh), o in zip(boxes, on, strict=True) if o]
                top, bottom = min(t for t, _ in bands), max(b for _, b in bands)
                width = (self.page.viewport_size or {"width": 0})["width"]
                clip = {"x": 0, "y": top, "width": width, "height": bottom - top}
                self.screen = (top, _image(self.page.screenshot(clip=clip)))
            top, pixels = self.screen
            return _unit(pixels[y - top : y - top + h, x : x + w])
        self.plots[k].scroll_into_view_if_needed()
        self.screen = None
        return _shot(self.plots[k])


def _image(png: bytes) -> np.ndarray:
    """A PNG's pixels, RGB bytes."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def _unit(pixels: np.ndarray) -> np.ndarray:
    """RGB bytes as floats in [0, 1]."""
    return pixels.astype(np.float64) / 255


def chart_text_contrasts(page, glyphs: bool = False) -> list[TextContrast]:
    """Every chart text's contrast against the pixels under it (see the module's docstring); with
    ``glyphs``, each chart is photographed with its texts drawn too, and each text's glyph pixels
    (those the text changed) give its contrast as drawn (:class:`TextContrast`)."""
    texts = page.evaluate(_TEXTS)
    plots = page.locator(".aww-chart .js-plotly-plot").all()
    shown: dict[int, np.ndarray] = {}
    if glyphs:
        photo = _Photos(page, plots)
        for k, items in enumerate(texts[: len(plots)]):
            if items:
                shown[k] = photo(k)
    out: list[TextContrast] = []
    page.evaluate(_HIDE, True)
    try:
        photo = _Photos(page, plots)
        for k, items in enumerate(texts[: len(plots)]):
            if not items:
                continue
            shot = photo(k)
            for t in items:
                x0, y0 = max(0, int(t["x"])), max(0, int(t["y"]))
                x1, y1 = (
                    min(shot.shape[1], int(t["x"] + t["w"]) + 1),
                    min(shot.shape[0], int(t["y"] + t["h"]) + 1),
                )
                if x1 <= x0 or y1 <= y0:
                    continue
                box = shot[y0:y1, x0:x1].reshape(-1, 3)
                under = np.median(box, axis=0)
                ratio = float(contrast(_rgb(t["fill"]), under))
                drawn = None
                if k in shown and shown[k].shape == shot.shape:
                    ink = shown[k][y0:y1, x0:x1].reshape(-1, 3)
                    changed = np.abs(ink - box).max(axis=1) > 1.5 / 255
                    if changed.any():
                        drawn = round(float(contrast(ink[changed], under).max()), 2)
                out.append(TextContrast(k, t["text"], round(ratio, 2), drawn))
    finally:
        page.evaluate(_HIDE, False)
    return out


_CHART_NAMES = """() => Array.from(document.querySelectorAll(".aww-chart")).map((c) => {
    const plot = c.querySelector(".aww-plot.js-plotly-plot");  // drawn by Plotly, named by the element
    return plot ? {role: plot.getAttribute("role"), name: plot.getAttribute("aria-label") || ""} : null;
})"""

_HEADINGS = """() => Array.from(document.querySelectorAll(
    "[data-testid='stMain'] h1, [data-testid='stMain'] h2, [data-testid='stMain'] h3, " +
    "[data-testid='stMain'] h4, [data-testid='stMain'] h5, [data-testid='stMain'] h6"))
    .filter((h) => h.offsetParent !== null && h.innerText.trim())
    .map((h) => [Number(h.tagName[1]), h.innerText.trim().slice(0, 60)])"""


def unnamed_charts(page) -> list[int]:
    """Indices of the charts whose plot is not a named image (or, a 3-D scene, a named figure)."""
    charts = page.evaluate(_CHART_NAMES)
    named = [bool(c) and c["role"] in ("img", "figure") and bool(c["name"].strip()) for c in charts]
    return [k for k, ok in enumerate(named) if not ok]


def heading_skips(page) -> list[str]:
    """Headings that skip a level after the one before (h1 → h3), and a count of h1s other than 1."""
    levels = page.evaluate(_HEADINGS)
    problems = [f"{len([h for h in levels if h[0] == 1])} h1"] if [h[0] for h in levels].count(1) != 1 else []
    for (before, _), (level, text) in itertools.pairwise(levels):
        if level > before + 1:
            problems.append(f"h{before} → h{level} at {text!r}")
    return problems


# Every text in a code block (each token of its highlighting, and the code itself) and inline code:
# its colour, faded by its own and its ancestors' opacity up to the code, over the first opaque
# background behind it. axe leaves these out: a code block is a scrolling box, and axe judged none of
# its tokens (it passed Streamlit's 2.6:1 numbers and 3.6:1 comments on every page).
_CODE_TEXTS = """() => {
    const rgba = (c) => { const v = c.slice(c.indexOf("(") + 1, c.indexOf(")")).split(",").map(Number);
                          return v.length > 3 ? v : [...v, 1]; };
    const nodes = document.querySelectorAll("[data-testid='stCode'] code, " +
        "[data-testid='stCode'] code span, [data-testid='stMarkdownContainer'] code");
    return Array.from(nodes).filter((e) => Array.from(e.childNodes).some(
        (n) => n.nodeType === 3 && n.textContent.trim())).map((e) => {
        let alpha = 1, n = e;
        while (n && n.nodeType === 1) {
            alpha *= Number(getComputedStyle(n).opacity);
            if (n.matches("code")) break;
            n = n.parentElement;
        }
        let back = null;
        for (let b = e; b && !back; b = b.parentElement) {
            const c = rgba(getComputedStyle(b).backgroundColor);
            if (c[3] === 1) back = c.slice(0, 3);
        }
        const fore = rgba(getComputedStyle(e).color);
        return {text: e.textContent.trim().slice(0, 60), fore: fore.slice(0, 3), alpha: alpha * fore[3],
                back: back || [255, 255, 255]};
    });
}"""


def low_code_texts(page, floor: float = 4.5) -> list[str]:
    """Each code text (``_CODE_TEXTS``) under ``floor``:1, with its ratio: WCAG 1.4.3 for code."""
    out = []
    for t in page.evaluate(_CODE_TEXTS):
        back = np.array(t["back"]) / 255
        fore = np.array(t["fore"]) / 255 * t["alpha"] + back * (1 - t["alpha"])
        ratio = float(contrast(fore, back))
        if ratio < floor:
            out.append(f"{t['text']!r}: {ratio:.2f}:1")
    return out


def audit(page, title: str) -> dict[str, list]:
    """Everything this module checks on the page as it stands, expanders opened first. Empty lists
    everywhere is a pass."""
    from tests.e2e.browser import settle

    open_expanders(page)
    settle(page)
    low = [c for c in chart_text_contrasts(page) if c.ratio < 4.5]
    return {
        "axe": app_violations(page),
        "contrast": low,
        "code contrast": low_code_texts(page),
        "unnamed charts": unnamed_charts(page),
        "title": [] if page.title() == f"{title} · Attention, with weights" else [page.title()],
        "headings": heading_skips(page),
    }


# Every page that draws charts from the reader's sentence, and the URL key of its focused query:
# a focus fades the other rows (ui.colors.dim_scale), so the faded fills are measured too.
# Read along is not among them: its first step draws no chart (each step's figure is the page's own).
FOCUS_KEYS: dict[str, str | None] = {
    "overview": None,
    "recap": "query",
    "three-matrices": "focus",
    "learning-to-attend": "learn_focus",
    "masking": "mask_focus",
    "dropout": "drop_focus",
    "multi-head": "mh_focus",
    "what-comes-next": "next_focus",
}
# The pages whose charts do not follow the sentence: measured once per theme.
FIXED_PAGES: tuple[str, ...] = ("divide-by-sqrt-dk", "n-squared")
WORDS = (
    "the cat sat on a mat because it was warm and then one dog came by to sleep in sun while birds "
    "sang over quiet green hills near old stone walls at dusk with rain"
)
BOOK = "Your journey starts with one step"


def sentence_of(n: int) -> tuple[str, list[str]]:
    """A sentence of ``n`` distinct words (the book's six at 6) and its labels, for the sweep."""
    words = (BOOK if n == 6 else WORDS).split()[:n]
    if len(words) < n:
        raise ValueError(f"only {len(words)} distinct words for {n} tokens")
    return " ".join(words), words


def sweep_paths(counts: tuple[int, ...], fixed: bool = True) -> list[str]:
    """Every page at every token count in ``counts``, as ``path?query``, with a middle token focused
    where the page has a focus (so its other rows are faded), and, with ``fixed``, each fixed page
    once."""
    from urllib.parse import urlencode

    paths = []
    for n in counts:
        text, words = sentence_of(n)
        for path, key in FOCUS_KEYS.items():
            query = {"text": text}
            if key is not None:
                query[key] = words[len(words) // 2]
            paths.append(f"{path}?{urlencode(query)}")
    return paths + (list(FIXED_PAGES) if fixed else [])


def sweep_urls(base: str, counts: tuple[int, ...], fixed: bool = True) -> list[str]:
    """:func:`sweep_paths` on the server at ``base``."""
    return [f"{base}/{path}" for path in sweep_paths(counts, fixed)]


_NUMBER = re.compile(r"[-−]?[0-9][0-9.,]*(e[-+]?[0-9]+)?%?")


def too_low(c: TextContrast, floor: float = 4.5) -> bool:
    """Whether ``c`` reads under ``floor``:1: its colour against the pixels under it (WCAG 1.4.3's
    measure), and, for a number (a heatmap cell's value), its glyphs as drawn too. A word's drawn
    contrast is not held to it: a 10 px "in" fills no pixel whole, so its fullest pixel measures
    the font's rasteriser (3.6:1 for a word styled at 7.5:1), not the colours."""
    if c.ratio < floor:
        return True
    return c.drawn is not None and c.drawn < floor and _NUMBER.fullmatch(c.text) is not None


_INKS = """() => Array.from(document.querySelectorAll(".aww-chart .js-plotly-plot"))
    .map((p) => (p.layout && p.layout.font && p.layout.font.color) || "")"""


def low_chart_texts(
    page,
    urls: list[str],
    floor: float = 4.5,
    also: Callable[[Any], list[str]] | None = None,
    ink: str | None = None,
) -> tuple[list[tuple[str, TextContrast]], list[str]]:
    """Each chart text under ``floor``:1 from pixels (:func:`too_low`), with its page's URL, over
    every URL in turn: one browser page, one server. The first URL is loaded, each next one visited
    as Back and Forward bring a tab's entries (``tests.e2e.browser.visit``: a rerun, not a new
    load of the frontend); ``page`` must be watched (``watch_reruns``) from before its first load.
    With ``also``, what it finds on each page as it stands (``tests.e2e.whole.chart_faults``), each
    with its URL, comes second, after any chart drawn in another theme than the one whose text
    colour is ``ink`` (``ui.theme``'s ``Palette.text``)."""
    from tests.e2e.browser import open_settled, visit

    lows, more = [], []
    for k, url in enumerate(urls):
        (visit if k else open_settled)(page, url)
        if ink is not None:
            inks = page.evaluate(_INKS)
            more += [
                f"{url}: chart {c} drawn with ink {i!r}, not the theme's {ink!r}"
                for c, i in enumerate(inks)
                if i != ink
            ]
        if also is not None:
            more += [f"{url}: {fault}" for fault in also(page)]
        # Glyphs only where cells print numbers (at most TEXT_MAX tokens): they cost a second
        # photograph of the screen, and only a number's glyphs are held to the floor.
        numbers = page.evaluate(_PRINTS_NUMBERS)
        lows += [(url, c) for c in chart_text_contrasts(page, glyphs=numbers) if too_low(c, floor)]
    return lows, more


_PRINTS_NUMBERS = """() => Array.from(
    document.querySelectorAll(".aww-chart svg text")
).filter((t) => !t.closest(".hoverlayer")).some((t) => /^[-−]?[0-9]/.test(t.textContent.trim()))"""
