"""Dropout: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, PageInfo, renamed

PAGE = PageInfo(
    "topics/dropout/page.py",
    "Dropout",
    ":material/grain:",
    "dropout",
    "Inverted dropout on causal weights: rows sum to 1 only on average, and row 1 dies half the time.",
    keys=(
        *SENTENCE_KEYS,
        "p",
        "scaling",
        "generator",
        "drop_seed",
        "drop_draws",
        "drop_focus",
        "drop_cell",
        "drop_scale",
    ),
    legacy=renamed("drop_", ("seed", "draws")),
)
