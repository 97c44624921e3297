"""Every sentence on the Multi-head page is true at every legal setting (issue 24).

Hypothesis draws the page's controls (class, heads, both widths from the page's ladder, seed; the
cell panel's test adds a focus, a key and a head) and the reader's sentence
(``tests.strategies.sentences``: 1-32 tokens, repeated words, any width), builds the view, and
holds its prose and readouts to two rules:

- every number a sentence or readout states is one the view holds, formatted as the page formats
  it (``tests.prose.unexplained``);
- every claim is shown only where its condition holds, read from the view's raw values (the
  configuration, the counts, the book's arrays), never from the page's text.

The forward pass is injected: settings over ``DRAWN`` parameters get a run that holds only a
reason, so 50 examples stay under a few seconds (the figures' numbers are the Reproduce oracle's
business, ``test_multihead_reproduce.py``). The stopwatch's timing is not part of the view's pure
numbers and never runs here.
"""

from __future__ import annotations

import functools
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import multihead as mh
from core import sentence as sent
from tests.prose import unexplained
from tests.strategies import sentences
from topics.multihead import view
from ui import format as fmt

DRAWN = 50_000  # parameters: a larger setting is counted here, not drawn
# Structural numbers the prose states whatever the setting: "head 1", "against 3", dropout=0.0, the
# batch of 2, torch.manual_seed(0) for the stand-ins, GPT-3's paper (2020, table 2.1), the commit's
# date (4 March 2024), PyTorch 2.13, softmax's dim=1 and dim=-1.
CONSTANTS = ("0", "1", "2", "3", "0.0", "2.1", "2.13", "2020", "2024", "4", "-1")


@functools.cache
def book() -> view.Book:
    return view.book_numbers()


def cheap_run(
    kind: str, d_in: int, d_out: int, heads: int, seed: int, length: int, x: np.ndarray
) -> view.Run:
    cfg = mh.AttentionConfig(d_in, d_out, heads, length)
    if mh.counts(view._kind(kind), cfg).total_params > DRAWN:
        return view.Run((), None, None, (), (), None, 0, "counted, not drawn in the property test")
    return view.forward(kind, d_in, d_out, heads, seed, length, x)


@st.composite
def page_settings(draw: st.DrawFn) -> view.Settings:
    s = draw(sentences())
    return view.Settings(
        s.labels,
        s.embeddings,
        "Custom",
        draw(st.sampled_from(mh.KINDS)),
        draw(st.integers(1, view.MAX_HEADS)),
        draw(st.sampled_from(view.WIDTHS)),
        draw(st.sampled_from(view.WIDTHS)),
        draw(st.integers(0, view.MAX_SEED)),
    )


def stated(v: view.View, s: view.Settings) -> list[str]:
    """The view's values as the page prints them."""
    cfg, b = v.config, v.book
    ints = [cfg.d_in, cfg.d_out, cfg.num_heads, cfg.context_length, s.seed, len(s.labels), s.x.shape[1]]
    ints += [v.wrapper_matmuls, v.projection_matmuls, view.BATCH, mh.STAND_IN_SEED]
    ints += [x for x in (v.head_dim, v.head_width, v.params, v.out_proj_params) if x is not None]
    ints += [b.gpt3_heads, b.gpt3_layers, b.gpt3_heads * b.gpt3_layers, b.gpt3_d_model, b.gpt3_head_dim]
    ints += [view.MAX_DRAWN_PARAMS, *(x for fix in v.split_fixes or () for x in fix)]
    out = [str(i) for i in ints] + [fmt.integer(i) for i in ints]
    out += [r.value for r in v.readouts]
    out += [view.shape(v.output_wrapper), view.shape(v.output_split)]
    out += [view.root_text(x) for x in (v.divisor, v.head_dim_root) if x is not None]
    out += [str(round(v.d_out_root)), f"{v.d_out_root:.1f}"]
    out += [fmt.vec(b.outputs["exercise_3_2"][0, 0]), fmt.vec(b.stale_row_sums, 2), view.sci_row(b.stale[0])]
    return out


def prose(v: view.View) -> list[str]:
    notes = (v.caption, v.gpt3_note, v.divisor_note, v.out_proj_note, v.matched_note, v.exercise_note)
    errors = (v.split_error, v.run.error if v.run is not None else None)
    return [t for t in (*notes, *errors) if t] + [f"{r.label}: {r.value}" for r in v.readouts]


@settings(max_examples=50, deadline=None)
@given(page_settings())
def test_every_number_comes_from_the_view_and_every_claim_holds(s: view.Settings) -> None:
    v = view.build(s, run=cheap_run, book_run=book)
    cfg, n = v.config, len(s.labels)
    for text in prose(v):
        assert not unexplained(text, stated(v, s), CONSTANTS), (
            text,
            unexplained(text, stated(v, s), CONSTANTS),
        )
        assert " 1 tokens" not in text and " 1 stand-in embeddings" not in text, text

    # The readouts: the labels the class as set reads, the values its configuration gives.
    divides = cfg.d_out % cfg.num_heads == 0
    values = {r.label: r.value for r in v.readouts}
    assert list(values) == [
        view.HEAD_WIDTH[s.kind],
        view.DIVISOR,
        view.PROJECTION_MATMULS,
        view.OUTPUT_WRAPPER,
        view.OUTPUT_SPLIT,
        view.PARAMETERS,
    ]
    assert values[view.OUTPUT_WRAPPER] == f"[2, {n}, {cfg.d_out * cfg.num_heads}]"
    assert values[view.OUTPUT_SPLIT] == (f"[2, {n}, {cfg.d_out}]" if divides else view.NONE)
    assert values[view.PROJECTION_MATMULS] == str(3 * cfg.num_heads if s.kind == "wrapper" else 3)
    width = cfg.d_out if s.kind == "wrapper" else cfg.d_out // cfg.num_heads if divides else None
    assert values[view.HEAD_WIDTH[s.kind]] == (view.NONE if width is None else str(width))

    # "Pick d_out = … or H = …": widths the ladder offers that H divides, head counts that divide d_out.
    if v.split_fixes is not None:
        widths, heads = v.split_fixes
        assert not divides and widths and heads and v.split_error is not None
        assert all(w in view.WIDTHS and w % cfg.num_heads == 0 for w in widths)
        assert all(1 <= h <= view.MAX_HEADS and cfg.d_out % h == 0 for h in heads)
    else:
        assert divides or s.kind == "wrapper"  # the wrapper needs no cut

    # "divides by √head_dim, not by √d_out": only where the two differ.
    if v.divisor_note is not None:
        assert divides and cfg.num_heads > 1 and cfg.d_out // cfg.num_heads > 1
        assert f"√{cfg.d_out // cfg.num_heads} = " in v.divisor_note
    else:
        assert not divides or cfg.d_out // cfg.num_heads in (1, cfg.d_out)

    # "out_proj mixes the heads": more than one head to mix.
    if v.out_proj_note is not None:
        assert s.kind == "split"
        assert ("mixes the heads" in v.out_proj_note) == (cfg.num_heads > 1)

    # "what differs is how many matmuls carry them, 3H against 3": only where 3H is not 3.
    if v.matched_note is not None:
        assert divides
        assert ("against 3 here" in v.matched_note) == (v.wrapper_matmuls > 3)
        assert v.wrapper_matmuls == 3 * cfg.num_heads

    # "the last token's outputs grow largest" in the stale exercise 3.2 print.
    norms = np.linalg.norm(v.book.stale, axis=-1)
    assert ("grow largest" in v.exercise_note) == (int(np.argmax(norms)) == len(norms) - 1)

    # The caption names the tokens on screen: the sentence's own at its width, else stand-ins.
    assert (f"{n} stand-in" in v.caption) == (cfg.d_in != s.x.shape[1])


# --- the cell panel (issue #22) ------------------------------------------------------------


Picked = tuple[view.Settings, int, int | None, int]  # a setting, its focus, cell and head


@st.composite
def cell_settings(draw: st.DrawFn) -> Picked:
    """A drawable setting more often than not (the split class's heads divide d_out), a focused
    query, a key or none, and any head the slider offers (one the class lacks included)."""
    s = draw(sentences())
    n = len(s.labels)
    kind = draw(st.sampled_from(mh.KINDS))
    d_out = draw(st.sampled_from(view.WIDTHS[:20]))
    fits = [h for h in range(1, view.MAX_HEADS + 1) if kind == "wrapper" or d_out % h == 0]
    setting = view.Settings(
        s.labels,
        s.embeddings,
        "Custom",
        kind,
        draw(st.sampled_from(fits)),
        draw(st.sampled_from(view.WIDTHS[:20])),
        d_out,
        draw(st.integers(0, view.MAX_SEED)),
    )
    return (
        setting,
        draw(st.integers(0, n - 1)),
        draw(st.none() | st.integers(0, n - 1)),
        draw(st.integers(0, view.MAX_HEADS - 1)),
    )


def _floats(text: str) -> list[float]:
    return [float(x.replace("−", "-")) for x in re.findall(r"[-−]?\d+\.\d+", text)]


def _close(shown: float, value: float) -> bool:
    """A 4-decimal print of ``value`` (computed by another evaluation order: within float noise)."""
    return abs(shown - value) <= 5e-5 + 1e-9 * abs(value)


def _shown_vector(text: str, z: np.ndarray) -> None:
    """``short_vec``'s print (``[a, b, …, z] (64 numbers)``) holds ``z``'s entries."""
    body = text.split("[", 1)[1].split("]", 1)[0]
    if "…" in body:
        first, last = body.split("…")
        assert all(_close(a, b) for a, b in zip(_floats(first), z, strict=False)), (text, z)
        assert _close(_floats(last)[0], z[-1]), (text, z)
    else:
        assert len(_floats(body)) == len(z) and all(
            _close(a, b) for a, b in zip(_floats(body), z, strict=True)
        )


@settings(max_examples=50, deadline=None)
@given(cell_settings())
def test_the_cell_panel_shows_the_pages_matrices_and_every_line_holds(picked: Picked) -> None:
    s, i, cell, head = picked
    v = view.build(s, run=cheap_run, book_run=book)
    f = view.focused(s, v, i, cell, head)
    r, cfg, n = v.run, v.config, len(s.labels)
    if r is None or r.error is not None or r.weights is None:
        assert f.cell is None and f.key is None and f.focus is None
        return
    p, h = f.cell, (head if head < s.heads else 0)
    assert p is not None and f.head == h and f.focus == i
    shown = r.weights[h, i]  # the row of the heatmap the panel works out
    j = cell if cell is not None else int(np.argmax(shown))
    assert f.key == j and p.heading == f"head {h + 1}, {fmt.md(s.labels[i])} → {fmt.md(s.labels[j])}"

    # The weight: the heatmap's, or exactly 0 for a future key (the causal mask).
    if j > i:
        assert shown[j] == 0.0 and "−∞" in p.weight[0] and "exactly **0**" in p.weight[0]
    else:
        assert _close(_floats(p.weight[-1].split("**")[1])[0], shown[j])
        divisor = f"√d_out = √{cfg.d_out}" if s.kind == "wrapper" else f"√head_dim = √{cfg.head_dim}"
        assert p.weight[0].startswith(f"Divided by {divisor} = {fmt.num(r.head_width**0.5)}:")
    listed = {row[0].removeprefix("▸ "): row[1] for row in p.terms.rows if row[0].startswith("▸ ")}
    assert list(listed.values()) == [fmt.num(shown[j])]
    if n <= 8:
        assert [row[1] for row in p.terms.rows] == [fmt.num(w) for w in shown]

    # The stripe the notes name is the one q comes from: x_i times those columns of the drawn W_q.
    stripe, divisor_note, mask, context = p.notes
    if s.heads == 1:
        a, b = 0, r.head_width
    elif s.kind == "split":
        a, b = map(int, re.search(r"`\[:, (\d+):(\d+)\]`", stripe).groups())  # type: ignore[union-attr]
    else:
        found = re.search(r"its columns? (\d+)(?:–(\d+))?\.", stripe)
        assert found is not None, stripe
        a, b = int(found[1]) - 1, int(found[2] or found[1])
    assert b - a == r.head_width and a == h * r.head_width
    assert r.w_query is not None
    if r.w_query.cells.shape == r.w_query.shape:  # drawn whole, not thinned
        x = sent.example_batch(s.x, cfg.d_in)[0, i].astype(np.float64)
        q = x @ r.w_query.cells[:, a:b].astype(np.float64)
        for row in p.products.rows:
            assert _close(float(row[1]), q[int(row[0]) - 1]), (row, q)

    # The context vector: the head's, before out_proj (split) or glued unchanged (wrapper).
    if s.kind == "wrapper" and r.output is not None and r.output.cells.shape == r.output.shape:
        _shown_vector(p.context, r.output.cells[i, a:b])
        assert "no `out_proj`" in context
    elif s.kind == "split":
        params = mh.init_params("split", cfg, s.seed)
        before = mh.forward(sent.example_batch(s.x, cfg.d_in), params).heads_output[0, i, a:b]
        _shown_vector(p.context, before)
        assert "before `out_proj`" in context

    # The notes state only the view's numbers, and the mask line says how many keys the query sees.
    numbers = [h + 1, s.heads, a, b, a + 1, cfg.d_in, cfg.d_out, r.head_width, i + 1, n]
    for note in p.notes:
        assert not unexplained(note, [str(k) for k in numbers], ("0", "1", "2", "-1")), note
    assert ("sees only key 1, itself" in mask) == (i == 0)
    assert i == 0 or f"sees keys 1 to {i + 1} of {n}." in mask
    assert ("Head " in stripe) == (s.heads > 1) and ("not d_out" in divisor_note) == (
        s.kind == "split" and s.heads > 1
    )
