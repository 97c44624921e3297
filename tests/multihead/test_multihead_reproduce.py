"""The Multi-head page's "Reproduce in PyTorch" script, run with PyTorch and held against the page's view.

For the default view, the presets, a reader's sentence and random legal settings (seeded, so a
failure reproduces; ``multihead_cases.py``), the script ``topics.multihead.script.for_page`` writes
runs as ``__main__`` in one fresh interpreter (``tests.reproduce.run``), and every number it prints
must equal the number the view holds for the same settings at the printed precision (PyTorch's 4
decimals; the divisor, a bare Python float, bit for bit). Where the page draws a matrix thinned, only
the cells it draws are compared. Skipped without torch; CI installs 2.13.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.multihead import multihead_cases as mc
from tests.reproduce import printed
from tests.reproduce.case import Case
from tests.reproduce.run import run
from topics.multihead import view

torch = pytest.importorskip("torch")

SETTINGS = mc.every()


@pytest.fixture(scope="module")
def batch() -> dict[str, tuple[Case, dict]]:
    cases = [mc.case(name, s) for name, s in SETTINGS.items()]
    return dict(zip(SETTINGS, zip(cases, run(cases), strict=True), strict=True))


def _drawn(p: printed.Printed, page: np.ndarray) -> list[str]:
    """Every printed number the page draws against the page's (NaN: thinned away, not on screen)."""
    out, compared = [], 0
    for where, text, value in printed.pairs(p, page):
        if not np.isnan(value):
            compared += 1
            out += printed.mismatches(printed.Printed(where, text, text, p.full), value)
    return out if compared else [f"{p.label}: no number printed is one the page draws"]


def problems(case: Case, result: dict) -> list[str]:
    """Everything printed that is not what the view holds: a missing label, an error, a number."""
    if result["error"]:
        return [f"{case.name}: the script raised\n{result['error']}"]
    shown = printed.parse(result["stdout"])
    if set(shown) != set(case.expected):
        return [f"{case.name}: printed {sorted(shown)}, the view holds {sorted(case.expected)}"]
    out = []
    for label, page in case.expected.items():
        p = shown[label]
        if isinstance(page, int):
            out += [] if p.text == str(page) else [f"{label}: printed {p.text}, page {page}"]
        elif isinstance(page, np.ndarray) and np.isnan(page).any():
            out += _drawn(p, page)
        else:
            out += printed.mismatches(p, page)
    return [f"{case.name}: {m}" for m in out]


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_script_prints_the_views_numbers(batch, name):
    case, result = batch[name]
    found = problems(case, result)
    assert not found, "\n".join(found[:20])


def test_the_oracle_compares_what_the_page_draws(batch):
    """The comparison is not empty: GPT-2's W_q is thinned, yet printed cells meet drawn ones, and
    the small views are compared in full."""
    case, _ = batch["GPT-2 small preset"]
    assert np.isnan(case.expected["W_q"]).any() and not np.isnan(case.expected["W_q"]).all()
    case, _ = batch["default (the book's toy)"]
    assert (
        not np.isnan(case.expected["W_q"]).any()
        and not np.isnan(case.expected["Output, first batch item"]).any()
    )


# Issue 24, item 11: every readout the page shows is one the script prints, under the page's label.
# The page is opened (AppTest) and its metrics read as a reader reads them; the script is the one the
# Reproduce expander offers for the same settings.
PAGE = "topics/multihead/page.py"
READOUT_PAGES = {
    "default (split, the book's toy)": ({}, view.Settings()),
    "wrapper, 3 wide per head, 2 heads (the split class cannot cut 3)": (
        {"preset": "Custom", "kind": "Wrapper", "d_out": "3"},
        view.Settings(preset="Custom", kind="wrapper", d_out=3),
    ),
}


def _reads_the_same(page: str, shown: str) -> bool:
    """A page metric and a printed value agree: the same shape, the same integer, or the printed
    float rounded to the page's digits."""
    body = shown.removeprefix("torch.Size(").removesuffix(")") if shown.startswith("torch.Size(") else shown
    if page == body or page.replace(",", "") == body:
        return True
    try:
        digits = len(page.split(".")[1]) if "." in page else 0
        return abs(float(body) - float(page.replace(",", ""))) <= 0.5 * 10**-digits
    except ValueError:
        return False


@pytest.mark.parametrize("name", list(READOUT_PAGES))
def test_every_readout_on_the_page_is_printed_by_its_script(name):
    from tests.app.conftest import assert_clean, metrics, open_page
    from tests.reproduce.run import run_code
    from topics.multihead import script

    query, s = READOUT_PAGES[name]
    at = open_page(PAGE, query)
    assert_clean(at)
    shown = metrics(at)
    (result,) = run_code([script.for_page(s).code])
    assert not result["error"], result["error"]
    out = printed.parse(result["stdout"])
    missing = [label for label in shown if label not in out]
    assert not missing, f"the page shows {missing}, the script never prints them (it prints {sorted(out)})"
    wrong = [(k, v, out[k].text) for k, v in shown.items() if not _reads_the_same(v, out[k].text)]
    assert not wrong, wrong
