"""The app's table of contents: one entry per page, in navigation order, with the URL keys it owns.

``streamlit_app.py`` builds ``st.navigation`` from it and the Overview lists it, so a page is
added in one place. A page is listed only when it works.

Every control is bound to the URL under its widget key, and Streamlit keeps a bound widget's
value in session state under that key across page switches (1.67 restores it on any page that
binds the same key). So a key bound by two pages is one value shared by both: a seed chosen on
one page would silently become another page's seed. Each page therefore owns its keys, listed
here as data; a key in ``SHARED_KEYS`` is shared on purpose, and nothing else may be bound by
two pages (``tests/app/test_url_keys.py`` fails otherwise). ``legacy`` maps the keys of links
published before the keys were namespaced to today's, so those links still open their view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

# The reader's sentence (ui.sentence): its text, its embedding width and its embedding edits.
SENTENCE_KEYS: tuple[str, ...] = ("text", "dim", "emb")
# Keys several pages bind on purpose: one value that follows the reader from page to page.
SHARED_KEYS: frozenset[str] = frozenset(SENTENCE_KEYS)


def _frozen(mapping: Mapping[str, str] | None = None) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping or {}))


ABOUT = (
    "**Attention, with weights**: chapter 3 of *Build a Large Language Model (From Scratch)* as live "
    "figures. Every number is computed here, in NumPy, from the book's six tokens and seeded weights."
)


@dataclass(frozen=True)
class PageInfo:
    path: str  # the script, relative to the repository root (app_pages/, not pages/: see the README)
    title: str
    icon: str  # a Material Symbols name, as st.Page takes it
    url_path: str  # stable: share links depend on it
    blurb: str  # one line for the Overview
    keys: tuple[str, ...] = ()  # every URL key the page's controls bind, conditional ones included
    legacy: Mapping[str, str] = field(default_factory=_frozen)  # old URL key -> key in ``keys``

    @property
    def follows_sentence(self) -> bool:
        """Whether the page runs on the reader's sentence (it binds the sentence's keys)."""
        return set(SENTENCE_KEYS) <= set(self.keys)


# Keys of the weight-set control (ui.weights); its pages prefix them, all but Three matrices.
_WEIGHT_KEYS = ("weights", "seed", "init")


def _prefixed(prefix: str, names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(prefix + n for n in names)


def _renamed(prefix: str, names: tuple[str, ...]) -> Mapping[str, str]:
    return _frozen({n: prefix + n for n in names})


PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "app_pages/overview.py",
        "Overview",
        ":material/home:",
        "overview",
        "What this is, the notation, the tokens.",
    ),
    PageInfo(
        "app_pages/recap.py",
        "Recap: attention without weights",
        ":material/replay:",
        "recap",
        "XXᵀ, a softmax, and why six outputs collapse onto one token.",
        keys=(*SENTENCE_KEYS, "query", "key"),
    ),
    PageInfo(
        "app_pages/three_matrices.py",
        "Three matrices",
        ":material/grid_on:",
        "three-matrices",
        "W_q, W_k, W_v, and the asymmetry only two different matrices buy.",
        keys=(*SENTENCE_KEYS, "mode", *_WEIGHT_KEYS, "focus"),
    ),
    PageInfo(
        "app_pages/masking.py",
        "Masking the future",
        ":material/visibility_off:",
        "masking",
        "Two causal paths that look unrelated half-way and end identical; a zero is not a mask.",
        keys=(*SENTENCE_KEYS, *_prefixed("mask_", _WEIGHT_KEYS), "stage", "fill", "logits", "mask_focus"),
        legacy=_renamed("mask_", _WEIGHT_KEYS),
    ),
    PageInfo(
        "app_pages/cost.py",
        "What n² costs",
        ":material/memory:",
        "n-squared",
        "Bytes, cards and hours for one attention matrix, from 1 token to GPT-4.1's window.",
        keys=("n", "bytes", "gpu", "cost_heads", "layers", "t0_ms", "cost_d_in", "cost_d_k"),
        legacy=_renamed("cost_", ("heads", "d_in", "d_k")),
    ),
    PageInfo(
        "app_pages/learning.py",
        "Learning to attend",
        ":material/school:",
        "learning-to-attend",
        "Gradient descent turns the dials: W_q and W_k fitted to a target pattern, mode by mode.",
        keys=(
            *SENTENCE_KEYS,
            "target",
            "token",
            "learn_mode",
            "optimiser",
            "lr",
            "steps",
            "step",
            "learn_width",
            *_prefixed("learn_", _WEIGHT_KEYS),
            "learn_focus",
        ),
        legacy=_renamed("learn_", ("mode", *_WEIGHT_KEYS)),
    ),
    PageInfo(
        "app_pages/next.py",
        "What comes next",
        ":material/arrow_forward:",
        "what-comes-next",
        "A block's parameters, attention's blindness to order, and the KV cache.",
        keys=(
            *SENTENCE_KEYS,
            "block",
            "emb_dim",
            "n_heads",
            "n_layers",
            "context_length",
            "ff_mult",
            "qkv_bias",
            "kv_tokens",
            "kv_bytes",
            "kv_batch",
            "perm",
            "next_focus",
        ),
        legacy=_frozen({"preset": "block"}),
    ),
    PageInfo(
        "app_pages/dropout.py",
        "Dropout",
        ":material/grain:",
        "dropout",
        "Inverted dropout on causal weights: rows sum to 1 only on average, and row 1 dies half the time.",
        keys=(*SENTENCE_KEYS, "p", "scaling", "generator", "drop_seed", "drop_draws", "drop_focus"),
        legacy=_renamed("drop_", ("seed", "draws")),
    ),
    PageInfo(
        "app_pages/scaling.py",
        "Divide by √d_k",
        ":material/functions:",
        "divide-by-sqrt-dk",
        "Scores spread like √d_k; without the divisor the softmax's gradient dies.",
        keys=("d_k", "divisor", "draws", "keys", "dk_seed", "sampler", "dk_tail"),
        legacy=_renamed("dk_", ("seed",)),
    ),
    PageInfo(
        "app_pages/multihead.py",
        "Multi-head",
        ":material/view_column:",
        "multi-head",
        "One W_q sliced into stripes: the wrapper against the split class, and a stopwatch.",
        keys=(*SENTENCE_KEYS, "preset", "kind", "heads", "d_in", "d_out", "mh_seed", "mh_focus"),
        legacy=_renamed("mh_", ("seed",)),
    ),
)

# The reading order of SPEC.md; a page not listed here goes last.
_ORDER = (
    "overview",
    "recap",
    "three-matrices",
    "learning-to-attend",
    "divide-by-sqrt-dk",
    "masking",
    "dropout",
    "multi-head",
    "n-squared",
    "what-comes-next",
)
PAGES = tuple(sorted(PAGES, key=lambda p: _ORDER.index(p.url_path) if p.url_path in _ORDER else len(_ORDER)))


def page_at(url_path: str) -> PageInfo:
    """The page registered at ``url_path`` (the default page also answers at "")."""
    for p in PAGES:
        if p.url_path == url_path or (url_path == "" and p is PAGES[0]):
            return p
    raise KeyError(url_path)
