"""Masking the future: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, WEIGHT_KEYS, PageInfo, prefixed, renamed

PAGE = PageInfo(
    "topics/masking/page.py",
    "Masking the future",
    ":material/visibility_off:",
    "masking",
    "Two causal paths that look unrelated half-way and end identical; a zero is not a mask.",
    keys=(
        *SENTENCE_KEYS,
        *prefixed("mask_", WEIGHT_KEYS),
        "stage",
        "fill",
        "logits",
        "mask_focus",
        "mask_cell",
        "mask_scale",
    ),
    legacy=renamed("mask_", WEIGHT_KEYS),
)
