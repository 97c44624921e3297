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
    "x" * 10_000,
    "9" * 10_000,
]


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
    q = {k: rng.choice(FIXED[:-2]) for k in keys}  # 10 kB values are covered by AppTest
    q["unknown"] = rng.choice(FIXED)
    return q
