"""Read what a generated script prints, and hold each number against the page's value.

A script prints labelled values, one ``label: value`` (or ``label:`` and the value on the next
lines) each: PyTorch tensors with PyTorch's default print options, NumPy arrays with fixed
decimals, and bare Python numbers at full precision. :func:`parse` splits the output into
labelled blocks and each block into a nested structure of number strings, keeping PyTorch's
``...`` where it summarised a large tensor; :func:`mismatches` compares every printed number with
the page's value at the precision it was printed with (a bare number bit for bit).
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

import numpy as np

_SUFFIX = re.compile(r",?\s*(dtype=torch\.\w+|requires_grad=True|grad_fn=<\w+>)")
_TOKEN = re.compile(r"\[|\]|\.\.\.|nan|-?inf|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LABEL = re.compile(r"^(?!tensor\(|\[)(\S[^:]*?):(?: (.*))?$")
GAP = "..."


@dataclass(frozen=True)
class Printed:
    """One labelled value: the raw text, and its numbers (nested lists of strings) if it has any."""

    label: str
    text: str
    numbers: object  # str (one number), list (nested, may hold GAP), or None
    full: bool  # a bare Python number: printed at full precision


def parse(stdout: str) -> dict[str, Printed]:
    """Label -> printed value, in print order. A label printed twice is an error."""
    blocks: list[tuple[str, list[str]]] = []
    for line in stdout.splitlines():
        m = _LABEL.match(line)
        if m and not line.startswith(" "):
            blocks.append((m.group(1), [m.group(2) or ""]))
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"output before the first label: {line!r}")
    out: dict[str, Printed] = {}
    for label, lines in blocks:
        if label in out:
            raise ValueError(f"label printed twice: {label!r}")
        text = "\n".join(lines).strip()
        out[label] = Printed(label, text, *_numbers(text))
    return out


def _numbers(text: str) -> tuple[object, bool]:
    body = text
    full = True
    if body.startswith("tensor("):
        body = _SUFFIX.sub("", body[len("tensor(") :]).rstrip()
        body = body[:-1] if body.endswith(")") else body
        full = False
    if body.startswith("torch.Size(") or body.startswith("['") or body.startswith('["'):
        return None, False
    if body in ("None", "True", "False"):
        return None, False
    tokens = _TOKEN.findall(body)
    if not tokens:
        return None, False
    if tokens[0] != "[":
        if len(tokens) != 1 or tokens[0] != body:
            return None, False
        return tokens[0], full
    full = full and "," in body  # a Python list prints full reprs; a NumPy array fixed decimals
    stack: list[list] = [[]]
    for t in tokens:
        if t == "[":
            stack.append([])
        elif t == "]":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t)
    (value,) = stack[0]
    return value, full


def _pairs(printed: object, expected: np.ndarray, where: tuple[int, ...] = ()):
    """(index, printed string, expected value) for every number printed, following PyTorch's gaps."""
    if isinstance(printed, str):
        yield where, printed, expected
        return
    assert isinstance(printed, list), printed
    items = list(printed)
    if GAP in items:
        g = items.index(GAP)
        head, tail = items[:g], items[g + 1 :]
        idx = [*range(len(head)), *range(len(expected) - len(tail), len(expected))]
        items = head + tail
    else:
        idx = list(range(len(items)))
    if len(items) > len(expected):
        raise AssertionError(f"{len(items)} printed where the page has {len(expected)} at {where}")
    if GAP not in printed and len(items) != len(expected):
        raise AssertionError(f"{len(items)} printed where the page has {len(expected)} at {where}")
    for i, item in zip(idx, items, strict=True):
        yield from _pairs(item, expected[i], (*where, i))


def _agree(text: str, value: float, full: bool) -> bool:
    v = float(value)
    if text in ("nan", "inf", "-inf"):
        return (math.isnan(v) and text == "nan") or v == float(text)
    if not math.isfinite(v):
        return False
    if full:
        return float(text) == v
    if "e" in text or "E" in text:
        digits = len(text.lower().split("e")[0].split(".")[1]) if "." in text else 0
        return _same(f"{v:.{digits}e}", text.lower())
    digits = len(text.split(".")[1]) if "." in text else 0
    return _same(f"{v:.{digits}f}", text)


def _same(ours: str, theirs: str) -> bool:
    def norm(s: str) -> str:
        s = s.rstrip(".") if s.endswith(".") else s
        return s[1:] if s.startswith("-") and float(s) == 0 else s

    return norm(ours) == norm(theirs) or float(ours) == float(theirs)


def mismatches(printed: Printed, expected: object) -> list[str]:
    """Every number of ``printed`` that differs from ``expected`` at its printed precision."""
    if isinstance(expected, str):
        shown = ast.literal_eval(printed.text) if printed.text[:1] in "['\"" else printed.text
        same = shown == expected or str(shown) == expected
        return [] if same else [f"{printed.label}: {shown!r} != {expected!r}"]
    if expected is None:
        return [] if printed.text == "None" else [f"{printed.label}: {printed.text!r} is not None"]
    if isinstance(expected, list | tuple) and expected and isinstance(expected[0], str):
        shown = ast.literal_eval(printed.text)
        return [] if list(shown) == list(expected) else [f"{printed.label}: {shown!r} != {list(expected)!r}"]
    if printed.numbers is None:
        return [f"{printed.label}: no numbers in {printed.text!r}"]
    exp = np.asarray(expected, dtype=np.float64)
    bad = []
    for where, text, value in _pairs(printed.numbers, exp):
        if not _agree(text, value, printed.full):
            bad.append(f"{printed.label}{list(where)}: printed {text}, page {float(value)!r}")
    return bad


def differences(printed: Printed, expected: object) -> list[tuple[str, float, float]]:
    """(where, printed number, page value) for every number: what a drift is measured on."""
    exp = np.asarray(expected, dtype=np.float64)
    return [(f"{printed.label}{list(w)}", float(t), float(v)) for w, t, v in _pairs(printed.numbers, exp)]


def pairs(printed: Printed, expected: object) -> list[tuple[str, str, float]]:
    """(where, printed text, page value) for every number printed."""
    exp = np.asarray(expected, dtype=np.float64)
    return [(f"{printed.label}{list(w)}", t, float(v)) for w, t, v in _pairs(printed.numbers, exp)]
