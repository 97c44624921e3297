"""Divide by √d_k: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import PageInfo, renamed

PAGE = PageInfo(
    "topics/scaling/page.py",
    "Divide by √d_k",
    ":material/functions:",
    "divide-by-sqrt-dk",
    "Scores spread like √d_k; without the divisor the softmax's gradient dies.",
    keys=("d_k", "divisor", "draws", "keys", "dk_seed", "sampler", "dk_tail"),
    legacy=renamed("dk_", ("seed",)),
)
