"""The "What n² costs" page's script (figure 06): its table and readouts in integer arithmetic.

Nothing here needs NumPy or PyTorch: Python's ints never round and ``fractions.Fraction`` keeps
ratios exact, so the script prints exactly the page's integers, and its decimals are rounded
once, half up, by integer arithmetic, as the page rounds them.
"""

from __future__ import annotations

from fractions import Fraction

from core.reproduce.source import Script, filename, header, join, string
from topics.cost import arithmetic as cost
from topics.cost.view import Settings

_HELPERS = '''
UNITS = (
    ("EiB", 2**60),
    ("PiB", 2**50),
    ("TiB", 2**40),
    ("GiB", 2**30),
    ("MiB", 2**20),
    ("KiB", 2**10),
    ("B", 1),
)


def fixed(value, places):
    """An exact Fraction rounded half up to `places` decimals, with thousands separators."""
    scaled = (Fraction(value) * 10**places + Fraction(1, 2)).__floor__()
    whole, frac = divmod(scaled, 10**places)
    return f"{whole:,}" + (f".{frac:0{places}d}" if places else "")


def binary_size(nbytes):
    """The largest binary unit not above the size: exact when it divides, else 3 decimals."""
    for name, unit in UNITS:
        if nbytes >= unit:
            v = Fraction(nbytes, unit)
            if v.denominator == 1:
                return f"{v.numerator:,} {name}"
            return (fixed(v, 3) if v >= 1 else f"{float(v):.3g}") + f" {name}"
    return "0 B"


def row(n):
    """One line of the table: every count an int, every ratio a Fraction."""
    scores = n * n * heads * layers  # [n, n] per head per layer
    nbytes = scores * bytes_per_score
    cards = Fraction(nbytes, card_bytes)
    cards_to_buy = -(-nbytes // card_bytes)  # the ceiling, in integers
    seconds = t0 * Fraction(n, 1024) ** 2
    return scores, nbytes, cards, cards_to_buy, seconds
'''


def what_n_squared_costs(s: Settings) -> Script:
    """The page's readouts, its cost table (the power-of-two ladder plus ``n``) and one head's
    multiply-adds at the page's settings ``s``, recomputed with ints and Fractions."""
    n, bytes_per_score, heads, layers = s.n, s.bytes_per_score, s.heads, s.layers
    t0_ms, d_in, d_k = s.t0_ms, s.d_in, s.d_k
    gpu = cost.gpu(s.gpu)
    cost.cost_row(cost.CostConfig(n, bytes_per_score, heads, layers, gpu, Fraction(t0_ms, 1000)))
    cost.head_macs(n, d_in, d_k)  # validates the widths with the page's messages
    if cost.table_ladder() != tuple(1024 << k for k in range(12)):
        raise ValueError("the page's table ladder changed: update the script's")
    code = join(
        ["from fractions import Fraction"],
        header(
            f"What n^2 costs, as the page shows it: n = {n:,} tokens, {bytes_per_score} "
            f"bytes a score, {heads} head(s), {layers} layer(s), {gpu.name}, {t0_ms} ms a token at "
            "1,024 tokens.",
            "Needs Python only: ints never round and Fractions stay exact, so every count equals "
            "the page's exactly and every decimal is the exact value rounded once, half up.",
        ),
        [
            f"n, bytes_per_score, heads, layers = {n}, {bytes_per_score}, {heads}, {layers}",
            f"card = {string(gpu.name)}",
            f"card_bytes = {_bytes_code(gpu.memory_bytes)}  # {gpu.stated}, read as {gpu.unit}",
            f"t0 = Fraction({t0_ms}, 1000)  # seconds a token at 1,024 tokens",
            f"d_in, d_k = {d_in}, {d_k}  # one head's widths, for the multiply-adds",
        ],
        _HELPERS,
        [
            "scores, nbytes, cards, cards_to_buy, seconds = row(n)",
            'print("Bytes:", f"{nbytes:,}", "=", binary_size(nbytes))',
            'print("Cards to buy:", cards_to_buy, "exact ratio", fixed(cards, 2))',
            'print("Time per token:", fixed(seconds, 3), "s =", fixed(seconds / 3600, 2), "h")',
            "kept = n * (n + 1) // 2 * heads * layers  # the diagonal and below, in every head",
            'print("Scores:", f"{scores:,}", "of which the causal mask keeps", f"{kept:,}")',
        ],
        [
            "# The cost table: powers of two from 1,024 to 2,097,152, and n itself.",
            "for m in sorted({*(1024 << k for k in range(12)), n}):",
            "    scores, nbytes, cards, cards_to_buy, seconds = row(m)",
            "    print(",
            '        f"n = {m:,}: scores {scores:,}, bytes {nbytes:,} ({binary_size(nbytes)}), "',
            '        f"cards {fixed(cards, 2)} -> {cards_to_buy:,}, "',
            '        f"time {fixed(seconds, 3)} s = {fixed(seconds / 3600, 2)} h"',
            "    )",
        ],
        [
            "# One head's multiply-adds: the three dimensions of each product multiplied together.",
            "projections = n * d_in * 3 * d_k  # Q, K, V: linear in n",
            "quadratic = n * d_k * n + n * n * d_k  # QK^T and AV: quadratic in n",
            'print("Projections Q, K, V (multiply-adds):", f"{projections:,}")',
            'print("QK^T + AV (multiply-adds):", f"{quadratic:,}")',
            'print("Quadratic part wins from n:", f"{d_in * 3 * d_k // (2 * d_k) + 1:,}")',
        ],
    )
    return Script(
        code,
        filename(
            "what-n-squared-costs",
            f"n-{n}",
            f"{bytes_per_score}-bytes",
            gpu.name,
            f"heads-{heads}",
            f"layers-{layers}",
        ),
        "python",
        "The script needs Python alone: ints and Fractions, so its counts equal the page's exactly "
        "and its decimals are the exact values rounded once.",
    )


def _bytes_code(n: int) -> str:
    """``80 * 2**30`` or ``80 * 10**9`` when the card's size reads so, else the integer."""
    for base, text in ((2**30, "2**30"), (10**9, "10**9")):
        if n % base == 0:
            return f"{n // base} * {text}"
    return f"{n:_}"
