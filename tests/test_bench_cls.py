"""bench.cls reads CLS as web-vitals defines it: the largest session window of layout shifts."""

from __future__ import annotations

import pytest

from bench.cls import windowed


def test_no_shift_is_zero():
    assert windowed([]) == 0.0


def test_shifts_a_second_apart_or_more_start_a_new_window():
    shifts = [[100.0, 0.1], [600.0, 0.05], [1_600.0, 0.2], [1_700.0, 0.01]]
    assert windowed(shifts) == pytest.approx(0.21)  # 0.1 + 0.05 and 0.2 + 0.01: the larger


def test_a_window_ends_after_five_seconds_however_close_its_shifts():
    shifts = [[t * 900.0, 0.1] for t in range(8)]  # 0, 0.9 s, …, 6.3 s: never a 1 s gap
    assert windowed(shifts) == pytest.approx(0.6)  # 0 to 4.5 s; 5.4 s starts the next window
