"""The shape of one attention module, shared by the multi-head page and the Overview's notation table.

One frozen dataclass (nanoGPT's ``GPTConfig`` is the model) holds the arguments the book passes
to ``CausalAttention``, ``MultiHeadAttentionWrapper`` and ``MultiHeadAttention`` (chapter 3,
sections 3.5-3.6), with the reason for each default beside it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttentionConfig:
    """The constructor arguments of the book's attention classes.

    ``d_out`` means two things, the post's first trap: in ``MultiHeadAttentionWrapper`` it is
    the width of each head (the output is ``d_out * num_heads`` wide); in
    ``MultiHeadAttention`` it is the total width, cut into ``num_heads`` slices of ``head_dim``.
    """

    d_in: int = 3  # the book's toy embeddings are 3 wide
    d_out: int = 2  # the book's section 3.6 examples: 2
    num_heads: int = 2  # the book's section 3.6 examples: two heads
    context_length: int = 6  # the book passes batch.shape[1], its six tokens
    qkv_bias: bool = False  # the book's default (and GPT_CONFIG_124M's)
    dropout: float = 0.0  # the book prints its multi-head outputs with dropout 0.0

    def __post_init__(self) -> None:
        for name in ("d_in", "d_out", "num_heads", "context_length"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= float(self.dropout) < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")

    @property
    def divisible(self) -> bool:
        """Whether the split class can cut ``d_out`` into ``num_heads`` equal slices."""
        return self.d_out % self.num_heads == 0

    @property
    def head_dim(self) -> int:
        """``d_out // num_heads``, the width of one head in ``MultiHeadAttention``.

        The book asserts divisibility in the constructor; here it is a ``ValueError`` whose
        message says what to change, so the page can show it inline.
        """
        if not self.divisible:
            h = self.num_heads
            below = self.d_out // h * h
            fits = ", ".join(str(v) for v in (below, below + h) if v >= 1)
            raise ValueError(
                f"d_out = {self.d_out} is not divisible by num_heads = {h}: MultiHeadAttention cuts "
                f"d_out into {h} slices of equal width head_dim = d_out / num_heads. Pick d_out as a "
                f"multiple of {h} (e.g. {fits}), or a head count that divides {self.d_out}."
            )
        return self.d_out // self.num_heads


GPT2_SMALL = AttentionConfig(d_in=768, d_out=768, num_heads=12, context_length=1024)  # GPT_CONFIG_124M
BOOK_TOY = AttentionConfig()  # d_in 3, d_out 2, two heads: head_dim 1 in the split class
