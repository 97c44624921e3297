"""The cell panel of "What comes next" (issue #22): the shuffled sentence's causal weights, one cell
worked out with the numbers its heatmap prints, and what the shuffle did to that cell.

The view's panel at the defaults and in each case its notes cover, the page through AppTest with
its URL keys, the two click callbacks (a weights cell picks query and key; a difference row picks
the token only), and a property: at random legal settings, the reader's sentence included, the
panel's numbers are the page's matrices and its notes state only the view's numbers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from core.attention import self_attention
from tests.app.conftest import assert_clean, charts, open_page, panel_text
from tests.prose import unexplained
from tests.strategies import sentences
from topics.next import equivariance, view
from topics.next.view import Settings
from ui import figures
from ui import format as fmt

PAGE = "topics/next/page.py"
T = Settings().labels


def notes(s: Settings) -> str:
    p = view.build(s).shuffle.cell
    assert p is not None
    return "\n".join(p.notes)


def test_journey_to_starts_at_the_defaults():
    """The reversed sentence: journey is 5th, starts 4th, so starts now comes before journey."""
    sh = view.build(Settings(focus=1, cell=2)).shuffle
    p = sh.cell
    assert p is not None and sh.focus is not None
    assert (sh.focus.row, sh.cell_col) == (4, 3) and p.heading == "journey → starts"
    # The same score as on Three matrices (the same two tokens, the same section 3.4 weights)…
    assert p.score == "ω = 0.1878 + 1.6233 = **1.8111**"
    # … over a different row: journey now sees step, one, with, starts and itself.
    assert p.weight == (
        "Divided by √d_k = √2 = 1.4142: ≈ 1.2806",
        "exp(1.2806) = 3.5990",
        "The row's denominator, Σ exp over its keys: 13.91",
        "a_journey,starts = 3.5990 / 13.91 = **0.2587**",
    )
    assert p.context == "z_journey = **[0.3274, 0.8104]**"
    assert fmt.vec(sh.focus.masked_shuffled) == "[0.3274, 0.8104]"  # the focus line's shuffled z
    which, where, masked, free = p.notes
    assert "one head" in which and "causal mask" in which and "seed 123" in which
    assert (
        where
        == "Before the shuffle **journey** was at position 2 and **starts** at 3; now they are at 5 and 4."
    )
    assert masked == (
        "With the mask: starts came after journey, so it was hidden (weight 0); now it comes before journey "
        "and gets 0.2587."
    )
    assert free.startswith("Without the mask this weight is 0.2199 in both orders")  # Three matrices' A


def test_a_focus_alone_takes_its_largest_weight_and_no_focus_no_panel():
    assert view.build(Settings()).shuffle.cell is None
    assert view.build(Settings(cell=2)).shuffle.cell is None  # a key without a query is no cell
    sh = view.build(Settings(focus=5)).shuffle  # step, first after the reverse: sees only itself
    assert sh.cell_col == 0 and sh.cell is not None and sh.cell.heading == "step → step"
    assert sh.cell.weight[-1].endswith("= **1.0000**")
    assert sh.cell.notes[1] == "Before the shuffle **step** was at position 6; now it is at 1."


def test_a_masked_cell_is_minus_infinity_then_zero():
    sh = view.build(Settings(focus=5, cell=0)).shuffle  # step → Your: Your is now last
    p = sh.cell
    assert p is not None and sh.cell_col == 5 and sh.causal.weights[0, 5] == 0
    assert len(p.weight) == 1 and "−∞" in p.weight[0] and "exactly **0**" in p.weight[0]
    assert p.notes[2] == (
        "With the mask: Your came before step and got 0.1557; now it comes after, so the mask hides it "
        "(weight 0)."
    )


SWAP = (1, 0, 2, 3, 4, 5)  # journey first, then Your


@pytest.mark.parametrize(
    ("s", "said"),
    [
        (Settings(perm=SWAP, focus=0, cell=3), "with comes after Your in both orders"),
        (Settings(perm=SWAP, focus=2, cell=0), "a sum over the tokens up to starts: 3 of them before"),
        (Settings(perm=tuple(range(6)), focus=1, cell=0), "The shuffle leaves **journey** at position 2 and"),
        (Settings(perm=tuple(range(6)), focus=1, cell=1), "The shuffle leaves **journey** at position 2."),
    ],
    ids=["hidden both ways", "seen both ways", "identity", "identity, itself"],
)
def test_the_notes_cover_every_case(s, said):
    assert said in notes(s)


def test_seen_both_ways_with_the_same_prefix_keeps_its_weight():
    """Swapping the first two tokens leaves starts' prefix as a set: the weight is unchanged."""
    text = notes(Settings(perm=SWAP, focus=2, cell=0))
    x, ws = Settings().embeddings, view.build(Settings()).shuffle.weights
    w = fmt.num(equivariance.causal_self_attention(x, ws).weights[2, 0])
    assert f"its weight was {w} and is {w}." in text


# --- The page -----------------------------------------------------------------------------------


def _weights_layout(at: AppTest) -> dict:
    (spec,) = [
        json.loads(c.proto.spec)
        for c in charts(at)
        if "Causal weights" in json.loads(c.proto.spec)["layout"]["title"]["text"]
    ]
    return spec["layout"]


def test_a_cell_link_shows_its_panel_and_outlines_it():
    at = open_page(PAGE, {"next_focus": "journey", "next_cell": "starts"})
    assert_clean(at)
    v = view.build(Settings(focus=1, cell=2))
    assert v.shuffle.cell is not None
    panel = panel_text(at)
    for line in ("journey → starts", v.shuffle.cell.score, "z_journey = **[0.3274, 0.8104]**"):
        assert line in panel, line
    assert at.selectbox(key="next_focus").value == 1 and at.selectbox(key="next_cell").value == 2
    notes = " ".join(m.value for m in at.markdown)
    assert all(n in notes for n in v.shuffle.cell.notes)
    boxes = [s for s in _weights_layout(at)["shapes"] if s["line"]["color"] == figures.FOCUS]
    row, col = 4, 3  # journey's row and starts' column in the reversed order
    assert {(b["x0"], b["y0"]) for b in boxes} == {(-0.5, row - 0.5), (col - 0.5, row - 0.5)}


@pytest.mark.parametrize("junk", ["", "nan", "-1", "no such token", "🙂" * 50, "x" * 10_000])
def test_a_junk_cell_is_the_rows_largest_weight(junk):
    at = open_page(PAGE, {"next_focus": "journey", "next_cell": junk})
    assert_clean(at)
    v = view.build(Settings(focus=1))
    assert v.shuffle.cell is not None and v.shuffle.cell.heading in panel_text(at)


def test_without_a_focus_the_page_says_how_to_pick_a_cell():
    at = open_page(PAGE, {"next_cell": "starts"})
    assert_clean(at)
    assert not any(m.value.startswith("**One cell") for m in at.markdown)
    assert any(c.value.startswith("Click any cell") for c in at.caption)


def _clicked(chart: str, point: dict) -> None:
    """The page's two controls and its two callbacks, wired as the page wires them (the reversed
    order), with ``chart`` reporting ``point`` as clicked."""
    import streamlit as st

    from topics.next.controls import row_picker
    from ui import cell as cell_ui
    from ui.focus import focus_control

    labels = ("Your", "journey", "starts", "with", "one", "step")
    perm = (5, 4, 3, 2, 1, 0)
    st.session_state[chart] = {"click": point.get("customdata")}
    if not st.session_state.get("done"):
        st.session_state["done"] = True
        if chart == "next_weights":
            cell_ui.picker(chart, "next_focus", "next_cell", rows=perm, cols=perm)()
        else:
            row_picker(chart, "next_focus", perm)()
    focus_control(labels, key="next_focus")
    cell_ui.cell_control(labels, key="next_cell")


def test_a_click_on_a_weight_picks_its_query_and_key_as_tokens():
    at = AppTest.from_function(_clicked, args=("next_weights", {"customdata": [0, 4, 3]})).run()
    assert at.selectbox(key="next_focus").value == 1  # row 4 of the reverse: journey
    assert at.selectbox(key="next_cell").value == 2  # column 3: starts


def test_a_click_on_a_difference_row_focuses_its_token_only():
    at = AppTest.from_function(_clicked, args=("With the causal mask", {"customdata": [0, 0, 1]})).run()
    assert at.selectbox(key="next_focus").value == 5  # row 0 of the reverse: step
    assert at.selectbox(key="next_cell").value == -1  # a dimension is no key: the cell stays as it was
    at = AppTest.from_function(_clicked, args=("With the causal mask", {"x": "dim 1"})).run()
    assert at.selectbox(key="next_focus").value == -1  # a cleared selection changes nothing


# --- Every legal setting, the reader's sentence included ------------------------------------------


@st.composite
def cell_settings(draw: st.DrawFn) -> Settings:
    s = draw(sentences())
    n = len(s.labels)
    return Settings(
        s.labels,
        s.embeddings,
        perm=tuple(draw(st.permutations(range(n)))),
        focus=draw(st.integers(0, n - 1)),
        cell=draw(st.one_of(st.none(), st.integers(0, n - 1))),
    )


@settings(max_examples=40, deadline=None)
@given(cell_settings())
def test_the_panel_is_the_pages_matrices(s):
    sh = view.build(s).shuffle
    p, a, f = sh.cell, sh.causal, sh.focus
    assert p is not None and f is not None and sh.cell_col is not None
    r, c = f.row, sh.cell_col
    q, k = sh.perm[r], sh.perm[c]
    assert s.cell is None or k == s.cell  # the key the reader picked, wherever the shuffle put it
    # The products table and the score: the shuffled Q and K the heatmap's weights come from.
    assert [row[1:] for row in p.products.rows] == [
        (fmt.num(a.queries[r, d]), fmt.num(a.keys[c, d]), fmt.num(a.queries[r, d] * a.keys[c, d]))
        for d in range(a.keys.shape[1])
    ]
    assert p.score.endswith(f"= **{fmt.num(a.queries[r] @ a.keys[c])}**")
    # The weight is the heatmap's cell; a key after the query is masked to exactly 0.
    if c > r:
        assert a.weights[r, c] == 0 and "exactly **0**" in p.weight[0]
    else:
        assert p.weight[-1].endswith(
            (f"= **{fmt.num(a.weights[r, c])}**", f"≈ **{fmt.num(a.weights[r, c])}**")
        )
    # The terms are the row's weights, and z is the focus line's shuffled context, f(P·X)'s row.
    shown = {row[0].removeprefix("▸ "): row[1] for row in p.terms.rows}
    assert all(w in {fmt.num(x) for x in a.weights[r]} for w in shown.values())
    assert p.context == f"z_{fmt.md(s.labels[q]).replace(' ', '_')} = **{fmt.short_vec(f.masked_shuffled)}**"
    np.testing.assert_allclose(a.weights[r] @ a.values, f.masked_shuffled, atol=1e-12)
    # The notes state only the view's numbers, and each case where it holds.
    x, ws = np.asarray(s.embeddings, dtype=np.float64), sh.weights
    before = equivariance.causal_self_attention(x, ws).weights[q, k]
    frees = (self_attention(x, ws).weights[q, k], self_attention(x[list(sh.perm)], ws).weights[r, c])
    numbers = [fmt.num(before), fmt.num(a.weights[r, c]), *(fmt.num(w) for w in frees)]
    numbers += [str(i) for i in (q + 1, k + 1, r + 1, c + 1, len(sh.perm))]
    text = "\n".join(p.notes)
    assert not unexplained(text, numbers, ("0", "3.4", "3.5", "123")), text
    assert ("in both orders, so the mask hides it" in text) == (k > q and c > r)
    assert ("so it was hidden" in text) == (k > q and c <= r)
    assert ("now it comes after" in text) == (k <= q and c > r)
    assert ("in both orders:" in text) == (fmt.num(frees[0]) == fmt.num(frees[1]))
    assert abs(frees[0] - frees[1]) <= sh.limit  # without the mask the shuffle moves the cell only
