"""The reader's tour progress, kept in their own browser: each prediction's first guess, its verdict
and the sentence it was asked at, in ``localStorage`` (nothing on the server, nothing in the link).

A small Components v2 element (``st.components.v2.component`` with inline JavaScript) is the only
way a script reaches the browser's storage. On the first run of a session it reads the stored
answers and sends them back as its ``saved`` state; the callback merges them into the session
(a first try already made stays the first), so a reload, a new tab, another day and a server
restart (a new session) all find the tally again. From then on each run hands the element the
session's answers, which it merges into the stored ones (a first try already stored stays first,
so two tabs never undo each other's). "Start over" clears both, after a confirmation.

The same element keeps a learner id for class mode (``ui.classroom``): 16 random bytes drawn by
the browser (``crypto.getRandomValues``, no name, no address), stored under its own entry (so
"Start over" keeps it) and sent with the answers, so a learner who reloads or whose next tab
lands on another replica stays one learner of their class.

A browser that refuses storage (private mode, storage blocked for the site) answers
``{"ok": false}``: the tour then keeps the session's tally only, as before, and says so in one line.
A stored answer restores its step's reveal only at the sentence it was asked at; at another
sentence the step asks afresh (its answer differs), while the tally keeps the first try.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from typing import Any

import streamlit as st

from core.sentence import Sentence, format_edits
from ui import classroom

ANSWERS = "_read_along_answers"  # {step key: {"guess": float | None, "right": bool, "sentence": {...}}}
ELEMENT_KEY = "_read_along_store"  # the element; its state "saved" is what the browser had stored
_LOADED = "_read_along_loaded"  # True: read from the browser; False: the browser refused storage
_RESTORE = "_read_along_restore"  # answers read, to be shown as reveals on the next run
_CLEAR = "_read_along_clear"  # set by "Start over": the next run has the element clear the store
STORAGE_KEY = "attention-with-weights/read-along"  # the localStorage entry

_STORE = st.components.v2.component(
    "read_along_progress",
    html="<div></div>",
    js=f"const KEY = {json.dumps(STORAGE_KEY)};\n"
    + """function storage() {
  try {
    const s = window.localStorage;
    s.setItem(KEY + "/probe", "1");
    s.removeItem(KEY + "/probe");
    return s;
  } catch (e) { return null; }
}
function stored(s) {
  try { return JSON.parse(s.getItem(KEY) || "{}").answers || {}; } catch (e) { return {}; }
}
function learner(s) {  // this browser's anonymous learner id: random, kept, never a name
  if (!s) return null;
  let id = s.getItem(KEY + "/learner");
  if (!id || !/^[A-Za-z0-9_-]{22}$/.test(id)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = btoa(String.fromCharCode(...bytes)).replace(/[+]/g, "-").replace(/[/]/g, "_").replace(/=+$/, "");
    try { s.setItem(KEY + "/learner", id); } catch (e) {}
  }
  return id;
}
export default function ({ data, setStateValue }) {
  if (!data) return;
  const s = storage();
  if (s && data.clear) s.removeItem(KEY);
  if (s && data.write) {  // a first try already stored stays the first
    const answers = { ...data.write, ...stored(s) };
    try { s.setItem(KEY, JSON.stringify({ v: 1, answers })); } catch (e) {}
  }
  if (!data.loaded) {  // the first run of a session: send what is stored ("at": always a change)
    const at = Date.now();
    setStateValue("saved", s ? { ok: true, answers: stored(s), learner: learner(s), at } : { ok: false, at });
  }
}""",
)


def asked_at(s: Sentence) -> dict[str, Any]:
    """The sentence a prediction is asked at, as its link carries it."""
    return {"text": s.text, "dim": s.width, "emb": format_edits(dict(s.edits))}


def answers() -> dict[str, dict[str, Any]]:
    """Each prediction answered (revealed) so far, in this session and as stored in the browser."""
    return dict(st.session_state.get(ANSWERS, {}))


def tally() -> dict[str, bool]:
    """Each prediction answered so far, and whether its first try was right."""
    return {k: bool(a["right"]) for k, a in answers().items()}


def count(key: str, guess: float | None, right: bool, at: Mapping[str, Any]) -> None:
    """The first try at ``key`` is kept (its guess, verdict and sentence); later tries change nothing."""
    if key not in answers():
        entry = {"guess": None if guess is None else float(guess), "right": bool(right), "sentence": dict(at)}
        st.session_state[ANSWERS] = {**answers(), key: entry}


def _valid(raw: Any, keys: frozenset[str]) -> dict[str, dict[str, Any]]:
    """The stored answers that make sense: a known step, a verdict, a finite guess or none."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(raw, dict):
        return out
    for key, a in raw.items():
        if key not in keys or not isinstance(a, dict) or not isinstance(a.get("right"), bool):
            continue
        guess = a.get("guess")
        ok = guess is None or (isinstance(guess, (int, float)) and not isinstance(guess, bool))
        if not ok or (guess is not None and not math.isfinite(guess)):
            continue
        at = a.get("sentence")
        out[key] = {"guess": guess, "right": a["right"], "sentence": at if isinstance(at, dict) else {}}
    return out


def _received(keys: frozenset[str]) -> None:
    """The browser's answer to the first run: merge what it had stored (the stored first try wins)."""
    state = st.session_state.get(ELEMENT_KEY)
    saved = state.get("saved") if state is not None and hasattr(state, "get") else None
    if not isinstance(saved, dict):
        return
    st.session_state[_LOADED] = bool(saved.get("ok"))
    classroom.adopt_learner(saved.get("learner"))
    stored = _valid(saved.get("answers"), keys)
    st.session_state[ANSWERS] = {**answers(), **stored}
    st.session_state[_RESTORE] = stored


def _start_over(reveal_prefixes: tuple[str, ...]) -> None:
    st.session_state[ANSWERS] = {}
    st.session_state[_CLEAR] = True
    for k in [k for k in st.session_state if str(k).startswith(reveal_prefixes)]:
        del st.session_state[k]


def restored(at: Mapping[str, Any]) -> dict[str, float | None]:
    """The stored first guesses asked at sentence ``at``, once, when the browser has just sent them:
    their steps open revealed, as they were left."""
    stored = st.session_state.pop(_RESTORE, {})
    return {k: a["guess"] for k, a in stored.items() if a["sentence"] == dict(at)}


def keep(keys: frozenset[str], reveal_prefixes: tuple[str, ...]) -> None:
    """The sidebar's progress controls, and the element that keeps the answers in the browser.

    ``keys`` are the steps that ask; ``reveal_prefixes`` the session keys "Start over" clears."""
    loaded = st.session_state.get(_LOADED)
    done = answers()
    with st.sidebar.popover("Start over", icon=":material/restart_alt:", disabled=not done):
        st.markdown(f"Forget your {len(done)} answered prediction{'s' * (len(done) != 1)} in this browser?")
        st.button(
            "Yes, start over", key="_read_along_start_over", on_click=_start_over, args=(reveal_prefixes,)
        )
    if loaded is False:
        st.sidebar.caption("This browser keeps no storage for this site: your answers last until you leave.")
    if not st.runtime.exists():
        return
    data = {"loaded": loaded is not None, "write": done or None, "clear": st.session_state.pop(_CLEAR, False)}
    with st.sidebar:
        _STORE(key=ELEMENT_KEY, data=data, height=1, on_saved_change=functools.partial(_received, keys))
