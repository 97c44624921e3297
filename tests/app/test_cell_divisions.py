"""Every division a cell panel prints holds at its printed digits, or says ≈ (issue 46).

An audit found "a = 1.9208 / 12.38 = 0.1551" in 302 of 3,442 sampled cells: 1.9208 / 12.38 is
0.15515…, which rounds to 0.1552. A reader who checks the line with a calculator must find it
true: the panel prints the row's denominator with as many more digits as float32 holds and the
division needs, or writes ≈ (``ui.cell_text.division``). The same holds for the division by √d_k
(the score as printed over the divisor as printed) and for Masking's notes (the 0 fill's weight,
the naive path's softmax and its renormalisation).

Each page's panel is read from its own view at random legal settings and cells, drawn by the
strategies the pages' own property tests use; every division in it is parsed back from the text
and checked in exact rational arithmetic, and an ≈ is held to be needed.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.attention import MODES
from tests.dropout.test_dropout_cell import cell_settings as dropout_settings
from tests.dropout.test_dropout_cell import cheap_run as dropout_run
from tests.masking.test_masking_properties import settings_ as masking_settings
from tests.multihead.test_multihead_properties import Picked
from tests.multihead.test_multihead_properties import book as multihead_book
from tests.multihead.test_multihead_properties import cell_settings as multihead_settings
from tests.multihead.test_multihead_properties import cheap_run as multihead_run
from tests.next.test_next_properties import page_settings as next_settings
from tests.recap.test_recap_properties import recap_settings
from tests.strategies import sentences
from tests.three_matrices.test_three_matrices_properties import sources
from topics.dropout import view as dropout_view
from topics.masking import view as masking_view
from topics.multihead import view as multihead_view
from topics.next import view as next_view
from topics.recap import view as recap_view
from topics.three_matrices import view as three_view
from ui.cell_text import Panel

NUMBER = r"\**([-−]?[0-9][0-9,]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\**"
# "exp / denominator = weight", "E over D gives W", "share / sum = naive"
DIVISION = re.compile(NUMBER + r" (?:/|over) " + NUMBER + r" (?:(=|≈)|gives( ≈)?) " + NUMBER)
DIVIDED = re.compile(r"Divided by .* = " + NUMBER + r": (≈ )?" + NUMBER)
SCORE = re.compile(r"\*\*" + NUMBER + r"\*\*")


def value(text: str) -> Fraction:
    return Fraction(text.replace(",", "").replace("−", "-"))


def holds(numerator: str, denominator: str, result: str) -> bool:
    """``numerator / denominator``, read at its printed digits, rounds to ``result``'s digits."""
    mantissa = result.split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(result.split("e")[1]) if "e" in result else 0
    unit = Fraction(10) ** (exponent - decimals)
    q = value(numerator) / value(denominator)
    return abs(q - value(result)) <= unit / 2


def divisions(p: Panel) -> list[tuple[str, str, str, bool]]:
    """Every division the panel prints: numerator, denominator, result, and whether it says ≈."""
    out = []
    for line in (*p.weight, *p.notes):
        for m in DIVISION.finditer(line):
            n, d, sign, gives, r = m.groups()
            out.append((n, d, r, sign == "≈" or bool(gives)))
        if (divided := DIVIDED.search(line)) and (score := SCORE.search(p.score)):
            d, approx, r = divided.groups()
            out.append((score.group(1), d, r, bool(approx)))
    return out


def check(p: Panel | None) -> None:
    assert p is not None
    found = divisions(p)
    if not any("masked" in w or "mask sets" in w for w in p.weight):
        assert found, p.weight  # the softmax's own division, at least
    for n, d, r, approx in found:
        if value(d) == 0:
            continue
        assert holds(n, d, r) != approx, (n, d, r, "≈" if approx else "=", p.weight, p.notes)


EXAMPLES = settings(max_examples=40, deadline=None)


@EXAMPLES
@given(recap_settings())
def test_recaps_panel(s):
    check(recap_view.build(s).cell)


@EXAMPLES
@given(sentences(), st.sampled_from(MODES), sources, st.data())
def test_three_matrices_panel(s, mode, ws, data):
    focus = data.draw(st.integers(0, s.n - 1))
    cell = data.draw(st.none() | st.integers(0, s.n - 1))
    check(
        three_view.build(three_view.Settings(s.labels, s.embeddings, s.is_book, ws, mode, focus, cell)).cell
    )


@EXAMPLES
@given(masking_settings(), st.data())
def test_maskings_panel_and_notes(s, data):
    n = len(s.labels)
    focus = data.draw(st.integers(0, n - 1))
    cell = data.draw(st.none() | st.integers(0, n - 1))
    check(masking_view.focused(masking_view.build(s), focus, cell).cell)


@EXAMPLES
@given(dropout_settings())
def test_dropouts_panel(s):
    check(dropout_view.build(s, run=dropout_run).cell)


@EXAMPLES
@given(multihead_settings())
def test_multi_heads_panel(picked: Picked):
    s, i, cell, head = picked
    v = multihead_view.build(s, run=multihead_run, book_run=multihead_book)
    f = multihead_view.focused(s, v, i, cell, head)
    if f.cell is not None:
        check(f.cell)


@settings(max_examples=15, deadline=None)
@given(next_settings(), st.data())
def test_what_comes_nexts_panel(s, data):
    n = len(s.labels)
    focus = data.draw(st.integers(0, n - 1))
    cell = data.draw(st.none() | st.integers(0, n - 1))
    check(next_view.build(dataclasses.replace(s, focus=focus, cell=cell)).shuffle.cell)


def test_the_reader_catches_what_the_audit_found():
    """The audit's line fails, its fixes pass, and an ≈ where the division holds fails too."""
    line = "a_journey,starts = 1.9208 / 12.38 = **0.1551**"
    ((n, d, r, approx),) = [(m[0], m[1], m[4], m[2] == "≈") for m in DIVISION.findall(line)]
    assert (n, d, r, approx) == ("1.9208", "12.38", "0.1551", False) and not holds(n, d, r)
    assert holds("1.9208", "12.381", "0.1551") and holds("1.9208", "12.38", "0.1552")
    assert holds("4.477e+04", "8.954e+04", "0.5000") and holds("808.9", "4,357", "0.1857")
    assert [m[2] for m in DIVISION.findall("3.5990 / 16.37 ≈ **0.2198**")] == ["≈"]
    assert [m[3] for m in DIVISION.findall("exp(0.5) = 1.6487 over 2.65 gives ≈ 0.6222 at step 2")] == [" ≈"]
