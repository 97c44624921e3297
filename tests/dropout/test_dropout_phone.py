"""Issue 23, phones: the zero-row chart's bar labels stay level and fit a 390 px phone's bars.

Plotly turned the "Your<br>i = 1" labels 90° on a phone, and the turn was clipped ("i = 1" lost).
"""

from __future__ import annotations

import numpy as np
import pytest

from topics.dropout import figures

PHONE_BARS_PX = 280  # a 390 px screen, less the page's padding and the y axis
CHAR_PX = 0.55 * 10  # a character of the 10 px tick font


@pytest.mark.parametrize(
    "labels",
    [
        ["Your", "journey", "starts", "with", "one", "step"],
        ["internationalisation", "is", "long"],
        [f"token{i}word" for i in range(8)],
    ],
)
def test_the_bar_labels_are_level_and_each_fits_its_bar_on_a_phone(labels):
    n = len(labels)
    p = np.linspace(0.5, 0.05, n)
    fig = figures.zero_rate_chart(p, p, labels)
    assert fig.layout.xaxis.tickangle == 0
    for i, name in enumerate(fig.data[0].x):
        lines = name.split("<br>")
        assert lines[0] == f"i = {i + 1}"
        assert labels[i].startswith(lines[1].rstrip("…"))
        assert max(len(s) for s in lines) * CHAR_PX <= PHONE_BARS_PX / n, name
    assert [c[0] for c in fig.data[0].customdata] == labels  # the hover names the whole token
