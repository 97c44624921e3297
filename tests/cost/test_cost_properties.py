"""Every sentence on "What n² costs" is true at every legal setting (issue 24).

Hypothesis draws every control from its own ladder (n, bytes a score, card, heads, layers, the
baseline, both widths), builds the view and holds its prose to two rules:

- every number a sentence states is one the view holds, formatted as the page formats it
  (``tests.prose.unexplained``);
- every claim holds where it is shown, read from the view's exact values: the post's square
  "overstates" only above 1,024 tokens, a growth below 1 is never printed as ×0, a share is never
  rounded to a false 0.0% or 100.0%, the crossover is where the quadratic part first wins.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.prose import unexplained
from topics.cost import arithmetic as a
from topics.cost import format as cf
from topics.cost import prose, time_models, view

# "(n/1,024)²" and "n(n+1)/2" are formulas, not values: their digits are the structure.
CONSTANTS = ("1", "2", "1,024", "024", "0.1%", "99.9%", "0.01", "4.1")  # 1{,}024 in LaTeX; GPT-4.1


@st.composite
def page_settings(draw: st.DrawFn) -> view.Settings:
    return view.Settings(
        draw(st.sampled_from(a.context_ladder())),
        draw(st.sampled_from(view.BYTES_PER_SCORE)),
        draw(st.sampled_from(a.GPU_NAMES)),
        draw(st.integers(1, view.MAX_HEADS)),
        draw(st.integers(1, view.MAX_LAYERS)),
        draw(st.sampled_from(view.BASELINE_MS)),
        draw(st.sampled_from(view.D_INS)),
        draw(st.sampled_from(view.D_KS)),
    )


def stated(v: view.View) -> list[str]:
    """The view's values as the page prints them."""
    row, post, flops, _ = v.row, *v.models
    out = [f"{v.n:,}", f"{v.crossover:,}", f"{row.scores:,}", f"{row.live_cells:,}", f"{row.nbytes:,}"]
    out += [cf.in_unit(row.nbytes, u) for _, u in prose.UNITS]
    out += [f"{row.cards.numerator:,}", f"{row.cards.denominator:,}", cf.fixed(row.cards, 2)]
    out += [cf.hours(row.seconds), v.giles_hours, cf.fixed(v.gpu.memory_bytes, 0), v.gpu.source, v.gpu.stated]
    out += [prose.growth(post.growth), prose.growth(flops.growth), prose.percent(v.projection_share)]
    out += [cf.fixed(v.post_over_flops, 2), cf.fixed(1 / v.post_over_flops, 2)]
    return out


@settings(max_examples=50, deadline=None)
@given(page_settings())
def test_every_number_comes_from_the_view_and_every_claim_holds(s: view.Settings) -> None:
    v = view.build(s)
    post, flops, _ = v.models
    for text in (v.gpu_note, v.bytes_caption, v.cards_caption, v.time_caption, v.paragraph):
        assert not unexplained(text, stated(v), CONSTANTS), (text, unexplained(text, stated(v), CONSTANTS))
        assert " 1 tokens" not in text and " 1 scores" not in text, text
        assert "×0 " not in text and "×0.00" not in text and " 0.0%" not in text and "100.0%" not in text, (
            text
        )

    # The post's square against one head's multiply-adds: which way it errs depends on n.
    if v.n > a.BASELINE_N:
        assert post.growth > flops.growth and "times as much" in v.paragraph
    elif v.n < a.BASELINE_N:
        assert post.growth < flops.growth < 1 and "shrinks it" in v.paragraph and "÷" in v.paragraph
    else:
        assert post.growth == flops.growth == 1 and "t₀ itself" in v.paragraph

    # "the quadratic part is the larger from n = C on": C is the first n where it is.
    macs_at = a.head_macs(v.crossover, v.d_in, v.d_k)
    before = a.head_macs(v.crossover - 1, v.d_in, v.d_k) if v.crossover > 1 else None
    assert macs_at.quadratic > macs_at.linear and (before is None or before.quadratic <= before.linear)
    assert f"from n = {v.crossover:,} on" in v.paragraph

    # The share of the projections, never rounded to a false bound.
    share = v.projection_share
    assert 0 < share < 1
    if "under 0.1%" in v.paragraph:
        assert share < Fraction(1, 2000)

    # The cards caption: the ratio's exact fraction is the view's, its rounding never a false 0.00.
    assert v.row.cards == Fraction(v.row.nbytes, v.gpu.memory_bytes)
    assert ("below 0.01" in v.cards_caption) == (v.row.cards < Fraction(1, 200))

    # Hours only from a minute up; the growth column never reads ×0.
    assert ("h." in v.time_caption) == (v.row.seconds >= 60)
    frame = time_models.frame(v)
    assert not any(g in ("×0", "×0.00") for g in frame.iloc[:, 0])
