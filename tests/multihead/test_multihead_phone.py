"""Issue 23, phones: a head's cells print values only where they are legible on a 390 px phone.

Stacked one a row on a phone, a head's chart is about 358 px wide; four decimals in 10 px type
(the cells' smallest) need about 44 px a cell. Past that, the head prints no values and shows its
colour bar instead; the numbers stay in the hover.
"""

from __future__ import annotations

import numpy as np
import pytest

from topics.multihead import figures as mf
from ui import figures

BOOK = ["Your", "journey", "starts", "with", "one", "step"]


def weights(n: int) -> np.ndarray:
    w = np.tril(np.ones((n, n)))
    return w / w.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("n", [2, 4, 6, 7, 8, 12])
def test_a_head_prints_values_only_in_cells_a_phone_draws_wide_enough(n):
    labels = (BOOK + [f"w{i}" for i in range(n)])[:n]
    fig = mf.head_heatmap(weights(n), labels, 0)
    texts = [a["text"] for a in figures.cell_notes(fig.to_dict())]
    bar = any(t.type == "heatmap" and t.showscale for t in fig.data)
    longest = max(len(t) for t in labels)
    cell = (mf.PHONE_CHART_PX - mf.LABEL_CHAR_PX * longest - 10) / n
    if texts:
        assert cell >= 6 * 6.4 + 6, f"{n} tokens: values printed in {cell:.0f} px cells"
        assert not bar
    else:
        assert bar, f"{n} tokens: no values and no colour bar"
    assert (len(texts) == n * n) == mf.values_fit(labels)


def test_the_book_sentence_keeps_its_values():
    assert mf.values_fit(BOOK)
    assert len(figures.cell_notes(mf.head_heatmap(weights(6), BOOK, 0).to_dict())) == 36
