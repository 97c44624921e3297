"""What a page declares about itself: its title, its path and the URL keys it owns.

Each topic declares its :class:`PageInfo` in its own folder (``topics/<topic>/__init__.py``), and
``topics/__init__.py`` puts them in reading order; ``streamlit_app.py`` builds ``st.navigation``
from that. A page is listed only when it works.

Every control is bound to the URL under its widget key, and Streamlit keeps a bound widget's
value in session state under that key across page switches (1.67 restores it on any page that
binds the same key). So a key bound by two pages is one value shared by both: a seed chosen on
one page would silently become another page's seed. Each page therefore owns its keys, declared
with the page as data; a key in ``SHARED_KEYS`` is shared on purpose, and nothing else may be
bound by two pages (``tests/app/test_url_keys.py`` fails otherwise). ``legacy`` maps the keys of links
published before the keys were namespaced to today's, so those links still open their view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# The reader's sentence (ui.sentence): its text, its embedding width and its embedding edits.
SENTENCE_KEYS: tuple[str, ...] = ("text", "dim", "emb")
# Keys several pages bind on purpose: one value that follows the reader from page to page.
# A class's code (ui.classroom): read from the link, never bound, on the tour and the Class page.
CLASS_KEY = "class"
SHARED_KEYS: frozenset[str] = frozenset((*SENTENCE_KEYS, CLASS_KEY))


def frozen(mapping: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """A read-only copy of ``mapping``: a page's legacy keys cannot be changed at run time."""
    return MappingProxyType(dict(mapping or {}))


ABOUT = (
    "**Attention, with weights**: chapter 3 of *Build a Large Language Model (From Scratch)* as live "
    "figures. Every number is computed here, in NumPy, from the book's six tokens and seeded weights."
)


@dataclass(frozen=True)
class PageInfo:
    path: str  # the script, from the repository root: topics/<topic>/page.py (not pages/: README)
    title: str
    icon: str  # a Material Symbols name, as st.Page takes it
    url_path: str  # stable: share links depend on it
    blurb: str  # one line for the Overview
    keys: tuple[str, ...] = ()  # every URL key the page's controls bind, conditional ones included
    legacy: Mapping[str, str] = field(default_factory=frozen)  # old URL key -> key in ``keys``
    # Keys of ``keys`` the page writes itself through ``st.query_params`` instead of binding a
    # control: Read along's step, whose every change must be a browser history entry, which a bound
    # control's change is not (ui.links).
    written: tuple[str, ...] = ()
    # The page has Back and Next of its own (a tour): its footer's page links then say "Page before"
    # and "Page after", so "Next" on it means one thing only.
    own_next: bool = False

    @property
    def follows_sentence(self) -> bool:
        """Whether the page runs on the reader's sentence (it binds the sentence's keys)."""
        return set(SENTENCE_KEYS) <= set(self.keys)


# Keys of the weight-set control (ui.weights); its pages prefix them, all but Three matrices.
WEIGHT_KEYS = ("weights", "seed", "init")


def prefixed(prefix: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """``names``, each under the page's own prefix (``drop_seed``)."""
    return tuple(prefix + n for n in names)


def renamed(prefix: str, names: tuple[str, ...]) -> Mapping[str, str]:
    """Old key -> today's prefixed key, for links published before the prefix."""
    return frozen({n: prefix + n for n in names})
