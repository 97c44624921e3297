"""What one Streamlit element costs the browser on a rerun, by kind, in headless Chromium.

The bare app (:data:`bench.pages.BARE`: a slider, a title, a line) with ``n`` elements of one
kind added under it, each showing a number that moves with the slider (or, for ``*_same``, the
same text every time). Each figure is the renderer's main-thread CPU per slider move, less the
bare app's, divided by ``n``: ``elements_<kind>_browser_cpu`` in ms an element.

It says where a page's share of a change goes (README, "Known limits"): Streamlit's frontend
draws every changed element again on a rerun and reuses an unchanged one at a fraction of the
cost, and a closed expander's content is drawn all the same.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from bench import Figure

SOURCE = """
import numpy as np, pandas as pd, streamlit as st
from ui import figures
kind = st.query_params.get("kind", "none")
n = int(st.query_params.get("n", "1"))
x = st.slider("x", 0, 10, 5, key="x")
st.title("Bare")
st.write(f"x is {x}")
rng = np.random.default_rng(x)
for i in range(n):
    m = rng.random((6, 3))
    if kind == "markdown":
        st.markdown(f"Paragraph {i}, **bold**, and a value {m[0, 0]:.4f} among more words to read.")
    elif kind == "markdown_same":
        st.markdown(f"Paragraph {i}, **bold**, and no value at all among more words to read.")
    elif kind == "metric":
        st.metric(f"Metric {i}", f"{m[0, 0]:.4f}")
    elif kind == "table_6x3":
        st.table(pd.DataFrame(m).round(4))
    elif kind == "table_32x32":
        st.table(pd.DataFrame(rng.random((32, 32))).round(4))
    elif kind == "dataframe_6x3":
        st.dataframe(pd.DataFrame(m), width="stretch")
    elif kind == "dataframe_6x3_same":
        st.dataframe(pd.DataFrame(np.ones((6, 3))), width="stretch")
    elif kind == "html_table_6x3":
        rows = "".join(
            f"<tr><th>{r}</th>" + "".join(f"<td>{v:.4f}</td>" for v in m[r]) + "</tr>" for r in range(6)
        )
        st.markdown(f"<table><tbody>{rows}</tbody></table>", unsafe_allow_html=True)
    elif kind == "closed_expander_table_6x3":
        with st.expander(f"Values {i}"):
            st.table(pd.DataFrame(m).round(4))
    elif kind == "heatmap_6x6":
        h = rng.random((6, 6))
        labels = [f"w{k}" for k in range(6)]
        figures.show(figures.heatmap(h, labels, labels), key=f"h{i}", name=f"Heatmap {i}")
    elif kind == "heatmap_6x6_same":
        h = np.random.default_rng(0).random((6, 6))
        labels = [f"w{k}" for k in range(6)]
        figures.show(figures.heatmap(h, labels, labels), key=f"h{i}", name=f"Heatmap {i}")
"""

KINDS = {  # kind: how many of it on the page
    "markdown": 40,
    "markdown_same": 40,
    "metric": 20,
    "table_6x3": 10,
    "table_32x32": 2,
    "dataframe_6x3": 10,
    "dataframe_6x3_same": 10,
    "html_table_6x3": 10,
    "closed_expander_table_6x3": 10,
    "heatmap_6x6": 3,
    "heatmap_6x6_same": 3,
}


def run(quick: bool) -> Iterable[Figure]:
    from playwright.sync_api import sync_playwright

    from bench import clock
    from bench.bench_browser import Moves, Tab, moved
    from bench.serve import script_app
    from tests.e2e.conftest import CHROMIUM_FLAGS, chromium_path

    repeats = 3 if quick else 7
    path = chromium_path()
    if path is None:
        raise RuntimeError("bench elements needs Chromium (apt-get install chromium) and Playwright")
    app = script_app(SOURCE, "bench_elements_app.py", 3)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.set_default_timeout(180_000)
            clock.install(context)

            def cpu(kind: str, n: int) -> float:
                tab = Tab(context, app)
                tab.load(f"{app.url}/?kind={kind}&n={n}", Moves())
                moves = moved(tab, "x", repeats, Moves())
                tab.page.close()
                return statistics.median(moves.browser_cpu)

            bare = cpu("none", 0)
            yield Figure("elements_bare_browser_cpu", bare * 1e3, "ms")
            for kind, n in KINDS.items():
                yield Figure(f"elements_{kind}_browser_cpu", (cpu(kind, n) - bare) / n * 1e3, "ms")
            browser.close()
    finally:
        app.stop()
