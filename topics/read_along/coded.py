"""Which of the book's lines each step shows: a step's code is built from the view its figure draws
(``step.figure.data``) and the reader's sentence, by :mod:`topics.read_along.lines`."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

from core.sentence import Sentence, example_batch, weights_for
from core.weights import section_3_4
from topics.multihead import view as heads
from topics.read_along import lines
from topics.read_along.code import Code, pair
from topics.read_along.step import Step, StepDef
from topics.three_matrices import view as three

Coder = Callable[[Sentence, Any], Code | None]
CHAIN = set(lines.CHAIN)
SEED = heads.Settings.seed  # the Multi-head page's torch.manual_seed, as the tour builds its classes


def _recap(secret: bool) -> Coder:
    def code(s: Sentence, v: Any) -> Code:
        c = v.collapse
        return lines.weightless(
            v.labels, s.embeddings, c.scores, c.weights, c.context, v.query, v.key, secret
        )

    return code


def _masked(show: set[str], secret: bool, after: Collection[str] = ()) -> Coder:
    def code(s: Sentence, m: Any) -> Code:
        col = min(m.col, len(m.view.labels) - 1)  # one token: the step's cell is past the sentence
        cell = ((m.row, col), pair(m.view.labels[m.row], m.view.labels[col], "a"), secret)
        return lines.causal(m.view.labels, s.embeddings, m.view.weights, show,
                            {"masked": cell, "weights": cell} if secret else None, after)  # fmt: skip

    return code


def _zero(s: Sentence, m: Any) -> Code:
    """The Masking page's 0 fill: its weights, the asked cell covered until the reveal."""
    v = m.view
    col = min(m.col, len(v.labels) - 1)
    return lines.zero_fill(v.labels, s.embeddings, v.weights, v.masked, m.row, col, True)


def _dropped(secret: bool) -> Coder:
    def code(s: Sentence, d: Any) -> Code:
        v, col = d.view, d.cell if d.cell is not None else 0
        cell = ((d.row, col), pair(v.labels[d.row], v.labels[col], "a"), secret)
        show = {"queries", "keys", "scores", "mask", "masked", "weights", "dropout", "dropped"}
        return lines.causal(v.labels, s.embeddings, v.weight_set, show, {"weights": cell, "dropped": cell})

    return code


def _heads(pick: Callable[[Any], tuple[Any, int]]) -> Coder:
    def code(s: Sentence, data: Any) -> Code | None:
        v, first = pick(data)  # the split class's view, and the trace's first row whose shape is the answer
        c = v.config
        if v.trace is None:  # the class could not be built at these settings: no lines ran
            return None
        batch = example_batch(s.embeddings, c.d_in)
        secret = range(first, len(v.trace)) if first >= 0 else ()
        return lines.heads(
            s.labels, batch, v.trace, "split", c.d_out, c.num_heads, SEED, c.context_length, secret
        )

    return code


def _plain(show: set[str]) -> Coder:
    def code(s: Sentence, _: Any) -> Code:
        return lines.causal(s.labels, s.embeddings, weights_for(section_3_4(), s.width), show)

    return code


def _scaled(secret: bool, unscaled: bool) -> Coder:
    def code(s: Sentence, _: Any) -> Code:  # the sentence's own scores, at section 3.4's weights
        v = three.build(three.Settings(s.labels, s.embeddings, s.is_book))
        return lines.scaled(v.labels, s.embeddings, v.weight_set, v.trace, secret, unscaled)

    return code


CODERS: Mapping[str, Coder] = {
    "weightless": _recap(True),
    "huddle": _recap(False),
    "projections": lambda s, v: lines.projections(
        v.labels, s.embeddings, v.weight_set, v.trace, v.pair[0], True
    ),
    "asymmetry": lambda s, v: lines.scores(
        v.labels, s.embeddings, v.weight_set, v.trace, v.pair[0], v.pair[1], True
    ),
    "context": lambda s, v: lines.context(
        v.labels, s.embeddings, v.weight_set, v.trace, v.pair[0], v.cell_key if v.cell_key is not None else 0
    ),
    "which_width": _scaled(True, False),
    "saturation": _scaled(False, True),
    "gradient": _scaled(False, True),
    "which_triangle": _masked(
        {"queries", "keys", "scores", "mask", "masked", "weights"}, True, {"mask", "masked", "weights"}
    ),  # torch.triu names the triangle
    "zero_score": _zero,
    "two_ways": _masked({"queries", "keys", "scores", "mask", "masked", "weights"}, False),
    "dropout_factor": _dropped(True),
    "dropout_one_draw": _dropped(True),
    "dropout_average": _dropped(False),
    "heads_d_out": _heads(lambda c: (c.split, 4)),
    "heads_shapes": _heads(lambda t: (t.view, t.row)),
    "heads_same": _heads(lambda t: (t.view, -1)),
    "n_squared": _plain({"queries", "keys", "scores"}),
    "kv_cache": _plain({"keys", "values"}),  # what the cache keeps: each token's key and value
    "the_end": _plain(CHAIN),
}


def with_code(d: StepDef) -> StepDef:
    """``d`` with its step's code added (the same step when the tour has no code for it)."""
    coder = CODERS.get(d.key)
    if coder is None:
        return d
    make = d.make

    def built(s: Sentence) -> Step:
        step = make(s)
        return replace(step, code=coder(s, step.figure.data))

    return replace(d, make=built)
