"""Run a batch of generated scripts in one subprocess and hold each printout against its case."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.reproduce import printed
from tests.reproduce.case import Case, Noise

ROOT = Path(__file__).resolve().parents[2]


def run(cases: list[Case], timeout: float = 1800) -> list[dict]:
    """Each case's script run as ``__main__`` in one fresh interpreter (``tests.reproduce.runner``)."""
    names = [f"case {i}: {c.page}" for i, c in enumerate(cases)]
    return run_code([c.script.code for c in cases], names, timeout)


def run_code(codes: list[str], names: list[str] | None = None, timeout: float = 1800) -> list[dict]:
    """Scripts given as text, run as :func:`run` runs them: ``stdout`` and ``error`` for each."""
    names = names or [f"script {i}" for i in range(len(codes))]
    payload = json.dumps([{"name": n, "code": c} for n, c in zip(names, codes, strict=True)])
    # The environment of the test process: NumPy's BLAS splits a matmul by its thread count, so
    # the page's numbers (computed here) and the script's share it to be equal bit for bit.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.reproduce.runner"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the runner failed ({done.returncode}): {done.stderr[-3000:]}")
    return json.loads(done.stdout)


def problems(case: Case, result: dict) -> list[str]:
    """Everything in the printout that is not what the page shows: a missing or extra label, an
    error, a number that differs at its printed precision (a bare number: in any bit)."""
    if result["error"]:
        return [f"{case.name}: the script raised\n{result['error']}"]
    shown = printed.parse(result["stdout"])
    out = []
    if set(shown) != set(case.expected):
        out.append(
            f"{case.name}: labels printed but not expected {sorted(set(shown) - set(case.expected))}, "
            f"expected but not printed {sorted(set(case.expected) - set(shown))}"
        )
    for label, value in case.expected.items():
        if label not in shown:
            continue
        p = shown[label]
        if isinstance(value, Noise):
            number = float(p.numbers) if isinstance(p.numbers, str) else float("nan")
            if not (abs(number) <= value.bound and abs(value.page) <= value.bound):
                out.append(f"{case.name}: {label}: noise expected below {value.bound}, printed {p.text}")
        elif isinstance(value, int) and not isinstance(value, bool):
            if p.text != str(value):
                out.append(f"{case.name}: {label}: printed {p.text}, page {value}")
        else:
            out += [f"{case.name}: {m}" for m in printed.mismatches(p, value)]
    return out


def _half_unit(text: str) -> float:
    """Half a unit in the last printed digit of ``text``: what printing alone may round away."""
    t = text.lower()
    mantissa, _, exponent = t.partition("e")
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 0.5 * 10.0 ** (-digits + (int(exponent) if exponent else 0))


def excess(case: Case, result: dict) -> float:
    """The largest difference between a printed number and the page's beyond what printing rounds
    away, relative to its block's largest magnitude (at least 1): how far two runs drifted apart.

    A label whose value is not a number (a ``None`` divergence step) counts as infinitely far when
    the two differ.
    """
    shown = printed.parse(result["stdout"])
    worst = 0.0
    for label, value in case.expected.items():
        p = shown[label]
        if value is None or isinstance(value, int):
            worst = max(worst, 0.0 if p.text == str(value) else float("inf"))
            continue
        diffs = printed.differences(p, value)
        scale = max([1.0, *(abs(v) for _, _, v in diffs if abs(v) < float("inf"))])
        for (_, ours, page), (_, text, _) in zip(diffs, printed.pairs(p, value), strict=True):
            if ours == page or (ours != ours and page != page):  # equal, or both NaN
                continue
            gap = abs(ours - page) - (0.0 if p.full else _half_unit(text))
            worst = max(worst, max(gap, 0.0) / scale)
    return worst
