"""Recap: attention without weights: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, PageInfo

PAGE = PageInfo(
    "topics/recap/page.py",
    "Recap: attention without weights",
    ":material/replay:",
    "recap",
    "XXᵀ, a softmax, and why six outputs collapse onto one token.",
    keys=(*SENTENCE_KEYS, "query", "key", "recap_scale"),
)
