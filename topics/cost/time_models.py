"""Time per token on "What n² costs": the post's model beside what the arithmetic says (issue #13, item 5).

The post (after Giles Thomas) assumes ``t₀ · (n/1,024)²`` for the whole model: everything scaled
as if it were quadratic. Only ``QKᵀ`` and ``AV`` are; the projections grow like ``n``, and with a
KV cache a new token's attention is linear in ``n``. Both models start from the same baseline, so
the table differs only in how each lets the time grow. The numbers are the view's
(:mod:`topics.cost.view`); this module lays them out, and the paragraph under the table is the
view's (:func:`topics.cost.prose.paragraph`).
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from topics.cost import format as cf
from topics.cost import prose
from topics.cost.view import View


def duration(t: Fraction) -> str:
    """Seconds at a readable precision, and hours beside them from an hour up."""
    return cf.seconds(t) + (f" = {cf.hours(t)}" if t >= 3600 else "")


def frame(v: View) -> pd.DataFrame:
    """Three ways the time per token grows from 1,024 tokens to ``n``, each with the time it implies."""
    names = {
        "post": "The post's model: t₀ · (n / 1,024)², the whole model",
        "flops": f"One head's multiply-adds, 3·n·{v.d_in:,}·{v.d_k} + 2·n²·{v.d_k}",
        "cached": f"…one new token with a KV cache, {v.token_macs:,} + 2·n·{v.d_k}",
    }
    return pd.DataFrame(
        {
            "growth from 1,024 tokens": [prose.growth(m.growth) for m in v.models],
            f"time per token (t₀ = {cf.seconds(v.t0)})": [duration(m.seconds) for m in v.models],
        },
        index=pd.Index([names[m.kind] for m in v.models], name="model"),  # a named header, read aloud
    )
