"""Multi-head: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, PageInfo, renamed

PAGE = PageInfo(
    "topics/multihead/page.py",
    "Multi-head",
    ":material/view_column:",
    "multi-head",
    "One W_q sliced into stripes: the wrapper against the split class, and a stopwatch.",
    keys=(
        *SENTENCE_KEYS,
        "preset",
        "kind",
        "heads",
        "d_in",
        "d_out",
        "mh_seed",
        "mh_focus",
        "mh_cell",
        "mh_head",
        "mh_scale",
    ),
    legacy=renamed("mh_", ("seed",)),
)
