"""The whole layer at a glance: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, WEIGHT_KEYS, PageInfo, prefixed

PAGE = PageInfo(
    "topics/layer/page.py",
    "The whole layer",
    ":material/linear_scale:",
    "layer",
    "X to Z in one pipeline: every stage of causal self-attention at your sentence, with its shape.",
    keys=(*SENTENCE_KEYS, *prefixed("layer_", WEIGHT_KEYS), "layer_focus"),
)
