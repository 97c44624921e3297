"""What one transformer block costs: its parameters, and the KV cache that inference adds.

Figure 07 of the post ("What comes next"): the attention module of chapter 3 is one of two
sublayers of a GPT block. Chapter 4 of the book wraps it with a feed-forward network, two layer
norms and residual connections, and prints how the parameters split between the two sublayers
(2,360,064 for attention, 4,722,432 for the feed-forward, GPT-2 small). Every count here is an
exact Python integer: products of widths, no floats.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class BlockConfig:
    """The parts of the book's ``GPT_CONFIG_124M`` (chapter 4) that size one block.

    Defaults are GPT-2 small as the book configures it. ``qkv_bias=False`` is the book's choice
    and the one its printed counts assume; the released GPT-2 weights use ``qkv_bias=True``
    (chapter 5 switches it on to load them), which adds ``3 × emb_dim`` per block.
    """

    emb_dim: int = 768  # d_model: token width in and out of every block
    n_heads: int = 12  # head_dim = emb_dim / n_heads = 64; does not change the parameter count
    n_layers: int = 12  # blocks in the stack
    context_length: int = 1024  # sizes the mask buffer and the position embeddings, not the block
    qkv_bias: bool = False  # book: False; released GPT-2 weights: True
    ff_mult: int = 4  # feed-forward hidden width = ff_mult × emb_dim (the book's 4)

    def __post_init__(self) -> None:
        for name in ("emb_dim", "n_heads", "n_layers", "context_length", "ff_mult"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.emb_dim % self.n_heads:
            raise ValueError(_indivisible(self.emb_dim, self.n_heads))

    @property
    def head_dim(self) -> int:
        return self.emb_dim // self.n_heads

    @property
    def ff_hidden(self) -> int:
        return self.ff_mult * self.emb_dim


def _nearest_divisor(n: int, near: int) -> int:
    return min((d for d in range(1, n + 1) if n % d == 0), key=lambda d: (abs(d - near), -d))


def _indivisible(emb_dim: int, n_heads: int) -> str:
    """What to change when ``n_heads`` does not divide ``emb_dim``: the nearest widths that keep the
    heads, and the nearest head count that keeps the width. A width no count but 1 and itself
    divides (a prime such as 769, or 1) is named as such: "Try 1 heads" helps no one."""
    below, above = emb_dim // n_heads * n_heads, (emb_dim // n_heads + 1) * n_heads
    widths = " or ".join(f"{w:,}" for w in (below, above) if w >= 1)
    text = (
        f"emb_dim = {emb_dim:,} is not divisible by n_heads = {n_heads}: each head takes emb_dim / "
        f"n_heads columns, and {emb_dim:,} / {n_heads} is not a whole number. Keep {n_heads} heads with "
        f"emb_dim = {widths}"
    )
    if emb_dim == 1:
        return text + "; a width of 1 holds a single head."
    if not any(emb_dim % d == 0 for d in range(2, int(emb_dim**0.5) + 1)):
        return text + f". {emb_dim:,} is prime: only 1 head or {emb_dim:,} heads divide it."
    heads = _nearest_divisor(emb_dim, n_heads)
    return text + f", or keep emb_dim = {emb_dim:,} with {heads} head{'' if heads == 1 else 's'}."


# GPT-2's four sizes as the book names them (chapter 5's ``model_configs``; exercise 4.2 asks for
# the same widths, layers and heads). All four share context_length 1024.
GPT2_PRESETS: dict[str, BlockConfig] = {
    "GPT-2 small (124M)": BlockConfig(768, 12, 12),
    "GPT-2 medium (355M)": BlockConfig(1024, 16, 24),
    "GPT-2 large (774M)": BlockConfig(1280, 20, 36),
    "GPT-2 XL (1558M)": BlockConfig(1600, 25, 48),
}


def matching_preset(cfg: BlockConfig) -> str | None:
    """The GPT-2 preset ``cfg`` matches (``qkv_bias`` aside: both settings are GPT-2), or ``None``."""
    plain = replace(cfg, qkv_bias=False)
    return next((name for name, p in GPT2_PRESETS.items() if p == plain), None)


def linear_params(fan_in: int, fan_out: int, bias: bool) -> int:
    """``nn.Linear(fan_in, fan_out, bias)``: a ``fan_out × fan_in`` weight plus ``fan_out`` biases."""
    return fan_in * fan_out + (fan_out if bias else 0)


@dataclass(frozen=True)
class BlockParams:
    """One block's parameters by component, each an exact count.

    ``attention`` is the book's ``MultiHeadAttention``: ``W_query``, ``W_key``, ``W_value``
    (``nn.Linear(d, d, bias=qkv_bias)``) and ``out_proj`` (``nn.Linear(d, d)``, with bias).
    ``feed_forward`` is ``Linear(d, 4d) → GELU → Linear(4d, d)``, both with bias; GELU has none.
    ``layer_norms`` is the two ``LayerNorm(d)`` of the block, a scale and a shift each (2 × 2d).
    """

    w_query: int
    w_key: int
    w_value: int
    out_proj: int
    ff_in: int  # Linear(d, ff_mult·d)
    ff_out: int  # Linear(ff_mult·d, d)
    layer_norms: int  # norm1 + norm2

    @property
    def attention(self) -> int:
        return self.w_query + self.w_key + self.w_value + self.out_proj

    @property
    def feed_forward(self) -> int:
        return self.ff_in + self.ff_out

    @property
    def total(self) -> int:
        """The whole ``TransformerBlock``: attention + feed-forward + both layer norms."""
        return self.attention + self.feed_forward + self.layer_norms

    def components(self) -> dict[str, int]:
        """Component name -> count, in the order the forward pass meets them."""
        return {
            "W_query": self.w_query,
            "W_key": self.w_key,
            "W_value": self.w_value,
            "out_proj": self.out_proj,
            "LayerNorm × 2": self.layer_norms,
            "FF Linear(d, 4d)": self.ff_in,
            "FF Linear(4d, d)": self.ff_out,
        }


SUBLAYER = {  # component -> the part of the block it belongs to, for colouring the split
    "W_query": "attention",
    "W_key": "attention",
    "W_value": "attention",
    "out_proj": "attention",
    "LayerNorm × 2": "layer norm",
    "FF Linear(d, 4d)": "feed-forward",
    "FF Linear(4d, d)": "feed-forward",
}


def block_params(cfg: BlockConfig) -> BlockParams:
    """Parameter counts of one of the book's ``TransformerBlock`` (chapter 4), by component.

    GPT-2 small with ``qkv_bias=False``: attention 4 × 768² + 768 = 2,360,064; feed-forward
    2 × 768 × 3,072 + 3,072 + 768 = 4,722,432 (the post's figure 07 quotes both).
    """
    d, h = cfg.emb_dim, cfg.ff_hidden
    qkv = linear_params(d, d, cfg.qkv_bias)
    return BlockParams(
        w_query=qkv,
        w_key=qkv,
        w_value=qkv,
        out_proj=linear_params(d, d, bias=True),
        ff_in=linear_params(d, h, bias=True),
        ff_out=linear_params(h, d, bias=True),
        layer_norms=2 * 2 * d,
    )


def stack_params(cfg: BlockConfig) -> int:
    """All ``n_layers`` blocks: no embeddings, no final norm, no output head."""
    return cfg.n_layers * block_params(cfg).total


def kv_cache_bytes(n_layers: int, tokens: int, width: int, bytes_per_element: int, batch: int = 1) -> int:
    """Bytes a KV cache holds: ``2 × layers × tokens × width × bytes × batch``, exactly.

    Each layer keeps a key and a value vector (the 2) of ``width = n_heads × head_dim`` numbers
    for every token already seen, so the next token's query attends without recomputing them.
    The post says the book leaves the cache out because it costs memory; the book's own KV-cache
    material names three costs (code complexity, memory, no use in training). This is the memory
    bill, linear in tokens where the score matrix was quadratic.
    """
    args = {
        "n_layers": n_layers,
        "tokens": tokens,
        "width": width,
        "bytes_per_element": bytes_per_element,
        "batch": batch,
    }
    for name, value in args.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return 2 * n_layers * tokens * width * bytes_per_element * batch


def tokens_to_exceed(cache_bytes_per_token: int, weight_bytes: int) -> int:
    """The fewest tokens whose cache holds *more* bytes than the weights (issue #24, item 2: at
    ``weight_bytes / cache_bytes_per_token`` tokens, when that is whole, the two are equal)."""
    if cache_bytes_per_token < 1 or weight_bytes < 0:
        raise ValueError("cache_bytes_per_token must be >= 1 and weight_bytes >= 0")
    return weight_bytes // cache_bytes_per_token + 1


def tokens_to_equal(cache_bytes_per_token: int, weight_bytes: int) -> int | None:
    """The token count whose cache holds exactly the weights' bytes, or ``None`` when none does."""
    if cache_bytes_per_token < 1 or weight_bytes < 0:
        raise ValueError("cache_bytes_per_token must be >= 1 and weight_bytes >= 0")
    whole, rest = divmod(weight_bytes, cache_bytes_per_token)
    return whole if rest == 0 and whole > 0 else None
