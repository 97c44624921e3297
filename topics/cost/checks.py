"""The post's "What n² costs" numbers against the view's live ones at the post's settings, and two
counts computed here in exact integer arithmetic (one head's multiply-adds; issue #13, item 5).

Each row has one verdict (issue #24): **exact** for an integer, **within rounding** for a quote
rounded to its printed digits, naming the interval that rounding allows ("104,658 s" allows
104,657.5 to 104,658.5), and **differs** with its reason otherwise. The live side is an exact
``int`` or ``Fraction``, so the interval test itself never rounds.
"""

from __future__ import annotations

import re
from fractions import Fraction

from core import book
from topics.cost import arithmetic
from topics.cost import format as cf
from topics.cost.view import GPT2_D_IN, GPT2_D_K, PostChecks
from ui import checks

NOTE = (
    "Quoted: the post's numbers for what n² costs, and two counts of one head's multiply-adds computed "
    "here. Live: computed at the post's settings (one head, one layer, 2 bytes a score, H100 at 80 GiB, "
    "0.1 s per token at 1,024 tokens; GPT-2 small's widths, 768 and 64, for the multiply-adds), "
    "whatever the controls say."
)

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def rounded(label: str, quoted: str, value: Fraction, live: str, source: str, note: str = "") -> checks.Check:
    """A quote rounded to its printed decimals ("≈28 h", "25.55") against the exact ``value`` in the
    quote's unit: within rounding when ``value`` lies in the interval the rounding allows."""
    token = _NUMBER.search(quoted)
    if token is None:
        raise ValueError(f"no number in the quote {quoted!r}")
    text = token.group(0)
    places = len(text.split(".")[1]) if "." in text else 0
    q, half = Fraction(text.replace(",", "")), Fraction(1, 2 * 10**places)
    low, high = cf.fixed(q - half, places + 1), cf.fixed(q + half, places + 1)
    inside = q - half <= value <= q + half
    return checks.within(
        label,
        quoted,
        float(value),
        float(q - half),
        float(q + half),
        live=live,
        source=source,
        note=note,
        why=f"{low} to {high}" if inside else f"{live} lies outside {low} to {high}",
    )


def rows(c: PostChecks) -> list[checks.Check]:
    q, src, post = book.FIGURE_06, checks.POST, c.row
    n = post.n
    growth, d_in, d_k = c.flop_growth, f"{GPT2_D_IN:,}", GPT2_D_K
    return [
        checks.same(
            "One head at 1,024 tokens",
            q["bytes_1024"],
            cf.binary_size(c.bytes_1024),
            src,
            note=f"1,024² scores × 2 bytes = {c.bytes_1024:,} bytes",
        ),
        checks.same(f"One head at {n:,} tokens", q["bytes_gpt41"], f"{post.nbytes:,} bytes", src),
        rounded(
            "…in TiB",
            q["size_gpt41"],
            Fraction(post.nbytes, arithmetic.TIB),
            cf.binary_size(post.nbytes),
            src,
        ),
        rounded("H100 cards (80 GiB), ratio", q["cards_ratio"], post.cards, cf.fixed(post.cards, 4), src),
        checks.same("H100 cards to buy", q["cards_ceiling"], str(post.cards_to_buy), src),
        checks.same(
            "Giles Thomas's count (the ratio rounded down)", q["cards_giles"], str(int(post.cards)), src
        ),
        rounded(
            "Time per token, the post's model t₀(n/1,024)²",
            q["seconds_exact"],
            post.seconds,
            f"{cf.fixed(post.seconds, 1)} s",
            src,
            note="The post's assumption. By one head's multiply-adds "
            f"(×{cf.fixed(growth, 0)}) the same baseline gives {cf.hours(c.flop_seconds)}",
        ),
        rounded(
            "…in hours", q["hours_exact"], post.seconds / 3600, f"{cf.fixed(post.seconds / 3600, 4)} h", src
        ),
        rounded(
            "Giles Thomas's time (length ratio rounded to 1,000)",
            q["hours_giles"],
            c.rounded_seconds / 3600,
            cf.hours(c.rounded_seconds),
            src,
            note="0.1 s × 1,000² = 100,000 s",
        ),
        checks.within(
            "Share of cells the causal mask discards",
            q["mask_discards"],
            float(c.masked_share),
            0.45,
            0.5 - 1e-12,
            live=f"{cf.fixed(100 * c.masked_share, 5)}%",
            source=src,
            note="(n − 1) / 2n of the n² cells, exactly",
            why="under one half, by 1/(2n)",
        ),
        rounded(
            f"One head's multiply-adds, 1,024 → {n:,} tokens ({d_in}, {d_k})",
            book.COMPUTED["flop_growth_gpt41"],
            growth,
            f"×{cf.fixed(growth, 2)}",
            checks.HERE,
            note=f"Computed here in exact integer arithmetic: one head's multiply-adds "
            f"3·n·{d_in}·{d_k} + 2·n²·{d_k} at n = {n:,}, divided by the same at n = 1,024, a "
            "fraction rounded once. Only QKᵀ and AV grow like n²",
        ),
        checks.same(
            f"Quadratic part wins from n = (d_in {d_in})",
            book.COMPUTED["crossover_gpt2"],
            f"{c.crossover:,}",
            checks.HERE,
            note=f"Computed here in exact integer arithmetic: the smallest n with 2·n²·{d_k} > "
            f"3·n·{d_in}·{d_k}, that is n > 1.5 × {d_in}: {d_in} · 3 // 2 + 1",
        ),
    ]
