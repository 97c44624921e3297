"""What n² costs (figure 06): the bill for materialising one attention matrix, in exact integers.

The post's arithmetic is integers all the way down: ``n²`` scores, a whole number of bytes per
score, a whole number of bytes per card. Python ints never round, so every count here is an
``int`` and every ratio a :class:`fractions.Fraction`; a float appears only where a chart draws.
That is what lets the page say "25.55 → 26 cards" and "104,658 s" without hedging.

Sources: the post's figure 06 ("What n² costs"), which follows Giles Thomas's derivation; the
FLOP rule "the three dimensions multiplied together" is the post's (an ``[n, d_in] @ [d_in, d_k]``
product is ``n · d_k`` dot products of length ``d_in``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

KIB, MIB, GIB, TIB, PIB = (1 << (10 * k) for k in range(1, 6))
GB = 10**9  # the SI gigabyte a datasheet's "GB" reads as, literally

BASELINE_N = 1_024  # the post's baseline context: "0.1 s per token at 1k"
BASELINE_SECONDS = Fraction(1, 10)
GPT_4_1_WINDOW = 1_047_576  # GPT-4.1's context window, as the post gives it
MAX_N = 1 << 21  # 2,097,152: the top of the cost table's ladder, and of the page's control
PRESETS: dict[str, int] = {"1k": 1_024, "8k": 8_192, "128k": 131_072, "GPT-4.1": GPT_4_1_WINDOW}


@dataclass(frozen=True)
class Gpu:
    """One accelerator's memory, with the figure its vendor prints and how we read it.

    ``stated`` is the vendor's text ("80GB"); ``memory_bytes`` is our reading of it as an exact
    integer, and ``unit`` says which reading (GiB = 2³⁰ bytes, GB = 10⁹ bytes), because the
    two differ by 7.4% at this size and that changes how many cards a bill needs.
    """

    name: str
    memory_bytes: int
    stated: str
    unit: str
    source: str


GPUS: tuple[Gpu, ...] = (
    Gpu(
        "H100 (80 GiB)",
        80 * GIB,
        "80GB HBM3 (H100 SXM5)",
        "GiB",
        "The post's reading, following Giles Thomas: 80 GiB a card (NVIDIA's H100 datasheet prints '80GB').",
    ),
    Gpu(
        "H100 (80 GB)",
        80 * GB,
        "80GB HBM3 (H100 SXM5)",
        "GB",
        "The same card with the datasheet's '80GB' read literally as SI gigabytes (10⁹ bytes): "
        "shows what the GB/GiB confusion costs.",
    ),
    Gpu(
        "H200 (141 GB)",
        141 * GB,
        "141GB HBM3e",
        "GB",
        "NVIDIA's H200 product page and datasheet: '141GB HBM3e', read as 10⁹ bytes.",
    ),
    Gpu(
        "A100 (80 GB)",
        80 * GB,
        "80GB HBM2e (A100 80GB, SXM4 or PCIe)",
        "GB",
        "NVIDIA's A100 datasheet, the 80GB variant (not the 40GB one): '80GB HBM2e', read as 10⁹ bytes.",
    ),
    Gpu(
        "B200 (180 GB)",
        180 * GB,
        "180GB HBM3e",
        "GB",
        "NVIDIA's DGX B200 datasheet: 1,440GB of GPU memory over 8 GPUs = 180GB each, read as 10⁹ "
        "bytes. NVIDIA's March 2024 announcement gave 192GB.",
    ),
)
GPU_NAMES: tuple[str, ...] = tuple(g.name for g in GPUS)


def gpu(name: str) -> Gpu:
    """The catalogue entry called ``name`` (one of :data:`GPU_NAMES`)."""
    for g in GPUS:
        if g.name == name:
            return g
    raise ValueError(f"unknown GPU {name!r}; choose one of {', '.join(GPU_NAMES)}")


def _count(value: object, name: str, minimum: int = 1) -> int:
    """``value`` as an exact int ≥ ``minimum``; floats and bools are refused, never rounded."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int (exact arithmetic), got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def scores(n: int, heads: int = 1, layers: int = 1) -> int:
    """Attention scores materialised: ``n²`` per head per layer.

    Attention is linear in the head count and layer count, quadratic in ``n`` (post, figure 06).
    """
    n, heads, layers = _count(n, "n"), _count(heads, "heads"), _count(layers, "layers")
    return n * n * heads * layers  # [n, n] per head per layer


def attention_bytes(n: int, bytes_per_score: int = 2, heads: int = 1, layers: int = 1) -> int:
    """Bytes to hold every score matrix at once: ``n² · bytes · heads · layers``.

    One head at 1,024 tokens and 2 bytes a score is 2 MiB; at GPT-4.1's 1,047,576 tokens it is
    2,194,830,951,552 bytes, about 2 TiB (post, figure 06).
    """
    return scores(n, heads, layers) * _count(bytes_per_score, "bytes_per_score")


def cards(nbytes: int, gpu_bytes: int) -> Fraction:
    """How many cards of ``gpu_bytes`` the bill fills, exactly: 25.55 H100s at GPT-4.1's window."""
    return Fraction(_count(nbytes, "nbytes", 0), _count(gpu_bytes, "gpu_bytes"))


def cards_to_buy(nbytes: int, gpu_bytes: int) -> int:
    """The ceiling of :func:`cards`: you cannot buy 0.55 of a card (post: 25.55 → 26)."""
    return -(-_count(nbytes, "nbytes", 0) // _count(gpu_bytes, "gpu_bytes"))


def time_per_token(
    n: int, baseline_seconds: Fraction = BASELINE_SECONDS, baseline_n: int = BASELINE_N
) -> Fraction:
    """Seconds per token, scaled quadratically from a baseline: ``t = t₀ · (n / n₀)²``.

    The post's assumption (Giles Thomas's): 0.1 s per token at 1,024 tokens. Unrounded, GPT-4.1's
    window gives 104,657.7 s = 29.07 h; rounding the length ratio to 1,000 gives his ≈28 h.
    """
    n, baseline_n = _count(n, "n"), _count(baseline_n, "baseline_n")
    t0 = Fraction(baseline_seconds)
    if t0 <= 0:
        raise ValueError(f"baseline_seconds must be positive, got {baseline_seconds}")
    return t0 * Fraction(n, baseline_n) ** 2


def post_rounded_time(baseline_seconds: Fraction = BASELINE_SECONDS) -> Fraction:
    """Giles Thomas's figure: the length ratio 1,047,576 / 1,024 = 1,023.02 rounded to 1,000.

    ``0.1 s × 1,000² = 100,000 s ≈ 27.8 h``, which the post quotes as "about 28 hours".
    """
    return Fraction(baseline_seconds) * 1_000**2


def causal_live_cells(n: int) -> int:
    """Cells the causal mask keeps: the diagonal and below, ``n(n+1)/2``.

    Just over half of ``n²``, so ``O(n²/2)`` is still ``O(n²)`` (post, figure 06); a dense
    kernel stores all ``n²`` anyway.
    """
    n = _count(n, "n")
    return n * (n + 1) // 2


def masked_share(n: int) -> Fraction:
    """The share of the ``n²`` cells the causal mask discards: ``(n − 1) / 2n``, "just under half"."""
    n = _count(n, "n")
    return 1 - Fraction(causal_live_cells(n), n * n)


@dataclass(frozen=True)
class HeadMacs:
    """Multiply-adds of one head's forward pass, by the post's rule "the three dimensions
    multiplied together" (one multiply-add per term of each dot product; FLOPs are twice these).

    The softmax (``n²`` exponentials) and the scaling are not multiply-adds and are left out.
    """

    projections: int  # Q, K, V: 3 · n · d_in · d_k   (linear in n)
    scores: int  # QKᵀ: [n, d_k] @ [d_k, n] = n · d_k · n
    mix: int  # AV: [n, n] @ [n, d_v] = n · n · d_v

    @property
    def linear(self) -> int:
        return self.projections

    @property
    def quadratic(self) -> int:
        return self.scores + self.mix

    @property
    def total(self) -> int:
        return self.projections + self.scores + self.mix


def head_macs(n: int, d_in: int, d_k: int, d_v: int | None = None) -> HeadMacs:
    """The multiply-adds of one head at ``n`` tokens, split into linear and quadratic parts."""
    n, d_in, d_k = _count(n, "n"), _count(d_in, "d_in"), _count(d_k, "d_k")
    d_v = d_k if d_v is None else _count(d_v, "d_v")
    return HeadMacs(
        projections=n * d_in * (2 * d_k + d_v),  # X @ W_q, X @ W_k: n·d_in·d_k each; X @ W_v: n·d_in·d_v
        scores=n * d_k * n,
        mix=n * n * d_v,
    )


def crossover(d_in: int, d_k: int, d_v: int | None = None) -> int:
    """The smallest ``n`` at which the quadratic part (QKᵀ + AV) exceeds the projections.

    ``n²(d_k + d_v) > n · d_in(2d_k + d_v)`` ⇔ ``n > d_in(2d_k + d_v)/(d_k + d_v)``; with
    ``d_v = d_k`` that is ``n > 1.5 · d_in`` whatever the head width (GPT-2 small: 1,153).
    """
    d_in, d_k = _count(d_in, "d_in"), _count(d_k, "d_k")
    d_v = d_k if d_v is None else _count(d_v, "d_v")
    return d_in * (2 * d_k + d_v) // (d_k + d_v) + 1


def flop_growth(n: int, d_in: int, d_k: int, baseline_n: int = BASELINE_N) -> Fraction:
    """How much one head's multiply-adds grow from ``baseline_n`` to ``n`` tokens, exactly.

    ``(3·n·d_in·d_k + 2·n²·d_k) / (3·n₀·d_in·d_k + 2·n₀²·d_k)``, with :func:`head_macs`'s count.
    The post's time model, ``t₀ · (n/1,024)²``, scales everything as if it were quadratic
    (×1,046,577 from 1,024 to 1,047,576 tokens); only ``QKᵀ`` and ``AV`` are, so one head's
    arithmetic grows ×493,048 (GPT-2 small's widths, 768 and 64: issue #13).
    """
    return Fraction(
        head_macs(n, d_in, d_k).total, head_macs(_count(baseline_n, "baseline_n"), d_in, d_k).total
    )


def flop_time_per_token(
    n: int,
    d_in: int,
    d_k: int,
    baseline_seconds: Fraction = BASELINE_SECONDS,
    baseline_n: int = BASELINE_N,
) -> Fraction:
    """Seconds per token if time follows one head's multiply-adds: ``t₀ · flop_growth``.

    Beside the post's ``t₀ · (n/1,024)²`` (104,658 s = 29.07 h at GPT-4.1's window), the same
    0.1 s baseline gives 49,305 s = 13.70 h: the linear projections dilute the square.
    """
    t0 = Fraction(baseline_seconds)
    if t0 <= 0:
        raise ValueError(f"baseline_seconds must be positive, got {baseline_seconds}")
    return t0 * flop_growth(n, d_in, d_k, baseline_n)


def token_projection_macs(d_in: int, d_k: int, d_v: int | None = None) -> int:
    """One token's query, key and value: ``d_in · (2d_k + d_v)`` multiply-adds, whatever ``n``."""
    d_in, d_k = _count(d_in, "d_in"), _count(d_k, "d_k")
    d_v = d_k if d_v is None else _count(d_v, "d_v")
    return d_in * (2 * d_k + d_v)


def cached_token_macs(n: int, d_in: int, d_k: int, d_v: int | None = None) -> int:
    """One head's multiply-adds for one new token with a KV cache of ``n`` tokens: linear in ``n``.

    The new token is projected once (:func:`token_projection_macs`), scored against ``n`` cached
    keys (``n · d_k``) and mixes ``n`` cached values (``n · d_v``). Without the cache the whole
    prefix is recomputed, which is what :func:`head_macs` counts.
    """
    n, d_k = _count(n, "n"), _count(d_k, "d_k")
    d_v = d_k if d_v is None else _count(d_v, "d_v")
    return token_projection_macs(d_in, d_k, d_v) + n * d_k + n * d_v


def cached_growth(n: int, d_in: int, d_k: int, baseline_n: int = BASELINE_N) -> Fraction:
    """How much :func:`cached_token_macs` grows from ``baseline_n`` to ``n``: about ``n / n₀``."""
    return Fraction(
        cached_token_macs(n, d_in, d_k), cached_token_macs(_count(baseline_n, "baseline_n"), d_in, d_k)
    )


def context_ladder(max_n: int = MAX_N, steps_per_octave: int = 8) -> tuple[int, ...]:
    """A fine log ladder of context lengths from 1 to ``max_n`` for the page's slider.

    ``steps_per_octave`` points per doubling, plus every preset, every power of ten and
    2,000,000, so the named lengths are exact stops rather than neighbours.
    """
    max_n, steps = _count(max_n, "max_n"), _count(steps_per_octave, "steps_per_octave")
    octaves = max_n.bit_length()
    ladder = {round(2 ** (k / steps)) for k in range(octaves * steps + 1)}
    ladder |= set(PRESETS.values()) | {10**k for k in range(7)} | {2_000_000, max_n}
    return tuple(sorted(v for v in ladder if 1 <= v <= max_n))


def table_ladder(start: int = BASELINE_N, stop: int = MAX_N) -> tuple[int, ...]:
    """The cost table's rows: powers of two from 1,024 to 2,097,152."""
    start, stop = _count(start, "start"), _count(stop, "stop")
    if start & (start - 1) or start > stop:
        raise ValueError(f"start must be a power of two no larger than stop, got {start} and {stop}")
    return tuple(start << k for k in range(int(math.log2(stop // start)) + 1))


@dataclass(frozen=True)
class CostConfig:
    """Everything the bill depends on; the defaults are the post's (one head, one layer, 2 bytes)."""

    n: int = GPT_4_1_WINDOW
    bytes_per_score: int = 2  # fp16/bf16, as the post assumes
    heads: int = 1
    layers: int = 1
    gpu: Gpu = GPUS[0]  # H100 at 80 GiB, as the post counts
    baseline_seconds: Fraction = BASELINE_SECONDS


@dataclass(frozen=True)
class CostRow:
    """One row of the cost table, exact: ints and Fractions."""

    n: int
    scores: int
    nbytes: int
    cards: Fraction
    cards_to_buy: int
    seconds: Fraction
    live_cells: int  # kept by the causal mask, over every head and layer


def cost_row(cfg: CostConfig, n: int | None = None) -> CostRow:
    """The bill at ``n`` (default ``cfg.n``) with the rest of ``cfg``."""
    n = cfg.n if n is None else n
    nbytes = attention_bytes(n, cfg.bytes_per_score, cfg.heads, cfg.layers)
    return CostRow(
        n=n,
        scores=scores(n, cfg.heads, cfg.layers),
        nbytes=nbytes,
        cards=cards(nbytes, cfg.gpu.memory_bytes),
        cards_to_buy=cards_to_buy(nbytes, cfg.gpu.memory_bytes),
        seconds=time_per_token(n, cfg.baseline_seconds),
        live_cells=causal_live_cells(n) * cfg.heads * cfg.layers,
    )


def cost_table(cfg: CostConfig) -> tuple[CostRow, ...]:
    """The TiB/H100 cost table: the power-of-two ladder plus ``cfg.n``, in increasing ``n``."""
    return tuple(cost_row(cfg, n) for n in sorted({*table_ladder(), _count(cfg.n, "n")}))
