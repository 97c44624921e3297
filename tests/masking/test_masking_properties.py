"""Masking the future at random legal settings (issue #24): every number its sentences and readouts
state comes from the view, and every claim holds on the view's own arrays.

The reader's sentence is drawn by :func:`tests.strategies.sentences` (1 to 32 tokens, repeated words,
3 to 16 wide); one example in three edits every embedding to a value the editor accepts ([-9.99,
9.99] in hundredths), so scores of thousands make the naive path divide 0 by 0 or lose digits in
subnormal numbers, and the rounding bound meets the scores' full range.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import weights
from core.rounding import round_up
from tests.prose import unexplained
from tests.strategies import sentences
from topics.masking import text, view
from ui import format as fmt

TINY = float(np.finfo(np.float64).tiny)
# Structural numbers: step 4 and the fill 0, "row 1"/"row 2"/"row 3", "the two tokens", float64's
# smallest normal number and the 0.00005 a 4-decimal table prints as 0.0000.
CONSTANTS = ("0", "1", "2", "3", "4", "2.2e-308", "0.00005")


@st.composite
def settings_(draw: st.DrawFn) -> view.Settings:
    s = draw(sentences())
    x = s.embeddings
    if draw(st.integers(0, 2)) == 0:  # the embedding editor: any cell, -9.99 to 9.99
        hundredths = draw(arrays(np.int64, x.shape, elements=st.integers(-999, 999)))
        x = (hundredths / 100).astype(np.float32).astype(np.float64)
    ws = draw(
        st.one_of(
            st.builds(weights.section_3_4),
            st.builds(weights.section_3_5),
            st.builds(weights.init_weights, st.integers(0, 2**31 - 1), st.sampled_from(("rand", "linear"))),
        )
    )
    logit = st.one_of(
        st.floats(-50, 50, allow_nan=False).map(repr), st.sampled_from(("-inf", "inf", "nan", "0"))
    )
    return view.Settings(
        labels=s.labels,
        x=x,
        weights=ws,
        stage=draw(st.integers(1, 4)),
        fill=draw(st.sampled_from(tuple(view.FILLS))),
        focus=draw(st.none() | st.integers(0, s.n - 1)),
        logits=", ".join(draw(st.lists(logit, min_size=1, max_size=8))),
    )


def _stated(v: view.View) -> list[str]:
    """Every value the view holds, formatted as the page formats it."""
    n = len(v.labels)
    w = v.masked
    out = [v.largest_text, fmt.sci(round_up(v.limit), 0), str(n - 1), *v.grid_title.split()]
    out += [fmt.num(x) for x in w.ravel()] + [fmt.vec(w[i, : i + 1]) for i in range(n)]
    for shares in v.future.values():
        out += (
            [fmt.num(x) for x in shares]
            + [fmt.num(1 - x) for x in shares]
            + [text.share_text(x) for x in shares]
        )
    out += [str(i + 1) for i in v.broken]
    d = np.abs(v.difference[np.isfinite(v.difference)])
    out += [text.difference_text(x, 0.0) for x in d] + [text.difference_text(x, v.limit) for x in d]
    if v.focus is not None:
        out += [str(v.focus.row + 1), fmt.vec(v.focus.filled)]
    return out


def _kept(v: view.View) -> np.ndarray:
    """The rows where the two paths agree to rounding: all but the broken ones."""
    return ~np.isin(np.arange(len(v.labels)), v.broken)


@settings(max_examples=50, deadline=None)
@given(settings_())
def test_every_number_comes_from_the_view_and_every_claim_holds(s: view.Settings) -> None:
    v = view.build(s)
    n = len(v.labels)
    full = view.build(dataclasses.replace(s, stage=2)).naive.matrix  # the naive path's full-row softmax
    causal_future = np.triu(np.ones((n, n), dtype=bool), k=1)

    # Every number a sentence or readout states is one the view holds.
    pool = _stated(v)
    said = [v.lead, v.prose, v.cancel_note, v.future_caption, v.undefined, v.largest_text, v.grid_title]
    if v.focus is not None:
        said.append(v.focus.extra)
    for sentence in said:
        assert not unexplained(sentence, pool, CONSTANTS), (sentence, unexplained(sentence, pool, CONSTANTS))

    # Lossy rows: every visible weight of the full-row softmax is below the smallest normal; 0/0 rows
    # are those where they are all exactly 0, and they are the difference's NaN rows.
    visible = np.where(causal_future, 0.0, full).max(axis=-1)
    np.testing.assert_array_equal(v.lossy, np.flatnonzero(visible < TINY))
    np.testing.assert_array_equal(v.undefined_rows, np.flatnonzero(np.isnan(v.difference).any(axis=-1)))
    assert set(v.undefined_rows) <= set(v.lossy) and (n - 1) not in set(v.lossy)  # the last row sees all
    assert bool(v.undefined) == bool(len(v.undefined_rows))

    # The bound: the −∞ fill's paths agree within it in every row whose full-row softmax keeps its
    # visible weights normal numbers; a broken row (0/0, or beyond the bound) is always a lossy one.
    kept = v.sealed[_kept(v)]
    assert np.isfinite(kept).all() and np.abs(kept).max() <= v.limit
    assert set(v.broken) <= set(v.lossy) and set(v.undefined_rows) <= set(v.broken)
    for i in v.broken:
        assert not np.abs(v.sealed[i]).max() <= v.limit

    # The readout: 0/0, a bound where the difference is rounding, else the value.
    d = v.largest
    if v.largest_text == "0/0":
        assert np.isnan(d)
    elif v.largest_text == "0 (exactly)":
        assert d == 0
    elif v.largest_text.startswith("below "):
        assert 0 < d <= v.limit <= float(v.largest_text.split()[1])
    else:
        assert d > v.limit
    for cells, row in zip(v.cells, v.difference, strict=True):
        for c, x in zip(cells, row, strict=True):
            assert (c == "0/0") == np.isnan(x) and (c == "0") == (x == 0)
            assert (c == "≈0") == (0 < abs(x) <= v.limit)
    assert ("≈0" in v.grid_title) == any("≈0" in c for r in v.cells for c in r)

    # The lead and the note after the algebra: "identical, to rounding" only without lossy rows.
    assert ("float64 breaks the naive one" in v.lead) == bool(len(v.broken))
    assert ("cancellation can fail" in v.cancel_note) == bool(len(v.broken))
    if "agree exactly" in v.cancel_note:
        assert (kept == 0).all()

    # The sentence under the stages.
    w, zero = v.masked, v.future["zero"]
    if n == 1:
        assert v.prose.startswith("With one token") and w[0, 0] == 1 and v.difference[0, 0] == 0
    elif s.fill == "-inf":
        assert v.prose.startswith("Row 1 collapses to 1.0000") and w[0, 0] == 1
        assert ("agree exactly" in v.prose) == (np.abs(v.difference[_kept(v)]).max() == 0)
    else:
        assert ("later tokens keep weight" in v.prose) == bool(zero.any())
        after = "the one token" if n == 2 else f"the {n - 1} tokens"
        assert f"hands {text.share_text(zero[0])} to {after} after it" in v.prose
        here = np.abs(v.difference[_kept(v)]).max()
        assert ("differ by up to" in v.prose.split(". The naive path")[1].split(";")[0]) == (here > v.limit)
    if len(v.undefined_rows):
        assert "divides 0 by 0" in v.prose
    assert ("fewer digits" in v.prose) == bool(len(np.setdiff1d(v.broken, v.undefined_rows)))

    # The caption under the table of attention to later tokens.
    if "a zero score is not a zero weight" in v.future_caption:
        assert (zero >= 5e-5).any()
    elif "a lone token" in v.future_caption:
        assert n == 1
    else:  # "every row sees a score far above the fill's 0": e^6 against at most 31 later tokens
        scaled = view.build(dataclasses.replace(s, stage=1)).naive.matrix
        visible = np.where(causal_future, -np.inf, scaled).max(axis=-1)
        assert n > 1 and (zero < 5e-5).all() and (visible[:-1] > 6).all()
    assert (v.future["-inf"] == 0).all() and zero[-1] == 0

    # The focused query with the 0 fill: "the same" exactly where nothing reaches later tokens.
    if v.focus is not None and s.fill == "zero":
        f = v.focus
        assert ("the same" in f.extra) == (zero[f.row] == 0)
        if "the same" in f.extra:
            np.testing.assert_array_equal(f.filled, f.context)
        assert ("last token" in f.extra) == (f.row == n - 1)
