"""Overview: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, PageInfo

PAGE = PageInfo(
    "topics/overview/page.py",
    "Overview",
    ":material/home:",
    "overview",
    "Where to start, the four tools, the sources, the notation, the tokens.",
    keys=(*SENTENCE_KEYS, "overview_scale"),  # its figure follows the reader's sentence
)
