"""Every page in a real browser: it loads clean, its charts draw, and its share link round-trips."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests import hostile
from tests.e2e.a11y import audit
from tests.e2e.browser import (
    Console,
    charts_drawn,
    exceptions,
    open_settled,
    readouts,
    reruns_sent,
    screenshot_whole,
    settle,
)
from tests.e2e.conftest import SHOTS
from topics import PAGES
from ui import checks, figures
from ui.reproduce import RUNTIME_WORDS

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

IDS = [p.url_path for p in PAGES]
# A start page, the tour and the Class page (a teacher's tool, computing nothing): no source quoted.
NO_CHECKS = {"overview", "read-along", "class"}
# The Class page's only controls are its buttons ("Start a class"): nothing in the sidebar to move.
NO_CONTROLS = {"class"}
# Pages whose moved control's link is opened afresh (a new session): between them a radio, a slider, a select
# box and a number box, the kinds of control whose value the browser writes into the address bar.
# Every page reads every key of its own from a link in AppTest (tests/app/test_url_keys.py).
REOPENED = {"three-matrices", "dropout", "multi-head", "read-along"}
# Pages whose focus control (ui.focus.focus_control) an ``st.fragment`` draws, as issue 25's
# focus/cell pattern does: on these the visit checks that moving it reruns only that fragment.
# A page's url_path goes here once its conversion is merged.
FOCUS_IN_FRAGMENT: frozenset[str] = frozenset(
    {"dropout", "learning-to-attend", "masking", "three-matrices", "multi-head", "what-comes-next"}
)


def page_url(server, info, query: dict | None = None) -> str:
    path = "" if info is PAGES[0] else info.url_path  # the default page lives at the root
    return f"{server.url}/{path}" + (f"?{urlencode(query, doseq=True)}" if query else "")


SCALE_LABEL = "Colour the weights"


def _perturb(page, limit: int = 2) -> int:
    """Change up to ``limit`` sidebar controls through the UI, the way a reader would. The weights'
    colour scale (ui.scale) is passed over: it changes colours, not numbers (its link and its
    colour bar are checked in each page's AppTest tests)."""
    sidebar = page.locator("[data-testid='stSidebarUserContent']")
    changed = 0
    for radio in sidebar.locator("[data-testid='stRadio']").all():
        if changed >= limit:
            break
        if radio.get_by_text(SCALE_LABEL, exact=True).count():
            continue
        options = radio.locator("label")
        for i in range(options.count() - 1, -1, -1):
            if not options.nth(i).locator("input").is_checked():
                options.nth(i).click()
                settle(page)
                changed += 1
                break
    for toggle in sidebar.locator("[data-testid='stCheckbox']").all()[: max(0, limit - changed)]:
        toggle.locator("label").click()
        settle(page)
        changed += 1
    for thumb in sidebar.locator("input[type='range']").all()[: max(0, limit - changed)]:
        thumb.focus()
        thumb.press("ArrowRight")
        settle(page)
        changed += 1
    for box in sidebar.locator("[data-testid='stSelectbox']").all()[: max(0, limit - changed)]:
        if _choose_another(page, box):
            settle(page)
            changed += 1
    for step_up in sidebar.locator("[data-testid='stNumberInputStepUp']").all()[: max(0, limit - changed)]:
        step_up.click()
        settle(page)
        changed += 1
    return changed


def _choose_another(page, box) -> bool:
    """Pick the select box's last option other than the one it shows, without waiting for the rerun.
    False when it has no other option."""
    combo = box.locator("input[role='combobox']")
    current = combo.input_value()
    options = page.locator("[role='listbox'] [role='option']")
    # Scrolled to first, as a reader scrolls the sidebar before clicking: the select box's menu
    # closes on a scroll, and the scroll Playwright makes as part of a click is reported a frame
    # later, after the menu has opened (a box below the sidebar's fold needed a second click, 5 s on).
    combo.scroll_into_view_if_needed()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    for _ in range(3):  # a rerun that redraws the sidebar can swallow the click: try again
        combo.click()
        try:
            options.first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            settle(page)
    others = [o for o in options.all() if o.inner_text().strip() != current]
    if not others:
        combo.press("Escape")
        return False
    others[-1].click()
    return True


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_a_page_draws_whole_and_a_moved_control_writes_its_link(server, tab, info):
    """One visit a page: no exception, no console error, every chart drawn; then a sidebar control
    moved as a reader moves it writes the address bar's link, which on the ``REOPENED`` pages, opened
    afresh at the end (a new session, as a link pasted into the address bar), shows the same
    numbers; every checks table drawn whole; and the page,
    in the light theme, passes the accessibility audit (tests/e2e/a11y.py) with every expander
    open (test_phone audits the dark theme at 390 px), the Reproduce expander among them, which
    showed no script until it was opened and then shows its script and its download.

    On the way, where the page has them: a click on a heatmap cell picks it (Three matrices), and a
    focus change reruns only the fragment that draws the focus (``FOCUS_IN_FRAGMENT``)."""
    page = tab  # the context fixture watches its reruns (reruns_sent)
    console = Console().attach(page)
    open_settled(page, page_url(server, info))
    SHOTS.mkdir(parents=True, exist_ok=True)
    screenshot_whole(page, str(SHOTS / f"{info.url_path}-1400.png"))
    assert exceptions(page) == []
    assert page.locator("h1").count() >= 1
    total, drawn = charts_drawn(page)
    assert drawn == total, f"{total - drawn} of {total} charts did not draw"
    assert console.errors == []
    if info is PAGES[0]:  # the Overview's only controls are the sentence's (test_sentence follows them)
        assert {k: v for k, v in audit(page, info.title).items() if v} == {}
        return
    reproduce = _reproduce_boxes(page)
    assert reproduce.count() == (0 if info.url_path in NO_CHECKS else 1)
    for box in reproduce.all():
        assert box.locator("[data-testid='stCode']").count() == 0, "generated before anyone asked"
    if info.url_path == "three-matrices":
        _a_click_on_a_weights_cell_puts_its_query_and_key_in_the_url_and_the_panel(page)
    if info.url_path in FOCUS_IN_FRAGMENT:
        _a_focus_change_reruns_only_its_fragment(page)

    if info.url_path in NO_CONTROLS:
        assert page.locator("[data-testid='stSidebarUserContent'] input").count() == 0
        link, after = None, None
    else:
        link, after = _a_moved_control_writes_its_link(page)
    if info.url_path not in NO_CHECKS:
        _assert_checks_tables_whole(page, info)
    assert {k: v for k, v in audit(page, info.title).items() if v} == {}
    for box in reproduce.all():  # the audit opened it
        _assert_script_shown(box, info)
    assert exceptions(page) == []
    assert console.errors == []
    if info.url_path in REOPENED and link is not None:
        open_settled(page, link)  # a new session, which has only the link to go by
        assert readouts(page) == after
        assert exceptions(page) == [] and console.errors == []


def _a_moved_control_writes_its_link(page) -> tuple[str, dict[str, list[str]]]:
    """Move one sidebar control; the address bar's link changes with it. Returns the link and what
    the page reads after the move (``readouts``)."""
    before, address = readouts(page), page.evaluate("location.href")
    assert _perturb(page, limit=1) >= 1, "the page has no sidebar control to move"
    with contextlib.suppress(PlaywrightTimeout):  # a link never written: the assertions below say so
        # the control writes the address bar: waited for, not a fixed pause
        page.wait_for_function("(before) => location.href !== before", arg=address, timeout=10_000)
    link, after = page.evaluate("location.href"), readouts(page)
    assert "?" in link, "moving controls did not write them into the URL"
    assert after != before, "moving controls changed nothing on the page"
    return link, after


def _reproduce_boxes(page):
    return page.locator("[data-testid='stMain'] [data-testid='stExpander']").filter(
        has=page.locator("summary", has_text="Reproduce in")
    )


FIRST_LINE = {"torch": ("import torch",), "numpy": ("import numpy as np",), "python": ("import ", "from ")}


def _assert_script_shown(box, info) -> None:
    """An open Reproduce expander (ui.reproduce) shows the script for the view on screen, its first
    line the import of the runtime its note names, and one download; or says why no script can
    reproduce this view."""
    box.locator("[data-testid='stCode'], [data-testid='stAlert']").first.wait_for(timeout=60_000)
    if box.locator("[data-testid='stCode']").count() == 0:
        assert "No script for this view" in box.inner_text(), info.url_path
        return
    note = " ".join(box.locator("[data-testid='stCaptionContainer']").all_inner_texts())
    runtimes = [r for r, words in RUNTIME_WORDS.items() if f"Runs with {words}" in note]
    assert len(runtimes) == 1, (info.url_path, note)
    first = box.locator("[data-testid='stCode']").first.inner_text().splitlines()[0]
    assert first.startswith(FIRST_LINE[runtimes[0]]), (info.url_path, first)
    assert box.locator("[data-testid='stDownloadButton']").count() == 1
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(SHOTS / f"reproduce-{info.url_path}.png"))


def address_query(page) -> dict[str, list[str]]:
    """The address bar's query, as the browser holds it now (``page.url`` can lag a pushState)."""
    return parse_qs(urlsplit(page.evaluate("location.href")).query)


def click_cell(page, chart: int, row: int, col: int, n: int) -> None:
    """Click the centre of cell ``(row, col)`` of the ``chart``-th chart's n × n grid."""
    box = page.locator(".aww-chart .nsewdrag").nth(chart).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * (col + 0.5) / n, box["y"] + box["height"] * (row + 0.5) / n)


JOURNEY, STARTS = 1, 2  # row and column of the book's sentence


def _a_click_on_a_weights_cell_puts_its_query_and_key_in_the_url_and_the_panel(page) -> None:
    """Three matrices at its defaults: a click on a heatmap cell picks it, the URL names the query
    and the key, and the panel works the cell out (issue #22). AppTest cannot click a Plotly chart."""
    assert "focus" not in address_query(page)
    click_cell(page, 2, JOURNEY, STARTS, 6)  # the third heatmap: the weights A
    page.wait_for_function("() => location.search.includes('cell=')", timeout=30_000)
    settle(page)
    assert address_query(page)["focus"] == ["journey"] and address_query(page)["cell"] == ["starts"]
    text = page.locator("[data-testid='stMain']").inner_text()
    assert "One cell, step by step: journey → starts" in text
    assert "= 1.8111" in text and "= 0.2199" in text and "[0.3061, 0.8210]" in text
    click_cell(page, 0, 4, 0, 6)  # the scores heatmap: one → Your
    page.wait_for_function("() => location.search.includes('focus=one')", timeout=30_000)
    settle(page)
    assert address_query(page)["cell"] == ["Your"]
    assert exceptions(page) == []


_CHART_PARTS = """() => Array.from(document.querySelectorAll(".aww-chart")).map((c) => {
    const plot = c.querySelector(":scope > .aww-plot");
    const rows = c.querySelectorAll(".aww-export");
    const row = c.querySelector(":scope > .aww-export");
    const box = c.getBoundingClientRect(), p = plot && plot.getBoundingClientRect();
    const buttons = row ? Array.from(row.querySelectorAll("button")).map((b) => {
        const r = b.getBoundingClientRect();
        return {text: b.textContent.trim(), label: b.getAttribute("aria-label") || "",
                inside: r.left >= box.left && r.right <= box.right + 0.5 && r.top >= p.bottom - 0.5
                        && r.bottom <= box.bottom + 0.5};
    }) : [];
    return {name: c.dataset.name || "", role: plot && plot.getAttribute("role"),
            label: plot && plot.getAttribute("aria-label"),
            drawn: !!(plot && plot.querySelector(".main-svg")),
            rows: rows.length, buttons};
})"""


def _every_chart_keeps_its_name_and_its_image_buttons(page) -> None:
    """Each chart element holds, under its own plot, one row of two buttons, PNG and SVG, each
    named for that chart; its plot is drawn and named (``role="img"`` with the chart's name); and
    no button row stands anywhere outside a chart (issue 36: a script adding them beside the
    charts once left three rows under the metric row after a cell click on a busy machine)."""
    parts = page.evaluate(_CHART_PARTS)
    assert parts, "no chart on the page"
    for chart in parts:
        name = chart["name"]
        assert name.strip() and chart["role"] == "img" and chart["label"] == name and chart["drawn"], chart
        assert chart["rows"] == 1, chart
        assert [b["text"] for b in chart["buttons"]] == ["PNG", "SVG"], chart
        assert [b["label"] for b in chart["buttons"]] == [f"Download {name} as {k}" for k in ("PNG", "SVG")]
        assert all(b["inside"] for b in chart["buttons"]), chart
    assert page.locator(".aww-export").count() == len(parts)  # none outside a chart


def test_after_a_cell_click_every_chart_is_updated_in_place_named_with_its_image_buttons(server, tab):
    """Three matrices: a click on a cell redraws the three heatmaps in place (the same Plotly plot,
    ``Plotly.react``, not a new one), and each still holds its name and its PNG and SVG buttons,
    which download the chart by Plotly's own ``toImage`` under the chart's name."""
    info = next(p for p in PAGES if p.url_path == "three-matrices")
    page = tab
    console = Console().attach(page)
    open_settled(page, page_url(server, info))
    _every_chart_keeps_its_name_and_its_image_buttons(page)
    page.evaluate("() => { window.__plots = Array.from(document.querySelectorAll('.aww-plot .main-svg')); }")
    click_cell(page, 2, JOURNEY, STARTS, 6)
    page.wait_for_function("() => location.search.includes('cell=')", timeout=30_000)
    settle(page)
    assert page.evaluate(
        "() => { const now = Array.from(document.querySelectorAll('.aww-plot .main-svg'));"
        " return now.length === window.__plots.length && now.every((n, k) => n === window.__plots[k]); }"
    ), "a chart was drawn anew, not updated in place"
    _every_chart_keeps_its_name_and_its_image_buttons(page)
    chart = page.locator(".aww-chart").nth(2)
    name = chart.get_attribute("data-name") or ""
    for kind in ("SVG", "PNG"):
        with page.expect_download() as got:
            chart.get_by_role("button", name=f"Download {name} as {kind}").click()
        download = got.value
        assert download.suggested_filename == f"{figures.slug(name)}.{kind.lower()}"
        head = Path(download.path()).read_bytes()[:8]
        assert head.startswith(b"<svg") if kind == "SVG" else head == b"\x89PNG\r\n\x1a\n"
    assert exceptions(page) == [] and console.errors == []


def _a_focus_change_reruns_only_its_fragment(page) -> None:
    """Issue 25: a focus change reruns only the fragment that draws the focus, not the page. The
    rerun the browser asks for names that fragment (BackMsg ``rerun_script.fragment_id``; a full
    rerun names none, as the page's first run did); the new focus still reaches the link."""
    assert reruns_sent(page)[0] == "", "the page's first run was not a full run"
    asked = len(reruns_sent(page))
    sidebar = page.locator("[data-testid='stSidebarUserContent']")
    focus = sidebar.locator("[data-testid='stSelectbox']").filter(
        has=page.locator("[data-testid='stWidgetLabel']", has_text="Focus on a")
    )
    assert focus.count() == 1, "no focus control in the sidebar"
    link = page.evaluate("location.href")
    assert _choose_another(page, focus)
    page.wait_for_function("(before) => location.href !== before", arg=link, timeout=30_000)
    settle(page)
    new = reruns_sent(page)[asked:]
    assert new and all(new), f"a focus change reran the whole page: {new}"
    assert exceptions(page) == []


# The browser's sample of hostile links: four pages, one after another in one tab. Between them
# every kind of control the app binds (radio, select box, select slider, slider, number box, toggle),
# the reader's sentence and its embedding edits, the tour's step, and a topic whose controls live
# outside its page script. AppTest opens every page with every known-bad value and with generated
# links (tests/app/test_url_fuzz.py); here the browser's side is proved: the page draws, and
# Chromium logs no error.
HOSTILE_SAMPLE = ("read-along", "learning-to-attend", "dropout", "what-comes-next")


def test_a_sample_of_hostile_urls_never_breaks_a_page(server, tab):
    """One hostile link on each ``HOSTILE_SAMPLE`` page, each opened as a link is (a new session):
    each one renders its page, with no exception element and no console error."""
    rng = random.Random(20261129)
    console = Console().attach(tab)
    sample = [info for info in PAGES if info.url_path in HOSTILE_SAMPLE]
    links = [(info, hostile.sample(_bound_keys(info), rng)) for info in sample]
    assert len(links) == len(HOSTILE_SAMPLE)
    for info, query in links:
        open_settled(tab, page_url(server, info, query))
        assert exceptions(tab) == [], (info.url_path, query)
        assert tab.locator("h1").count() >= 1, (info.url_path, query)  # the page itself, drawn
    assert console.errors == []


def _bound_keys(info) -> list[str]:
    """The page's URL keys, from its row of the key table in ui.pages."""
    return sorted(info.keys)


_CHECK_TABLES = """() => {
    const out = [];
    for (const exp of document.querySelectorAll("[data-testid='stExpander']")) {
        const summary = exp.querySelector("summary");
        if (!summary || !summary.innerText.includes("Checks against the sources")) continue;
        for (const table of exp.querySelectorAll("table")) {
            const head = Array.from(table.querySelectorAll("thead th")).map(th => th.innerText.trim());
            const rows = Array.from(table.querySelectorAll("tbody tr")).map(
                tr => Array.from(tr.querySelectorAll("td")).map(td => td.innerText.trim()));
            out.push({title: summary.innerText.trim(), head, rows});
        }
    }
    return out;
}"""


def _assert_checks_tables_whole(page, info) -> None:
    """Every checks table draws one cell per column and a live value in every row."""
    # Issue #13, item 1: what Chromium draws, not what the Markdown says. A '|' in a label once
    # split rows here, so cells went missing while the title still counted every row a match.
    for summary in page.locator("[data-testid='stExpander'] summary").all():
        if "Checks against the sources" in summary.inner_text():
            summary.click()
    settle(page)
    tables = page.evaluate(_CHECK_TABLES)
    assert tables, f"{info.url_path}: no checks table drawn"
    for t in tables:
        live = t["head"].index("live")
        assert t["rows"]
        for cells in t["rows"]:
            assert len(cells) == len(t["head"]), (t["title"], cells)
            assert cells[live] not in ("", "—"), (t["title"], cells)
            assert cells[-1].startswith(("✅ ", "❌ ")), (t["title"], cells)
        counts = checks.parse_title(t["title"])
        assert counts == {v: sum(checks.verdict_of(c[-1]) is v for c in t["rows"]) for v in checks.Verdict}
