"""The checks of "What comes next" against the book and the post, their live side read from the view."""

from __future__ import annotations

from core import book
from topics.next.view import View
from ui import checks
from ui import format as fmt

NOTE = (
    "Quoted: the book's chapter 4 counts (GPT_CONFIG_124M, qkv_bias=False), which the post quotes too, and "
    "the post's sentence on per-position computation. Live: computed here for GPT-2 small and the book's "
    "section 3.6.2 MultiHeadAttention, whatever the controls say."
)


def book_checks(v: View) -> list[checks.Check]:
    """GPT-2 small's counts as the book prints them, and token 1's output against the post's sentence."""
    return [
        checks.same(
            "Attention parameters, one GPT-2 small block",
            book.FIGURE_07["attention_params"],
            fmt.integer(v.gpt2.attention),
            checks.BOOK,
            "W_q, W_k, W_v without bias + out_proj",
        ),
        checks.same(
            "Feed-forward parameters, one GPT-2 small block",
            book.FIGURE_07["feed_forward_params"],
            fmt.integer(v.gpt2.feed_forward),
            checks.BOOK,
            "Linear(768, 3072) + GELU + Linear(3072, 768)",
        ),
        checks.same(
            "Token 1's output, MultiHeadAttention under the mask",
            book.FIGURE_07["no_computation"],
            fmt.vec(v.first.output),
            checks.POST,
            "The sentence overstates it: W_v and out_proj act at every position, linearly. Live: token 1's "
            "output from the book's class; true value: out_proj(W_v x₁), computed here from the same weights",
            true=fmt.vec(v.first.direct),
        ),
        checks.exact(
            "…as the book prints it (section 3.6.2, row 1)",
            book.FIGURE_05["split"][0],
            v.first.output,
            checks.BOOK,
            "seed 123",
        ),
    ]
