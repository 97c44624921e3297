"""Attention, with weights: chapter 3 of Build a Large Language Model (From Scratch), live."""

import streamlit as st

from ui.pages import PAGES

st.set_page_config(
    page_title="Attention, with weights",
    page_icon=":material/hub:",
    layout="wide",
    initial_sidebar_state="expanded",
)

pages = [
    st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path, default=i == 0)
    for i, p in enumerate(PAGES)
]
st.navigation(pages).run()
