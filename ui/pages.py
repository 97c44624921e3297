"""The app's table of contents: one entry per page, in navigation order.

``streamlit_app.py`` builds ``st.navigation`` from it and the Overview lists it, so a page is
added in one place. A page is listed only when it works.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    path: str  # the script, relative to the repository root (app_pages/, not pages/: see the README)
    title: str
    icon: str  # a Material Symbols name, as st.Page takes it
    url_path: str  # stable: share links depend on it
    blurb: str  # one line for the Overview


PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "app_pages/overview.py",
        "Overview",
        ":material/home:",
        "overview",
        "What this is, the notation, the tokens.",
    ),
    PageInfo(
        "app_pages/recap.py",
        "Recap: attention without weights",
        ":material/replay:",
        "recap",
        "XXᵀ, a softmax, and why six outputs collapse onto one token.",
    ),
    PageInfo(
        "app_pages/three_matrices.py",
        "Three matrices",
        ":material/grid_on:",
        "three-matrices",
        "W_q, W_k, W_v, and the asymmetry only two different matrices buy.",
    ),
    PageInfo(
        "app_pages/multihead.py",
        "Multi-head",
        ":material/view_column:",
        "multi-head",
        "One W_q sliced into stripes: the wrapper against the split class, and a stopwatch.",
    ),
)
