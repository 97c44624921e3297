"""The Overview, the start page: its figure is the Three matrices page's weights at the reader's
sentence (section 3.4's, which the book prints), it follows ``?text=``, it links the read-along tour
and every page, introduces the four tools and the sources the checks name, and runs clean."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings

from core import book, sentence, tokens
from tests.app.conftest import assert_clean, charts, open_page, open_values
from tests.strategies import sentences
from topics import PAGES, page_of
from topics.overview import text, view
from topics.three_matrices import view as three_matrices
from ui import checks, figures
from ui import format as fmt
from ui.scale import LABELS, pale_hint

PAGE = "topics/overview/page.py"
CAT = "the cat sat on the mat"


def overview_at(s: sentence.Sentence) -> view.View:
    return view.build(view.Settings(s.labels, s.embeddings, s.is_book))


def three_matrices_at(s: sentence.Sentence) -> three_matrices.View:
    """The Three matrices page's default view (section 3.4, three matrices) at ``s``."""
    return three_matrices.build(three_matrices.Settings(s.labels, s.embeddings, s.is_book))


def chart(at) -> dict:
    (only,) = charts(at)
    return json.loads(only.proto.spec)


def cells(spec: dict) -> list[str]:
    """The printed cells of a heatmap, row by row."""
    return [a["text"] for a in figures.cell_notes(spec)]


def test_the_notation_holds_the_book_toys_values():
    v = view.build(view.Settings())
    assert {row.symbol: row.toy for row in v.notation} == {
        "n": 6,
        "d_{in}": 3,
        "d_{out}": 2,
        "d_k": 2,
        "H": 2,
        "\\text{head\\_dim}": 1,
    }
    assert v.tokens == tokens.TOKENS and v.inputs.shape == (6, 3)


def test_at_the_books_sentence_the_figure_is_section_3_4s_printed_weights():
    v, tm = view.build(view.Settings()), three_matrices_at(sentence.book())
    np.testing.assert_array_equal(v.weights, tm.trace.weights)
    assert v.labels == tokens.TOKENS and v.row == tokens.TOKENS.index("journey") == 1
    printed = book.SECTION_3_4["attn_weights_2"]
    assert fmt.vec(v.weights[v.row]) == printed
    assert f"`attn_weights_2`: {printed}." in v.caption and "the book's six tokens" in v.caption
    np.testing.assert_allclose(v.weights.sum(axis=1), 1.0, rtol=1e-12)  # "every row sums to 1"


@settings(max_examples=25, deadline=None)
@given(sentences())
def test_at_any_sentence_the_figure_is_the_three_matrices_pages_weights(s):
    v = overview_at(s)
    np.testing.assert_array_equal(v.weights, three_matrices_at(s).trace.weights)
    assert v.labels == s.labels and v.weights.shape == (s.n, s.n)
    assert v.weight_set.w_query.shape == (s.width, 2)
    np.testing.assert_allclose(v.weights.sum(axis=1), 1.0, rtol=1e-12)
    assert (v.row is not None) == s.is_book
    if not s.is_book:  # the caption speaks of the reader's sentence, and names where the book's row is
        assert f"your sentence's {s.n} token" in v.caption and "On the book's sentence" in v.caption
        assert f"torch.rand({s.width}, 2)" in v.caption


def test_the_page_draws_the_view_and_its_values_table():
    at = open_values(open_page(PAGE))
    assert_clean(at)
    v = view.build(view.Settings())
    spec = chart(at)
    assert cells(spec) == [fmt.num(w) for w in v.weights.ravel()]
    assert spec["layout"]["yaxis"]["ticktext"][v.row] == "▸ journey"  # the outlined row
    assert v.caption in [c.value for c in at.caption]
    name = "Attention weights A = softmax(QKᵀ/√d_k), 6 queries by 6 keys"
    (box,) = [e for e in at.expander if e.label == f"Values as a table: {name}"]
    table = box.table[0].value
    assert list(table.index) == list(table.columns) == list(tokens.TOKENS)
    assert table.to_numpy().tolist() == [[figures.cell_text(w) for w in row] for row in v.weights]


def test_a_link_with_a_sentence_changes_the_figure():
    at = open_page(PAGE, {"text": CAT})
    assert_clean(at)
    s = sentence.build(CAT)
    v = overview_at(s)
    spec = chart(at)
    assert spec["layout"]["xaxis"]["type"] == "category" and spec["data"][0]["x"] == figures.axis_labels(
        s.labels
    )
    assert cells(spec) == [fmt.num(w) for w in v.weights.ravel()]
    assert cells(spec) != cells(chart(open_page(PAGE)))
    assert "your sentence's 6 tokens" in " ".join(c.value for c in at.caption)
    assert at.text_input(key="text").value == CAT


def test_the_page_links_the_tour_three_matrices_and_every_page_then_its_neighbour():
    at = open_page(PAGE, {"text": CAT})
    links = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
    tour, matrices = page_of("read_along"), page_of("three_matrices")
    assert links == [
        (tour.url_path, f"Start here: {tour.title}"),
        (matrices.url_path, f"Open {matrices.title} at this sentence"),
        *((p.url_path, p.title) for p in PAGES[1:]),
        (PAGES[1].url_path, f"Next: {PAGES[1].title}"),
    ]
    blurbs = [c.value for c in at.caption]
    assert all(p.blurb in blurbs for p in PAGES[1:])


@pytest.mark.parametrize("query", [{}, {"text": CAT}], ids=["book", "cat"])
def test_the_tools_and_the_sources_are_introduced_once_here(query):
    at = open_page(PAGE, query)
    shown = " ".join(m.value for m in at.markdown)
    for tool in text.TOOLS:
        assert f"**{tool.name}.** {tool.what}" in shown
    verdicts = text.TOOLS[-1].what
    assert all(f"**{v.value}**" in verdicts for v in checks.Verdict)  # the four verdicts of ui.checks
    assert text.TOOLS[-1].name == checks.TITLE
    # every source a checks row can name, but "computed here", is introduced, by the name rows use
    for key, name in checks.SOURCES.items():
        if key != checks.HERE:
            assert f"**{name[0].upper()}{name[1:]}**" in shown, name
    assert "Three matrices, and a triangle of minus infinity" in shown  # the post, named once
    assert "rasbt/LLMs-from-scratch" in shown


def _weights_map(at) -> dict:
    return next(t for t in chart(at)["data"] if t.get("type") == "heatmap")


@pytest.mark.parametrize(
    ("scale", "bar"), [("matrix", "the largest"), ("row", "÷ its row's<br>largest")], ids=["matrix", "row"]
)
def test_the_scale_key_colours_the_weights(scale, bar):
    at = open_page(PAGE, {"overview_scale": LABELS[scale]})  # a bound radio writes its label into the link
    assert_clean(at)
    trace = _weights_map(at)
    assert trace["showscale"] and bar in trace["colorbar"]["title"]["text"]
    top = view.build(view.Settings()).weights.max() if scale == "matrix" else 1.0
    assert (trace["zmin"], trace["zmax"]) == (0.0, top)
    assert cells(chart(at)) == cells(chart(open_page(PAGE)))  # the cells keep their own values


@pytest.mark.parametrize("junk", ["", "row", "x" * 500])
def test_a_bad_scale_key_falls_back_to_the_fixed_scale(junk):
    at = open_page(PAGE, {"overview_scale": junk})
    assert_clean(at)
    trace = _weights_map(at)
    assert (trace["zmin"], trace["zmax"]) == (0, 1) and not trace["showscale"]


def test_a_long_sentence_on_the_fixed_scale_says_why_its_weights_are_pale():
    words = " ".join(f"w{i}" for i in range(12))
    hint = pale_hint(12, None)
    assert hint is not None and hint in [c.value for c in open_page(PAGE, {"text": words}).caption]
    stretched = open_page(PAGE, {"text": words, "overview_scale": LABELS["row"]})
    assert not any("pale on the fixed" in c.value for c in stretched.caption)
