"""How the app reads on a phone (390 px): the figures, not the furniture, fill the first screen.

Streamlit sizes its page for a desktop: a 44 px title that wraps to four lines on a phone, 96 px
above it, 36 px metric values, each metric on a row of its own. Below Streamlit's own breakpoint
for stacking columns (640 px) this style sheet sets a smaller title, a smaller top margin, smaller
metric values two to a row, so the first chart of most pages starts in the first screen. Nothing
changes on a desktop. The selectors are Streamlit's ``data-testid`` attributes, the ones its own
tests use; a release that renames one leaves that rule inert, never the page broken.
"""

from __future__ import annotations

import streamlit as st

# A row of metrics alone (no chart in it) keeps two metrics a row instead of one; a metric's value
# wraps rather than being cut short with "…" (a vector or a shape is the answer, not decoration).
_METRIC_ROW = (
    '[data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] > [data-testid="stVerticalBlock"]'
    ' > [data-testid="stElementContainer"] > [data-testid="stMetric"])'
    ':not(:has([data-testid="stPlotlyChart"]))'
)
PHONE_CSS = f"""<style>
@media (max-width: 640px) {{
  [data-testid="stMainBlockContainer"] {{ padding-top: 4rem; }}
  [data-testid="stMain"] h1 {{ font-size: 1.9rem; line-height: 1.2; padding-top: 0.25rem; }}
  [data-testid="stMain"] h2 {{ font-size: 1.5rem; padding-top: 0.75rem; }}
  [data-testid="stMain"] h3 {{ font-size: 1.25rem; }}
  [data-testid="stMetricValue"] {{ font-size: 1.5rem; }}
  [data-testid="stMetricValue"] > div {{ white-space: normal; overflow-wrap: anywhere; }}
  {_METRIC_ROW} {{ row-gap: 0.5rem; }}
  {_METRIC_ROW} > [data-testid="stColumn"] {{ min-width: calc(50% - 0.5rem); }}
}}
</style>"""


def fit_phones() -> None:
    """Add the phone style sheet to the page (a style block takes no space of its own)."""
    st.html(PHONE_CSS)
