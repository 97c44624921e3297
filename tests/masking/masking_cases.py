"""Masking the future's Reproduce cases: the script for a view's settings, and what that view shows.

The expected values are the fields of :func:`topics.masking.view.build`'s result, the same object
the page draws, keyed by the label the script prints (``topics/masking/script.py``). Random
settings are drawn from the controls' own ranges, so every case is a view a reader can reach.
"""

from __future__ import annotations

import random

import numpy as np

from core import sentence
from core.masking import STAGES
from tests.reproduce.case import Case, Noise, reader_sentence, weight_set
from topics.masking import script, view
from topics.masking.view import Settings

WORDS = ("the", "cat", "sat", "on", "a", "mat", "and", "then", "slept", "for", "one", "hour")


def case(s: Settings) -> Case:
    """The script for ``s`` beside the view the page draws for ``s``."""
    v = view.build(s)
    k = v.stage
    out: dict[str, object] = {
        f"Naive, step {k} of {STAGES}, {script.NAIVE[k - 1]}": v.naive.matrix,
        f"Efficient, step {k} of {STAGES}, {script.EFFICIENT[k - 1]}": v.efficient.matrix,
    }
    if k != STAGES:
        out["Masked weights after step 4 (efficient)"] = v.masked
    out["Naive path masks (first entry), a weight"] = v.naive_first
    out["Efficient path masks (first entry), a score"] = v.efficient_first
    noise = v.fill == "-inf" and not len(v.broken)  # rounding, below the bound the page states
    out["Largest |naive - efficient|"] = Noise(v.largest, v.limit) if noise else v.largest
    out["Attention to later tokens, fill -inf"] = v.future["-inf"]
    out["Attention to later tokens, fill 0"] = v.future["zero"]
    sm = v.softmax  # where the page defines weights PyTorch does not, PyTorch prints NaN
    same = sm.weights is not None and sm.torch == "the same weights"
    out["softmax(logits)"] = sm.weights if same else np.full(len(v.logits), np.nan)
    return Case(
        "masking",
        {"stage": k, "fill": v.fill, "weights": v.weights.label, "tokens": len(v.labels), "logits": s.logits},
        script.build(v.labels, s.x, v.weights, k, v.fill, v.logits),
        out,
    )


def _logits_text(rng: random.Random) -> str:
    """1 to 12 logits as a reader types them: decimals, small integers, −∞ and sometimes +∞."""
    pool = [lambda: repr(rng.uniform(-10, 10)), lambda: str(rng.randint(-3, 3)), lambda: "-inf"]
    if rng.random() < 0.2:
        pool.append(lambda: "inf")
    return ", ".join(rng.choice(pool)() for _ in range(rng.randint(1, 12)))


def random_settings(rng: random.Random) -> Settings:
    """A view a reader can reach: the book's sentence or a typed one (any width), any weight set,
    stage, fill and focus, and a row of logits in the box."""
    if rng.random() < 0.5:
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10)))
        typed = sentence.build(words, rng.randint(sentence.MIN_WIDTH, sentence.MAX_WIDTH))
    else:
        typed = sentence.book()
    return Settings(
        labels=typed.labels,
        x=typed.embeddings,
        weights=weight_set(rng),
        stage=rng.randint(1, STAGES),
        fill=rng.choice(tuple(view.FILLS)),
        focus=rng.choice((None, *range(typed.n))),
        logits=_logits_text(rng),
    )


def reader() -> Settings:
    """A reader's own sentence (issue 16), 9 tokens 16 wide with typed values, at step 3 with the 0 fill."""
    labels, x, ws = reader_sentence()
    return Settings(labels=labels, x=x, weights=ws, stage=3, fill="zero")
