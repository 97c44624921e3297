"""What comes next: its entry in the table of contents, and the URL keys it owns."""

from ui.pages import SENTENCE_KEYS, PageInfo, frozen

PAGE = PageInfo(
    "topics/next/page.py",
    "What comes next",
    ":material/arrow_forward:",
    "what-comes-next",
    "A block's parameters, attention's blindness to order, and the KV cache.",
    keys=(
        *SENTENCE_KEYS,
        "block",
        "emb_dim",
        "n_heads",
        "n_layers",
        "context_length",
        "ff_mult",
        "qkv_bias",
        "kv_tokens",
        "kv_bytes",
        "kv_batch",
        "perm",
        "next_focus",
        "next_cell",
        "next_scale",
    ),
    legacy=frozen({"preset": "block"}),
)
