"""The bench's search space: the sentence ladder and the starts of ``bench worst``'s ascent."""

from __future__ import annotations

from bench.bench_worst import starts
from bench.controls import SENTENCE_LENGTHS, Control, describe, sentence_control
from core import sentence


def test_the_sentence_ladder_runs_from_one_token_through_the_books_to_the_most_allowed():
    ladder = sentence_control(sentence.BOOK_TEXT)
    assert [sentence.split(text)[1] for text in ladder.values] == list(SENTENCE_LENGTHS)
    assert ladder.values[SENTENCE_LENGTHS.index(6)] == sentence.BOOK_TEXT
    assert max(SENTENCE_LENGTHS) == sentence.MAX_TOKENS and min(SENTENCE_LENGTHS) == 1
    assert ladder.extremes == ladder.values  # every length is tried, not only the ends


def test_a_setting_names_the_sentence_by_its_length_and_leaves_defaults_out():
    ladder = sentence_control(sentence.BOOK_TEXT)
    width = Control("dim", "Slider", ("3", "16"), numeric=True, default="3")
    assert describe({"text": ladder.values[-1], "dim": "3"}, [ladder, width]) == "text=32"
    assert describe({"text": sentence.BOOK_TEXT, "dim": "3"}, [ladder, width]) == "defaults"


def test_the_ascent_starts_at_the_defaults_the_high_ends_and_unless_quick_the_low_ends():
    ladder = sentence_control(sentence.BOOK_TEXT)
    width = Control("dim", "Slider", ("3", "16"), numeric=True, default="3")
    full, quick = starts([ladder, width]), starts([ladder, width], quick=True)
    assert full[0] == {"text": sentence.BOOK_TEXT, "dim": "3"}
    assert full[1] == {"text": ladder.values[-1], "dim": "16"}
    assert full[2] == {"text": ladder.values[0], "dim": "3"}
    assert quick == full[:2]
