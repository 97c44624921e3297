"""The Recap's prose at random legal settings (issue #24): a reader's sentence (1–32 tokens, repeated
words, 3–16 wide), random edits up to ±9.99 (which make peaked weights), and any followed pair.

Every number a sentence states is one of the view's values as the page formats it, and every
claim holds, checked on the view's raw arrays: the weights, the inputs and the outputs.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.sentence import build, format_edits
from tests.prose import unexplained
from tests.strategies import sentences
from topics.recap import text, view
from topics.recap.view import HUDDLE_SHARE, NEAR_CENTRE, NEAR_UNIFORM
from ui import format as fmt
from ui.sentence import md

# "section 3.3", "section 3.4", "1/n", "the fourth decimal": structural, not values.
CONSTANTS = ("3.3", "3.4", "1")


@st.composite
def recap_settings(draw: st.DrawFn) -> view.Settings:
    s = draw(sentences())
    if draw(st.booleans()):  # edited cells, as the editor and ``?emb=`` give them
        cell = st.tuples(st.integers(0, s.n - 1), st.integers(0, s.width - 1))
        edits = draw(st.dictionaries(cell, st.integers(-999, 999), max_size=12))
        s = build(s.text, s.width, format_edits(edits))
    return view.Settings(
        s.labels, s.embeddings, draw(st.sampled_from(s.labels)), draw(st.sampled_from(s.labels))
    )


def mean_distance(a: np.ndarray) -> float:
    """The mean distance over all pairs of rows."""
    d = np.linalg.norm(a[:, None, :] - a[None, :, :], axis=-1)
    return float(d[np.triu_indices(len(a), 1)].mean())


def entropy(w: np.ndarray) -> np.ndarray:
    return -(w * np.log(np.where(w > 0, w, 1))).sum(axis=-1)


def stated(v: view.View) -> list[str]:
    """Every value the prose may state, formatted as the page formats it."""
    c = v.collapse
    values = [
        fmt.num(x) for x in (v.weight, v.fig01_weight, v.uniform, v.fig01_divisor, v.lightest, v.heaviest)
    ]
    values += [str(v.fig01_d_k), str(v.n), f"{v.dot_products:,}", text.factor(v), *map(md, v.labels)]
    return values + ([fmt.percent(c.spread_share)] if c.spread_share is not None else [])


@settings(max_examples=50, deadline=None)
@given(recap_settings())
def test_every_number_comes_from_the_view_and_every_claim_holds(s: view.Settings) -> None:
    v = view.build(s)
    lead, weight, heading, collapse = text.lead(v), text.weight(v), text.collapse_heading(v), text.collapse(v)
    prose = " ".join((lead, weight, heading, collapse))
    assert unexplained(prose, stated(v), CONSTANTS) == [], prose

    w, x, z, n = v.collapse.weights, v.inputs, v.collapse.context, v.n
    u, q, k = 1 / n, v.query, v.key
    near_uniform = bool(w.max() <= NEAR_UNIFORM * u and w.min() >= u / NEAR_UNIFORM)
    assert ("never far from uniform" in collapse) == (near_uniform and n > 1 and v.collapse.spread_in != 0)
    if "far from uniform" in collapse and "never far" not in collapse:
        assert not near_uniform

    spread = mean_distance(x) if n > 1 else 0.0
    share = mean_distance(z) / spread if spread > 0 else None
    centre = x.mean(axis=0)
    off = (
        np.linalg.norm(z - centre, axis=1).max() / np.linalg.norm(x - centre, axis=1).mean()
        if share
        else None
    )
    huddles = "huddle near the centre" in collapse or "huddle together" in collapse
    assert huddles == (share is not None and share <= HUDDLE_SHARE)
    assert ("do not huddle" in collapse) == (share is not None and share > HUDDLE_SHARE)
    assert (heading == "The collapse") == huddles
    if "near the centre" in collapse:
        assert off is not None and off <= NEAR_CENTRE
    if "away from the centre" in collapse:
        assert off is not None and off > NEAR_CENTRE
    if "barely does anything" in lead:
        assert huddles and near_uniform and "near the centre" in collapse
    if "Every input here is the same vector" in collapse:
        assert n > 1 and (x == x[0]).all() and np.allclose(w, u, rtol=1e-12)

    # Three matrices' weights are these scores divided by √d_k, and dividing flattens every row.
    divided = v.fig01_weights
    scaled = v.collapse.scores / np.sqrt(v.fig01_d_k)
    expected = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        divided, expected / expected.sum(axis=1, keepdims=True), rtol=1e-9, atol=1e-300
    )
    assert (entropy(divided) >= entropy(w) - 1e-9).all()
    if "closer to uniform" in weight:
        assert abs(divided[q, k] - u) < abs(w[q, k] - u)
    if "moves away from it" in weight:
        assert abs(divided[q, k] - u) >= abs(w[q, k] - u)
    if "does not change in the fourth decimal" in weight:
        assert round(divided[q, k], 4) == round(w[q, k], 4) or fmt.num(divided[q, k]) == fmt.num(w[q, k])
    assert sum(p in weight for p in ("closer to uniform", "moves away from it", "too")) == 1
