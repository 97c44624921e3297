"""Attention, with weights: chapter 3 of Build a Large Language Model (From Scratch), live."""

from pathlib import Path

import streamlit as st

import allocator
from topics import PAGES
from ui import scrollers
from ui.links import keep_history_clean, previous_and_next, upgrade_legacy_keys
from ui.pages import ABOUT
from ui.phone import collapse_sidebar_on_phones
from ui.sentence import draw_for_page
from ui.style import apply_style

allocator.tune()  # once per process: freed NumPy arrays go back to the OS (see allocator.py)
allocator.freeze_imports()  # once per process: later collections skip the libraries (allocator.py)

st.set_page_config(
    page_title="Attention, with weights",
    page_icon=str(Path(__file__).parent / "ui" / "assets" / "favicon.png"),  # local: no CDN fetch
    layout="wide",
    # "auto": open on a desktop, collapsed on a phone, which then opens on the figures; the
    # sidebar's button in the top-left corner still reaches every control.
    initial_sidebar_state="auto",
    # With toolbarMode = "minimal" and no menu item, Streamlit hides its whole toolbar, and with
    # it the running indicator: a reader could not tell a pending rerun from a settled page.
    # One item keeps the toolbar, the indicator, and a menu holding only this.
    menu_items={"About": ABOUT},
)

pages = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path) for p in PAGES]
# The root redirects to the first page, so that page answers at its own path too (/overview): a
# default page is served at "/" only, and its own path then shows "Page not found".
root = st.Page(
    lambda: st.switch_page(pages[0]), title=PAGES[0].title, url_path="root", default=True, visibility="hidden"
)
# Every page listed: past twelve, Streamlit folds the list behind "View more", which hid What n²
# costs, What comes next and Class once the whole layer and the Class page were added.
page = st.navigation([root, *pages], expanded=True)
# The style sheets first: style-only HTML takes no room (Streamlit sends it to its event container),
# and in force before the page draws, a phone's smaller title and margins are never a shift.
apply_style()
info = {p.url_path: i for p, i in zip(pages, PAGES, strict=True)}.get(page.url_path)
if info is not None:
    # Each page's own document title, so a tab, a bookmark and a screen reader name the page (WCAG 2.4.2).
    st.set_page_config(page_title=f"{info.title} · Attention, with weights")
    upgrade_legacy_keys(info)
    if info.follows_sentence:
        draw_for_page()  # here, not in the page, so Back and Forward keep the sentence (ui.sentence)
page.run()
if info is not None:
    previous_and_next(PAGES, info)
keep_history_clean()
scrollers.install()
collapse_sidebar_on_phones()
