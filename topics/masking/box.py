"""The counterexample box of Masking the future: logits typed by a reader, and their softmax.

The post's counterexample (``softmax([1, 2, 3, 0, 0])``) shows that a zero score is not a zero
weight; the box lets a reader try any row, ``-inf`` included, because −∞ is the mask's own value.
Text is parsed, never evaluated, and every non-finite case gets a defined answer, beside what
PyTorch's ``torch.softmax`` gives for the same row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from core.attention import softmax

MAX_LOGITS = 64  # enough for a readable bar chart
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")  # ASCII digits only
_INFINITY = re.compile(r"([+-]?)(?:inf|infinity|∞)", re.IGNORECASE)
_NAN = re.compile(r"[+-]?nan", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,\s]+")
MAX_CHARS = 1_000  # the box's length, so a share link stays far below Streamlit's 524,288-char limit


def _shown(text: str, limit: int = 20) -> str:
    """At most ``limit`` characters of what was typed, for a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def parse_numbers(text: str, max_count: int = MAX_LOGITS) -> np.ndarray:  # -> [count]
    """Read ``"1.0, 2.0, 3.0, 0.0, 0.0"`` as float64 logits: parsed, never evaluated.

    Accepts 1 to ``max_count`` plain decimal numbers separated by commas and/or whitespace, and
    ``inf``, ``-inf`` (also ``infinity``, ``∞``) and ``nan`` in any case, because −∞ is the mask's
    own value and the page's natural experiment; ``−`` (the Unicode minus) reads as ``-``. What a
    softmax makes of them is :func:`softmax_extended`'s business. Words, code, a finite number
    that overflows (``1e999``) and too many numbers raise ``ValueError`` with a short message
    that quotes at most 20 characters of the input.
    """
    if not isinstance(text, str):
        raise ValueError("type numbers separated by commas or spaces, e.g. 1.0, 2.0, 3.0")
    parts = [p for p in _SEPARATORS.split(text.strip().replace("−", "-")) if p]
    if not parts:
        raise ValueError("the box is empty: type 1 to 64 numbers separated by commas or spaces")
    if len(parts) > max_count:
        raise ValueError(f"that is {len(parts):,} numbers; the box takes at most {max_count}")
    values = []
    for p in parts:
        if inf := _INFINITY.fullmatch(p):
            values.append(-np.inf if inf.group(1) == "-" else np.inf)
            continue
        if _NAN.fullmatch(p):
            values.append(np.nan)
            continue
        if not _NUMBER.fullmatch(p):
            raise ValueError(f"“{_shown(p)}” is not a number (like 2, -0.5, 1e-3 or -inf)")
        v = float(p)
        if not np.isfinite(v):
            raise ValueError(f"“{_shown(p)}” overflows a float64; type inf or -inf to mean infinity")
        values.append(v)
    return np.array(values, dtype=np.float64)


@dataclass(frozen=True)
class ExtendedSoftmax:
    """A softmax for any float64 logits, with what was done and what PyTorch does instead.

    ``weights`` is ``None`` where no weights exist (a NaN, or every logit −∞), and is otherwise
    finite, non-negative and sums to 1, so nothing non-finite ever reaches a figure.
    """

    weights: np.ndarray | None  # [count]
    note: str  # "" for finite logits; else the rule applied and why
    torch: str  # what torch.softmax(logits, dim=-1) returns for the same row


def softmax_extended(logits: np.ndarray) -> ExtendedSoftmax:  # [count] -> [count]
    """Softmax with defined results for ``-inf``, ``inf`` and ``nan``.

    - ``-inf`` entries get exactly 0 (``e^{-∞} = 0``): the book's mask, and what PyTorch does.
    - ``+inf`` entries share the weight equally and everything else gets 0: the limit of the
      softmax as those logits grow together. PyTorch returns NaN for the whole row instead,
      because its max-shift computes ``∞ − ∞``.
    - A NaN anywhere, or a row that is all ``-inf``, has no softmax: ``weights`` is ``None``.
      PyTorch returns NaN for every entry (for all ``-inf``: ``0/0``).
    """
    x = np.asarray(logits, dtype=np.float64)
    if x.ndim != 1 or x.size < 1:
        raise ValueError(f"logits must be one row of at least one number, got shape {x.shape}")
    if np.isnan(x).any():
        return ExtendedSoftmax(
            None,
            "NaN is not a number, so no ordering and no softmax: nothing is drawn. A single NaN "
            "poisons the whole row.",
            "NaN for every entry",
        )
    if np.all(x == -np.inf):
        return ExtendedSoftmax(
            None,
            "Every logit is −∞, so every e^(−∞) is 0 and the softmax would divide 0 by 0: this row "
            "attends to nothing, and nothing is drawn. In a causal mask it cannot happen, because "
            "the diagonal (a token seeing itself) is never masked.",
            "NaN for every entry (0/0)",
        )
    top = x == np.inf
    if top.any():
        k = int(top.sum())
        return ExtendedSoftmax(
            top / k,
            f"{k} of the logits {'is' if k == 1 else 'are'} +∞. Shown: the limit as "
            f"{'it grows' if k == 1 else 'they grow together'}: {'it takes' if k == 1 else 'they share'} "
            f"all the weight{'' if k == 1 else f', 1/{k} each'}, and every other logit gets 0.",
            "NaN for every entry (its max-shift computes ∞ − ∞)",
        )
    gone = int(np.sum(x == -np.inf))
    note = (
        f"{gone} of the logits {'is' if gone == 1 else 'are'} −∞ and get{'s' if gone == 1 else ''} "
        "exactly 0, since e^(−∞) = 0: this is how the book's mask removes the future."
        if gone
        else ""
    )
    return ExtendedSoftmax(softmax(x), note, "the same weights")
