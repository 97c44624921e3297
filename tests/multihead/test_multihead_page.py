"""The Multi-head page (figure 05): presets, controls, hostile links, the inline message, the stopwatch."""

import base64
import json

import numpy as np
import pytest

from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics.multihead import speed as mha_speed

PAGE = "topics/multihead/page.py"
KEYS = ("preset", "kind", "heads", "d_in", "d_out", "mh_seed")


def _checks_label(at) -> str:
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    return exp.label


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _size(v) -> int:
    """Entries in a Plotly array, plain or typed (``{"dtype", "bdata", "shape"}``)."""
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).size
    return int(np.size(v))


def _warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def test_default_view_shows_the_toy_shapes_the_warning_and_every_check():
    at = open_page(PAGE)
    assert_clean(at)
    m = metrics(at)
    assert m["Output, wrapper"] == "[2, 6, 4]"
    assert m["Output, split"] == "[2, 6, 2]"
    assert m["head_dim"] == "1"
    assert m["Projection matmuls"] == "3"
    assert "Each head is 1 wide" in _warnings(at)
    assert "39 of 39 match" in _checks_label(at)
    assert len(_charts(at)) == 3  # W_q stripes, per-head attention, output
    trace = at.dataframe[0].value
    assert trace["shape"].tolist()[4:6] == ["[2, 6, 2, 1]", "[2, 2, 6, 1]"]
    assert trace["contiguous"].tolist()[5] is False or not trace["contiguous"].tolist()[5]
    matched = at.dataframe[1].value
    # By definition: 3 projections of d_in × d_out = 3 · 3 · 2 either way; 3H matmuls against 3.
    assert matched.loc["projection parameters"].tolist() == [str(3 * 3 * 2)] * 2
    assert matched.loc["projection matmuls"].tolist() == [str(3 * 2), "3"]


def test_gpt2_preset_writes_the_widgets_and_shows_8_not_27_7():
    at = open_page(PAGE)
    widget(at, "preset").set_value("GPT-2 small").run()
    assert_clean(at)
    assert (widget(at, "d_in").value, widget(at, "d_out").value, widget(at, "heads").value) == (768, 768, 12)
    assert widget(at, "kind").value == "split"
    m = metrics(at)
    assert (m["head_dim"], m["Divisor √keys.shape[-1]"]) == ("64", "8")
    assert m["Output, split"] == "[2, 6, 768]"
    assert m["Parameters"] == "2,360,064"  # the book's count for one GPT-2 attention module
    assert "not by √d_out = √768 = 27.7" in " ".join(c.value for c in at.caption)
    matched = at.dataframe[1].value
    assert matched.loc["total parameters", "Split"] == "2,360,064"
    assert matched.loc["projection parameters"].tolist() == [f"{3 * 768 * 768:,}"] * 2
    assert matched.loc["projection matmuls"].tolist() == [str(3 * 12), "3"]
    assert "Each head is 1 wide" not in _warnings(at)
    # W_q is 768×768: drawn thinned, 12 stripes, never 589,824 cells.
    wq = _charts(at)[0]
    assert len(wq["data"]) == 12
    assert sum(_size(t["z"]) for t in wq["data"]) <= 96 * 96


def test_exercise_3_2_preset_is_the_wrapper_two_wide():
    at = open_page(PAGE)
    widget(at, "preset").set_value("Exercise 3.2").run()
    assert_clean(at)
    assert widget(at, "kind").value == "wrapper"
    m = metrics(at)
    assert m["Output, wrapper"] == "[2, 6, 2]"
    assert m["Head width = d_out"] == "1"
    assert m["Projection matmuls"] == "6"
    assert m["Output, split"] == "—"  # d_out 1 cannot be split over 2 heads


def test_book_toy_preset_restores_the_toy_widths_and_a_changed_value_makes_it_custom():
    at = open_page(PAGE)
    widget(at, "preset").set_value("GPT-2 small").run()
    widget(at, "heads").set_value(8).run()
    assert_clean(at)
    assert widget(at, "preset").value == "Custom"
    assert metrics(at)["head_dim"] == "96"
    widget(at, "preset").set_value("Book toy").run()
    assert (widget(at, "d_in").value, widget(at, "d_out").value, widget(at, "heads").value) == (3, 2, 2)
    assert metrics(at)["Output, split"] == "[2, 6, 2]"


def test_a_link_naming_only_a_preset_applies_it():
    at = open_page(PAGE, {"preset": "GPT-2 small"})
    assert_clean(at)
    assert widget(at, "preset").value == "GPT-2 small"
    assert metrics(at)["Divisor √keys.shape[-1]"] == "8"


@pytest.mark.parametrize(
    ("key", "value", "label", "expected"),
    [
        ("kind", "wrapper", "Projection matmuls", "6"),
        ("heads", 4, "Output, wrapper", "[2, 6, 8]"),
        ("d_out", 8, "head_dim", "4"),
        ("d_in", 5, "Output, split", "[2, 6, 2]"),
    ],
)
def test_every_control_moves_the_view(key, value, label, expected):
    at = open_page(PAGE)
    before = (metrics(at), _charts(at))
    widget(at, key).set_value(value).run()
    assert_clean(at)
    assert metrics(at)[label] == expected
    assert (metrics(at), _charts(at)) != before


def test_d_in_and_seed_change_the_figures():
    at = open_page(PAGE)
    wq = _charts(at)[0]
    widget(at, "mh_seed").set_value(7).run()
    assert_clean(at)
    assert _charts(at)[0] != wq
    assert "manual_seed(7)" in " ".join(c.value for c in at.caption)
    widget(at, "d_in").set_value(5).run()
    assert _size(_charts(at)[0]["data"][0]["z"]) == 5 * 1  # W_q [d_in, ...]: head 1 is 5 × 1
    assert "stand-in embeddings torch.rand(6, 5)" in " ".join(c.value for c in at.caption)


def test_a_width_the_split_class_cannot_cut_shows_the_message_inline():
    at = open_page(PAGE)
    widget(at, "d_out").set_value(3).run()
    assert_clean(at)
    text = _warnings(at)
    assert "d_out = 3 is not divisible by num_heads = 2" in text
    assert "multiple of 2" in text
    assert metrics(at)["Output, split"] == "—"
    assert metrics(at)["Output, wrapper"] == "[2, 6, 6]"
    assert not _charts(at)  # nothing drawn for a class that cannot be built
    widget(at, "kind").set_value("wrapper").run()
    assert_clean(at)
    assert "not divisible" not in _warnings(at)
    assert len(_charts(at)) == 3


def test_a_huge_wrapper_is_counted_not_drawn():
    at = open_page(PAGE, {"kind": "Wrapper", "d_in": "768", "d_out": "768", "heads": "12"})
    assert_clean(at)
    assert "21,233,664 parameters" in " ".join(i.value for i in at.info)
    assert metrics(at)["Output, wrapper"] == "[2, 6, 9216]"
    assert not _charts(at)


def test_a_url_with_every_bound_key_renders_that_view():
    query = {"preset": "Custom", "kind": "Wrapper", "heads": "3", "d_in": "4", "d_out": "5", "mh_seed": "9"}
    at = open_page(PAGE, query)
    assert_clean(at)
    assert [widget(at, k).value for k in KEYS] == ["Custom", "wrapper", 3, 4, 5, 9]
    m = metrics(at)
    assert (m["Output, wrapper"], m["Head width = d_out"], m["Projection matmuls"]) == (
        "[2, 6, 15]",
        "5",
        "9",
    )


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 40, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(junk):
    default = metrics(open_page(PAGE))
    at = open_page(PAGE, {k: junk for k in KEYS})
    assert_clean(at)
    assert metrics(at) == default
    assert "39 of 39 match" in _checks_label(at)


def test_measure_button_times_both_classes_within_its_budget_and_gives_a_verdict(monkeypatch):
    # A tiny grid and budget keep the test fast; the page reads both from core at run time.
    monkeypatch.setattr(mha_speed, "PAGE_NS", (16, 32))
    monkeypatch.setattr(mha_speed, "PAGE_HEADS", (1, 2, 4))
    monkeypatch.setattr(mha_speed, "PAGE_D", 16)
    monkeypatch.setattr(mha_speed, "PAGE_BUDGET_S", 0.5)
    at = open_page(PAGE)
    assert any("for **0.5 seconds** in all" in md.value for md in at.markdown)
    n_charts = len(_charts(at))
    at.button(key="mh_measure").click().run()
    assert_clean(at)
    charts = _charts(at)
    assert len(charts) == n_charts + 2  # whole forward, projections only
    speed = charts[n_charts]
    assert {t["name"] for t in speed["data"]} == {"n = 16", "n = 32"}
    assert all(len(t["y"]) == 3 and min(t["y"]) > 0 and "error_y" in t for t in speed["data"])
    verdicts = [
        md.value for md in at.markdown if md.value.startswith(("At H = 4", "Cannot tell on this machine"))
    ]
    assert len(verdicts) == 2
    # The result stays on screen when another control moves (kept, not re-measured).
    widget(at, "heads").set_value(1).run()
    assert_clean(at)
    assert len(_charts(at)) == n_charts + 2


def test_exercise_3_2_shows_the_stale_solution_the_truth_and_the_cause():
    at = open_page(PAGE)
    (table,) = [d.value for d in at.dataframe if "official solution prints" in d.value.columns]
    assert table.loc["Your", "official solution prints"] == "[-9.1476e-02, 3.4164e-02]"
    assert table.loc["Your", "the same wrapper with softmax(dim=1)"] == "[-9.1476e-02, 3.4164e-02]"
    assert table.loc["Your", "the book's code today (dim=-1)"] == "[-0.5740, 0.2216]"
    assert (table["official solution prints"] == table["the same wrapper with softmax(dim=1)"]).all()
    text = " ".join(md.value for md in at.markdown)
    assert "d4754f1" in text and "never regenerated" in text


def test_gpt3_is_counted_per_layer_and_in_all():
    at = open_page(PAGE)
    note = " ".join(c.value for c in at.caption)
    assert "96 heads *in each* of its 96 layers: 9,216 heads in all" in note
    assert "= 128 wide" in note


@pytest.mark.parametrize("head_width", [1, 7, 50, 400])
def test_a_cached_thinned_w_q_draws_the_figure_the_whole_matrix_draws(head_width):
    # The run cache keeps W_q thinned to what the stripes figure draws (a 1.3M-cell W_q is 5.3 MB).
    from topics.multihead import figures as mf

    m = np.random.default_rng(0).uniform(-1, 1, (300, 400)).astype(np.float32)
    kept = mf.thinned(m, head_width)
    assert kept.shape == (300, 400) and kept.cells.shape[0] <= mf.MAX_CELLS
    whole = mf.striped_matrix(m, head_width, title="W_q")
    assert mf.striped_matrix(kept, head_width, title="W_q").to_json() == whole.to_json()
