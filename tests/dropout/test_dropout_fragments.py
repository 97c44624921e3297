"""The page's fragments (issue 25): a focus or cell click redraws only what shows the focus, so the
rest of the view must not depend on it; Resample redraws only what the draws change."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from topics.dropout import view
from topics.dropout.view import Settings

FOCUS_FIELDS = {"settings", "focus", "cell_key", "cell", "draw_caption"}


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and bool(np.array_equal(a, b))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    return a == b


@pytest.fixture(scope="module")
def base() -> view.View:
    return view.build(Settings(generator="numpy", draws=1_000))


@pytest.mark.parametrize(
    ("focus", "cell", "relative"), [(None, None, None), (0, None, "row"), (3, 1, None), (5, 5, "matrix")]
)
def test_the_focus_changes_only_the_focus_part_of_the_view(base, focus, cell, relative):
    v = view.focused(base, focus, cell, relative)
    for f in dataclasses.fields(view.View):
        if f.name not in FOCUS_FIELDS:
            assert _same(getattr(v, f.name), getattr(base, f.name)), f.name
    # and it is what the page's one-call build gives at that focus
    whole = view.build(Settings(generator="numpy", draws=1_000, focus=focus, cell=cell, relative=relative))
    for f in dataclasses.fields(view.View):
        if f.name != "settings":
            assert _same(getattr(v, f.name), getattr(whole, f.name)), f.name


def test_what_stands_outside_the_resample_fragment_does_not_depend_on_the_seed():
    # The title and the lead are all the page draws in its main body outside the fragment.
    a = view.build(Settings(generator="numpy", draws=1_000, seed=1))
    b = view.build(Settings(generator="numpy", draws=1_000, seed=2))
    assert a.lead == b.lead == view.lead(a.p)
    assert not np.array_equal(a.first, b.first)  # while the draws themselves do change
