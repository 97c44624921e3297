"""Every region that scrolls (a wide table, a long equation, a code block) reachable by keyboard.

Streamlit limit: ``st.table``, ``st.latex`` and ``st.code`` draw a box that scrolls sideways when
its content is wider than the page (a 32-token table on a phone), and Streamlit 1.67 gives that box
no ``tabindex`` and offers no parameter that would. A reader without a mouse could not scroll it
(WCAG 2.1.1; axe's ``scrollable-region-focusable``). No documented API reaches that attribute, so
this script adds ``tabindex="0"`` to each such box that scrolls, and follows the page with a
MutationObserver, as reruns draw new ones. It changes nothing else. (It was part of the old chart
script, ``ui.chart_dom``, which the chart element, ``ui.chart``, replaced.)
"""

from __future__ import annotations

import streamlit as st

SCRIPT = """<script>
(() => {
  if (window.__awwScrollers) return;
  window.__awwScrollers = true;
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
    requestAnimationFrame(() => { pending = false; reachable(); });
  }).observe(document.body, { childList: true, subtree: true });
  reachable();
})();
</script>"""


def install() -> None:
    """Add the script to the page (once per tab; a script without visible output)."""
    st.html(SCRIPT, unsafe_allow_javascript=True, width=1)
