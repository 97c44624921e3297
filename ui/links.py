"""What a link carries: published links keep working after a page's URL keys are renamed.

A page owns its URL keys (``ui.pages``). Keys once shared by several pages (``seed``, ``draws``,
``heads``, ...) were given page-specific names, and links published before that still say
``/dropout?seed=5``. Before the page runs, its old keys are renamed in the query string and the
script reruns once, so the widgets seed themselves from the new keys exactly as from any link.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui.pages import PageInfo


def upgrade_legacy_keys(info: PageInfo) -> None:
    """Rename ``info``'s legacy keys in the URL to the page's current keys, then rerun.

    A current key already in the link wins over its old name, which is then just dropped.
    """
    moved = False
    for old, new in info.legacy.items():
        values = st.query_params.get_all(old)
        if not values:
            continue
        try:
            del st.query_params[old]
            if new not in st.query_params:
                st.query_params[new] = values if len(values) > 1 else values[0]
        except StreamlitAPIException:  # bound by a control on this page: nothing to rename
            continue
        moved = True
    if moved:
        st.rerun()


# Streamlit 1.67 writes a reader's own control changes into the URL with replaceState (no new
# history entry), but its server-side URL updates with pushState. Two of those broke Back:
# - On a page switch from a page whose controls are in the URL, the server drops the old page's
#   keys from the query string before the new page runs, and the browser recorded that as a stray
#   entry at the *old* path (/three-matrices with an empty query) just before the new page's entry.
#   Back landed there and showed the old page's defaults, not the view the reader left.
# - A page's own follow-up to a change (a preset turning into "Custom", Resample bumping the seed,
#   a bad link value cleared) pushed an entry per step within one page.
# This script keeps one history entry per page visit, holding that page's latest URL: a push to
# the current path made while a switch to another page is under way (a click on a link to another
# path of this app) is skipped, and any other push to the current path replaces the entry, except
# one that changes Read along's ``step``: each tour step is an entry, so Back and Forward walk the
# tour (topics/read_along/nav.py moves with st.switch_page and the step in query_params).
_HISTORY_GUARD = """<script>
(() => {
  if (window.__awwHistoryGuard) return;
  window.__awwHistoryGuard = true;
  let switching = 0;
  const push = history.pushState.bind(history), replace = history.replaceState.bind(history);
  document.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
    if (!a) return;
    const to = new URL(a.href, location.href);
    if (to.origin === location.origin && to.pathname !== location.pathname) switching = Date.now();
  }, true);
  history.pushState = (state, title, url) => {
    const to = new URL(url, location.href);
    if (to.pathname !== location.pathname) {
      switching = 0;
      return push(state, title, url);
    }
    if (switching && Date.now() - switching < 5000) return;
    const step = (u) => new URLSearchParams(u.search).get("step");
    const at = step(location), next = step(to);
    if (at !== null && next !== null && at !== next) return push(state, title, url);  // a tour step
    return replace(state, title, url);
  };
})();
</script>"""


def keep_history_clean() -> None:
    """Install the history guard above (a script without visible output).

    Why a script: Streamlit offers no documented way to choose how its URL updates enter the
    browser's history. ``st.query_params`` writes the query string but not whether a change pushes
    or replaces the entry, and ``st.switch_page`` changes the page without a say over the entry the
    old page's keys leave behind; neither can keep Back from landing on the stray entries described
    above. So the guard wraps ``history.pushState`` in this tab, and changes nothing else."""
    st.html(_HISTORY_GUARD, unsafe_allow_javascript=True, width=1)


def neighbours(pages: Sequence[PageInfo], current: PageInfo) -> tuple[PageInfo | None, PageInfo | None]:
    """The pages before and after ``current`` in the chapter's reading order (None at either end)."""
    at = [p.url_path for p in pages].index(current.url_path)
    return (pages[at - 1] if at > 0 else None, pages[at + 1] if at + 1 < len(pages) else None)


def previous_and_next(pages: Sequence[PageInfo], current: PageInfo) -> None:
    """The foot of every page: links to the previous and the next page, in chapter order, so a
    reader can walk the chapter without the sidebar (a phone hides it). The sentence follows."""
    before, after = neighbours(pages, current)
    st.divider()
    left, right = st.columns(2)
    back, on = ("Page before", "Page after") if current.own_next else ("Previous", "Next")
    if before is not None:
        left.page_link(before.path, label=f"{back}: {before.title}", icon=":material/arrow_back:")
    if after is not None:
        right.page_link(after.path, label=f"{on}: {after.title}", icon=":material/arrow_forward:")
