"""Read along: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import CLASS_KEY, SENTENCE_KEYS, PageInfo

PAGE = PageInfo(
    "topics/read_along/page.py",
    "Read along",
    ":material/menu_book:",
    "read-along",
    "The whole chapter in order, one short step at a time: predict, then see the answer computed.",
    keys=(*SENTENCE_KEYS, "step", CLASS_KEY),
    written=("step", CLASS_KEY),  # the class: read by ui.classroom, never bound
    own_next=True,  # the tour's Back and Next; its footer's page links say "Page before/after"
)
