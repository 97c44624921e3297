"""The running Dropout page: it draws its view, its controls and URL keys move it, Resample, the
Reproduce expander, hostile links.

The numbers themselves are tested on the view (``test_dropout_view.py``); here every readout is
compared with the view built from the same settings, so what the page shows is what was tested.
AppTest sessions are shared where several tests read the same page state.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from core import book, tokens
from tests.app.conftest import APP, all_match, assert_clean, charts, metrics, open_page, widget
from topics.dropout import figures as dfig
from topics.dropout import script, view
from topics.dropout.view import Settings
from ui import checks as checks_ui
from ui import format as fmt
from ui.figures import cell_notes

PAGE = "topics/dropout/page.py"


def readouts(v: view.View, scale: bool = True) -> dict[str, str]:
    """The five metrics the page shows for view ``v`` (``scale`` is the view's own; kept for reading)."""
    assert v.scale == scale
    return {r.label: r.value for r in v.readouts}


def markdown(at: AppTest) -> str:
    return " ".join(md.value for md in at.markdown)


def checks_box(at: AppTest):
    (box,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    return box


@pytest.fixture(scope="module")
def default() -> AppTest:
    at = open_page(PAGE)
    assert_clean(at)
    return at


def test_the_default_page_draws_its_view(default):
    v = view.build(Settings())
    assert metrics(default) == readouts(v)
    assert default.title[0].value.startswith("Dropout")
    assert "section 3.5 (sa_v2, seed 789)" in " ".join(c.value for c in default.caption)
    specs = [json.loads(c.proto.spec) for c in charts(default)]
    assert len(specs) == 4
    _, dropped, running, zero = specs
    sums = [a["text"] for a in cell_notes(dropped) if a["xref"] == "x2"]
    assert sums == [f"{s:.4f}" for s in v.row_sums]  # each printed in its cell, legible on its fill
    hover = [f"{t}: row sum: {s}" for t, s in zip(v.labels, sums, strict=True)]
    assert dropped["data"][-1]["hovertext"] == hover  # and on hover
    assert running["data"][2]["y"] == v.running_mean.tolist()
    assert running["data"][2]["x"] == v.running_at.astype(float).tolist()
    assert zero["data"][0]["y"] == v.zero_rate.tolist() and zero["data"][1]["y"] == v.zero_theory.tolist()
    assert zero["data"][0]["customdata"] == [[t, s] for t, s in zip(v.labels, v.zero_rate_text, strict=True)]
    table = default.dataframe[0].value
    assert list(table["zero vector, measured"]) == list(v.zero_rate_text)
    assert list(table["theory pᶦ"].iloc[:2]) == ["50%", "25%"]
    assert list(table["mean row sum"]) == list(v.row_sum_text)
    assert default.latex and v.formula in default.latex[0].value and "Bernoulli" in v.formula
    text = markdown(default)
    assert v.lead in text and v.factor_text in text
    assert book.FIGURE_04["gpt_rates"] in text and "$1/(1 - p) = 1/0.5 = 2$" in text


def test_the_checks_show_the_books_printed_run_and_name_their_sources(default):
    box = checks_box(default)
    assert sum(checks_ui.parse_title(box.label).values()) == 17 and "0 differ" in box.label
    table = " ".join(md.value for md in box.markdown)
    for quoted in book.FIGURE_04["book_dropped"]:
        assert f"`{quoted}` |  | `{quoted}` | ✅" in table  # exact or within its 4 printed decimals
    q = book.FIGURE_04
    for quoted in (
        q["row1_zero_rate"],
        q["row2_zero_rate"],
        q["mean_row_sum_scaled"],
        q["mean_row_sum_unscaled"],
    ):
        assert f"`{quoted}`" in table
    assert "| the post | `1/0.5 = 2` |  | `1/0.5 = 2` | ✅ exact" in table
    assert table.count("✅ within noise (") == 4  # the two rates and the two mean sums, with percentiles
    assert "❌" not in table
    assert table.count("| the book |") == 12  # six weight rows, six dropped rows
    assert table.count("| the post |") == 5  # the factor, two zero-row rates, two mean sums


def test_each_control_moves_the_readouts_and_the_checks_stay():
    at = open_page(PAGE)
    widget(at, "p").set_value(0.2).run()
    assert metrics(at) == readouts(view.build(Settings(p=0.2)))
    assert metrics(at)["Survivors multiplied by"] == "1/0.8 = 1.25"
    text = markdown(at)
    assert "At $p = 0.2$" in text and "$1/(1 - p) = 1/0.8 = 1.25$" in text and "$1 - p = 0.8$" in text
    widget(at, "drop_draws").set_value(1_000).run()
    assert metrics(at) == readouts(view.build(Settings(p=0.2, draws=1_000)))
    widget(at, "scaling").set_value(False).run()
    assert metrics(at) == readouts(view.build(Settings(p=0.2, scale=False, draws=1_000)), scale=False)
    widget(at, "generator").set_value("numpy").run()
    widget(at, "drop_focus").set_value(1).run()
    assert_clean(at)
    v = view.build(Settings(p=0.2, scale=False, generator="numpy", draws=1_000, focus=1))
    assert metrics(at) == readouts(v, scale=False) and metrics(at)["Expected mean row sum"] == "0.8000"
    assert v.focus is not None and f"Before dropout: {fmt.vec(v.focus.before)}." in markdown(at)
    assert "Random numbers: **NumPy**" in " ".join(c.value for c in at.caption)
    assert all_match(checks_box(at).label, 17)  # the checks stay at the book's settings


@pytest.mark.parametrize("query", [{}, {"generator": "PyTorch"}], ids=["default", "link"])
def test_the_page_opens_on_pytorch_at_seed_123_the_books_draw_and_says_so(query):
    """Section 3.5.2's printed tensor is the page's first screen (issue 21), and a link naming
    PyTorch opens it too; NumPy's generator is the other option of the same control."""
    at = open_page(PAGE, query)
    assert_clean(at)
    assert widget(at, "generator").value == "torch" and widget(at, "generator").options == [
        "PyTorch",
        "NumPy",
    ]
    m = metrics(at)
    assert m["Row 1 sum in this draw"] == "2.0000" and m["Zero rows in this draw"] == "1 of 6"
    assert "This is the draw the book prints" in " ".join(c.value for c in at.caption)
    dropped = cell_notes(json.loads(charts(at)[1].proto.spec))
    cells = [a["text"] for a in dropped if a["xref"] == "x"]
    assert ["[" + ", ".join(cells[6 * i : 6 * i + 6]) + "]" for i in range(6)] == list(
        book.FIGURE_04["book_dropped"]
    )


def test_resample_draws_again_and_the_url_keeps_the_seed(default):
    at = open_page(PAGE)
    at.button(key="resample").click().run()
    assert_clean(at)
    assert widget(at, "drop_seed").value == 124
    assert at.query_params["drop_seed"] in (["124"], "124")
    assert metrics(at) == readouts(view.build(Settings(seed=124))) != metrics(default)
    at.button(key="resample").click().run()
    assert widget(at, "drop_seed").value == 125
    # The same seed typed in gives the same view: the URL reproduces a resampled page.
    assert metrics(open_page(PAGE, {"drop_seed": "125"})) == metrics(at)


def test_resample_wraps_at_the_largest_seed():
    at = open_page(PAGE, {"drop_seed": str(view.SEED_MAX)})
    assert widget(at, "drop_seed").value == view.SEED_MAX
    at.button(key="resample").click().run()
    assert_clean(at)
    assert widget(at, "drop_seed").value == 0


def test_a_url_with_every_bound_key_renders_that_view():
    query: dict[str, str | list[str]] = {"p": "0.2", "scaling": "false", "generator": "PyTorch"}
    at = open_page(PAGE, query | {"drop_seed": "7", "drop_draws": "1000"})
    assert_clean(at)
    keys = ("p", "scaling", "generator", "drop_seed", "drop_draws")
    assert [widget(at, k).value for k in keys] == [0.2, False, "torch", 7, 1_000]
    v = view.build(Settings(p=0.2, scale=False, generator="torch", seed=7, draws=1_000))
    assert metrics(at) == readouts(v, scale=False)


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 400, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]
UNREADABLE_SEEDS = ("inf", "-inf", "1e999")  # Streamlit's own int(float(v)) would raise on these


@pytest.mark.parametrize("junk", GARBAGE)
def test_hostile_urls_render_the_default_view(default, junk):
    keys = ("p", "scaling", "generator", "drop_seed", "drop_draws", "resample", "drop_focus", "drop_cell")
    at = open_page(PAGE, {k: junk for k in keys})
    assert_clean(at)
    assert metrics(at) == metrics(default)
    assert all_match(checks_box(at).label, 17)
    if junk in UNREADABLE_SEEDS:  # the seed falls back to 123, and Resample still works from there
        assert widget(at, "drop_seed").value == 123
        at.button(key="resample").click().run()
        assert_clean(at)
        assert widget(at, "drop_seed").value == 124


def test_the_largest_view_renders_finite_charts():
    """p = 0.9 at 100,000 draws: the most draws, survivors multiplied by 10."""
    at = open_page(PAGE, {"p": "0.9", "drop_draws": "100000"})
    assert_clean(at)
    assert metrics(at) == readouts(view.build(Settings(p=0.9, draws=100_000)))
    for chart in charts(at):
        assert "NaN" not in chart.proto.spec and "Infinity" not in chart.proto.spec


def test_a_long_sentence_gets_its_table_rows_and_fewer_draws():
    words = " ".join(f"w{i}" for i in range(32))
    at = open_page(PAGE, {"text": words})
    assert_clean(at)
    table = at.dataframe[0].value
    assert len(table) == 32 and table.index[-1] == "32: w31"
    assert widget(at, "drop_draws").value == 2_000  # 10,000 draws of 32 × 32 would not fit
    assert metrics(at)["Zero rows in this draw"].endswith("of 32")


def test_the_reproduce_expander_holds_the_script_of_the_view_on_screen():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.query_params.clear()
    at.session_state["reproduce_dropout"] = True
    at.switch_page(PAGE).run()
    assert_clean(at)

    def shown() -> str:
        (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
        (code,) = box.code
        return code.value

    x, ws = tokens.inputs(), view.build(Settings()).weight_set
    torch = script.dropout(tokens.TOKENS, x, ws, 0.5, True, 123, 10_000, "torch")
    code = shown()
    assert code == torch.code.rstrip("\n")  # st.code drops the final newline; the download keeps it
    assert code.startswith("import torch") and "torch.nn.Dropout(p)" in code
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_dropout_download"]
    assert torch.filename in button.proto.label
    widget(at, "generator").set_value("numpy").run()
    numpy = script.dropout(tokens.TOKENS, x, ws, 0.5, True, 123, 10_000, "numpy")
    assert shown() == numpy.code.rstrip("\n")


def test_the_figures_stay_finite_at_both_ends_of_the_rate_slider():
    for p in (0.0, 0.9):
        v = view.build(Settings(p=p, draws=1_000))
        for fig in (
            dfig.dropped_heatmap(v.first, v.row_sums, v.labels),
            dfig.running_mean_chart(v.running_at, v.running_mean, v.expectation, v.std),
            dfig.zero_rate_chart(v.zero_rate, v.zero_theory, v.labels),
        ):
            spec = fig.to_json()
            assert "NaN" not in spec and "Infinity" not in spec, p
