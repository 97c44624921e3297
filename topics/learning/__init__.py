"""Learning to attend: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, WEIGHT_KEYS, PageInfo, prefixed, renamed

PAGE = PageInfo(
    "topics/learning/page.py",
    "Learning to attend",
    ":material/school:",
    "learning-to-attend",
    "Gradient descent turns the dials: W_q and W_k fitted to a target pattern, mode by mode.",
    keys=(
        *SENTENCE_KEYS,
        "target",
        "token",
        "learn_mode",
        "optimiser",
        "lr",
        "steps",
        "learn_step",
        "learn_width",
        *prefixed("learn_", WEIGHT_KEYS),
        "learn_focus",
        "learn_cell",
        "learn_scale",
    ),
    legacy=renamed("learn_", ("mode", "step", *WEIGHT_KEYS)),  # "step" is now the tour's
)
