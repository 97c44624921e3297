"""The Multi-head page's figures draw what the view holds: a thinned matrix draws as the whole one."""

import numpy as np
import pytest

from topics.multihead import figures as mf
from topics.multihead.thinning import MAX_CELLS, thinned


@pytest.mark.parametrize("head_width", [1, 7, 50, 400])
def test_a_cached_thinned_w_q_draws_the_figure_the_whole_matrix_draws(head_width):
    # The run cache keeps W_q thinned to what the stripes figure draws (a 1.3M-cell W_q is 5.3 MB).
    m = np.random.default_rng(0).uniform(-1, 1, (300, 400)).astype(np.float32)
    kept = thinned(m, head_width)
    assert kept.shape == (300, 400) and kept.cells.shape[0] <= MAX_CELLS
    whole = mf.striped_matrix(m, head_width, title="W_q")
    assert mf.striped_matrix(kept, head_width, title="W_q").to_json() == whole.to_json()


def test_thinning_keeps_every_head_and_never_mixes_two():
    m = np.arange(200 * 600, dtype=np.float64).reshape(200, 600)
    t = thinned(m, 50)  # 12 heads of 50 columns
    assert t.cells.shape[1] <= MAX_CELLS and len(t.rows) <= MAX_CELLS
    assert sorted({int(c) // 50 for c in t.cols}) == list(range(12))
    np.testing.assert_array_equal(t.cells, m[np.ix_(t.rows, t.cols)])
    assert t.vmax == m.max()
