"""Every registered page runs, and the foundation pages show their numbers."""

import pytest

from core import attention, tokens, weights
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


def test_recap_shows_the_post_numbers_by_default():
    at = open_page("topics/recap/page.py")
    assert_clean(at)
    m = metrics(at)
    assert m["Context vector for journey"] == "[0.4419, 0.6515, 0.5683]"
    assert m["Raw affinity journey–starts"] == "1.4754"
    assert m["Mean pairwise distance, inputs"] == "0.6576"
    assert m["Mean pairwise distance, outputs"] == "0.0482"
    assert m["Outputs' spread as a share of the inputs'"] == "7.3%"
    assert "7 of 7 match" in _checks_expander(at).label
    nearest = at.dataframe[0].value["nearest input embedding"].tolist()
    assert nearest == ["starts"] * 6


def test_recap_query_and_key_controls_move_the_readouts():
    at = open_page("topics/recap/page.py")
    widget(at, "query").set_value("step").run()
    widget(at, "key").set_value("Your").run()
    m = metrics(at)
    assert "Context vector for step" in m
    # step · Your = 0.05·0.43 + 0.80·0.15 + 0.55·0.89 = 0.6310, read the same from either end
    assert m["Raw affinity step–Your"] == m["…and Your–step"] == "0.6310"


def test_a_url_with_every_bound_key_renders_that_view():
    at = open_page("topics/recap/page.py", {"query": "step", "key": "Your"})
    assert "Raw affinity step–Your" in metrics(at)


GARBAGE = ["", "nan", "-1", "1e999", "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(junk):
    at = open_page("topics/recap/page.py", {"query": junk, "key": [junk, junk]})
    assert_clean(at)
    assert metrics(at)["Context vector for journey"] == "[0.4419, 0.6515, 0.5683]"


def _md(at) -> str:
    return " ".join(md.value for md in at.markdown)


def test_both_pages_say_in_their_text_why_journey_to_starts_differs():
    recap = open_page("topics/recap/page.py")
    assert "journey gives starts a weight of **0.2333**" in _md(recap)
    assert "reads **0.2134**, because figure 01 divides every mode's scores by √2 = 1.4142" in _md(recap)
    # the sentence follows the controls: another pair, other numbers, both computed
    widget(recap, "query").set_value("step").run()
    widget(recap, "key").set_value("Your").run()
    x = tokens.inputs()
    i, k = tokens.TOKENS.index("step"), tokens.TOKENS.index("Your")
    raw = attention.attention_without_weights(x).weights[i, k]
    scaled = attention.attention_in_mode(x, weights.section_3_4(), "none").weights[i, k]
    assert f"step gives Your a weight of **{raw:.4f}**" in _md(recap)
    assert f"reads **{scaled:.4f}**" in _md(recap)
