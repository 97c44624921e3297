"""The pieces every generated script is built from: literals, comments, file names, the result type.

A generated script is text a reader will copy, run and maybe lint, so everything here writes
code the way ``ruff format`` would (88 columns, double quotes, trailing commas on exploded
lists) and never lets the reader's data (a token label, a number typed into a box) become code:
labels are written as string literals or sanitised comments, numbers as their exact ``repr``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Runtime = Literal["torch", "numpy", "python"]
TORCH = "PyTorch 2.13 (CPU)"  # the version the oracle tests run the scripts with
LINE = 88  # ruff format's default width: the script survives a reader's own formatter unchanged
INDENT = "    "
MAX_FILENAME = 100


@dataclass(frozen=True)
class Script:
    """One standalone script for the view on screen.

    ``runtime`` says what it needs besides Python: ``"torch"`` (PyTorch alone), ``"numpy"``
    (NumPy alone) or ``"python"`` (the standard library). ``note`` is one sentence for the page:
    how the script's numbers relate to the page's.
    """

    code: str
    filename: str
    runtime: Runtime
    note: str


# --- file names -----------------------------------------------------------------------------


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9.]+", "-", ascii_text).strip("-.")


def filename(page: str, *settings: object) -> str:
    """``three-matrices_three_seed-123-rand.py``: the page and its settings, safe on any file system.

    Only ``[a-z0-9.-_]`` survive, so no setting (a token label, a URL value) can put a path
    separator or a hidden file into the name; long names are cut at ``MAX_FILENAME``.
    """
    parts = [s for s in (_slug(str(p)) for p in (page, *settings)) if s]
    stem = re.sub(r"\.{2,}", ".", "_".join(parts))[:MAX_FILENAME].rstrip("-_.")
    return (stem or "attention") + ".py"


# --- literals -------------------------------------------------------------------------------


def comment(label: str, limit: int = 32) -> str:
    """A token label as it may appear after ``#``: one line, printable, at most ``limit`` chars."""
    text = "".join(c if unicodedata.category(c)[0] not in "CZ" else " " for c in str(label))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def string(text: str) -> str:
    """A Python string literal for ``text``, double-quoted where ruff format would quote it so."""
    r = repr(str(text))
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def float32_text(value: float) -> str:
    """The shortest digits that read back as this float32, through ``torch.tensor``'s float64.

    ``torch.tensor([0.43])`` parses ``0.43`` as a Python float and rounds it to float32; the
    shortest float32 digits survive that, checked here, else the exact float64 ``repr`` is used.
    """
    v = np.float32(value)
    if not np.isfinite(v):
        raise ValueError(f"an embedding must be a finite number, got {value!r}")
    text = str(v)
    if np.float32(float(text)) != v:
        text = repr(float(v))
    return text


def float64_text(value: float, lib: str = "torch") -> str:
    """``repr`` of a float64, which reads back to the same bits; infinities and NaN by ``lib``'s names."""
    v = float(value)
    if np.isnan(v):
        return f"{lib}.nan"
    if np.isinf(v):
        return f"{lib}.inf" if v > 0 else f"-{lib}.inf"
    return repr(v)


def is_float32(values: np.ndarray) -> bool:
    """Whether every value is a float32 number, so a plain ``torch.tensor`` holds it exactly."""
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore"):
        return bool(np.all(np.isfinite(v)) and np.array_equal(v.astype(np.float32).astype(np.float64), v))


def _wrap(head: str, items: Sequence[str], tail: str, indent: str) -> list[str]:
    """``head[a, b]tail`` on one line if it fits, else one item a line, as ruff format explodes it."""
    line = f"{indent}{head}[{', '.join(items)}]{tail}"
    if len(line) <= LINE:
        return [line]
    return [f"{indent}{head}[", *(f"{indent}{INDENT}{i}," for i in items), f"{indent}]{tail}"]


def list_literal(name: str, items: Iterable[str]) -> list[str]:
    """``name = [a, b, c]``, exploded one item a line when it is too long."""
    return _wrap(f"{name} = ", list(items), "", "")


def tensor_literal(
    name: str,
    values: np.ndarray,
    labels: Sequence[str] | None = None,
    *,
    suffix: str = "",
    lib: str = "torch",
) -> list[str]:
    """``name = torch.tensor([...])`` (or ``np.array``) for a vector or a matrix, exactly ``values``.

    Float32 numbers (the book's inputs, torch.rand draws) are written in their shortest form and
    the array is float32, as the book builds it; anything else is written as float64 ``repr``
    with a float64 dtype. Each row of a matrix carries its token label as a comment. ``suffix``
    is appended to the call (``".double()"``).
    """
    v = np.asarray(values, dtype=np.float64)
    f32 = is_float32(v)
    call = "torch.tensor" if lib == "torch" else "np.array"
    if lib == "torch":
        dtype = [] if f32 else ["dtype=torch.float64"]
    else:
        dtype = ["dtype=np.float32" if f32 else "dtype=np.float64"]

    def text(e: float) -> str:
        return float32_text(e) if f32 else float64_text(e, lib)

    if v.ndim == 1:
        items = [text(e) for e in v]
        one = f"{name} = {call}([{', '.join(items)}]{''.join(', ' + d for d in dtype)}){suffix}"
        if len(one) <= LINE:
            return [one]
        if not dtype:
            return [f"{name} = {call}(", *_wrap("", items, "", INDENT), f"){suffix}"]
        body = _wrap("", items, ",", INDENT)
        return [f"{name} = {call}(", *body, *(f"{INDENT}{d}," for d in dtype), f"){suffix}"]
    if v.ndim != 2:
        raise ValueError(f"a tensor literal takes a vector or a matrix, got shape {v.shape}")
    rows = [[text(e) for e in row] for row in v]
    notes = [comment(labels[i]) if labels is not None else "" for i in range(len(v))]
    flat = [f"{INDENT * 2}[{', '.join(items)}]," for items in rows]
    fits = all(len(f"{f}  # {n}" if n else f) <= LINE for f, n in zip(flat, notes, strict=True))
    lines = [f"{name} = {call}(", f"{INDENT}["]
    for f, items, note in zip(flat, rows, notes, strict=True):
        if fits:
            lines.append(f"{f}  # {note}" if note else f)
        else:
            lines += _compact_row(items, note)
    lines.append(f"{INDENT}]" + ("," if dtype else ""))
    lines += [f"{INDENT}{d}," for d in dtype]
    lines.append(f"){suffix}")
    # Rows too wide for a line keep several numbers a line; ruff format would put one a line.
    return lines if fits else ["# fmt: off", *lines, "# fmt: on"]


def _compact_row(items: Sequence[str], note: str) -> list[str]:
    """One matrix row over as few lines as fit, its label after it (or above, if it cannot fit)."""
    lead, cont = f"{INDENT * 2}[", f"{INDENT * 2} "
    out, line = [], lead
    for k, item in enumerate(items):
        piece = item + ("]," if k == len(items) - 1 else ",")
        if line not in (lead, cont) and len(line) + 1 + len(piece) > LINE:
            out.append(line)
            line = cont
        line += ("" if line in (lead, cont) else " ") + piece
    if note and len(f"{line}  # {note}") <= LINE:
        return [*out, f"{line}  # {note}"]
    return [*([f"{INDENT * 2}# {note}"] if note else []), *out, line]


def header(*sentences: str) -> list[str]:
    """The comment block under the imports: the view, its settings, how its numbers relate to the page's.

    Each sentence is wrapped at ``LINE`` columns; sentences are kept apart by line breaks only.
    """
    out: list[str] = []
    for sentence in sentences:
        line = "#"
        for word in sentence.split():
            if len(line) + 1 + len(word) > LINE and line != "#":
                out.append(line)
                line = "#"
            line += " " + word
        out.append(line)
    return out


def join(*blocks: Sequence[str] | str) -> str:
    """Blocks of lines, one blank line between blocks (two before and after a class or def)."""
    out: list[str] = []
    for block in blocks:
        lines = block.strip("\n").split("\n") if isinstance(block, str) else list(block)
        if not lines:
            continue
        top = lines[0].startswith(("class ", "def ", "@"))
        after_def = out and _last_was_def(out)
        if out:
            out += [""] * (2 if top or after_def else 1)
        out += lines
    return "\n".join(out) + "\n"


def _last_was_def(lines: list[str]) -> bool:
    """Whether the last top-level statement so far is a class or a function (ruff wants 2 lines after)."""
    for line in reversed(lines):
        if line and not line.startswith((" ", ")", "]")):
            return line.startswith(("class ", "def ", "@"))
    return False


def check_inputs(labels: Sequence[str], x: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """The token labels and the ``[n, d_in]`` embeddings a script starts from, checked together."""
    names = tuple(str(t) for t in labels)
    v = np.asarray(x, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] < 1 or v.shape[1] < 1:
        raise ValueError(f"the embeddings must be an [n, d_in] matrix, got shape {v.shape}")
    if len(names) != v.shape[0]:
        raise ValueError(f"{len(names)} token labels for {v.shape[0]} embeddings: give one label a row")
    if not np.all(np.isfinite(v)):
        raise ValueError("every embedding must be a finite number")
    return names, v


def inputs_block(labels: Sequence[str], x: np.ndarray, *, double: bool = True) -> list[str]:
    """``tokens = [...]`` and ``inputs = torch.tensor([...])``, then ``.double()`` as the pages compute.

    The book's inputs are float32 (``torch.tensor`` of Python floats); the pages turn them into
    float64 before any arithmetic, and so does the script, from the same float32 values.
    """
    names, v = check_inputs(labels, x)
    suffix = ".double()" if double and is_float32(v) else ""
    return [
        *list_literal("tokens", (string(t) for t in names)),
        *tensor_literal("inputs", v, names, suffix=suffix),
    ]
