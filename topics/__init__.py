"""One folder per page, and the reading order of the chapter.

Each topic folder holds what only its page uses: ``page.py`` (layout only), ``view.py`` (every
number the page shows, from its settings; no Streamlit), its figures, its checks against the
sources and its Reproduce script. Its ``__init__.py`` declares the page (:class:`ui.pages.PageInfo`):
title, path and the URL keys it owns. No topic imports another; this module is the one place that
knows them all, so ``streamlit_app.py`` and the Overview read the table of contents from here.
"""

from __future__ import annotations

from importlib import import_module

from ui.pages import PageInfo

# The chapter's reading order: the navigation, and the previous/next links.
ORDER: tuple[str, ...] = (
    "overview",
    "read_along",
    "recap",
    "three_matrices",
    "layer",
    "learning",
    "scaling",
    "masking",
    "dropout",
    "multihead",
    "cost",
    "next",
    "classroom",  # not a chapter topic: the instructor's page, last
)

PAGES: tuple[PageInfo, ...] = tuple(import_module(f"{__name__}.{name}").PAGE for name in ORDER)


def page_at(url_path: str) -> PageInfo:
    """The page registered at ``url_path`` (the default page also answers at "")."""
    for p in PAGES:
        if p.url_path == url_path or (url_path == "" and p is PAGES[0]):
            return p
    raise KeyError(url_path)


def page_of(topic: str) -> PageInfo:
    """The page of the topic folder ``topic`` (``"three_matrices"``)."""
    return dict(zip(ORDER, PAGES, strict=True))[topic]


def tour_step(key: str) -> tuple[int, str]:
    """The tour's step whose key is ``key`` (``topics/read_along/steps``): its number, 1-based as
    its link's ``step`` says it, and its title. A page links to the step that teaches what it draws."""
    from topics.read_along.steps import STEPS  # the tour reads every view: only when a page asks

    for number, d in enumerate(STEPS, start=1):
        if d.key == key:
            return number, d.title
    raise KeyError(key)
