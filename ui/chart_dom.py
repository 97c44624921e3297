"""What the browser adds to every chart: its accessible name and its PNG and SVG downloads.

Streamlit draws a Plotly chart as a tree of SVG: a screen reader read 36 numbers in a row, with
no row or column. ``ui.figures.show`` passes each chart's name as its ``alt``, which Streamlit
sets on the chart's box; this script moves it to the chart's plot, as its ``aria-label`` with
``role="img"`` (WCAG 1.1.1), so it is announced once, as one image with a name, and its numbers
are read from the "Values as a table" expander that follows it. A 3-D scene, which holds Plotly's
image button, is a named ``role="figure"`` instead (an image may hold no control).

It also adds two small buttons under each chart, PNG and SVG (hidden on phones and in print). The
SVG is the chart's own: Plotly's stacked SVG layers copied into one document, on the page's
background colour so a dark chart stays readable; the PNG is that SVG drawn on a canvas at twice
the size. A 3-D scene is a WebGL canvas, not SVG: it keeps Plotly's own image button instead
(``ui.figures._config``).

It also makes every region that scrolls (a wide table, a long equation, a code block) reachable
by keyboard (``tabindex="0"``), so it can be scrolled without a mouse.

The script runs once per browser tab and follows the page with a MutationObserver, so a chart
drawn or redrawn later (a rerun, a page switch) is named too.
"""

from __future__ import annotations

import streamlit as st

SCRIPT = """<script>
(() => {
  if (window.__awwCharts) return;
  window.__awwCharts = true;
  const NS = "http://www.w3.org/2000/svg";
  const background = () => {
    const app = document.querySelector("[data-testid='stApp']");
    return app ? getComputedStyle(app).backgroundColor : "#ffffff";
  };
  const slug = (name) =>
    (name || "chart").toLowerCase().replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "").slice(0, 60) || "chart";
  const svgOf = (plot) => {
    const layers = plot.querySelectorAll("svg.main-svg");
    if (!layers.length) return null;
    const w = Number(layers[0].getAttribute("width")), h = Number(layers[0].getAttribute("height"));
    const out = layers[0].cloneNode(true);
    out.setAttribute("xmlns", NS);
    out.setAttribute("xmlns:xlink", "http://www.w3.org/1999/xlink");
    const rect = document.createElementNS(NS, "rect");
    rect.setAttribute("width", w); rect.setAttribute("height", h); rect.setAttribute("fill", background());
    out.insertBefore(rect, out.firstChild);
    for (const layer of Array.from(layers).slice(1))
      for (const child of Array.from(layer.childNodes)) out.appendChild(child.cloneNode(true));
    return { text: new XMLSerializer().serializeToString(out), w, h };
  };
  const save = (blob, filename) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob); a.download = filename;
    document.body.appendChild(a); a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  };
  const download = (plot, name, kind) => {
    const svg = svgOf(plot);
    if (!svg) return;
    if (kind === "svg") {
      save(new Blob([svg.text], { type: "image/svg+xml" }), slug(name) + ".svg");
      return;
    }
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = svg.w * 2; canvas.height = svg.h * 2;
      const g = canvas.getContext("2d"); g.scale(2, 2); g.drawImage(img, 0, 0);
      canvas.toBlob((b) => b && save(b, slug(name) + ".png"), "image/png");
    };
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg.text);
  };
  const buttons = (plot, name) => {
    const row = document.createElement("div");
    row.className = "aww-export";
    for (const kind of ["png", "svg"]) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = kind.toUpperCase();
      b.setAttribute("aria-label", "Download " + name + " as " + kind.toUpperCase());
      b.addEventListener("click", () => download(plot, name, kind));
      row.appendChild(b);
    }
    return row;
  };
  const label = () => {
    for (const chart of document.querySelectorAll("[data-testid='stPlotlyChart']")) {
      // Streamlit names the chart's box with its alt (role="figure"); the name moves to the plot,
      // so a screen reader announces it once, as one image.
      const given = chart.getAttribute("aria-label");
      if (given) {
        chart.dataset.awwName = given;
        chart.removeAttribute("aria-label");
        chart.removeAttribute("role");
      }
      const name = (chart.dataset.awwName || "").trim();
      const plot = chart.querySelector(".js-plotly-plot");
      const block = chart.closest("[data-testid='stVerticalBlock']");
      if (!name || !plot || !block) continue;
      // A 3-D scene keeps Plotly's image button inside the plot: an image may hold no control
      // (axe's nested-interactive), so a scene is a named figure instead.
      const scene = plot.querySelector(".gl-container canvas") !== null;
      const role = scene ? "figure" : "img";
      if (plot.getAttribute("aria-label") !== name || plot.getAttribute("role") !== role) {
        plot.setAttribute("role", role);
        plot.setAttribute("aria-label", name);
      }
      const old = block.querySelector(":scope > .aww-export");
      if (old && old.dataset.name === name) continue;
      if (old) old.remove();
      if (scene) continue;
      const row = buttons(plot, name);
      row.dataset.name = name;
      block.appendChild(row);
    }
  };
  // A region that scrolls (a wide table, a long equation, a code block) must be reachable by
  // keyboard to be scrolled without a mouse (WCAG 2.1.1; axe's scrollable-region-focusable).
  const SCROLLERS = "[data-testid='stTable'], [data-testid='stTable'] > div, .katex-display, " +
    "[data-testid='stCode'] pre, [data-testid='stMarkdownContainer'] table";
  const reachable = () => {
    for (const el of document.querySelectorAll(SCROLLERS)) {
      const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    }
  };
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; label(); reachable(); });
  }).observe(document.body, { childList: true, subtree: true });
  label();
  reachable();
})();
</script>"""


def install() -> None:
    """Add the chart script to the page (once per tab; a script without visible output)."""
    st.html(SCRIPT, unsafe_allow_javascript=True, width=1)
