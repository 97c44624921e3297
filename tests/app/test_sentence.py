"""The reader's sentence through AppTest: every token page follows it, its checks stay at the book's
sentence, the controls edit it, and hostile sentences and edits strings never break a page."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1.app_test import calc_hash

from core import sentence as core_sentence
from tests.app.conftest import assert_clean, charts, metrics, open_page, widget
from topics import PAGES
from topics.read_along.steps import STEPS
from ui import checks as checks_ui
from ui import sentence as ui_sentence
from ui.figures import cell_notes
from ui.pages import SENTENCE_KEYS, SHARED_KEYS

TOKEN_PAGES = [p for p in PAGES if "text" in p.keys]
IDS = [p.url_path for p in TOKEN_PAGES]
CAT = "the cat sat on the mat"
CAT_LABELS = {"the", "cat", "sat", "on", "the²", "mat"}
QUICK = {"steps": "100"}  # Learning trains 5,000 steps by default
WITHOUT_CHECKS = {"overview", "read-along"}  # the start page and the tour quote no source: no checks
# The tour's first step asks before it draws: its figure pages open on a step that draws at once.
DRAWN_AT_ONCE = {"read-along": {"step": str(next(i for i, d in enumerate(STEPS, 1) if d.key == "context"))}}


def chart_strings(at) -> set[str]:
    """Every label a figure on the page shows: axis categories, tick texts, point texts."""
    out: set[str] = set()
    for chart in charts(at):
        spec = json.loads(chart.proto.spec)
        for trace in spec["data"]:
            for field in ("x", "y", "text", "customdata"):
                values = trace.get(field)
                if isinstance(values, list):
                    flat = [v for row in values for v in (row if isinstance(row, list) else [row])]
                    out |= {v for v in flat if isinstance(v, str)}
        for name, axis in spec["layout"].items():
            if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
                out |= set(axis.get("ticktext", []))
    return out


def checks_tally(at) -> tuple[int, int, str]:
    """Passed and total rows of the checks expander, and its note; ``(0, 0, "")`` on a page that
    has none, which must be one of ``WITHOUT_CHECKS`` (asserted by the callers' page list)."""
    boxes = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    if not boxes and _page_of(at) in WITHOUT_CHECKS:
        return 0, 0, ""
    (exp,) = boxes
    counts = checks_ui.parse_title(exp.label)
    note = " ".join(c.value for c in exp.caption)
    return sum(counts.values()) - counts[checks_ui.Verdict.DIFFERS], sum(counts.values()), note


def _page_of(at) -> str:
    """The url_path of the page ``at`` ran (``open_page`` checks it opened the page it was asked)."""
    return next(p.url_path for p in PAGES if calc_hash(p.url_path) == at._finished_page_script_hash)


def warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def test_the_sentence_keys_are_declared_shared_and_bound_by_every_token_page():
    assert ui_sentence.KEYS == SENTENCE_KEYS and set(SENTENCE_KEYS) <= SHARED_KEYS
    names = {p.url_path for p in TOKEN_PAGES}
    assert names == {
        "overview",
        "read-along",
        "recap",
        "three-matrices",
        "layer",
        "learning-to-attend",
        "masking",
        "dropout",
        "multi-head",
        "what-comes-next",
    }
    assert all(set(SENTENCE_KEYS) <= set(p.keys) for p in TOKEN_PAGES)


@pytest.mark.parametrize("info", TOKEN_PAGES, ids=IDS)
def test_every_token_page_shows_the_sentences_tokens_in_its_figures(info):
    at = open_page(info.path, {"text": CAT, **QUICK, **DRAWN_AT_ONCE.get(info.url_path, {})})
    assert_clean(at)
    assert CAT_LABELS.issubset(chart_strings(at)), info.url_path
    assert not ({"journey", "starts"} & chart_strings(at))
    passed, total, note = checks_tally(at)
    assert passed == total, "the checks must still run on the book's sentence"
    if info.url_path not in {"what-comes-next", *WITHOUT_CHECKS}:  # GPT-2's counts: no tokens in them
        assert "these checks run on the book's" in note
    assert widget(at, "text").value == CAT


@pytest.mark.parametrize("info", TOKEN_PAGES, ids=IDS)
def test_at_the_books_sentence_the_checks_say_nothing_about_another(info):
    at = open_page(info.path, {**QUICK, **DRAWN_AT_ONCE.get(info.url_path, {})})
    passed, total, note = checks_tally(at)
    assert passed == total and "your sentence" not in note
    assert {"journey", "starts"} <= chart_strings(at)


def test_recap_defaults_and_readouts_follow_the_sentence():
    at = open_page("topics/recap/page.py", {"text": CAT})
    assert widget(at, "query").value == "cat" and widget(at, "key").value == "sat"
    assert widget(at, "query").options == ["the", "cat", "sat", "on", "the²", "mat"]
    x = core_sentence.build(CAT).embeddings
    assert metrics(at)["Raw affinity cat–sat"] == f"{x[1] @ x[2]:.4f}"
    assert "36 dot products" in at.markdown[0].value
    at = open_page("topics/recap/page.py", {"text": "solo"})
    assert_clean(at)
    assert metrics(at)["Mean pairwise distance, inputs"] == "—"


def test_a_link_with_edits_and_width_reproduces_those_numbers():
    query = {"text": CAT, "dim": "5", "emb": "_b57c-125"}
    at = open_page("topics/recap/page.py", query)
    assert_clean(at)
    assert widget(at, "dim").value == 5 and widget(at, "emb").value == "_b57c-125"
    s = core_sentence.build(CAT, 5, "_b57c-125")
    assert s.embeddings[1, 1] == np.float32(0.57)
    from core import attention

    z = attention.attention_without_weights(s.embeddings).context[1]
    assert metrics(at)["Context vector for cat"] == "[" + ", ".join(f"{v:.4f}" for v in z) + "]"
    assert "1 of 5" not in warnings(at) and not at.warning


def test_the_learning_token_and_targets_adapt_to_the_sentence():
    at = open_page("topics/learning/page.py", {"text": CAT, "target": "A token you pick", **QUICK})
    assert_clean(at)
    assert widget(at, "token").value == "cat"
    widget(at, "token").set_value("the²").run()
    assert_clean(at)
    notes = cell_notes(json.loads(charts(at)[2].proto.spec))
    target = [[a["text"] for a in notes[6 * i : 6 * i + 6]] for i in range(6)]  # printed row by row
    assert target == [["0.0000"] * 4 + ["1.0000", "0.0000"]] * 6
    text = " ".join(m.value for m in at.markdown)
    assert "the and the² have the same embedding" in text


def test_multihead_runs_the_sentence_batch():
    at = open_page("topics/multihead/page.py", {"text": CAT})
    assert_clean(at)
    assert metrics(at)["Output, split"] == "[2, 6, 2]"
    assert "your sentence's 6 tokens, stacked twice (batch [2, 6, 3])" in " ".join(
        c.value for c in at.caption
    )
    at = open_page("topics/multihead/page.py", {"text": "a b c d e f g h i j"})
    assert metrics(at)["Output, wrapper"] == "[2, 10, 4]"


def test_the_permutation_demo_reverses_any_sentence_and_restarts_when_it_changes():
    at = open_page("topics/next/page.py", {"text": CAT})
    assert_clean(at)
    assert widget(at, "perm").value == "6 5 4 3 2 1"
    assert "Shuffled sentence: **mat the² on sat cat the**" in " ".join(m.value for m in at.markdown)
    widget(at, "text").set_value("one two three").run()
    assert_clean(at)
    assert widget(at, "perm").value == "3 2 1" and not at.warning


def test_back_to_the_books_sentence_clears_text_width_and_edits():
    at = open_page("topics/recap/page.py", {"text": CAT, "dim": "4", "emb": "a50"})
    at.button(key="sentence_reset").click().run()
    assert_clean(at)
    assert widget(at, "text").value == core_sentence.BOOK_TEXT
    assert widget(at, "dim").value == 3 and widget(at, "emb").value == ""
    assert metrics(at)["Context vector for journey"] == "[0.4419, 0.6515, 0.5683]"


def test_changing_the_sentence_keeps_the_edits_of_unchanged_tokens_only():
    at = open_page("topics/recap/page.py", {"text": "a b c", "emb": "a50_b60_c70"})
    widget(at, "text").set_value("a x c d").run()
    assert_clean(at)
    assert widget(at, "emb").value == "a50__c70"
    widget(at, "dim").set_value(5).run()
    assert widget(at, "emb").value == "a50__c70"


def test_narrowing_the_width_drops_the_edits_of_removed_dimensions():
    at = open_page("topics/recap/page.py", {"text": "a b", "dim": "5", "emb": "a10e20_d30"})
    widget(at, "dim").set_value(4).run()
    assert_clean(at)
    assert widget(at, "emb").value == "a10_d30"


HOSTILE_SENTENCES = {
    "empty": ("", "empty"),
    "whitespace": (" \t  ", "empty"),
    "5,000 words": ("word " * 5_000, "first 32 tokens"),
    "html": ("<script>alert(1)</script> <b>bold</b> <img src=x onerror=alert(1)>", "never rendered"),
    "markdown": ("$x$ **b** [l](javascript:alert(1)) :red[x] `c`", None),
    "rtl and controls": ("\u202eabc \u2067שלום\u2069 مرحبا a\x00b\x1bc", "removed"),
    "emoji": ("🙂 👨\u200d👩\u200d👧 🏳️\u200d🌈 ❤️", None),
    "one long word": ("x" * 400, None),
    "numbers": ("1 2 3 1 2024-01-01", None),
}


def _assert_usable(at, message: str | None) -> None:
    assert_clean(at)
    assert at.title
    if message:
        assert message in warnings(at), warnings(at)
    for md in at.markdown:  # a token reaches Markdown escaped: shown as text, never rendered
        assert not re.search(r"(?<!\\)<(script|b>|img)", md.value), md.value
        assert not re.search(r"(?<!\\)\$x", md.value), md.value
    shown = chart_strings(at)
    assert not any("<script" in s or "<b>" in s for s in shown)
    passed, total, _ = checks_tally(at)
    assert passed == total


@pytest.mark.parametrize("case", list(HOSTILE_SENTENCES), ids=list(HOSTILE_SENTENCES))
def test_a_hostile_sentence_gets_its_message_and_a_usable_page(case):
    """Each kind once, on a token page in turn: the message comes from the shared sentence box."""
    text, message = HOSTILE_SENTENCES[case]
    info = TOKEN_PAGES[list(HOSTILE_SENTENCES).index(case) % len(TOKEN_PAGES)]
    _assert_usable(open_page(info.path, {"text": text, **QUICK}), message)


# Every kind of hostile token in one sentence of 32 tokens or more, within the box's 400 characters.
EVERY_HOSTILE_KIND = " ".join(t for t, _ in HOSTILE_SENTENCES.values() if t.strip() and len(t) < 300)
EVERY_HOSTILE_KIND += " w" * ((400 - len(EVERY_HOSTILE_KIND)) // 2)


@pytest.mark.parametrize("info", TOKEN_PAGES, ids=IDS)
def test_every_token_page_shows_every_hostile_kind_as_plain_text(info):
    _assert_usable(open_page(info.path, {"text": EVERY_HOSTILE_KIND, **QUICK}), "use the first 32")


def test_html_in_a_token_reaches_plotly_escaped():
    at = open_page("topics/recap/page.py", {"text": "<b>x</b> y"})
    assert {"&lt;b&gt;x&lt;/b&gt;", "y"} <= chart_strings(at)
    assert widget(at, "query").options[0] == "<b>x</b>"  # plain text where nothing renders it


def test_five_thousand_words_in_a_link_are_cut_to_the_first_32_tokens():
    at = open_page("topics/masking/page.py", {"text": "word " * 5_000})
    assert_clean(at)
    assert "the pages use its first 32 tokens" in warnings(at)
    assert len(widget(at, "text").value.split()) == 32
    assert at.query_params["text"] == widget(at, "text").value


HOSTILE_EDITS = {
    "malformed": "zz",
    "truncated": "_b5",  # fine: a truncated number is still a number
    "cut inside a cell": "_b",
    "more tokens than the sentence": "a1_a1_a1_a1_a1_a1_a1",
    "wider than the sentence": "p1",
    "too long": "a1" * 2_000,
    "twice": ["a1", "b2"],
    "unicode": "a١",
    "overflow": "a99999",
    "script": "<script>alert(1)</script>",
}


EDIT_PAGES = ("topics/recap/page.py", "topics/masking/page.py", "topics/next/page.py")


@pytest.mark.parametrize("case", list(HOSTILE_EDITS), ids=list(HOSTILE_EDITS))
def test_a_hostile_edits_string_is_dropped_with_a_message(case):
    """Each kind once, on a page in turn: the edits are parsed by the shared sentence box."""
    payload = HOSTILE_EDITS[case]
    page = EDIT_PAGES[list(HOSTILE_EDITS).index(case) % len(EDIT_PAGES)]
    at = open_page(page, {"text": CAT, "emb": payload})
    assert_clean(at)
    if case == "truncated":
        assert widget(at, "emb").value == "_b5" and not at.warning
        return
    assert widget(at, "emb").value == ""
    assert "emb" not in at.query_params
    if case != "too long":  # a value longer than the box takes is dropped by the box itself
        assert "embedding edits could not be used" in warnings(at)


def test_extreme_edits_at_full_size_keep_every_page_finite():
    """32 tokens, 16 wide, every cell at ±9.99: scores in the tens of thousands."""
    words = " ".join(f"w{i}" for i in range(32))
    every = {(r, d): 999 if (r + d) % 2 else -999 for r in range(32) for d in range(16)}
    query = {"text": words, "dim": "16", "emb": core_sentence.format_edits(every), **QUICK}
    for info in TOKEN_PAGES:
        at = open_page(info.path, query)
        assert_clean(at)
        assert not at.warning or info.url_path == "multi-head", (info.url_path, warnings(at))


def test_markdown_escaping_shows_a_label_as_typed():
    assert ui_sentence.md("the") == "the"
    assert ui_sentence.md("$x$ *a* [l](u) <b>") == r"\$x\$ \*a\* \[l\]\(u\) \<b\>"


# The embedding editor, edited as the browser edits it (issue #24, item 12).
def with_editor(page: str, query: dict | None = None):
    """``page`` from a link with ``query``, its embedding editor's expander open (as a click opens it)."""
    return open_page(page, query, state={ui_sentence.EDITOR_OPEN: True})


def test_the_embedding_editor_is_built_only_while_its_expander_is_open():
    """Closed (as every page opens), the grid costs a rerun nothing; the bound edits box is drawn
    either way, so the link's edits still apply."""
    at = open_page("topics/recap/page.py", {"emb": "a50"})
    assert not [d for d in at.dataframe if d.key and d.key.startswith("_sentence_editor")]
    assert widget(at, "emb").value == "a50"
    at.session_state[ui_sentence.EDITOR_OPEN] = True  # the reader opens it
    at.run()
    assert embedding_editor(at).value.loc["Your"].tolist() == ["0.50", "0.15", "0.89"]


def embedding_editor(at):
    (editor,) = [d for d in at.dataframe if d.key and d.key.startswith("_sentence_editor")]
    return editor


def unescaped(markdown: str) -> str:
    """A message's text as the reader sees it: Markdown's backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", markdown)


def send_edit(at, cells: dict[tuple[int, int], object]):
    """Commit ``cells`` ((row, dimension column) -> value) as the grid does: the editor's
    ``edited_rows``, as JSON in its widget state's string value, with every other widget as is.
    AppTest applies no cell edits of its own (``set_value`` raises for a data editor)."""
    editor = embedding_editor(at)
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = editor.proto.id
    edited: dict[str, dict[str, object]] = {}
    for (row, col), value in cells.items():
        edited.setdefault(str(row), {})[str(col)] = value
    state.string_value = json.dumps({"edited_rows": edited, "added_rows": [], "deleted_rows": []})
    return at._run(states)


def test_the_embedding_editor_sends_what_was_typed():
    """A number column turns typed "abc", "-", "<b>" or "NaN" into 0 in the browser before Python
    sees it, and drops the "e" of a typed "1e999" (headless Chromium, Streamlit 1.67): the app could
    only commit 0.00 silently. Text columns send the typed text, which the app reads itself."""
    at = with_editor("topics/recap/page.py")
    editor = embedding_editor(at)
    config = json.loads(editor.proto.columns)
    assert [config[c]["type_config"]["type"] for c in ("1", "2", "3")] == ["text"] * 3
    assert editor.value.loc["Your"].tolist() == ["0.43", "0.15", "0.89"]


REFUSED_TYPED = {
    "abc": "is not a number",
    "-": "is not a number",
    "<b>": "is not a number",
    "NaN": "is not a number",
    "1e999": "is outside −9.99 to 9.99",
    "12": "is outside −9.99 to 9.99",
}


def test_typed_text_that_is_not_a_number_in_range_leaves_the_cell_and_says_what_and_why():
    at = with_editor("topics/recap/page.py")
    shown = metrics(at)
    for typed, why in REFUSED_TYPED.items():
        send_edit(at, {(0, 1): typed})  # Your, dimension 1
        assert_clean(at)
        assert widget(at, "emb").value == "" and "emb" not in at.query_params, typed
        assert f"Your, dimension 1: “{typed}” {why}" in unescaped(warnings(at))
        assert f"“{ui_sentence.md(typed)}”" in warnings(at)  # Markdown-escaped: "<b>" shown as typed
        assert embedding_editor(at).value.loc["Your"].tolist() == ["0.43", "0.15", "0.89"]
        assert metrics(at) == shown
    send_edit(at, {(0, 1): "0.5"})
    assert not at.warning and widget(at, "emb").value == "a50"  # the last refusal's message is gone


def test_an_emptied_cell_has_its_own_message():
    at = with_editor("topics/recap/page.py", {"emb": "a50"})
    for empty in (None, ""):  # Delete sends None; a cell typed empty sends ""
        send_edit(at, {(0, 1): empty})
        assert_clean(at)
        assert "Your, dimension 1: the cell was left empty" in unescaped(warnings(at))
        assert "not a number" not in warnings(at)
        assert widget(at, "emb").value == "a50" and at.query_params["emb"] == "a50"


def test_a_typed_number_goes_into_the_cell_and_the_link():
    at = with_editor("topics/recap/page.py", {"text": CAT})
    send_edit(at, {(1, 3): " −1.25 ", (0, 1): ".5"})
    assert_clean(at)
    assert not at.warning
    assert widget(at, "emb").value == "a50_c-125" and at.query_params["emb"] == "a50_c-125"
    assert embedding_editor(at).value.loc["cat"].tolist()[2] == "-1.25"
