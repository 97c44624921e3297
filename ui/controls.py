"""Sidebar controls bound to the URL, so the address bar is always a share link to the view.

Every helper passes ``bind="query-params"`` and the caller's stable ``key`` (the query
parameter's name). Streamlit drops a URL value it cannot parse or that falls outside the
control's range and shows the default instead, so a hostile link never raises. Helpers return
plain values; pages hand them to ``core``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import streamlit as st

T = TypeVar("T")

BIND = "query-params"


def select(
    label: str,
    options: Sequence[T],
    *,
    key: str,
    default: T,
    format_func: Callable[[T], str] = str,
    help: str | None = None,
    on_change: Callable[[], None] | None = None,
) -> T:
    """A sidebar selectbox; the URL holds the option's label as ``format_func`` writes it."""
    return st.sidebar.selectbox(
        label,
        options,
        index=list(options).index(default),
        key=key,
        bind=BIND,
        format_func=format_func,
        help=help,
        on_change=on_change,
    )


def radio(
    label: str,
    options: Sequence[T],
    *,
    key: str,
    default: T,
    format_func: Callable[[T], str] = str,
    help: str | None = None,
    horizontal: bool = False,
    captions: Sequence[str] | None = None,
) -> T:
    """A sidebar radio group, for two to four choices a reader should see at once."""
    return st.sidebar.radio(
        label,
        options,
        index=list(options).index(default),
        key=key,
        bind=BIND,
        format_func=format_func,
        help=help,
        horizontal=horizontal,
        captions=captions,
    )


def slider(
    label: str,
    min_value: T,
    max_value: T,
    default: T,
    *,
    key: str,
    step: Any = None,
    help: str | None = None,
    format: str | None = None,
) -> T:
    """A sidebar slider over a numeric range; an out-of-range URL value gives the default."""
    return st.sidebar.slider(
        label, min_value, max_value, default, step=step, key=key, bind=BIND, help=help, format=format
    )


def select_slider(
    label: str,
    options: Sequence[T],
    *,
    key: str,
    default: T,
    format_func: Callable[[T], str] = str,
    help: str | None = None,
) -> T:
    """A sidebar slider over a fixed ladder of values (powers of two, named sizes)."""
    return st.sidebar.select_slider(
        label, options=options, value=default, key=key, bind=BIND, format_func=format_func, help=help
    )


def integer(
    label: str,
    min_value: int,
    max_value: int,
    default: int,
    *,
    key: str,
    step: int = 1,
    help: str | None = None,
    on_change: Callable[[], None] | None = None,
) -> int:
    """A sidebar number input for integers such as seeds and widths.

    Streamlit 1.67 converts a bound integer input's URL value with ``int(float(v))`` and raises on
    ``inf``/``1e999`` (OverflowError) before its own fallback can apply. So the URL value is
    checked here first; one it would choke on is dropped and the input left unbound for this run
    only, which shows the default, as every other control does with a bad value.
    """
    bind = BIND if _url_integer_ok(key, min_value, max_value) else None
    if bind is None:
        del st.query_params[key]
    return int(
        st.sidebar.number_input(
            label,
            min_value=min_value,
            max_value=max_value,
            value=default,
            step=step,
            key=key,
            bind=bind,
            help=help,
            on_change=on_change,
        )
    )


def _url_integer_ok(key: str, min_value: int, max_value: int) -> bool:
    """True when the URL has no value for ``key`` or exactly one integer within the bounds."""
    values = st.query_params.get_all(key)
    if not values:
        return True
    try:
        return len(values) == 1 and min_value <= int(values[0].strip()) <= max_value
    except ValueError:
        return False


def toggle(label: str, default: bool, *, key: str, help: str | None = None) -> bool:
    """A sidebar on/off switch."""
    return bool(st.sidebar.toggle(label, value=default, key=key, bind=BIND, help=help))


def text(label: str, default: str, *, key: str, help: str | None = None, max_chars: int | None = None) -> str:
    """A text box (in the page body); the page parses what comes back, never evaluates it."""
    return st.text_input(label, value=default, key=key, bind=BIND, help=help, max_chars=max_chars)


def button(label: str, *, key: str, on_click: Callable[[], None], help: str | None = None) -> bool:
    """A sidebar button. A click is an event, not a state, so it cannot live in the URL: give it
    an ``on_click`` that changes a bound control (a seed, say) and the new view is a link again.
    """
    return st.sidebar.button(label, key=key, on_click=on_click, help=help, width="stretch")
