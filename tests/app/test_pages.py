"""Every registered page runs, and the foundation pages show their numbers."""

import pytest

from tests.app.conftest import assert_clean, metrics, open_page, widget
from topics import PAGES


@pytest.mark.parametrize("path", [p.path for p in PAGES], ids=[p.url_path for p in PAGES])
def test_every_registered_page_runs_without_exception(path):
    at = open_page(path)
    assert_clean(at)
    assert at.title, f"{path} has no title"


def test_navigation_lists_exactly_the_registered_pages():
    import ast
    from pathlib import Path

    tree = ast.parse(Path("streamlit_app.py").read_text())
    assert any(isinstance(n, ast.Attribute) and n.attr == "navigation" for n in ast.walk(tree))
    assert len({p.url_path for p in PAGES}) == len(PAGES)
    for p in PAGES:
        assert Path(p.path).is_file(), p.path


def _checks_expander(at):
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    return exp


def test_three_matrices_default_view_shows_every_figure01_number():
    at = open_page("topics/three_matrices/page.py")
    assert_clean(at)
    table = at.dataframe[0].value
    assert table.loc["No matrices", "score error"] == "0.0000"
    assert table.loc["Tied W_q = W_k", "score error"] == "0.0000"
    assert table.loc["No matrices", "weight error"] == "0.0634"
    assert table.loc["No matrices", "journey → starts"] == "0.2134"
    assert table.loc["No matrices", "starts → journey"] == "0.2157"
    text = " ".join(md.value for md in at.markdown)
    assert "4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730" in text
    assert "Section 3.4" in " ".join(c.value for c in at.caption)
    assert "24 of 24 match" in _checks_expander(at).label


@pytest.mark.parametrize(
    ("mode", "score_error"), [("none", "0.0000"), ("tied", "0.0000"), ("three", "0.3370")]
)
def test_three_matrices_mode_control(mode, score_error):
    at = open_page("topics/three_matrices/page.py")
    widget(at, "mode").set_value(mode).run()
    assert metrics(at)["Score error max|Ω − Ωᵀ|"] == score_error


def test_three_matrices_weight_set_control_switches_and_names_the_set():
    at = open_page("topics/three_matrices/page.py")
    widget(at, "weights").set_value("Section 3.5").run()
    assert "sa_v2, seed 789" in " ".join(c.value for c in at.caption)
    three_35 = metrics(at)["Score error max|Ω − Ωᵀ|"]
    widget(at, "weights").set_value("Any seed").run()
    widget(at, "seed").set_value(789).run()
    widget(at, "init").set_value("nn.Linear").run()
    assert_clean(at)
    assert metrics(at)["Score error max|Ω − Ωᵀ|"] == three_35
    assert "nn.Linear, seed 789" in " ".join(c.value for c in at.caption)
    # The checks stay at the book's settings whatever the controls say.
    assert "24 of 24 match" in _checks_expander(at).label


def test_a_url_with_every_bound_key_renders_that_view():
    at = open_page(
        "topics/three_matrices/page.py",
        {"mode": "Tied W_q = W_k", "weights": "Any seed", "seed": "789", "init": "nn.Linear"},
    )
    assert_clean(at)
    assert widget(at, "mode").value == "tied"
    assert widget(at, "seed").value == 789
    assert "nn.Linear, seed 789" in " ".join(c.value for c in at.caption)
    assert metrics(at)["Score error max|Ω − Ωᵀ|"] == "0.0000"


GARBAGE = ["", "nan", "-1", "1e999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(junk):
    default = open_page("topics/three_matrices/page.py")
    at = open_page(
        "topics/three_matrices/page.py", {"mode": junk, "weights": junk, "seed": junk, "init": junk}
    )
    assert_clean(at)
    assert metrics(at) == metrics(default)


@pytest.mark.parametrize("junk", ["inf", "-inf", "1e999", "nan", "12.5", "0x10", "99999999999999999999", ""])
def test_a_seed_the_integer_input_cannot_hold_falls_back_to_the_default(junk):
    at = open_page("topics/three_matrices/page.py", {"weights": "Any seed", "seed": junk})
    assert_clean(at)
    assert widget(at, "seed").value == 123
    assert "torch.rand, seed 123" in " ".join(c.value for c in at.caption)
    widget(at, "seed").set_value(789).run()
    assert_clean(at)
    assert "torch.rand, seed 789" in " ".join(c.value for c in at.caption)


# --- issue #13, items 3 and 10: Three matrices says what is true beside what the post says -------


def _md(at) -> str:
    return " ".join(md.value for md in at.markdown)


def test_three_matrices_shows_the_true_denominators_beside_the_posts_row_sums():
    at = open_page("topics/three_matrices/page.py")
    text = _md(at)
    assert "10.28, 13.30, 13.16, 9.30, 8.80, 10.61" in text  # what softmax divides by
    assert "4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730 (the post's numbers" in text
    assert "the right conclusion from the wrong quantity" in text
    table = at.dataframe[0].value
    assert (
        table.loc["No matrices", "row denominators Σⱼ exp(ωᵢⱼ/√d_k)"]
        == "[10.28, 13.30, 13.16, 9.30, 8.80, 10.61]"
    )
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    rows = " ".join(md.value for md in exp.markdown)
    assert "| the post | `[4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]`" in rows
    assert "| the audit (PyTorch 2.13) | `[10.28, 13.30, 13.16, 9.30, 8.80, 10.61]`" in rows


def test_the_weight_errors_help_says_exactly_when_weights_are_symmetric():
    at = open_page("topics/three_matrices/page.py", {"mode": "No matrices"})
    (m,) = [m for m in at.metric if m.label == "Weight error max|A − Aᵀ|"]
    assert "exactly when all six row denominators" in m.help and "8.80 to 13.30" in m.help
    assert "Never 0" not in m.help
    assert "Inputs whose denominators were all equal would give a weight error of exactly 0" in _md(at)


def test_three_matrices_says_in_its_text_why_journey_to_starts_differs():
    tm = _md(open_page("topics/three_matrices/page.py"))
    assert "journey gives starts **0.2134** here but **0.2333** on the Recap" in tm


@pytest.mark.parametrize(
    ("mode", "matmuls", "count"),
    [
        ("none", 2, "two matrix multiplications and a transpose"),
        ("tied", 4, "four matrix multiplications and a transpose"),
        ("three", 5, "five matrix multiplications and a transpose"),
    ],
)
def test_three_matrices_counts_the_posts_five_multiplications_live(mode, matmuls, count):
    at = open_page("topics/three_matrices/page.py")
    widget(at, "mode").set_value(mode).run()
    assert f"This mode runs **{count}**" in _md(at)
    (ops,) = [df.value for df in at.dataframe if "operation" in df.value.columns]
    assert (ops["kind"] == "matmul").sum() == matmuls and (ops["kind"] == "transpose").sum() == 1
