"""Every "Checks against the sources" table on every page is well formed (issue #13, item 1).

A label with ``|J|`` in it once split the Divide-by-√d_k table: 10 of 13 rows lost their live value
and their mark while the title still read "13 of 13 match". The table is read back here the way
GitHub-flavoured Markdown reads it (cells split on unescaped ``|``); ``tests/e2e`` counts the cells
Chromium actually draws.
"""

from __future__ import annotations

import pytest

from tests.app.conftest import assert_clean, open_page
from topics import PAGES
from ui import checks

# The start page, the tour and the Class page (a teacher's tool) quote no source.
WITH_CHECKS = [p for p in PAGES if p.url_path not in ("overview", "read-along", "class")]
# Pages whose every row names its source from checks.SOURCES. Masking, Multi-head and Learning to
# attend belong to another change (issue #13, items 4, 6, 7, 8) and join this set when it lands.
NAMED = {p.url_path for p in WITH_CHECKS}  # every row of every checks table names its source


def parse(table: str) -> tuple[list[str], list[list[str]]]:
    """Header and body rows of a Markdown table, after checking its delimiter row."""
    lines = table.strip().splitlines()
    header = checks.split_row(lines[0])
    assert checks.split_row(lines[1]) == ["---"] * len(header), lines[1]
    return header, [checks.split_row(line) for line in lines[2:]]


@pytest.mark.parametrize("info", WITH_CHECKS, ids=[p.url_path for p in WITH_CHECKS])
def test_every_checks_table_is_well_formed_and_shows_a_live_value_in_every_row(info):
    at = open_page(info.path)
    assert_clean(at)
    expanders = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    assert expanders, f"{info.path} has no checks expander"
    for exp in expanders:
        (table,) = [md.value for md in exp.markdown if md.value.lstrip().startswith("|")]
        header, rows = parse(table)
        assert header[:3] == ["check", "source", "quoted"] and header[-2:] == ["live", "verdict"], header
        assert rows
        live, source = header.index("live"), header.index("source")
        for cells in rows:
            assert len(cells) == len(header), cells
            assert cells[live].startswith("`") and cells[live].endswith("`") and len(cells[live]) > 2, cells
            verdict = checks.verdict_of(cells[-1])
            assert cells[-1].startswith(verdict.mark), cells
            if verdict is checks.Verdict.DIFFERS:
                assert ":" in cells[-1], cells  # a difference always says why
            if verdict is checks.Verdict.NOISE:
                assert "percentile" in cells[-1], cells
            if info.url_path in NAMED:
                assert cells[source] in checks.SOURCES.values(), cells
        counts = checks.parse_title(exp.label)
        assert sum(counts.values()) == len(rows)
        assert counts == {v: sum(checks.verdict_of(c[-1]) is v for c in rows) for v in checks.Verdict}


HOSTILE = [
    "Median largest |J|, no divisor",
    "a | b || c \\| d",
    "`code` and ``more``",
    "$x$ and $$y$$",
    "<script>alert(1)</script> & <b>bold</b>",
    "line\nbreak\r\nand\ttab",
    ":red[colour] :material/home: *star* _under_ [link](x) ~strike~",
    "",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_any_text_in_any_cell_keeps_the_table_well_formed(text):
    rows = [
        checks.Check(text, text, text, checks.Verdict.ROUNDING, checks.POST, note=text, true=text),
        checks.Check("plain", "1", "2", checks.Verdict.DIFFERS, checks.BOOK, why=text),
    ]
    header, body = parse(checks.table_markdown(rows))
    assert header == list(checks.header(rows))
    assert [len(r) for r in body] == [len(header)] * 2
    assert checks.verdict_of(body[0][-1]) is checks.Verdict.ROUNDING
    assert checks.verdict_of(body[1][-1]) is checks.Verdict.DIFFERS
    assert body[0][header.index("live")] != ""


def test_the_true_column_appears_only_when_a_row_needs_it():
    plain = [checks.same("shape", "[2, 6, 4]", "[2, 6, 4]", checks.POST)]
    assert checks.TRUE_COLUMN not in parse(checks.table_markdown(plain))[0]
    loose = [*plain, checks.same("share", "about a third", "28.7%", checks.POST, true="28.7%")]
    header, body = parse(checks.table_markdown(loose))
    assert checks.TRUE_COLUMN in header
    # a loose quote passes when the live value equals the truth, but the quote is not "exact"
    assert body[1][-1] == "✅ within rounding (of the true value, as printed)"
    assert not checks.same("share", "about a third", "33.3%", checks.POST, true="28.7%").ok


def test_a_row_that_corrects_its_quote_cannot_say_exact():
    """A row with a true value beside its quote says the quote is wrong (its note says why), so the
    constructor refuses "exact" for it, and every helper that takes a true value picks another verdict."""
    with pytest.raises(ValueError, match="cannot be exact"):
        checks.Check("output", "no computation", "[1.0]", checks.Verdict.EXACT, checks.POST, true="[1.0]")
    assert checks.same("s", "q", "x", checks.POST, true="x").verdict is checks.Verdict.ROUNDING
    assert checks.same("s", "x", "x", checks.POST).verdict is checks.Verdict.EXACT


@pytest.mark.parametrize("info", WITH_CHECKS, ids=[p.url_path for p in WITH_CHECKS])
def test_no_page_marks_exact_a_quote_its_row_corrects(info):
    """Read from the table as drawn: a row whose true-value cell is filled is never "exact"
    (What comes next once marked the post's "no per-position computation at all" ✅ exact beside
    a note saying the post overstates it)."""
    at = open_page(info.path)
    assert_clean(at)
    for exp in (e for e in at.expander if e.label.startswith("Checks against the sources")):
        (table,) = [md.value for md in exp.markdown if md.value.lstrip().startswith("|")]
        header, rows = parse(table)
        if checks.TRUE_COLUMN not in header:
            continue
        true = header.index(checks.TRUE_COLUMN)
        corrected = [cells for cells in rows if cells[true]]
        assert corrected, info.url_path  # the column is there only for a row that needs it
        for cells in corrected:
            assert checks.verdict_of(cells[-1]) is not checks.Verdict.EXACT, cells


def test_every_source_is_one_of_a_small_fixed_vocabulary():
    assert set(checks.SOURCES) == {"post", "book", "book code", "solutions", "here"}
    assert (
        checks.Check("x", "1", "1", checks.Verdict.EXACT, checks.SOLUTIONS).source_text
        == "the exercise solutions"
    )


def test_a_printed_number_is_exact_only_when_its_digits_are_all_there_is():
    assert checks.exact("two", "2", 2.0).verdict is checks.Verdict.EXACT
    assert checks.exact("half", "[0.5000, 1.0000]", [0.5, 1.0]).verdict is checks.Verdict.EXACT
    rounded = checks.exact("w", "0.4419", 0.44190001)
    assert (
        rounded.verdict is checks.Verdict.ROUNDING
        and rounded.verdict_text == "✅ within rounding (4 decimals)"
    )
    off = checks.exact("w", "0.4419", 0.4421)
    assert (
        off.verdict is checks.Verdict.DIFFERS and off.verdict_text == "❌ differs: live 0.4421 against 0.4419"
    )


def test_a_sample_is_within_noise_with_its_percentile_and_a_far_one_differs():
    median = checks.sampled("rate", "50%", 0.5, 0.5, 0.01)
    assert median.verdict is checks.Verdict.NOISE and median.why == "50th percentile"
    assert checks.sampled("rate", "50%", 0.52, 0.5, 0.01).why == "98th percentile"  # z = 2
    far = checks.sampled("rate", "50%", 0.6, 0.5, 0.01)
    assert far.verdict is checks.Verdict.DIFFERS and far.why == "10.0 standard errors from its expectation"


def test_the_title_counts_each_verdict_and_reads_back():
    rows = [
        checks.exact("a", "2", 2.0),
        checks.exact("b", "0.4419", 0.44190001),
        checks.sampled("c", "50%", 0.5, 0.5, 0.01),
        checks.same("d", "x", "y"),
    ]
    label = checks.title(rows)
    assert label == "Checks against the sources: 1 exact, 1 within rounding, 1 within noise, 1 differs"
    assert checks.parse_title(label) == dict.fromkeys(checks.Verdict, 1)
    header, body = parse(checks.table_markdown(rows))
    assert header[-1] == "verdict"
    assert [checks.verdict_of(r[-1]) for r in body] == list(checks.Verdict)
