"""A small style sheet for what Streamlit's defaults get wrong here: cut-off readouts and phones.

At every width, a metric's value and label wrap instead of ending in "…": a readout is an answer
(GPT-2's output shape [2, 6, 9216] is the exercise's), not decoration, and a column narrower than
it must not hide its end.

On a phone (below Streamlit's own 640 px breakpoint for stacking columns) the page is sized for
the figures, not the furniture: 36 px metric values pushed the first chart of most pages below the
first screen, so they are smaller there, and a row of readouts a page keeps side by side
(``st.columns(..., wrap=False)``) shares the screen's width instead of running off its edge. The
headings' sizes are the theme's (``.streamlit/config.toml``), smaller than Streamlit's at every
width: set here they came late, and a title that shrank after the first paint moved the page.

At every width, what is wider than the page scrolls inside itself (display equations, Markdown
tables such as the checks, static tables), so no page scrolls sideways, down to 320 px.

The selectors are Streamlit's ``data-testid`` attributes, the ones its own tests use; a release
that renames one leaves that rule inert, never the page broken.
"""

from __future__ import annotations

import streamlit as st

CSS = """<style>
[data-testid="stMetricValue"] *,
[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMetricValue"] .stMarkdownEllipsis p,
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"],
[data-testid="stMetricLabel"] p {
  white-space: normal;
  overflow: visible;
  text-overflow: clip;
  overflow-wrap: break-word;
}
/* Nothing pushes the page sideways, down to 320 px: a display equation, a Markdown table (the
   checks) and a static table scroll inside themselves instead. */
.katex-display { overflow-x: auto; overflow-y: hidden; max-width: 100%; }
[data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }
[data-testid="stTable"] { max-width: 100%; overflow-x: auto; }
@media (max-width: 640px) {
  [data-testid="stMetricValue"] { font-size: 1.6rem; }
  /* A row kept side by side (wrap=False) shares the width: Streamlit's 128 px floor per column
     pushed a third readout off a 390 px screen. */
  [data-testid="stHorizontalBlock"][data-test-wrap="false"] > [data-testid="stColumn"] { min-width: 0; }
}
</style>"""


# Captions pass 4.5:1 in both themes (the text colour at 80%: 8.2:1 on white, 11:1 on #0e1117).
# Charts (ui.chart): the PNG/SVG buttons sit small under the chart's right edge, in a row of
# ui.chart.ROW_PX (28 px) the element reserves with the plot; on a phone the row stays, empty.
# Print: no sidebar, header or buttons; the page flows onto as many sheets as it needs (Streamlit
# scrolls inside a fixed-height container, which printed only its first screen); tables print
# whole, a row never split across two sheets.
CHARTS_AND_PRINT = """<style>
/* Captions in the page's own text colour, a little lighter: Streamlit's grey was 4.35:1. */
[data-testid="stCaptionContainer"] { color: inherit; opacity: 0.8; }
/* Code (the tour's lines from the book, every Reproduce script) at 5:1. Streamlit's highlighter
   prints its tokens in fixed colours, the same in both themes: on the light code background
   (#fafbfd) its numbers read 2.6:1, strings 2.9:1, keywords 3.8:1, comments and punctuation 3.6:1;
   on the dark one (#1a1c24) keywords 4.4:1 and links 2.5:1. Each keeps Streamlit's hue, darkened
   (light) or lightened (dark) to 5.2:1, where it fell short; comments and punctuation take the
   code's own colour, comments a little lighter (8.4:1 light, 10.8:1 dark) and italic. */
[data-testid="stCode"] .token:is(.comment, .prolog, .doctype, .cdata) { color: inherit; opacity: 0.8; }
[data-testid="stCode"] .token:is(.punctuation, .unchanged) { color: inherit; }
[data-testid="stCode"] .namespace { opacity: 1; }
[data-testid="stCode"] {
  --aww-code-name: #007395; --aww-code-constant: #157a35; --aww-code-operator: #ab500e;
  --aww-code-important: #c03939; --aww-code-keyword: #176cba; --aww-code-number: #1c776a;
  --aww-code-string: #067b2b; --aww-code-url: #6d3fc0;
}
@media (prefers-color-scheme: dark) {
  [data-testid="stCode"] {
    --aww-code-name: #00a4d4; --aww-code-constant: #21c354; --aww-code-operator: #ed6f13;
    --aww-code-important: #ff4e4e; --aww-code-keyword: #3993e5; --aww-code-number: #29b09d;
    --aww-code-string: #09ab3b; --aww-code-url: #9d7fd5;
  }
}
[data-testid="stCode"] .token:is(.attr-name, .property, .variable) { color: var(--aww-code-name); }
[data-testid="stCode"] .token:is(.boolean, .constant, .symbol, .inserted) { color: var(--aww-code-constant); }
[data-testid="stCode"] .token:is(.decorator, .atrule, .operator, .entity) { color: var(--aww-code-operator); }
[data-testid="stCode"] .token:is(.important, .deleted) { color: var(--aww-code-important); }
[data-testid="stCode"] .token:is(.function, .class-name, .selector, .keyword, .tag) {
  color: var(--aww-code-keyword);
}
[data-testid="stCode"] .token:is(.number, .regex) { color: var(--aww-code-number); }
[data-testid="stCode"] .token:is(.string, .char, .attr-value) { color: var(--aww-code-string); }
[data-testid="stCode"] .token.url { color: var(--aww-code-url); }
.aww-chart { width: 100%; }
.aww-export { display: flex; justify-content: flex-end; align-items: flex-end; gap: 0.25rem; height: 28px; }
.aww-export button {
  font: inherit; font-size: 0.75rem; line-height: 1.2; padding: 0.1rem 0.45rem; cursor: pointer;
  color: inherit; background: transparent; border: 1px solid currentColor; border-radius: 0.25rem;
  opacity: 0.85;
}
.aww-export button:hover, .aww-export button:focus-visible { opacity: 1; }
@media (max-width: 640px), (hover: none) { .aww-export { visibility: hidden; } }
/* A button's key hint ("N" on Next) is printed at 60% opacity: on the dark theme's primary colour
   that is 2.70:1; at full opacity it is the button's own white, 4.77:1. */
[data-testid="stBaseButton-primary"] kbd { opacity: 1; }
@media print {
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stElementToolbar"],
  [data-testid="stStatusWidget"], .aww-export, [data-testid="stDownloadButton"] {
    display: none !important;
  }
  html, body, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"] {
    height: auto !important; overflow: visible !important; position: static !important;
  }
  [data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 0 1rem !important; }
  [data-testid="stTable"], [data-testid="stTable"] * {
    overflow: visible !important; max-height: none !important;
  }
  tr, .aww-chart { break-inside: avoid; }
}
</style>"""


def apply_style() -> None:
    """Add the style sheets to the page: style-only HTML takes no room (Streamlit sends it to its
    event container). The browser fetches the HTML element's code on first use, so on a first visit
    the sheets arrive after the page's first paint: nothing in them may move the page (the headings'
    sizes are the theme's for that reason)."""
    st.html(CSS + CHARTS_AND_PRINT)
