"""The table of URL keys per page (ui.pages): each page binds exactly the keys it declares, no key
is bound by two pages unless it is declared shared, and links with the old keys still open the
view they meant."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.app.conftest import WIDGET_KINDS, assert_clean, open_page, widget
from topics import PAGES
from ui.pages import SHARED_KEYS

IDS = [p.url_path for p in PAGES]

# Values that reveal a page's conditional controls (the seed and initialisation of "Any seed", the
# token of Learning's "A token you pick"), applied to whichever of these keys a page declares.
REVEAL = {
    **{f"{prefix}weights": "Any seed" for prefix in ("", "learn_", "mask_", "layer_")},
    "target": "A token you pick",
    "steps": "100",  # keeps Learning's training short
}

# Keys bound only in an open class's instructor view (tests/classroom/test_class_page.py opens one).
IN_A_CLASS = {"topics/classroom/page.py": {"class_step"}}


def bound_keys(at) -> set[str]:
    """The URL keys of the widgets on screen that are bound to the query string."""
    return {
        w.proto.query_param_key
        for kind in WIDGET_KINDS
        for w in getattr(at, kind)
        if getattr(w.proto, "query_param_key", "")
    }


def test_no_key_is_bound_by_two_pages_unless_declared_shared():
    # A key a page only reads from its link (``written``: the tour's step, the Class page's class
    # and instructor key) is bound to no control, so it cannot fight another page's control.
    counts = Counter(k for p in PAGES for k in set(p.keys) - set(p.written))
    clashes = {k: n for k, n in counts.items() if n > 1 and k not in SHARED_KEYS}
    assert clashes == {}, f"keys bound by several pages without being declared shared: {clashes}"
    assert all(len(set(p.keys)) == len(p.keys) for p in PAGES), "a page lists one key twice"


def test_legacy_keys_point_at_keys_the_page_owns():
    for p in PAGES:
        for old, new in p.legacy.items():
            assert new in p.keys, (p.url_path, old, new)
            assert old not in p.keys, (p.url_path, old)


@pytest.mark.parametrize("info", PAGES, ids=IDS)
def test_each_page_binds_exactly_the_keys_it_declares(info):
    at = open_page(info.path)
    assert_clean(at)
    seen = bound_keys(at)
    reveal = {k: v for k, v in REVEAL.items() if k in info.keys}
    if reveal:
        revealed = open_page(info.path, reveal)
        assert_clean(revealed)
        seen |= bound_keys(revealed)
    assert set(info.written) <= set(info.keys)
    assert seen == set(info.keys) - set(info.written) - IN_A_CLASS.get(info.path, set())


@pytest.mark.parametrize(
    ("page", "old_link", "expected"),
    [
        ("topics/dropout/page.py", {"seed": "5", "draws": "1000"}, {"drop_seed": 5, "drop_draws": 1_000}),
        ("topics/scaling/page.py", {"seed": "7", "draws": "100"}, {"dk_seed": 7, "draws": 100}),
        ("topics/multihead/page.py", {"seed": "5"}, {"mh_seed": 5}),
        (
            "topics/learning/page.py",
            {"mode": "Tied W_q = W_k", "weights": "Any seed", "seed": "7", "steps": "100"},
            {"learn_mode": "tied", "learn_weights": "Any seed", "learn_seed": 7},
        ),
        (
            "topics/masking/page.py",
            {"weights": "Any seed", "seed": "789", "init": "nn.Linear"},
            {"mask_weights": "Any seed", "mask_seed": 789, "mask_init": "nn.Linear"},
        ),
        ("topics/cost/page.py", {"heads": "12", "d_in": "3", "d_k": "2"}, {"cost_heads": 12, "cost_d_in": 3}),
        ("topics/next/page.py", {"preset": "GPT-2 medium (355M)"}, {"block": "GPT-2 medium (355M)"}),
        # The README's example link: Three matrices kept its keys.
        (
            "topics/three_matrices/page.py",
            {"mode": "Tied W_q = W_k", "weights": "Section 3.5"},
            {"mode": "tied", "weights": "Section 3.5"},
        ),
    ],
)
def test_links_published_with_the_old_keys_open_the_view_they_meant(page, old_link, expected):
    at = open_page(page, old_link)
    assert_clean(at)
    assert {k: widget(at, k).value for k in expected} == expected
    info = next(p for p in PAGES if p.path == page)
    assert set(at.query_params) <= set(info.keys), "an old key was left in the URL"


def test_a_current_key_in_a_link_wins_over_its_old_name():
    at = open_page("topics/dropout/page.py", {"seed": "5", "drop_seed": "9"})
    assert widget(at, "drop_seed").value == 9
    assert "seed" not in at.query_params


# Streamlit ignores a query string longer than this (CLIENT_STATE_QUERY_STRING_MAX_LENGTH, 1.67).
STREAMLIT_URL_LIMIT = 524_288


@pytest.mark.parametrize("info", [p for p in PAGES if p.keys], ids=[p.url_path for p in PAGES if p.keys])
def test_every_text_box_caps_its_length_far_below_the_url_limit(info):
    at = open_page(info.path)
    caps = [t.proto.max_chars for t in at.text_input]
    assert all(c > 0 for c in caps), "a text box without max_chars"
    # Percent-encoding can triple a character (emoji: up to 12 bytes); still far below the limit.
    assert 12 * sum(caps) < STREAMLIT_URL_LIMIT // 10


def test_a_link_longer_than_a_text_box_takes_is_dropped_not_shown():
    at = open_page("topics/masking/page.py", {"logits": "1, " * 2_000})
    assert_clean(at)
    assert widget(at, "logits").value == "1.0, 2.0, 3.0, 0.0, 0.0"
    assert "logits" not in at.query_params
