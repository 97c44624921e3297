"""Hostile query-string values, shared by the AppTest fuzz and the browser sample."""

from __future__ import annotations

import random

from hypothesis import strategies as st

FIXED = [
    "",
    " ",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e999",
    "-1e999",
    "-1",
    "0",
    "-0",
    "1.5",
    "99999999999999999999999999",
    "-99999999999999999999999999",
    "0x10",
    "true",
    "None",
    "null",
    "[]",
    "{}",
    "__import__('os').system('true')",
    "<script>alert(1)</script>",
    "%00",
    "../../etc/passwd",
    "🙂",
    "Ω−Ωᵀ",
]
# Sentences for the shared `text` box: markup, bidi and control characters, emoji, repeats, numbers.
SENTENCES = [
    "the cat sat on the mat",
    "<script>alert(1)</script> <b>bold</b> <img src=x onerror=alert(1)>",
    "$x$ **b** [l](javascript:alert(1)) :red[x] `c` | a |",
    "\u202eabc \u2067שלום\u2069 مرحبا a\x00b\x1bc \u200b",
    "🙂 👨\u200d👩\u200d👧 🏳️\u200d🌈 ❤️",
    "the the the the the",
    "1 2 3 1 2024-01-01 1e999 nan",
    "x" * 400,
]
# Embedding edits strings (`emb`): malformed, truncated, sized for another sentence, out of range.
EDITS = [
    "_b57c-125",
    "a-999",
    "p999",
    "a1_a1_a1_a1_a1_a1_a1",
    "a1000",
    "a07",
    "_",
    "a1a1",
    "a١",
    "a",
    "z1",
    "a1" * 300,
]
LONG = ["x" * 10_000, "9" * 10_000, "word " * 5_000, "a1_" * 2_000]
FIXED += [*SENTENCES, *EDITS, *LONG]

# Token labels for the Reproduce scripts: quotes, escapes, control and bidi characters, code.
LABELS = (
    'say "hi"',
    "it's",
    "back\\slash",
    '"""',
    "new\nline",
    "tab\there",
    "\x00nul",
    "🙂 emoji",
    "\u202eright-to-left",
    "\ud800 lone surrogate",
    "x" * 300,
    "# not a comment",
    "__import__('os').system('true')",
    "",
    " ",
    ":",
)


def values() -> st.SearchStrategy[str]:
    """A URL value: one of the known-bad ones, any unicode text, or a number of any size or sign."""
    return st.one_of(
        st.sampled_from(FIXED),
        st.text(max_size=40),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.text(alphabet="0123456789.-e+", min_size=1, max_size=30),
    )


def queries(keys: list[str]) -> st.SearchStrategy[dict[str, str | list[str]]]:
    """A query string over the page's bound keys plus unknown ones, with repeated keys as lists."""
    all_keys = st.sampled_from([*keys, "unknown", "embed", "x" * 200, "🙂"]) if keys else st.just("unknown")
    value = st.one_of(values(), st.lists(values(), min_size=2, max_size=3))
    return st.dictionaries(all_keys, value, min_size=1, max_size=len(keys) + 2)


def sample(keys: list[str], rng: random.Random) -> dict[str, str]:
    """One hostile query for the browser: every bound key gets a bad value, plus an unknown key."""
    short = [v for v in FIXED if len(v) <= 1_000]  # 10 kB values are covered by AppTest
    q = {k: rng.choice(short) for k in keys}
    q["unknown"] = rng.choice(FIXED)
    return q
