"""Hypothesis strategies more than one folder's property tests draw from."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core import tokens
from core.sentence import MAX_TOKENS, MAX_WIDTH, MIN_WIDTH, Sentence, book, build
from core.weights import WeightSet

small = st.floats(min_value=-3, max_value=3, allow_nan=False)  # entries of inputs and weights


def weight_set(data: st.DataObject, d_in: int, d_out: int) -> WeightSet:
    """Three float32 matrices of ``small`` entries, as a weight set drawn by ``torch.rand`` would be."""
    mats = [data.draw(arrays(np.float32, (d_in, d_out), elements=small)) for _ in range(3)]
    return WeightSet("generated", 0, "rand", *mats)


# The reader's sentence, as the sentence box and ``?text=&dim=`` give it: the book's words and a
# few others, repeated words included (a repeated word has one embedding, so its rows tie), from
# one token to MAX_TOKENS, at any legal width.
WORDS = (*tokens.TOKENS, "the", "cat", "sat", "on", "mat", "a0", "a1", "é", "🙂", "x" * 20)


@st.composite
def sentences(draw: st.DrawFn, max_tokens: int = MAX_TOKENS, max_width: int = MAX_WIDTH) -> Sentence:
    """A reader's sentence: 1 to ``max_tokens`` words drawn with repeats, 3 to ``max_width`` wide.

    One example in eight is the book's own sentence, so the book's defaults stay in every run.
    """
    if draw(st.integers(0, 7)) == 0:
        return book()
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=max_tokens))
    width = draw(st.integers(MIN_WIDTH, max_width))
    return build(" ".join(words), width)
