"""The Recap's Reproduce cases: settings a reader can reach, and the script beside the view's values.

Shared by the oracle (``test_recap_reproduce.py``, with torch) and the script checks without torch.
"""

from __future__ import annotations

import random

from core import sentence
from tests.reproduce.case import Case, reader_sentence
from topics.recap import script, view

SEED = 17  # the random settings are the same on every run
RANDOM = 3
WORDS = ("attention", "is", "all", "you", "need", "the", "cat", "sat", "on", "mat", "a", "step", "journey")


def case(s: view.Settings) -> Case:
    """The script for ``s`` and, under the labels it prints, the view's own values."""
    v = view.build(s)
    c = v.collapse
    q, k = s.query, s.key
    return Case(
        "recap",
        {"n": v.n, "width": v.width, "query": q, "key": k},
        script.recap(v.labels, v.inputs, v.query, v.key),
        {
            "Scores omega = inputs @ inputs.T": c.scores,
            "Weights = softmax(scores), row by row": c.weights,
            f"Context vector for {q}": v.context_query,
            f"Raw affinity {q}-{k}": v.affinity,
            f"...and {k}-{q}": v.affinity_back,
            "Mean pairwise distance, inputs": c.spread_in,
            "Mean pairwise distance, outputs": c.spread_out,
            "Outputs' spread as a share of the inputs'": c.spread_share,
            "Outputs z, one row a token": c.context,
            "Nearest input embedding": list(c.nearest),
        },
    )


def random_settings(rng: random.Random) -> view.Settings:
    """A view a reader can reach: the book's sentence or one typed into the box (2 to 32 tokens,
    3 to 16 wide), and any query and key among its tokens."""
    if rng.random() < 0.5:
        s = sentence.book()
    else:
        words = [rng.choice(WORDS) for _ in range(rng.randint(2, sentence.MAX_TOKENS))]
        s = sentence.build(" ".join(words), rng.randint(sentence.MIN_WIDTH, sentence.MAX_WIDTH))
    return view.Settings(s.labels, s.embeddings, rng.choice(s.labels), rng.choice(s.labels))


def reader() -> view.Settings:
    labels, x, _ = reader_sentence()  # 9 tokens, 16 wide, values typed in (float64)
    return view.Settings(labels, x, labels[0], labels[8])
