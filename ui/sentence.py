"""The sentence control every token page shares: type a sentence, widen or edit its embeddings.

One call, :func:`sentence_control`, at the top of a token page returns a frozen
:class:`core.sentence.Sentence` (labels, float64 embeddings, width, whether it is the book's
sentence) for the page to hand to ``core``; the group sits at the top of the sidebar. Three URL
keys carry it, so a share link reproduces the sentence and every edit, and Streamlit keeps them
across page switches: ``text`` (the sentence), ``dim`` (the embedding width) and ``emb`` (the
edits, in the encoding ``core.sentence`` documents). All three are declared shared in ``ui.pages``.

The embedding editor is an ``st.data_editor``, built only while its expander is open (closed,
it costs a rerun nothing), whose changes are read in its ``on_change`` callback, before the
script runs: a valid edit is written into the bound ``emb`` box (and so into the URL); anything
else (not a number, not finite, outside ±9.99, or a cell left empty) is refused with a message
naming what was typed and why. Either way the editor is drawn afresh under a new key, so a
refused cell shows its old value again and no edit is ever applied twice. Its cells are text
columns: a number column turns a typed "abc" into 0 in the browser, before the app could see it,
and a text column sends the typed text for ``core.sentence`` to read.

Labels are plain text. :func:`md` escapes one for Markdown (metric labels, prose) and
``ui.figures`` escapes them for Plotly, so a token such as ``<b>`` or ``$x$`` is shown as typed.
"""

from __future__ import annotations

import contextlib

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.errors import StreamlitAPIException

from core import sentence
from core.sentence import Sentence
from ui import controls
from ui import format as fmt

TEXT_KEY, WIDTH_KEY, EDITS_KEY = "text", "dim", "emb"
KEYS = (TEXT_KEY, WIDTH_KEY, EDITS_KEY)  # the URL keys, declared shared in ui.pages
TEXT_MAX_CHARS = 400  # 32 tokens of 12 characters; a longer link is cut to its first 32 tokens
_EDITOR = "_sentence_editor"  # a counter: the editor's key changes after every edit it reports
_REFUSED = "_sentence_refused"  # a refused edit's message, shown on the run after the edit
_DRAWN = "_sentence_drawn"  # the sentence the main script drew for the page running now
EDITOR_OPEN = "sentence_editor_open"  # the embedding editor's expander: open (True) or closed
md = fmt.md  # ``text`` with every Markdown-active character escaped: shown as typed, never rendered


def _current() -> Sentence:
    """The sentence the bound controls hold now (what the last run showed), for callbacks."""
    try:
        width = int(st.session_state.get(WIDTH_KEY, sentence.BOOK_WIDTH))
        return sentence.build(
            str(st.session_state.get(TEXT_KEY, sentence.BOOK_TEXT)),
            width,
            str(st.session_state.get(EDITS_KEY, "")),
        )
    except ValueError:
        return sentence.book()


def _text_changed() -> None:
    """Keep the edits of tokens still at their place with the same word; drop the others."""
    old = st.session_state.get("_sentence_words", sentence.book().words)  # the last run's tokens
    new, _ = sentence.split(str(st.session_state.get(TEXT_KEY, "")))
    edits = _edits_in_box(len(old))
    kept = {(r, d): v for (r, d), v in edits.items() if r < len(new) and old[r] == new[r]}
    st.session_state[EDITS_KEY] = sentence.format_edits(kept)
    _redraw_editor()


def _width_changed() -> None:
    """Keep the edits of dimensions the new width still has."""
    width = int(st.session_state.get(WIDTH_KEY, sentence.BOOK_WIDTH))
    edits = _edits_in_box(sentence.MAX_TOKENS, sentence.MAX_WIDTH)
    st.session_state[EDITS_KEY] = sentence.format_edits({k: v for k, v in edits.items() if k[1] < width})
    _redraw_editor()


def _edits_in_box(n: int, width: int = sentence.MAX_WIDTH) -> dict[tuple[int, int], int]:
    try:
        return sentence.parse_edits(str(st.session_state.get(EDITS_KEY, "")), n, width)
    except ValueError:
        return {}


def _redraw_editor() -> None:
    st.session_state[_EDITOR] = st.session_state.get(_EDITOR, 0) + 1


def _edited(editor_key: str) -> None:
    """The editor's ``on_change``: valid cells go into the edits box, others are refused."""
    changes = st.session_state.get(editor_key, {}).get("edited_rows", {})
    cells = {
        (int(row), int(col) - 1): v
        for row, edited in changes.items()
        for col, v in edited.items()
        if str(col).isdecimal() and str(row).isdecimal()  # dimension columns only, never the token
    }
    payload, refused = sentence.edit(_current(), cells)
    st.session_state[EDITS_KEY] = payload
    if refused:  # escaped: what was typed ("<b>", "**") and the token are shown as typed
        st.session_state[_REFUSED] = md(
            "Edit refused, the cell keeps its value: " + "; ".join(refused) + ". "
            "A cell takes a number from −9.99 to 9.99."
        )
    _redraw_editor()


def _back_to_the_book() -> None:
    st.session_state[TEXT_KEY] = sentence.BOOK_TEXT
    st.session_state[WIDTH_KEY] = sentence.BOOK_WIDTH
    st.session_state[EDITS_KEY] = ""
    st.session_state["_sentence_words"] = sentence.book().words
    _redraw_editor()


def _fit_link_text() -> str | None:
    """A link whose sentence is longer than the box takes keeps its first tokens, with a note
    (the box would otherwise drop it whole). Runs before the box: the box then drops the link's
    value from the URL and shows this one, and :func:`sentence_control` writes it into the URL."""
    values = st.query_params.get_all(TEXT_KEY)
    if TEXT_KEY in st.session_state or len(values) != 1 or len(values[0]) <= TEXT_MAX_CHARS:
        return None  # the box already holds a value (it wins), or the link's fits
    words, typed = sentence.split(values[0])
    kept: list[str] = []
    for w in words:
        if len(" ".join([*kept, w])) > TEXT_MAX_CHARS:
            break
        kept.append(w)
    st.session_state[TEXT_KEY] = " ".join(kept)
    return (
        f"The link's sentence is {len(values[0]):,} characters long ({typed:,} tokens); "
        f"the box takes {TEXT_MAX_CHARS}, so the pages use its first {len(kept)} tokens."
    )


def _link_edits_problem(n: int, width: int) -> str | None:
    """Why a link's edits do not fit the sentence, or None. Only a link's: once the box holds a
    value (a reader's, or the last page's), the box is what the URL follows."""
    values = st.query_params.get_all(EDITS_KEY)
    if not values or EDITS_KEY in st.session_state:
        return None
    if len(values) > 1:
        return "the link gives them more than once"
    try:
        sentence.parse_edits(values[0], n, width)
    except ValueError as err:
        return str(err)
    return None


def sentence_control() -> Sentence:
    """The sentence every figure on a token page uses, drawn as the sidebar's sentence group.

    ``streamlit_app.py`` draws the group (:func:`draw_for_page`) before it runs a token page,
    and the page's call returns that sentence. The widgets must be created by the main script:
    Streamlit 1.67 drops a URL parameter on Back and Forward when the widget bound to it was
    last created by another page's script, so a group drawn by each page would lose the
    sentence on every Back to a token page. Run on its own, a page draws the group itself.
    """
    drawn = st.session_state.pop(_DRAWN, None)
    return drawn if isinstance(drawn, Sentence) else _draw()


def draw_for_page() -> None:
    """Draw the sentence group for the token page about to run (called by ``streamlit_app.py``)."""
    st.session_state[_DRAWN] = _draw()


def _draw() -> Sentence:
    """The sidebar group itself. Messages about the input (cut to 32 tokens, empty, a link's
    unreadable edits, a refused edit) are shown at the top of the page, seen on a phone too."""
    fitted = _fit_link_text()
    notes = [fitted] if fitted else []
    st.sidebar.header("Sentence")
    with st.sidebar:
        text = controls.text(
            "Your sentence",
            sentence.BOOK_TEXT,
            key=TEXT_KEY,
            max_chars=TEXT_MAX_CHARS,
            help=f"Split on spaces, punctuation attached; up to {sentence.MAX_TOKENS} tokens. "
            "Every token page uses it.",
            on_change=_text_changed,
        )
    if fitted:  # the box was unbound for this run (the link's value is too long): write the URL
        with contextlib.suppress(StreamlitAPIException):
            st.query_params[TEXT_KEY] = text
    width = controls.slider(
        "Embedding width d_in",
        sentence.MIN_WIDTH,
        sentence.MAX_WIDTH,
        sentence.BOOK_WIDTH,
        key=WIDTH_KEY,
        help="The book's embeddings are 3 wide. Wider ones keep the book's three numbers first.",
        on_change=_width_changed,
    )
    words, _ = sentence.split(text)
    n = len(words) or len(sentence.book().words)
    problem = _link_edits_problem(n, width)
    # Lazy (``on_change="rerun"``): the grid, a table of every token's numbers, is built and sent
    # only while the expander is open. The edits box below is drawn either way: it binds ``emb``.
    editor = st.sidebar.expander("Edit the embeddings", key=EDITOR_OPEN, on_change="rerun")
    slot = editor.container()
    with editor:
        payload = controls.text(
            "Edits, as the link carries them",
            "",
            key=EDITS_KEY,
            max_chars=sentence.MAX_EDITS_CHARS,
            help="Tokens separated by _, each edited dimension as a letter (a = 1) and the value in "
            "hundredths: _b57 sets dimension 2 of token 2 to 0.57.",
            readable=lambda _: problem is None,  # a link's edits that do not fit are dropped
        )
    s = sentence.build(text, width, payload)
    st.session_state["_sentence_words"] = s.words
    if editor.open:
        _editor(s, slot)
    summary = (
        "the book's sentence and embeddings"
        if s.is_book
        else f"{len(s.edits)} edited cell{'s' * (len(s.edits) != 1)}"
        if s.edits
        else "embeddings derived from each word"
    )
    st.sidebar.caption(f"{s.n} token{'s' * (s.n != 1)} × d_in {s.width}: {summary}.")
    controls.button(
        "Back to the book's sentence",
        key="sentence_reset",
        on_click=_back_to_the_book,
        help="Your journey starts with one step, 3 wide, no edits.",
    )
    st.sidebar.divider()
    refused = st.session_state.pop(_REFUSED, None)
    if problem:
        notes.append(f"The link's embedding edits could not be used ({problem}), so none are applied.")
    for note in (*notes, *s.notes, *([refused] if refused else [])):
        st.warning(note, icon=":material/edit_note:")
    return s


# Dimension columns the editor shows without scrolling in the sidebar: (its ~250 px of content
# less the 72 px token column) / 44 px a column. Past that the caption says the table scrolls.
EDITOR_FITS = 4


def _editor(s: Sentence, where: DeltaGenerator) -> None:
    """The data editor: one row per token, one column per dimension, two decimals.

    The cells are text ("0.43"), so an edit reaches :func:`_edited` as typed (see the module's
    docstring); the hundredths are printed exactly (float32's 0.8899999857 would print as 0.88).
    """
    cols = [str(j + 1) for j in range(s.width)]
    shown = [[f"{h / 100:.2f}" for h in row] for row in sentence.hundredths_of(s)]
    df = pd.DataFrame(shown, index=pd.Index(list(s.labels), name="token"), columns=cols)
    key = f"{_EDITOR}_{st.session_state.get(_EDITOR, 0)}"
    where.data_editor(
        df,
        key=key,
        on_change=_edited,
        args=(key,),
        num_rows="fixed",
        height=min(36 * (s.n + 1) + 3, 400),
        column_config={  # narrow columns: three dimensions fit the sidebar without scrolling
            "_index": st.column_config.TextColumn("token", width=72, disabled=True),
            **{c: st.column_config.TextColumn(c, width=44, alignment="right") for c in cols},
        },
        width="stretch",
    )
    scrolls = f" Scroll the table sideways for all {s.width} columns." if s.width > EDITOR_FITS else ""
    where.caption(
        "Double-click a cell and type a number from −9.99 to 9.99. The book's six words start "
        "from the book's vectors; any other word from its SHA-256, values in [0, 1)." + scrolls
    )


def checks_note(s: Sentence, note: str) -> str:
    """A checks expander's note, saying so when the sentence on screen is not the book's."""
    if s.is_book:
        return note
    return (
        f"{note} The figures above show your sentence; these checks run on the book's, "
        f"“{sentence.BOOK_TEXT}”, 3 wide."
    )


def pick(s: Sentence, preferred: str, position: int) -> str:
    """A default label: ``preferred`` if the sentence has it, else the one at ``position``
    (clipped to the sentence), so a page's default token exists in any sentence."""
    return preferred if preferred in s.labels else s.labels[min(position, s.n - 1)]
