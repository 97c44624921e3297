"""The "Reproduce" expander on every page: lazy, fed by the page's own settings, never an error.

Opening it (its key in session state, as a click does) must show exactly the script
``core.reproduce`` writes for the view on screen, with a download; a view no script reproduces
must say why; and any URL the fuzz produces must give one or the other, never an exception, and
the script must run (the torch ones where torch is installed, in one interpreter per page).
"""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import HealthCheck, given, settings
from streamlit.testing.v1 import AppTest

from core import tokens
from tests import hostile
from tests.app.conftest import APP, assert_clean, open_page
from tests.reproduce.run import run_code
from topics import PAGES

T, X = tokens.TOKENS, tokens.inputs()
KEYS = {  # page script -> the expander's key, and its label
    "topics/recap/page.py": ("reproduce_recap", "Reproduce in PyTorch"),
    "topics/three_matrices/page.py": ("reproduce_three_matrices", "Reproduce in PyTorch"),
    "topics/layer/page.py": ("reproduce_layer", "Reproduce in PyTorch"),
    "topics/learning/page.py": ("reproduce_learning", "Reproduce in PyTorch"),
    "topics/scaling/page.py": ("reproduce_scaling", "Reproduce in NumPy"),
    "topics/masking/page.py": ("reproduce_masking", "Reproduce in PyTorch"),
    "topics/dropout/page.py": ("reproduce_dropout", "Reproduce in PyTorch"),
    "topics/multihead/page.py": ("reproduce_multihead", "Reproduce in PyTorch"),
    "topics/cost/page.py": ("reproduce_cost", "Reproduce in Python"),
    "topics/next/page.py": ("reproduce_next", "Reproduce in PyTorch"),
}


def open_with_script(page: str, query: dict | None = None, timeout: float = 120) -> AppTest:
    """The page, from a link with ``query``, with its Reproduce expander open.

    Opened directly, as a link opens it: a session that ran the Overview first has its sentence
    widgets bound already, which no fresh link has (the Overview follows the sentence)."""
    return open_page(page, query, timeout, state={KEYS[page][0]: True})


def script_shown(at: AppTest) -> str | None:
    (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    codes = [c.value for c in box.code]
    assert len(codes) <= 1
    return codes[0] if codes else None


def test_the_expander_is_on_every_page_with_the_books_tensors_and_lazy():
    on = {p.path for p in PAGES} - {
        "topics/overview/page.py",
        "topics/read_along/page.py",
        "topics/classroom/page.py",
    }  # no tensor of their own
    assert set(KEYS) == on
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("topics/recap/page.py").run()
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    assert not box.code, "nothing is generated until a reader opens it"


EXAMPLES = 5  # per page; every example is a fresh session with the expander open


@pytest.mark.parametrize("page", list(KEYS))
def test_hostile_urls_give_a_script_or_a_reason_never_an_exception(page):
    info = next(p for p in PAGES if p.path == page)
    keys = sorted({*info.keys, *info.legacy})
    seen: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(hostile.queries(keys))
    def check(query):
        query = {k: v for k, v in query.items() if k != "steps"} | (
            {"steps": "100"} if "steps" in keys else {}
        )
        at = open_with_script(page, query)
        assert_clean(at)
        (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
        code = script_shown(at)
        assert code is not None or box.info, "neither a script nor the reason there is none"
        if code is not None:
            compile(code, page, "exec")
            seen.append(code)

    check()
    runnable = [c for c in seen if not c.startswith("import torch") or _has_torch()]
    for code, result in zip(runnable, run_code(runnable), strict=True):
        assert result["error"] is None, f"{result['error']}\n--- the script:\n{code}"


def _has_torch() -> bool:
    return importlib.util.find_spec("torch") is not None
