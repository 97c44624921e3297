"""Overview: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import PageInfo

PAGE = PageInfo(
    "topics/overview/page.py",
    "Overview",
    ":material/home:",
    "overview",
    "What this is, the notation, the tokens.",
)
