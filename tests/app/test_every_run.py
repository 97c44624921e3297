"""Every page and every tour step, at the book's sentence and at a drawn one with a repeated word,
runs quietly and prints only the digits float32 holds (issue 46).

- **Quiet.** A run logs nothing on the server's stderr (no traceback, no warning: step 21's table
  of integers with a "?" in it made pyarrow log one every run, which Streamlit's automatic fix
  hides from the page, not from the log) and raises no Python warning.
- **Float32's digits.** No number printed with a decimal point or an exponent has more
  significant digits than float32 holds (:data:`FLOAT32_DIGITS`; the README's "Precision"): at
  d_in 16, Three matrices printed row denominators such as ``14904247539442.61``. Every text a
  reader meets is read: Markdown, captions, metrics, chart names, tables' cells as their column
  formats print them, and the charts' own text (cells, titles, annotations, ticks). A number
  without a point is a count, exact. What n² costs is left out of the digits check: it computes
  in exact integer and ``Fraction`` arithmetic from no float32 input (``topics/cost/arithmetic.py``),
  so its digits (``2,093,153.907 MiB``) are exact, not float32's.

The drawn sentence is a property's example: its words, their count and a repeated word are drawn
from a seed that is the case's number, at d_in 16, the widest and the one the audit found. A
tour step that asks a question is also read after its reveal.
"""

from __future__ import annotations

import gc
import json
import random
import re
import warnings
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from core.sentence import MAX_WIDTH
from tests.app.conftest import assert_clean, chart_names, session
from tests.app.test_wording import shown_text
from tests.strategies import WORDS
from topics import PAGES, page_of
from topics.read_along import steps as tour_steps

FLOAT32_DIGITS = 7  # float32's 24-bit significand: 7.2 decimal digits
TOUR = page_of("read_along").path
EXACT_PAGES = {page_of("cost").path}  # exact integer arithmetic: see the module's docstring

TARGETS: list[tuple[str, dict[str, str]]] = [(p.path, {}) for p in PAGES] + [
    (TOUR, {"step": str(n)}) for n in range(1, len(tour_steps.STEPS) + 1)
]


def drawn_sentence(seed: int) -> str:
    """2 to 12 words drawn from the property tests' words, one of them repeated."""
    rng = random.Random(seed)
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 11))]
    return " ".join([*words, rng.choice(words)])


CASES = [
    pytest.param(path, query, id=f"{path.split('/')[1]}{'-' + query['step'] if query else ''}-book")
    for path, query in TARGETS
] + [
    pytest.param(
        path,
        {**query, "text": drawn_sentence(k), "dim": str(MAX_WIDTH)},
        id=f"{path.split('/')[1]}{'-' + query['step'] if query else ''}-drawn{k}",
    )
    for k, (path, query) in enumerate(TARGETS)
]
# The audit's setting: the book's sentence, 16 wide.
CASES.append(
    pytest.param(page_of("three_matrices").path, {"dim": str(MAX_WIDTH)}, id="three_matrices-book-16")
)

NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+(?:e[+-]?\d+)?|e[+-]?\d+)")


def significant(number: str) -> int:
    """The significant digits ``number`` prints (``0.0120`` has 3, ``1.490e+13`` has 4)."""
    return len(number.split("e")[0].replace(",", "").replace(".", "").lstrip("0"))


def too_long(texts: list[str]) -> list[str]:
    """Every number in ``texts`` with more significant digits than float32 holds, in context."""
    return [
        text[max(0, m.start() - 60) : m.end()]
        for text in texts
        for m in NUMBER.finditer(text)
        if significant(m.group(0)) > FLOAT32_DIGITS
    ]


def table_text(at: AppTest) -> list[str]:
    """Every table's cells as the browser prints them: a float column through its column's printf
    format (``%.2f``), one without such a format as its full ``repr`` (the browser prints a float's
    shortest round trip: give the column a format)."""
    out = []
    for df in at.dataframe:
        frame = df.value
        config = json.loads(df.proto.columns or "{}")
        out += [str(x) for x in (*frame.columns, *frame.index)]
        for name in frame.columns:
            form = (config.get(str(name), {}).get("type_config") or {}).get("format") or ""
            for x in frame[name]:
                if isinstance(x, float) and form.startswith("%"):
                    out.append(form % x)
                else:
                    out.append(repr(x) if isinstance(x, float) else str(x))
    return out


def chart_text(at: AppTest) -> list[str]:
    """What each chart prints itself: its cells' and markers' text, title, annotations and ticks."""
    from tests.app.conftest import charts

    out: list[str] = []
    for chart in charts(at):
        spec: dict[str, Any] = json.loads(chart.proto.spec)
        for trace in spec.get("data", []):
            for key in ("text", "texttemplate"):
                out += [str(x) for x in _flat(trace.get(key))]
        layout = spec.get("layout", {})
        out += [str((layout.get("title") or {}).get("text", ""))]
        out += [str(a.get("text", "")) for a in layout.get("annotations", [])]
        for key, axis in layout.items():
            if key.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
                out += [str(x) for x in axis.get("ticktext", [])]
    return out


def _flat(x: object) -> list[object]:
    if isinstance(x, list):
        return [y for item in x for y in _flat(item)]
    return [] if x is None else [x]


def printed(at: AppTest) -> list[str]:
    """Every text a reader meets on the page."""
    return [
        *shown_text(at),
        *(m.value for m in at.metric),
        *chart_names(at),
        *table_text(at),
        *chart_text(at),
    ]


def quiet_run(at: AppTest, capfd: pytest.CaptureFixture[str], run: Any) -> None:
    """``run()`` logs nothing to the server's stderr and raises no warning."""
    gc.collect()  # an earlier session's temporary folder is the harness's, not this run's
    capfd.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    logged = capfd.readouterr().err
    assert_clean(at)
    assert logged == "", logged
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize(("path", "query"), CASES)
def test_a_run_logs_nothing_and_prints_only_float32s_digits(path, query, capfd):
    at = session(path, query, timeout=180)
    quiet_run(at, capfd, at.run)
    views = [printed(at)]
    shows = [b for b in at.button if (b.key or "").startswith("_read_along_show_")]
    if shows:  # the step's answer, revealed
        quiet_run(at, capfd, lambda: shows[0].click().run())
        views.append(printed(at))
    if path not in EXACT_PAGES:
        for texts in views:
            assert len(texts) > 3
            assert too_long(texts) == []


def test_the_readers_catch_what_the_audit_found():
    """The digit reader fails on the audit's finding and passes what float32 holds."""
    assert too_long(["row denominators [14904247539442.61, 3.4]"]) == ["row denominators [14904247539442.61"]
    assert too_long(["0.4300000071525574"]) and too_long(["2.44140625e-05"])
    for fine in (
        "0.4419",
        "1.490e+13",
        "808.9",
        "4,357",
        "2,194,830,951,552 bytes",
        "12,345.67",
        "0.0001234",
    ):
        assert too_long([fine]) == [], fine
