"""The Reproduce expander in a real browser: a click opens it, the script and its download appear."""

from __future__ import annotations

import pytest

from tests.e2e.browser import Console, exceptions, open_settled, settle
from tests.e2e.conftest import SHOTS

pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize(
    ("path", "label", "first_line"),
    [
        ("three-matrices?mode=Tied+W_q+%3D+W_k", "Reproduce in PyTorch", "import torch"),
        ("dropout?generator=PyTorch", "Reproduce in PyTorch", "import torch"),
        ("divide-by-sqrt-dk", "Reproduce in NumPy", "import numpy as np"),
        ("learning-to-attend", "Reproduce in PyTorch", "import torch"),
    ],
)
def test_opening_the_expander_shows_the_script_and_its_download(server, context, path, label, first_line):
    page = context.new_page()
    console = Console().attach(page)
    open_settled(page, f"{server.url}/{path}")
    box = page.locator("[data-testid='stExpander']").filter(has_text=label)
    assert box.locator("[data-testid='stCode']").count() == 0, "generated before anyone asked"
    box.locator("summary").click()
    settle(page)
    code = box.locator("[data-testid='stCode']")
    code.first.wait_for(timeout=60_000)
    assert code.first.inner_text().splitlines()[0] == first_line
    assert box.locator("[data-testid='stDownloadButton']").count() == 1
    assert exceptions(page) == [] and console.errors == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1400, "height": 1600})
    box.scroll_into_view_if_needed()
    settle(page)
    box.screenshot(path=str(SHOTS / f"reproduce-{path.split('?')[0]}.png"))
