"""What n² costs: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import PageInfo, renamed

PAGE = PageInfo(
    "topics/cost/page.py",
    "What n² costs",
    ":material/memory:",
    "n-squared",
    "Bytes, cards and hours for one attention matrix, from 1 token to GPT-4.1's window.",
    keys=("n", "bytes", "gpu", "cost_heads", "layers", "t0_ms", "cost_d_in", "cost_d_k"),
    legacy=renamed("cost_", ("heads", "d_in", "d_k")),
)
