"""The post's figure 06 against the view's live numbers at the post's settings, and the audit's
count of one head's multiply-adds (issue #13, item 5)."""

from __future__ import annotations

from fractions import Fraction

from core import book
from topics.cost import arithmetic
from topics.cost import format as cf
from topics.cost.view import PostChecks
from ui import checks

NOTE = (
    "Quoted: the post's figure 06, and the audit's count of one head's multiply-adds. Live: computed at "
    "the post's settings (one head, one layer, 2 bytes a score, H100 at 80 GiB, 0.1 s per token at 1,024 "
    "tokens; GPT-2 small's widths, 768 and 64, for the multiply-adds), whatever the controls say."
)


def rows(c: PostChecks) -> list[checks.Check]:
    q, src, post = book.FIGURE_06, checks.POST, c.row
    n = post.n
    return [
        checks.same("One head at 1,024 tokens", q["bytes_1024"], cf.binary_size(c.bytes_1024), src),
        checks.same(f"One head at {n:,} tokens", q["bytes_gpt41"], f"{post.nbytes:,} bytes", src),
        checks.within(
            "…in TiB",
            q["size_gpt41"],
            float(Fraction(post.nbytes, arithmetic.TIB)),
            1.5,
            2.5,
            live=cf.binary_size(post.nbytes),
            source=src,
        ),
        checks.exact("H100 cards (80 GiB), ratio", q["cards_ratio"], float(post.cards), src),
        checks.same("H100 cards to buy", q["cards_ceiling"], str(post.cards_to_buy), src),
        checks.same(
            "Giles Thomas's count (the ratio rounded down)", q["cards_giles"], str(int(post.cards)), src
        ),
        checks.same(
            "Time per token, the post's model t₀(n/1,024)²",
            q["seconds_exact"],
            cf.seconds(post.seconds),
            src,
            note="The post's assumption. By one head's multiply-adds "
            f"(×{cf.fixed(c.flop_growth, 0)}) the same baseline gives {cf.hours(c.flop_seconds)}",
        ),
        checks.same("…in hours", q["hours_exact"], cf.hours(post.seconds), src),
        checks.within(
            "Giles Thomas's time (length ratio rounded to 1,000)",
            q["hours_giles"],
            float(c.rounded_seconds / 3600),
            27.5,
            28.5,
            live=cf.hours(c.rounded_seconds),
            source=src,
        ),
        checks.within(
            "Share of cells the causal mask discards",
            q["mask_discards"],
            float(c.masked_share),
            0.45,
            0.5 - 1e-12,
            live=f"{cf.fixed(100 * c.masked_share, 5)}%",
            source=src,
        ),
        checks.same(
            f"One head's multiply-adds, 1,024 → {n:,} tokens (768, 64)",
            book.COMPUTED["flop_growth_gpt41"],
            f"×{cf.fixed(c.flop_growth, 0)}",
            checks.HERE,
            note="3·n·768·64 + 2·n²·64: only QKᵀ and AV grow like n²",
        ),
        checks.same(
            "Quadratic part wins from n = (d_in 768)",
            book.COMPUTED["crossover_gpt2"],
            f"{c.crossover:,}",
            checks.HERE,
        ),
    ]
