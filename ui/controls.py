"""Sidebar controls bound to the URL, so the address bar is always a share link to the view.

Every helper passes ``bind="query-params"`` and the caller's stable ``key`` (the query
parameter's name). Streamlit drops a URL value it cannot parse or that falls outside the
control's range and shows the default instead, so a hostile link never raises. Helpers return
plain values; pages hand them to ``core``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Literal, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

T = TypeVar("T")
N = TypeVar("N", int, float)

BIND: Final = "query-params"
Bind = Literal["query-params"] | None


def select(
    label: str,
    options: Sequence[T],
    *,
    key: str,
    default: T,
    format_func: Callable[[T], str] = str,
    help: str | None = None,
    on_change: Callable[[], None] | None = None,
    where: DeltaGenerator | None = None,
) -> T:
    """A sidebar selectbox; the URL holds the option's label as ``format_func`` writes it.

    ``where`` is a container in the sidebar to draw it in instead of the sidebar's end: a fragment
    that draws its own controls (the focus and cell controls) keeps their place in the sidebar."""
    return (where if where is not None else st.sidebar).selectbox(
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
    min_value: N,
    max_value: N,
    default: N,
    *,
    key: str,
    step: N | None = None,
    help: str | None = None,
    format: str | None = None,
    on_change: Callable[[], None] | None = None,
) -> N:
    """A sidebar slider over a numeric range; an out-of-range URL value gives the default."""
    return st.sidebar.slider(
        label,
        min_value,
        max_value,
        default,
        step=step,
        key=key,
        bind=BIND,
        help=help,
        format=format,
        on_change=on_change,
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
    ``inf``/``1e999`` (OverflowError) before its own fallback can apply, so a URL value that is not
    one integer within the bounds is dropped first (see ``_bind_if``).
    """
    return int(
        st.sidebar.number_input(
            label,
            min_value=min_value,
            max_value=max_value,
            value=default,
            step=step,
            key=key,
            bind=_bind_if(key, lambda v: _integer_within(v, min_value, max_value)),
            help=help,
            on_change=on_change,
        )
    )


def _integer_within(value: str, min_value: int, max_value: int) -> bool:
    try:
        return min_value <= int(value.strip()) <= max_value
    except ValueError:
        return False


def _bind_if(key: str, readable: Callable[[str], bool]) -> Bind:
    """``BIND`` when the URL has no value for ``key``, or exactly one that ``readable`` accepts.

    Otherwise the value is dropped from the URL and the control left unbound for this run only,
    so it shows its default, as every other control does with a bad value.
    """
    values = st.query_params.get_all(key)
    if not values or (len(values) == 1 and readable(values[0])):
        return BIND
    del st.query_params[key]
    return None


def toggle(label: str, default: bool, *, key: str, help: str | None = None) -> bool:
    """A sidebar on/off switch."""
    return bool(st.sidebar.toggle(label, value=default, key=key, bind=BIND, help=help))


def text(
    label: str,
    default: str,
    *,
    key: str,
    max_chars: int,
    help: str | None = None,
    on_change: Callable[[], None] | None = None,
    readable: Callable[[str], bool] | None = None,
) -> str:
    """A text box (in the page body); the page parses what comes back, never evaluates it.

    ``max_chars`` is required: it caps what a reader can type, and a link whose value is longer is
    dropped, so no text box can push a share link towards Streamlit's URL limit (524,288 chars).
    A link value ``readable`` rejects is dropped too (the page says why, if it wants to).
    """
    bind = _bind_if(key, lambda v: len(v) <= max_chars and (readable is None or readable(v)))
    return st.text_input(
        label, value=default, key=key, bind=bind, help=help, max_chars=max_chars, on_change=on_change
    )


def button(label: str, *, key: str, on_click: Callable[[], None], help: str | None = None) -> bool:
    """A sidebar button. A click is an event, not a state, so it cannot live in the URL: give it
    an ``on_click`` that changes a bound control (a seed, say) and the new view is a link again.
    """
    return st.sidebar.button(label, key=key, on_click=on_click, help=help, width="stretch")
