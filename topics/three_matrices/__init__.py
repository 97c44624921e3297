"""Three matrices: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, WEIGHT_KEYS, PageInfo

PAGE = PageInfo(
    "topics/three_matrices/page.py",
    "Three matrices",
    ":material/grid_on:",
    "three-matrices",
    "W_q, W_k, W_v, and the asymmetry only two different matrices buy.",
    keys=(*SENTENCE_KEYS, "mode", *WEIGHT_KEYS, "focus", "cell", "scale"),
)
