"""Every number "What n² costs" shows, from its settings: the post's figure 06, in exact integers.

Counts are ``int`` and ratios :class:`fractions.Fraction` (:mod:`topics.cost.arithmetic`); they
are rounded once, for display, by :mod:`topics.cost.format`. The page, its tests and its
Reproduce oracle read the same :class:`View`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from core import book
from topics.cost import arithmetic as a
from topics.cost import format as cf
from topics.cost import prose

GPT2_D_IN, GPT2_D_K = 768, 64  # GPT-2 small's widths, for the checks' count of multiply-adds

# The controls' ranges. Ladders, not free number boxes: sliders reject any URL value (inf included)
# by falling back to the default, while an integer st.number_input raises OverflowError on ?key=inf
# (Streamlit 1.67).
BYTES_PER_SCORE = (4, 2, 1)  # fp32, bf16, fp8
MAX_HEADS = MAX_LAYERS = 128
BASELINE_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
D_INS = (3, 64, 128, 256, 512, 768, 1_024, 1_280, 1_600, 2_048, 4_096, 5_120, 8_192, 12_288, 16_384)
D_KS = (1, 2, 4, 8, 16, 32, 64, 80, 96, 128, 256)


@dataclass(frozen=True)
class Settings:
    """Every control; the defaults are the post's (GPT-4.1's window, bf16, one H100 at 80 GiB)."""

    n: int = a.GPT_4_1_WINDOW
    bytes_per_score: int = 2
    gpu: str = a.GPU_NAMES[0]
    heads: int = 1
    layers: int = 1
    t0_ms: int = 100  # ms per token at 1,024 tokens: the post's 0.1 s
    d_in: int = GPT2_D_IN  # one head's widths, for the multiply-adds
    d_k: int = GPT2_D_K


@dataclass(frozen=True)
class TimeModel:
    """How the time per token grows from 1,024 tokens to ``n``, and the time that implies."""

    kind: Literal["post", "flops", "cached"]  # t₀(n/1,024)²; one head's multiply-adds; with a KV cache
    growth: Fraction
    seconds: Fraction


@dataclass(frozen=True)
class PostChecks:
    """The checks' live side, at the post's settings whatever the controls say: one head, one
    layer, 2 bytes a score, an H100 at 80 GiB, 0.1 s a token at 1,024 tokens, GPT-2 small's widths."""

    bytes_1024: int
    row: a.CostRow  # at GPT-4.1's window
    rounded_seconds: Fraction  # Giles Thomas's: the length ratio rounded to 1,000
    masked_share: Fraction
    flop_growth: Fraction
    flop_seconds: Fraction
    crossover: int


@dataclass(frozen=True)
class View:
    """The page: the readouts at n, the cost table, both charts' values, the time models and the
    paragraph's ratios, and the checks at the post's settings."""

    cfg: a.CostConfig
    d_in: int
    d_k: int
    row: a.CostRow  # the readouts, at n
    table: tuple[a.CostRow, ...]  # the power-of-two ladder plus n
    ladder: tuple[int, ...]  # the memory and FLOP charts' x axis
    ladder_bytes: tuple[int, ...]  # the score matrices' bytes along it
    ladder_macs: tuple[a.HeadMacs, ...]  # one head's multiply-adds along it
    gpus: tuple[a.Gpu, ...]  # every card's memory, a line on the memory chart
    macs: a.HeadMacs  # one head at n
    crossover: int  # the first n where QKᵀ + AV outweigh the projections
    token_macs: int  # one new token's projections with a KV cache: 3·d_in·d_k
    models: tuple[TimeModel, TimeModel, TimeModel]  # post, flops, cached
    projection_share: Fraction  # of one head's multiply-adds at n
    post_over_flops: Fraction  # how much the post's square overstates the multiply-adds' growth
    giles_hours: str  # the post's rounded quote of Giles Thomas, beside the exact time
    checks: PostChecks
    gpu_note: str  # under the GPU box: the card's memory, exactly, and whose figure it is
    bytes_caption: str  # under the readouts, one each
    cards_caption: str
    time_caption: str
    paragraph: str  # under the time models' table

    @property
    def n(self) -> int:
        return self.cfg.n

    @property
    def gpu(self) -> a.Gpu:
        return self.cfg.gpu

    @property
    def t0(self) -> Fraction:
        return self.cfg.baseline_seconds


def post_checks() -> PostChecks:
    row = a.cost_row(a.CostConfig())
    return PostChecks(
        bytes_1024=a.attention_bytes(a.BASELINE_N),
        row=row,
        rounded_seconds=a.post_rounded_time(),
        masked_share=a.masked_share(row.n),
        flop_growth=a.flop_growth(row.n, GPT2_D_IN, GPT2_D_K),
        flop_seconds=a.flop_time_per_token(row.n, GPT2_D_IN, GPT2_D_K),
        crossover=a.crossover(GPT2_D_IN, GPT2_D_K),
    )


def build(s: Settings) -> View:
    cfg = a.CostConfig(s.n, s.bytes_per_score, s.heads, s.layers, a.gpu(s.gpu), Fraction(s.t0_ms, 1000))
    ladder = a.context_ladder()
    macs = a.head_macs(s.n, s.d_in, s.d_k)
    square = Fraction(s.n, a.BASELINE_N) ** 2
    flops = a.flop_growth(s.n, s.d_in, s.d_k)
    cached = a.cached_growth(s.n, s.d_in, s.d_k)
    t0 = cfg.baseline_seconds
    row = a.cost_row(cfg)
    share = Fraction(macs.linear, macs.total)
    crossover = a.crossover(s.d_in, s.d_k)
    giles = book.FIGURE_06["hours_giles"]
    return View(
        cfg=cfg,
        d_in=s.d_in,
        d_k=s.d_k,
        row=row,
        table=a.cost_table(cfg),
        ladder=ladder,
        ladder_bytes=tuple(a.attention_bytes(m, s.bytes_per_score, s.heads, s.layers) for m in ladder),
        ladder_macs=tuple(a.head_macs(m, s.d_in, s.d_k) for m in ladder),
        gpus=a.GPUS,
        macs=macs,
        crossover=crossover,
        token_macs=a.token_projection_macs(s.d_in, s.d_k),
        models=(
            TimeModel("post", square, t0 * square),
            TimeModel("flops", flops, t0 * flops),
            TimeModel("cached", cached, t0 * cached),
        ),
        projection_share=share,
        post_over_flops=square / flops,
        giles_hours=giles,
        checks=post_checks(),
        gpu_note=f"{cfg.gpu.stated}: {cf.fixed(cfg.gpu.memory_bytes, 0)} bytes. {cfg.gpu.source}",
        bytes_caption=prose.bytes_caption(row),
        cards_caption=prose.cards_caption(row),
        time_caption=prose.time_caption(row, giles),
        paragraph=prose.paragraph(s.n, square, flops, share, crossover),
    )
