"""On a phone, the sidebar gets out of the way once a reader has used it.

Streamlit 1.67 leaves its sidebar open after a click on a page link in it, and after a change to
one of its controls, and on a phone the open sidebar covers about 300 of 390 px: the page the
reader asked for, or the figure the change redrew, stays hidden behind it. On a screen narrower
than Streamlit's own 640 px breakpoint, the script below clicks Streamlit's collapse button
once the run that interaction started has drawn:

- a click on a link in the sidebar (the page navigation) arms it;
- so does a committed change of a sidebar control: a ``change`` event (a radio, a checkbox, a
  text box when it loses focus), Enter in a text or number box (never a keystroke while typing),
  the release of a slider, a click on a button, or a pick from a select box's menu (which
  Streamlit draws outside the sidebar, so a pick counts when the menu was opened from the sidebar);
- the script is written into the page on every run (:func:`collapse_sidebar_on_phones` gives it
  the run's number, so Streamlit executes it afresh), and a run that finds it armed collapses the
  sidebar and disarms it. An expander opened in the sidebar, a tap on a help icon or a keystroke
  starts no run and arms nothing that a later, unrelated run would act on after ``ARMED_MS``.

Nothing happens on a wider screen, where the sidebar sits beside the page.

Why a script: Streamlit offers no documented way to close its sidebar during a session.
``st.set_page_config(initial_sidebar_state=...)`` sets only the state a page *opens* in ("auto"
already opens it collapsed on a phone) and does not act on later reruns, and no command or widget
parameter collapses it after a page link or a sidebar control was used. So the script clicks
Streamlit's own collapse button, as the reader would, and nothing else.
"""

from __future__ import annotations

import streamlit as st

NARROW_PX = 640  # Streamlit's breakpoint: below it the sidebar overlays the page
ARMED_MS = 30_000  # an interaction older than this arms nothing (a change that started no run)
_RUNS = "_phone_runs"

_SCRIPT = """<script>
(() => {
  const narrow = () => window.matchMedia("(max-width: %(narrow)dpx)").matches;
  const sidebar = () => document.querySelector("[data-testid='stSidebar']");
  const SKIP = "[data-testid='stSidebarCollapseButton'], summary, [data-testid='stTooltipIcon']";
  const SELECT = "[data-baseweb='select'], [data-testid='stSelectbox'], [data-testid='stMultiSelect']";
  const SLIDER = "[data-testid='stSlider'] [data-orientation], [role='slider']";
  if (!window.__awwPhone) {
    const state = { armed: 0, menuFromSidebar: 0 };
    window.__awwPhone = state;
    const inSidebar = (t) => t instanceof Element && sidebar() !== null && sidebar().contains(t);
    const arm = () => { if (narrow()) state.armed = Date.now(); };
    document.addEventListener("click", (e) => {
      const t = e.target instanceof Element ? e.target : null;
      if (!t) return;
      if (inSidebar(t)) {
        if (t.closest(SKIP)) return;
        if (t.closest("a[href], button")) arm();
        return;
      }
      // a select box's menu is drawn in a layer outside the sidebar
      if (t.closest("[role='option']") && Date.now() - state.menuFromSidebar < %(armed)d) arm();
    }, true);
    document.addEventListener("pointerdown", (e) => {
      if (!inSidebar(e.target)) return;
      if (e.target.closest(SELECT)) state.menuFromSidebar = Date.now();
    }, true);
    document.addEventListener("pointerup", (e) => {
      if (inSidebar(e.target) && e.target.closest(SLIDER)) arm();
    }, true);
    document.addEventListener("change", (e) => { if (inSidebar(e.target)) arm(); }, true);
    // Enter commits a text or number box (a change event is not sent for it in every browser)
    document.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && inSidebar(e.target) && e.target.matches("input")) arm();
    }, true);
    state.run = () => {
      if (!state.armed || Date.now() - state.armed > %(armed)d) { state.armed = 0; return; }
      if (!narrow()) { state.armed = 0; return; }
      const s = sidebar();
      const open = s !== null && s.getAttribute("data-collapsed") !== "true"
        && s.getBoundingClientRect().right > 1;
      const button = document.querySelector("[data-testid='stSidebarCollapseButton'] button");
      if (!open || !button) return;  // not drawn yet: the next run tries again while armed
      state.armed = 0;
      button.click();
    };
  }
  // after this run's elements have been laid out
  setTimeout(() => window.__awwPhone.run(), 50);
})();
/* run %(run)d */
</script>"""


def script(run: int) -> str:
    """The script for run number ``run`` (its number makes Streamlit execute it on every run)."""
    return _SCRIPT % {"narrow": NARROW_PX - 1, "armed": ARMED_MS, "run": run}


def collapse_sidebar_on_phones() -> None:
    """Write the script above into this run's page (an element with no visible output)."""
    run = int(st.session_state.get(_RUNS, 0)) + 1
    st.session_state[_RUNS] = run
    st.html(script(run), unsafe_allow_javascript=True, width=1)
