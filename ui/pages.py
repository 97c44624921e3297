"""The app's table of contents: one entry per page, in navigation order.

``streamlit_app.py`` builds ``st.navigation`` from it and the Overview lists it, so a page is
added in one place. A page is listed only when it works.
"""

from __future__ import annotations

from dataclasses import dataclass

ABOUT = (
    "**Attention, with weights**: chapter 3 of *Build a Large Language Model (From Scratch)* as live "
    "figures. Every number is computed here, in NumPy, from the book's six tokens and seeded weights."
)


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
        "app_pages/masking.py",
        "Masking the future",
        ":material/visibility_off:",
        "masking",
        "Two causal paths that look unrelated half-way and end identical; a zero is not a mask.",
    ),
    PageInfo(
        "app_pages/cost.py",
        "What n² costs",
        ":material/memory:",
        "n-squared",
        "Bytes, cards and hours for one attention matrix, from 1 token to GPT-4.1's window.",
    ),
    PageInfo(
        "app_pages/learning.py",
        "Learning to attend",
        ":material/school:",
        "learning-to-attend",
        "Gradient descent turns the dials: W_q and W_k fitted to a target pattern, mode by mode.",
    ),
    PageInfo(
        "app_pages/next.py",
        "What comes next",
        ":material/arrow_forward:",
        "what-comes-next",
        "A block's parameters, attention's blindness to order, and the KV cache.",
    ),
    PageInfo(
        "app_pages/dropout.py",
        "Dropout",
        ":material/grain:",
        "dropout",
        "Inverted dropout on causal weights: rows sum to 1 only on average, and row 1 dies half the time.",
    ),
    PageInfo(
        "app_pages/scaling.py",
        "Divide by √d_k",
        ":material/functions:",
        "divide-by-sqrt-dk",
        "Scores spread like √d_k; without the divisor the softmax's gradient dies.",
    ),
    PageInfo(
        "app_pages/multihead.py",
        "Multi-head",
        ":material/view_column:",
        "multi-head",
        "One W_q sliced into stripes: the wrapper against the split class, and a stopwatch.",
    ),
)

# The reading order of SPEC.md; a page not listed here goes last.
_ORDER = (
    "overview",
    "recap",
    "three-matrices",
    "learning-to-attend",
    "divide-by-sqrt-dk",
    "masking",
    "dropout",
    "multi-head",
    "n-squared",
    "what-comes-next",
)
PAGES = tuple(sorted(PAGES, key=lambda p: _ORDER.index(p.url_path) if p.url_path in _ORDER else len(_ORDER)))
