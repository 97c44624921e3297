"""The Multi-head page's numbers, read from its view (``topics.multihead.view.build``): the readouts,
the prose's numbers, what each figure draws, the trace, the tables, the checks' live side."""

import dataclasses

import numpy as np
import pytest

from core import book
from core import multihead as mh
from tests.reproduce.case import reader_sentence
from topics.multihead import checks as mh_checks
from topics.multihead import study, view
from topics.multihead.thinning import MAX_CELLS, Thinned
from ui import format as fmt

DEFAULT = view.Settings()
GPT2 = view.Settings(preset="GPT-2 small", kind="split", d_in=768, d_out=768, heads=12)


def drawn(v: view.View) -> view.Run:
    """The run of a view that draws its tensors (asserted)."""
    assert v.run is not None and v.run.error is None, v.split_error or (v.run and v.run.error)
    return v.run


def cells(t: Thinned | None) -> np.ndarray:
    assert t is not None
    return t.cells


@pytest.fixture(scope="module")
def default() -> view.View:
    return view.build(DEFAULT)


@pytest.fixture(scope="module")
def gpt2() -> view.View:
    return view.build(GPT2)


def test_the_default_view_is_the_books_toy_split_two_heads_of_one(default):
    v = default
    assert (v.output_wrapper, v.output_split) == ((2, 6, 4), (2, 6, 2))
    assert (v.head_width, v.head_dim, v.divisor, v.projection_matmuls, v.params) == (1, 1, 1.0, 3, 24)
    assert v.split_error is None
    r = drawn(v)
    assert not v.thinned and view.focused(DEFAULT, v, None).context is None
    assert v.caption == (
        "MultiHeadAttention(3, 2, context_length=6, dropout=0.0, num_heads=2) with nn.Linear weights drawn "
        "after torch.manual_seed(123), in the book's order. Inputs: the book's six tokens, stacked twice "
        "(batch [2, 6, 3])."
    )
    # The output drawn is the book's printed MultiHeadAttention output, first batch item.
    assert tuple(fmt.vec(row) for row in cells(r.output)) == book.FIGURE_05["split"]
    assert r.output_rows == book.FIGURE_05["split"]
    assert r.weights is not None
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0, rtol=1e-12)


def test_the_trace_flags_the_transposes_and_the_matched_table_counts_3h_against_3(default):
    trace = default.trace
    assert trace is not None and "where" not in trace.columns  # the split class has no head loop
    assert trace["shape"].tolist()[4:6] == ["[2, 6, 2, 1]", "[2, 2, 6, 1]"]
    assert trace["contiguous"].tolist()[5] is False or not trace["contiguous"].tolist()[5]
    matched = default.comparison
    # By definition: 3 projections of d_in × d_out = 3 · 3 · 2 either way; 3H matmuls against 3.
    assert matched.loc["projection parameters"].tolist() == [str(3 * 3 * 2)] * 2
    assert matched.loc["projection matmuls"].tolist() == [str(3 * 2), "3"]
    assert (default.wrapper_matmuls, default.out_proj_params) == (6, 2 * 2 + 2)


def test_every_check_against_the_sources_passes_live(default):
    rows = mh_checks.book_checks(default.book)
    assert len(rows) == 39
    assert all(c.ok for c in rows), [c for c in rows if not c.ok]


def test_the_gpt2_preset_divides_by_8_not_27_7_and_draws_w_q_thinned(gpt2):
    v = gpt2
    assert v.config.context_length == view.GPT2_CONTEXT
    assert (v.head_width, v.head_dim, view.root_text(v.divisor)) == (64, 64, "8")
    assert f"{v.d_out_root:.1f}" == "27.7"
    assert v.output_split == (2, 6, 768) and fmt.integer(v.params) == "2,360,064"
    assert v.comparison.loc["total parameters", "Split"] == "2,360,064"
    assert v.comparison.loc["projection parameters"].tolist() == [f"{3 * 768 * 768:,}"] * 2
    assert v.comparison.loc["projection matmuls"].tolist() == [str(3 * 12), "3"]
    r = drawn(v)
    assert v.thinned and r.w_query is not None and r.w_query.shape == (768, 768)
    assert cells(r.w_query).size <= MAX_CELLS * MAX_CELLS  # never 589,824 cells
    assert r.weights is not None and r.weights.shape == (12, 6, 6)


def test_the_exercise_3_2_preset_is_the_wrapper_two_wide():
    v = view.build(view.Settings(preset="Exercise 3.2", kind="wrapper", d_out=1))
    assert v.output_wrapper == (2, 6, 2) and v.output_split is None  # d_out 1 cannot be split over 2
    assert (v.head_width, v.projection_matmuls) == (1, 6)
    assert drawn(v).output_rows == book.FIGURE_05["exercise_3_2"]
    assert v.comparison is None and v.out_proj_params is None


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"kind": "wrapper"}, "projection_matmuls", 6),
        ({"heads": 4}, "output_wrapper", (2, 6, 8)),
        ({"d_out": 8}, "head_dim", 4),
        ({"d_in": 5}, "output_split", (2, 6, 2)),
    ],
)
def test_every_control_moves_the_view(default, change, field, expected):
    v = view.build(dataclasses.replace(DEFAULT, **change))
    assert getattr(v, field) == expected
    moved = getattr(default, field) != expected  # else (d_in) W_q moves: the inputs' width is its rows
    assert moved or not np.array_equal(cells(drawn(v).w_query), cells(drawn(default).w_query))


def test_the_seed_and_d_in_change_w_q_and_say_so(default):
    v = view.build(dataclasses.replace(DEFAULT, seed=7))
    assert not np.array_equal(cells(drawn(v).w_query), cells(drawn(default).w_query))
    assert "manual_seed(7)" in v.caption
    v = view.build(dataclasses.replace(DEFAULT, d_in=5))
    assert cells(drawn(v).w_query).shape == (5, 2)  # W_q [d_in, d_out]: each head 5 × 1
    assert "stand-in embeddings torch.rand(6, 5)" in v.caption


def test_a_width_the_split_class_cannot_cut_is_a_message_not_a_run():
    v = view.build(dataclasses.replace(DEFAULT, d_out=3))
    message = v.split_error or ""
    assert "d_out = 3 is not divisible by num_heads = 2" in message and "multiple of 2" in message
    assert (v.run, v.head_width, v.params, v.output_split, v.trace) == (None, None, None, None, None)
    assert v.output_wrapper == (2, 6, 6)
    v = view.build(dataclasses.replace(DEFAULT, d_out=3, kind="wrapper"))
    assert v.split_error is None and drawn(v)


def test_a_huge_wrapper_is_counted_not_drawn():
    v = view.build(dataclasses.replace(DEFAULT, kind="wrapper", d_in=768, d_out=768, heads=12))
    assert v.run is not None and "21,233,664 parameters" in (v.run.error or "")
    assert v.output_wrapper == (2, 6, 9216) and v.params == 21_233_664
    assert (v.run.weights, v.run.output, v.trace) == (None, None, None)
    assert view.focused(DEFAULT, v, 2) == view.Focused(None, None, 0, None, None)  # nothing to focus on


def test_exercise_3_2_shows_the_stale_solution_the_truth_and_the_cause(default):
    table = default.exercise
    assert table.loc["Your", "official solution prints"] == "[-9.1476e-02, 3.4164e-02]"
    assert table.loc["Your", "the same wrapper with softmax(dim=1)"] == "[-9.1476e-02, 3.4164e-02]"
    assert table.loc["Your", "the book's code today (dim=-1)"] == "[-0.5740, 0.2216]"
    assert (table["official solution prints"] == table["the same wrapper with softmax(dim=1)"]).all()
    assert fmt.vec(default.book.outputs["exercise_3_2"][0, 0]) == "[-0.5740, 0.2216]"
    sums = default.book.stale_row_sums  # with dim=1 a query's row does not sum to 1
    assert sums.shape == (6,) and not np.allclose(sums, 1.0) and sums[-1] > sums[0]


def test_gpt3_is_counted_per_layer_and_in_all(default):
    assert "96 heads *in each* of its 96 layers: 9,216 heads in all" in default.gpt3_note
    assert "head_dim = 12,288 / 96 = 128 wide" in default.gpt3_note


def test_the_focus_names_the_focused_querys_output_row():
    f = view.focused(DEFAULT, view.build(DEFAULT), 2)
    assert f.context == book.FIGURE_05["split"][2]


def test_a_readers_sentence_runs_its_own_tokens_at_its_width():
    labels, x, _ = reader_sentence()  # 9 tokens, 16 wide
    v = view.build(view.Settings(labels, x, "Custom", "wrapper", 2, 16, 4))
    assert "your sentence's 9 tokens, stacked twice (batch [2, 9, 16])" in v.caption
    assert v.config.context_length == 9 and v.output_wrapper == (2, 9, 8)
    assert cells(drawn(v).output).shape == (9, 8) and np.asarray(drawn(v).weights).shape == (2, 9, 9)
    v = view.build(view.Settings(labels, x, "Custom", "wrapper", 2, 3, 4))
    assert "9 stand-in embeddings torch.rand(9, 3)" in v.caption


def test_the_stopwatch_intro_names_its_grid_budget_and_blas(default):
    assert "d = 768, n in 64, 256, H in 1, 12" in default.measure_intro
    assert "for **4 seconds** in all" in default.measure_intro and "BLAS: " in default.measure_intro


@pytest.mark.parametrize("settings", [DEFAULT, GPT2], ids=["default", "gpt2"])
def test_the_pages_cached_path_gives_the_same_view(settings):
    plain = view.build(settings)
    cached = study.view_of(settings)
    assert _same_run(drawn(cached), drawn(plain))
    assert cached.caption == plain.caption and cached.params == plain.params


def _same_run(a: view.Run, b: view.Run) -> bool:
    return (
        np.array_equal(np.asarray(a.weights), np.asarray(b.weights))
        and np.array_equal(cells(a.output), cells(b.output))
        and np.array_equal(cells(a.w_query), cells(b.w_query))
        and a.output_rows == b.output_rows
    )


def test_kinds_are_the_cores():
    assert view.Settings().kind in mh.KINDS
    with pytest.raises(ValueError, match="kind must be"):
        view.forward("both", 3, 2, 2, 123, 6, DEFAULT.x)


def test_the_focus_changes_nothing_the_view_holds():
    """The page draws everything outside its focus fragment from the view: the focus, the cell and
    the head must leave it as it was."""
    import pickle

    s = dataclasses.replace(DEFAULT, d_out=8, heads=2)
    v = view.build(s)
    before = pickle.dumps(v)
    seen = {view.focused(s, v, q, k, h).cell.heading for q in range(6) for k in (None, 0, 5) for h in (0, 1)}  # type: ignore[union-attr]
    assert len(seen) > 6 and pickle.dumps(v) == before
