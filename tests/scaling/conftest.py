"""The page's reference and default view, computed once per test process and shared by its tests.

The reference is 10⁶ exact draws at each of four d_k (about two seconds): every test that needs
it, the math tests, the view tests and the Reproduce oracle, reads this one.
"""

from __future__ import annotations

import functools

import pytest

from topics.scaling import view
from topics.scaling.monte_carlo import Reference


@pytest.fixture(scope="session")
def refs() -> dict[int, Reference]:
    """The page's reference (:func:`topics.scaling.view.references`), the plain function the cache wraps."""
    return view.references()


@pytest.fixture(scope="session")
def build(refs):
    """:func:`topics.scaling.view.build` with the shared reference, its studies memoised as the page's
    caches would hold them (the plain functions are pure: the same arguments, the same results)."""
    study, post = functools.cache(view.whole_study), functools.cache(view.post_study)

    def make(s: view.Settings | None = None) -> view.View:
        return view.build(s or view.Settings(), study=study, reference=lambda: refs, post_setting=post)

    return make


@pytest.fixture(scope="session")
def default_view(build) -> view.View:
    return build()
