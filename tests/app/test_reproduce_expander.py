"""The "Reproduce" expander on every page: lazy, fed by the page's own settings, never an error.

Opening it (its key in session state, as a click does) must show exactly the script
``core.reproduce`` writes for the view on screen, with a download; a view no script reproduces
must say why; and any URL the fuzz produces must give one or the other, never an exception, and
the script must run (the torch ones where torch is installed, in one interpreter per page).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from streamlit.testing.v1 import AppTest

from core import cost, reproduce, tokens, weights
from core.config import AttentionConfig
from tests import hostile
from tests.app.conftest import APP, assert_clean
from tests.reproduce.run import run_code
from topics import PAGES

T, X = tokens.TOKENS, tokens.inputs()
S34, S35 = weights.section_3_4(), weights.section_3_5()
KEYS = {  # page script -> the expander's key, and its label
    "topics/recap/page.py": ("reproduce_recap", "Reproduce in PyTorch"),
    "topics/three_matrices/page.py": ("reproduce_three_matrices", "Reproduce in PyTorch"),
    "topics/learning/page.py": ("reproduce_learning", "Reproduce in PyTorch"),
    "topics/scaling/page.py": ("reproduce_scaling", "Reproduce in NumPy"),
    "topics/masking/page.py": ("reproduce_masking", "Reproduce in PyTorch"),
    "topics/dropout/page.py": ("reproduce_dropout", "Reproduce in PyTorch"),
    "topics/multihead/page.py": ("reproduce_multihead", "Reproduce in PyTorch"),
    "topics/cost/page.py": ("reproduce_cost", "Reproduce in Python"),
    "topics/next/page.py": ("reproduce_next", "Reproduce in PyTorch"),
}


def open_with_script(page: str, query: dict | None = None, timeout: float = 120) -> AppTest:
    """The page, from a link with ``query``, with its Reproduce expander open."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    at.query_params.clear()
    at.query_params.update(query or {})
    at.session_state[KEYS[page][0]] = True
    return at.switch_page(page).run()


def script_shown(at: AppTest) -> str | None:
    (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    codes = [c.value for c in box.code]
    assert len(codes) <= 1
    return codes[0] if codes else None


def test_the_expander_is_on_every_page_with_the_books_tensors_and_lazy():
    on = {p.path for p in PAGES} - {"topics/overview/page.py"}
    assert set(KEYS) == on
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("topics/recap/page.py").run()
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    assert not box.code, "nothing is generated until a reader opens it"


DEFAULTS = {
    "topics/recap/page.py": lambda: reproduce.recap(T, X, 1, 2),
    "topics/three_matrices/page.py": lambda: reproduce.three_matrices(
        T, X, weights.section_3_4(), "three", (1, 2)
    ),
    "topics/scaling/page.py": lambda: reproduce.divide_by_sqrt_dk(64, True, 500, 6, 0, "exact"),
    "topics/masking/page.py": lambda: reproduce.masking(
        T, X, weights.section_3_5(), 4, "-inf", np.array([1.0, 2.0, 3.0, 0.0, 0.0])
    ),
    "topics/dropout/page.py": lambda: reproduce.dropout(
        T, X, weights.section_3_5(), 0.5, True, 123, 10_000, "numpy"
    ),
    "topics/multihead/page.py": lambda: reproduce.multihead(T, X, "split", AttentionConfig(), 123),
    "topics/cost/page.py": lambda: reproduce.what_n_squared_costs(
        cost.GPT_4_1_WINDOW, 2, cost.GPUS[0], 1, 1, 100, 768, 64
    ),
}


@pytest.mark.parametrize("page", list(DEFAULTS))
def test_the_default_view_shows_the_generators_script_and_a_download(page):
    at = open_with_script(page)
    assert_clean(at)
    (box,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    assert box.label == KEYS[page][1]
    script = DEFAULTS[page]()
    assert script_shown(at) == script.code.rstrip(
        "\n"
    )  # st.code drops the final newline; the download keeps it
    (button,) = [b for b in at.get("download_button") if b.key == f"{KEYS[page][0]}_download"]
    assert script.filename in button.proto.label


def test_learning_states_how_far_pytorch_can_end_from_its_run():
    at = open_with_script(
        "topics/learning/page.py", {"steps": "100", "optimiser": "Gradient descent", "lr": "0.5"}
    )
    assert_clean(at)
    code = script_shown(at)
    assert code is not None and "torch.optim.SGD" in code and "lr, steps, shown = 0.5, 100, 100" in code
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    notes = " ".join(c.value for c in box.caption)
    assert "does not amplify rounding" in notes


def test_the_default_learning_view_says_it_amplifies_rounding():
    at = open_with_script("topics/learning/page.py")
    assert_clean(at)
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    assert "amplifies rounding" in " ".join(c.value for c in box.caption)


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"kind": "Split", "d_out": "3", "heads": "2", "preset": "Custom"}, "not divisible"),
        (
            {"kind": "Wrapper", "d_in": "1024", "d_out": "1024", "heads": "16", "preset": "Custom"},
            "parameters",
        ),
    ],
)
def test_a_multihead_view_without_tensors_says_why_there_is_no_script(query, says):
    at = open_with_script("topics/multihead/page.py", query)
    assert_clean(at)
    assert script_shown(at) is None
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    assert any(says in i.value for i in box.info), [i.value for i in box.info]


def test_the_dropout_page_offers_the_books_torch_code_for_pytorch_random_numbers():
    at = open_with_script("topics/dropout/page.py", {"generator": "PyTorch"})
    assert_clean(at)
    code = script_shown(at)
    assert code == reproduce.dropout(T, X, S35, 0.5, True, 123, 10_000, "torch").code.rstrip("\n")
    assert code.startswith("import torch") and "torch.nn.Dropout(p)" in code


EXAMPLES = 8  # per page; every example is a fresh session with the expander open


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
