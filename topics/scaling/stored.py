"""The 10⁶-draw reference, computed once and kept with the code: a page's first run never waits for it.

:func:`topics.scaling.view.references` is a pure function of constants (its seed, stream, draws and
the post's quotes), so its value is a constant too. Computing it takes 1.2 s on an idle 2-core
machine and 5–7 s while a server starts under load (issue 25), all of it on the first Divide by
√d_k reader's first run. ``reference.json`` holds its result; ``tests/scaling`` recomputes it and
checks every number against the file, so the file cannot drift from the code that makes it.
Regenerate it after changing the reference: ``python -m topics.scaling.stored``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from topics.scaling.monte_carlo import Reference, ReferenceStat

PATH = Path(__file__).with_name("reference.json")


def dumps(refs: dict[int, Reference]) -> str:
    """The reference as JSON (a float's repr reads back as the same float)."""
    return json.dumps([asdict(r) for r in refs.values()], indent=1) + "\n"


def _reference(d: dict[str, Any]) -> Reference:
    stats = tuple(
        (
            name,
            ReferenceStat(s["value"], s["se"], s["run_sd"], s["log10"], tuple(map(tuple, s["percentiles"]))),
        )
        for name, s in d["stats"]
    )
    cutoffs = tuple((on, tuple(shares), tuple(ses)) for on, shares, ses in d["cutoffs"])
    return Reference(d["d_k"], d["draws"], d["runs"], stats, cutoffs)


def loads(text: str) -> dict[int, Reference]:
    """What :func:`dumps` wrote, as :func:`topics.scaling.view.references` returns it."""
    return {r.d_k: r for r in map(_reference, json.loads(text))}


def load() -> dict[int, Reference]:
    """The stored reference (a few kilobytes; read in a millisecond)."""
    return loads(PATH.read_text(encoding="utf-8"))


if __name__ == "__main__":
    from topics.scaling import view

    PATH.write_text(dumps(view.references()), encoding="utf-8")
    print(f"wrote {PATH}")
