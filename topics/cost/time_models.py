"""Time per token on "What n² costs": the post's model beside what the arithmetic says (issue #13, item 5).

The post (after Giles Thomas) assumes ``t₀ · (n/1,024)²`` for the whole model: everything scaled
as if it were quadratic. Only ``QKᵀ`` and ``AV`` are; the projections grow like ``n``, and with a
KV cache a new token's attention is linear in ``n``. Both models start from the same baseline, so
the table differs only in how each lets the time grow.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from core import book
from topics.cost import arithmetic as cost
from topics.cost import format as cf
from ui import checks


def _time(t: Fraction) -> str:
    return cf.seconds(t) + (f" = {cf.hours(t)}" if t >= 3600 else "")


def models(n: int, d_in: int, d_k: int, t0: Fraction) -> pd.DataFrame:
    """Three ways the time per token grows from 1,024 tokens to ``n``, each with the time it implies."""
    rows = (
        (
            "The post's model: t₀ · (n / 1,024)², the whole model",
            Fraction(n, cost.BASELINE_N) ** 2,
        ),
        (
            f"One head's multiply-adds, 3·n·{d_in:,}·{d_k} + 2·n²·{d_k}",
            cost.flop_growth(n, d_in, d_k),
        ),
        (
            f"…one new token with a KV cache, {3 * d_in * d_k:,} + 2·n·{d_k}",
            cost.cached_growth(n, d_in, d_k),
        ),
    )
    return pd.DataFrame(
        {
            "growth from 1,024 tokens": [f"×{cf.fixed(g, 0 if g >= 100 else 2)}" for _, g in rows],
            f"time per token (t₀ = {cf.seconds(t0)})": [_time(t0 * g) for _, g in rows],
        },
        index=[name for name, _ in rows],
    )


def paragraph(n: int, d_in: int, d_k: int) -> str:
    """Why the post's model overstates the growth, with this page's numbers."""
    macs = cost.head_macs(n, d_in, d_k)
    square = Fraction(n, cost.BASELINE_N) ** 2
    flops = cost.flop_growth(n, d_in, d_k)
    return (
        f"The post's time model scales everything by $(n/1{{,}}024)^2$, ×{cf.fixed(square, 0)} at "
        f"{n:,} tokens: it treats the whole model as quadratic. Only $QK^\\top$ and $AV$ are. At "
        f"{n:,} tokens the projections are {cf.fixed(100 * Fraction(macs.linear, macs.total), 1)}% of one "
        f"head's multiply-adds, and they are the larger part below n = {cost.crossover(d_in, d_k):,}. "
        f"Counted by one head's multiply-adds, the same stretch is ×{cf.fixed(flops, 0)}, "
        f"{cf.fixed(square / flops, 2)} times less than the post's square. That is still a model: it "
        "assumes time follows arithmetic, with no memory traffic and no feed-forward. And generation "
        "does not redo the prefix: with a KV cache each new token's attention scores one query against "
        "n cached keys, linear in n."
    )


def post_checks() -> list[checks.Check]:
    """The post's figure 06 at its settings (one head, one layer, 2 bytes, H100 at 80 GiB, 0.1 s at 1k)."""
    post = cost.cost_row(cost.CostConfig())
    q, src = book.FIGURE_06, checks.POST
    n = post.n
    flops = cost.flop_growth(n, 768, 64)
    return [
        checks.same(
            "One head at 1,024 tokens", q["bytes_1024"], cf.binary_size(cost.attention_bytes(1_024)), src
        ),
        checks.same(f"One head at {n:,} tokens", q["bytes_gpt41"], f"{post.nbytes:,} bytes", src),
        checks.within(
            "…in TiB",
            q["size_gpt41"],
            float(Fraction(post.nbytes, cost.TIB)),
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
            note=f"The post's assumption. By one head's multiply-adds (×{cf.fixed(flops, 0)}) the same "
            f"baseline gives {cf.hours(cost.flop_time_per_token(n, 768, 64))}",
        ),
        checks.same("…in hours", q["hours_exact"], cf.hours(post.seconds), src),
        checks.within(
            "Giles Thomas's time (length ratio rounded to 1,000)",
            q["hours_giles"],
            float(cost.post_rounded_time() / 3600),
            27.5,
            28.5,
            live=cf.hours(cost.post_rounded_time()),
            source=src,
        ),
        checks.within(
            "Share of cells the causal mask discards",
            q["mask_discards"],
            float(cost.masked_share(n)),
            0.45,
            0.5 - 1e-12,
            live=f"{cf.fixed(100 * cost.masked_share(n), 5)}%",
            source=src,
        ),
        checks.same(
            f"One head's multiply-adds, 1,024 → {n:,} tokens (768, 64)",
            book.AUDIT["flop_growth_gpt41"],
            f"×{cf.fixed(flops, 0)}",
            checks.AUDIT,
            note="3·n·768·64 + 2·n²·64: only QKᵀ and AV grow like n²",
        ),
        checks.same(
            "Quadratic part wins from n = (d_in 768)",
            book.AUDIT["crossover_gpt2"],
            f"{cost.crossover(768, 64):,}",
            checks.AUDIT,
        ),
    ]
