"""Attention, with weights: chapter 3 of Build a Large Language Model (From Scratch), live."""

from pathlib import Path

import streamlit as st

from ui import allocator
from ui.pages import ABOUT, PAGES

allocator.tune()  # once per process: freed NumPy arrays go back to the OS (see ui/allocator.py)

st.set_page_config(
    page_title="Attention, with weights",
    page_icon=str(Path(__file__).parent / "ui" / "assets" / "favicon.png"),  # local: no CDN fetch
    layout="wide",
    initial_sidebar_state="expanded",
    # With toolbarMode = "minimal" and no menu item, Streamlit hides its whole toolbar, and with
    # it the running indicator: a reader could not tell a pending rerun from a settled page.
    # One item keeps the toolbar, the indicator, and a menu holding only this.
    menu_items={"About": ABOUT},
)

pages = [
    st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path, default=i == 0)
    for i, p in enumerate(PAGES)
]
st.navigation(pages).run()
