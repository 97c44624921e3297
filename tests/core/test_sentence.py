"""The reader's sentence (core.sentence): tokens, labels, derived embeddings and the edits string."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import multihead, sentence, tokens, weights
from core.sentence import MAX_TOKENS, build, format_edits, labels, parse_edits, split, word_hundredths

ROOT = Path(__file__).resolve().parents[2]


def test_the_book_sentence_is_the_books_inputs_bit_for_bit():
    s = sentence.book()
    assert s.is_book and s.words == tokens.TOKENS and s.labels == tokens.TOKENS
    assert s.embeddings.dtype == np.float64
    assert np.array_equal(s.embeddings, tokens.inputs())
    assert np.array_equal(sentence.example_batch(s.embeddings, 3), tokens.batch())
    assert build(sentence.BOOK_TEXT).is_book and build("  Your  journey starts with one step ").is_book


@pytest.mark.parametrize(
    ("text", "payload", "width"),
    [("Your journey starts with one step", "a50", 3), ("your journey starts with one step", "", 3)],
)
def test_an_edit_a_widening_or_another_word_is_not_the_book(text, payload, width):
    assert not build(text, width, payload).is_book
    assert not build(sentence.BOOK_TEXT, 4).is_book


def test_split_on_whitespace_keeps_punctuation_and_counts_what_it_cut():
    assert split("the cat, sat.\ton\nthe  mat!") == (("the", "cat,", "sat.", "on", "the", "mat!"), 6)
    words, typed = split(" ".join(f"w{i}" for i in range(5_000)))
    assert len(words) == MAX_TOKENS and typed == 5_000 and words[-1] == "w31"


def test_control_bidi_and_invisible_characters_are_removed_emoji_kept():
    words, _ = split("a\u202eb \u200b \x00 c\u2066d\u2069 👨\u200d👩\u200d👧 שלום")
    assert words == ("ab", "cd", "👨\u200d👩\u200d👧", "שלום")
    s = build("evil\u202etxt.exe")
    assert s.words == ("eviltxt.exe",) and any("removed" in n for n in s.notes)


def test_text_is_nfc_normalised_so_an_accent_typed_either_way_is_one_word():
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    assert split(decomposed)[0] == (composed,)
    assert np.array_equal(build(decomposed).embeddings, build(composed).embeddings)


def test_empty_or_whitespace_text_is_the_books_sentence_with_a_note():
    for text in ("", "   \t\n", "\u200b \u202e"):
        s = build(text)
        assert s.words == tokens.TOKENS
        assert any("empty" in n for n in s.notes)


def test_labels_are_unique_readable_and_short():
    assert labels(["the", "cat", "the", "the"]) == ("the", "cat", "the²", "the³")
    assert labels(["the", "the", "the²"]) == ("the", "the²", "the²²")  # a typed "the²" stays distinct
    long = labels(["x" * 40, "x" * 41])
    assert long == ("x" * 15 + "…", "x" * 15 + "…²")
    many = labels(["a"] * 32)
    assert len(set(many)) == 32 and many[-1] == "a³²"


def test_a_derived_embedding_is_the_documented_sha256_formula():
    for word in ("cat", "the", "🙂", "<script>", "שלום", "x" * 300):
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        expected = [int.from_bytes(digest[2 * j : 2 * j + 2], "big") * 100 // 65_536 for j in range(16)]
        assert word_hundredths(word, 16).tolist() == expected


def test_a_derived_embedding_is_pinned_and_in_the_books_range():
    # Pinned: a change of formula would change every shared link's numbers.
    assert word_hundredths("cat", 16).tolist() == [
        46,
        46,
        31,
        83,
        76,
        36,
        59,
        29,
        23,
        8,
        79,
        35,
        42,
        40,
        68,
        45,
    ]
    e = sentence.word_embedding("cat", 16)
    assert ((e >= 0) & (e < 1)).all()
    assert np.array_equal(e, (np.arange(100) / 100).astype(np.float32)[np.rint(e * 100).astype(int)])


def test_the_books_words_keep_the_books_vectors_case_sensitively():
    for word, row in zip(tokens.TOKENS, tokens.inputs(), strict=True):
        assert np.array_equal(sentence.word_embedding(word), row)
        assert np.array_equal(sentence.word_embedding(word, 16)[:3], row)
    assert not np.array_equal(sentence.word_embedding("your"), tokens.inputs()[0])


_PROBE = (
    "import json; from core.sentence import word_embedding; "
    "print(json.dumps([word_embedding(w, 16).tolist() for w in ('cat', 'Zürich', '🙂', 'журнал')]))"
)


def test_an_unknown_words_embedding_is_identical_in_two_processes():
    """Two interpreters with different string-hash salts: Python's ``hash`` would differ, ours may not."""
    outs = []
    for salt in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": salt, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", _PROBE], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        outs.append(json.loads(done.stdout))
    assert outs[0] == outs[1]
    assert outs[0][0] == sentence.word_embedding("cat", 16).tolist()


def test_repeated_words_share_an_embedding_and_keep_distinct_labels():
    s = build("the cat sat on the mat")
    assert s.labels == ("the", "cat", "sat", "on", "the²", "mat")
    assert np.array_equal(s.embeddings[0], s.embeddings[4])


def test_edits_apply_and_are_written_in_the_shortest_form():
    s = build("the cat sat", 3, "_b57c-125")
    assert s.embeddings[1, 1] == np.float32(0.57) and s.embeddings[1, 2] == np.float32(-1.25)
    assert s.edits == (((1, 1), 57), ((1, 2), -125))
    assert format_edits(dict(s.edits)) == "_b57c-125"
    # An "edit" to the value the word already has is no edit.
    same = word_hundredths("the")[0]
    assert build("the cat", 3, f"a{same}").edits == ()


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("zz", "not a list"),
        ("a1000", "not a list"),
        ("a07", "not a list"),
        ("a1a2", "twice"),
        ("d5", "3 wide"),
        ("____a1", "edits 5 tokens"),
        ("a" + "1" * 3_000, "characters long"),
        ("a 1", "not a list"),
        ("a1,b2", "not a list"),
        ("a+1", "not a list"),
        ("a١", "not a list"),  # an Arabic-Indic digit: not ASCII
    ],
)
def test_a_malformed_or_missized_edits_string_is_refused_with_its_reason(payload, reason):
    with pytest.raises(ValueError, match=reason):
        parse_edits(payload, 4, 3)
    s = build("a b c d", 3, payload)
    assert s.edits == () and any(reason.split()[0] in n for n in s.notes)
    assert np.array_equal(s.embeddings, build("a b c d").embeddings)


def test_the_edits_string_is_bounded_by_every_cell_edited():
    every = {(r, d): -999 for r in range(MAX_TOKENS) for d in range(sentence.MAX_WIDTH)}
    payload = format_edits(every)
    assert len(payload) == sentence.MAX_EDITS_CHARS
    assert parse_edits(payload, MAX_TOKENS, sentence.MAX_WIDTH) == every


cells = st.dictionaries(
    st.tuples(st.integers(0, MAX_TOKENS - 1), st.integers(0, sentence.MAX_WIDTH - 1)),
    st.integers(-sentence.EDIT_LIMIT, sentence.EDIT_LIMIT),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(cells)
def test_edits_round_trip_through_their_string(edits):
    assert parse_edits(format_edits(edits), MAX_TOKENS, sentence.MAX_WIDTH) == edits


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(st.text(max_size=200), st.sampled_from(["<script>alert(1)</script>", "word " * 5_000])),
    st.integers(sentence.MIN_WIDTH, sentence.MAX_WIDTH),
    st.one_of(st.text(max_size=60), st.text(alphabet="abcdefghijklmnopq-_0123456789", max_size=60)),
)
def test_any_text_and_any_edits_string_build_a_usable_sentence(text, width, payload):
    s = build(text, width, payload)
    assert 1 <= s.n <= MAX_TOKENS and len(set(s.labels)) == s.n
    assert s.embeddings.shape == (s.n, width) and np.isfinite(s.embeddings).all()
    assert not s.embeddings.flags.writeable
    assert all(len(label) <= sentence.LABEL_CHARS + 3 for label in s.labels)


@pytest.mark.parametrize("bad", [None, float("nan"), float("inf"), -float("inf"), 10.0, -10, True])
def test_an_edited_cell_must_be_a_finite_number_within_bounds(bad):
    with pytest.raises(ValueError):
        sentence.to_hundredths(bad)


# What a reader types into a cell, as the editor's text columns send it (issue #24, item 12).
REFUSED_TEXT = {
    "abc": "“abc” is not a number",
    "-": "“-” is not a number",
    "<b>": "“<b>” is not a number",
    "NaN": "“NaN” is not a number",
    "inf": "“inf” is not a finite number",
    "-Infinity": "“-Infinity” is not a finite number",
    "1e999": "“1e999” is outside −9.99 to 9.99",
    "12": "“12” is outside −9.99 to 9.99",
    "-10": "“-10” is outside −9.99 to 9.99",
    "0_5": "“0_5” is not a number",  # Python's float() would read 5.0
    "١": "“١” is not a number",  # an Arabic-Indic one: float() would read 1.0
    "0,5": "“0,5” is not a number: write decimals with a point, as in 0.5",
    "x" * 40: "“" + "x" * 20 + "…” is not a number",
}


@pytest.mark.parametrize("typed", list(REFUSED_TEXT), ids=[t[:8] for t in REFUSED_TEXT])
def test_typed_text_that_is_not_a_number_in_range_is_refused_naming_what_was_typed(typed):
    with pytest.raises(ValueError) as err:
        sentence.to_hundredths(typed)
    assert str(err.value) == REFUSED_TEXT[typed]


@pytest.mark.parametrize("empty", [None, "", "   "])
def test_an_emptied_cell_is_refused_as_empty_not_as_a_wrong_number(empty):
    with pytest.raises(ValueError, match=r"^the cell was left empty$"):
        sentence.to_hundredths(empty)


@pytest.mark.parametrize(
    "typed, hundredths",
    [("0.5", 50), (" −1.25 ", -125), ("+2", 200), (".5", 50), ("9.99", 999), ("-9.99", -999), ("1e-1", 10)],
)
def test_a_typed_number_is_read_to_hundredths(typed, hundredths):
    assert sentence.to_hundredths(typed) == hundredths


def test_an_edited_cell_rounds_to_hundredths():
    assert sentence.to_hundredths(0.5) == 50 and sentence.to_hundredths(-9.99) == -999
    assert sentence.to_hundredths(np.float32(0.43)) == 43


@pytest.mark.parametrize("width", [0, 2, 17, 3.0, True])
def test_a_width_outside_3_to_16_is_a_value_error(width):
    with pytest.raises(ValueError, match="width"):
        build("a", width)


def test_weights_for_a_wider_sentence_come_from_the_same_seed():
    v1 = weights.section_3_4()
    assert sentence.weights_for(v1, 3) is v1
    wide = sentence.weights_for(v1, 5)
    fresh = weights.init_weights(123, "rand", 5, 2)
    assert wide.label == v1.label and wide.w_query.shape == (5, 2)
    assert np.array_equal(wide.w_key, fresh.w_key)


def test_a_batch_at_another_width_gets_the_stand_in_embeddings():
    s = build("the cat sat on the mat")
    assert np.array_equal(sentence.example_batch(s.embeddings, 8), multihead.example_batch(8))
    assert sentence.example_batch(s.embeddings, 3).shape == (2, 6, 3)


def test_the_nearest_pair_names_the_tokens_hardest_to_tell_apart():
    pair = sentence.nearest_pair(tokens.inputs())
    assert pair is not None and pair[:2] == (1, 2)  # journey and starts
    assert sentence.nearest_pair(build("the cat the").embeddings) == (0, 2, 0.0)
    assert sentence.nearest_pair(build("solo").embeddings) is None


def test_an_editor_change_is_applied_or_refused_cell_by_cell():
    s = build("the cat sat")
    payload, refused = sentence.edit(s, {(1, 0): 0.5, (2, 2): None, (0, 1): float("nan"), (5, 0): 1.0})
    assert payload == "_a50"
    assert len(refused) == 3 and "sat, dimension 3" in refused[0]
    # Setting a cell back to the word's own value removes the edit.
    edited = build("the cat sat", 3, payload)
    back = float(sentence.word_embedding("cat")[0])
    assert sentence.edit(edited, {(1, 0): back}) == ("", ())
