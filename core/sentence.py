"""The reader's own sentence: its tokens, their labels and their input embeddings.

The book runs chapter 3 on six tokens, "Your journey starts with one step". Every token page
here runs on whatever sentence the reader types instead, so this module turns any text into
what the book's ``inputs`` tensor is: ``n`` tokens, each a ``d_in``-wide embedding. It never
raises on text: whatever arrives from a text box or a link becomes a usable sentence, and what
was changed on the way is said in ``Sentence.notes``.

Tokens. The text is put in Unicode NFC form (so "é" typed either way is one word) and split on
whitespace; punctuation stays attached ("step." is its own word). Control characters, bidi
overrides and other invisible format characters are removed from each token (a token of nothing
else disappears), so no label can reorder the text around it or hide inside another. At most
``MAX_TOKENS`` tokens are kept. Empty text gives the book's sentence.

Labels. A token's label is the token itself, shortened to ``LABEL_CHARS`` characters. Repeated
labels get a superscript count, ``the``, ``the²``, ``the³``, so every label is unique: the
pages use labels as heatmap categories and as the values of URL-bound select boxes.

Embeddings. Every number is a multiple of 0.01 held as float32, as ``torch.tensor`` holds the
book's ``inputs``, carried as float64 for display. The book's six words (case-sensitive:
``Your``, as printed) keep the book's vectors in dimensions 1 to 3. Any other word, and any
dimension past the third, is derived from the word alone: with ``h = SHA-256(word as UTF-8)``
and ``u_j`` the big-endian 16-bit integer in bytes ``2j`` and ``2j + 1`` of ``h``, dimension
``j + 1`` is ``floor(100 · u_j / 65,536) / 100``, a value in [0, 1) like the book's. The 32-byte
digest covers the widest setting, 16 dimensions, exactly. It is the same in every process, on
every machine and every Python version (Python's own ``hash`` of a string is salted per process).
A repeated word gets the same embedding each time: chapter 3 has no position embeddings.

Edits (the URL key ``emb``). The embedding editor's changes travel in one compact string, so a
share link reproduces them. Only edited cells are written. Tokens are groups separated by
``_``, in sentence order, and trailing empty groups are left out. A group lists its token's
edited dimensions, each as a letter (``a`` is dimension 1, ``p`` dimension 16) followed by the
value in hundredths, a signed integer from -999 to 999. So ``_b57c-125`` sets dimension 2 of the
second token to 0.57 and dimension 3 to -1.25. The string is at most ``MAX_EDITS_CHARS`` long
(32 tokens × 16 dimensions, every cell edited); one that does not parse, or that names a token
or dimension the sentence does not have, is ignored as a whole with a note saying why.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from core import tokens
from core.multihead import STAND_IN_SEED
from core.torchgen import TorchGenerator
from core.weights import WeightSet, init_weights

MAX_TOKENS = 32  # heatmaps of 32 × 32 stay legible; the pages rerun in under 100 ms
MIN_WIDTH, MAX_WIDTH = 3, 16  # 16 dimensions use the SHA-256 digest's 32 bytes exactly
BOOK_WIDTH = 3  # d_in of the book's inputs
LABEL_CHARS = 16  # a longer token is labelled by its first 15 characters and "…"
EDIT_LIMIT = 999  # hundredths: an edited value lies in [-9.99, 9.99]
DIM_LETTERS = "abcdefghijklmnop"  # one letter per dimension, in the edits string
MAX_EDITS_CHARS = MAX_TOKENS * (MAX_WIDTH * len("p-999") + 1) - 1  # every cell edited: 2,591
BOOK_TEXT = " ".join(tokens.TOKENS)

# The book's inputs in hundredths: exactly what it prints (0.43, 0.15, 0.89, ...).
_BOOK_HUNDREDTHS: Mapping[str, tuple[int, int, int]] = {
    t: tuple(round(float(v) * 100) for v in row)  # type: ignore[misc]
    for t, row in zip(tokens.TOKENS, tokens.inputs(np.float64), strict=True)
}
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_KEEP_FORMAT = {"\u200d"}  # the zero-width joiner holds emoji sequences together
_REMOVED_CATEGORIES = {"Cc", "Cf", "Cs"}  # controls, invisible format characters (bidi), surrogates
_GROUP = re.compile(r"(?:[a-p]-?(?:0|[1-9][0-9]{0,2}))*")
_CELL = re.compile(r"([a-p])(-?(?:0|[1-9][0-9]{0,2}))")

Edits = Mapping[tuple[int, int], int]  # (token, dimension), both 0-based -> value in hundredths


@dataclass(frozen=True)
class Sentence:
    """One sentence as every token page uses it: what ``inputs`` is in the book, and its labels.

    ``embeddings`` is read-only, so a page cannot change the value another part of the run
    reads. ``is_book`` is true exactly when the pages show the book's own ``inputs``: its six
    tokens, 3 wide, unedited.
    """

    words: tuple[str, ...]  # the tokens, cleaned; the embeddings are derived from these
    labels: tuple[str, ...]  # unique, shortened: what figures and select boxes show
    embeddings: np.ndarray  # [n, width] float64, every value a float32 multiple of 0.01
    width: int
    edits: tuple[tuple[tuple[int, int], int], ...] = ()  # sorted ((token, dim), hundredths)
    notes: tuple[str, ...] = ()  # what was changed on the way, for the page to say
    is_book: bool = field(init=False)

    def __post_init__(self) -> None:
        self.embeddings.setflags(write=False)
        book = self.words == tokens.TOKENS and self.width == BOOK_WIDTH and not self.edits
        object.__setattr__(self, "is_book", book)

    @property
    def n(self) -> int:
        return len(self.words)

    @property
    def text(self) -> str:
        """The tokens joined by single spaces: the sentence as the pages use it."""
        return " ".join(self.words)


def clean_token(token: str) -> str:
    """``token`` without control, bidi and other invisible format characters (ZWJ is kept)."""
    return "".join(
        c for c in token if c in _KEEP_FORMAT or unicodedata.category(c) not in _REMOVED_CATEGORIES
    )


def split(text: str) -> tuple[tuple[str, ...], int]:
    """The first ``MAX_TOKENS`` tokens of ``text`` and how many it has in all.

    NFC first, then a split on whitespace (punctuation stays attached), then each token cleaned
    by :func:`clean_token`; tokens left empty are dropped.
    """
    words = [w for w in (clean_token(t) for t in unicodedata.normalize("NFC", str(text)).split()) if w]
    return tuple(words[:MAX_TOKENS]), len(words)


def _shorten(word: str) -> str:
    return word if len(word) <= LABEL_CHARS else word[: LABEL_CHARS - 1] + "…"


def labels(words: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Unique labels: each word shortened, and a repeat marked ``the²``, ``the³``, ... ."""
    used: set[str] = set()
    seen: dict[str, int] = {}
    out = []
    for w in words:
        base = _shorten(w)
        count = seen.get(base, 0) + 1
        label = base if count == 1 else base + str(count).translate(_SUPERSCRIPTS)
        while label in used:  # a typed "the²" beside a repeated "the"
            count += 1
            label = base + str(count).translate(_SUPERSCRIPTS)
        seen[base] = count
        used.add(label)
        out.append(label)
    return tuple(out)


def word_hundredths(word: str, width: int = BOOK_WIDTH) -> np.ndarray:  # -> [width] int64
    """A word's embedding in hundredths: the book's values for its six words (dimensions 1-3),
    otherwise ``floor(100 · u_j / 65,536)`` from the word's SHA-256 (see the module docstring)."""
    _check_width(width)
    digest = hashlib.sha256(word.encode("utf-8", "surrogatepass")).digest()
    u = np.frombuffer(digest, dtype=">u2")[:width].astype(np.int64)  # big-endian: same everywhere
    h = u * 100 >> 16
    book = _BOOK_HUNDREDTHS.get(word)
    if book is not None:
        h[:BOOK_WIDTH] = book
    return h


def from_hundredths(h: np.ndarray) -> np.ndarray:
    """Hundredths as the float32 values ``torch.tensor`` would hold, carried as float64."""
    return (np.asarray(h, dtype=np.float64) / 100).astype(np.float32).astype(np.float64)


def word_embedding(word: str, width: int = BOOK_WIDTH) -> np.ndarray:  # -> [width]
    """A word's input embedding (see :func:`word_hundredths`)."""
    return from_hundredths(word_hundredths(word, width))


def _check_width(width: int) -> None:
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)):
        raise ValueError(f"the embedding width must be an integer, got {width!r}")
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"the embedding width must be {MIN_WIDTH} to {MAX_WIDTH}, got {width}")


def parse_edits(payload: str, n: int, width: int) -> dict[tuple[int, int], int]:
    """Read an edits string (module docstring) for ``n`` tokens ``width`` wide.

    Raises ``ValueError`` with a reason a reader can act on: too long, not in the format, or
    naming a token or dimension the sentence does not have.
    """
    if len(payload) > MAX_EDITS_CHARS:
        raise ValueError(f"it is {len(payload):,} characters long; the most it can be is {MAX_EDITS_CHARS:,}")
    if payload == "":
        return {}
    groups = payload.split("_")
    if len(groups) > n:
        raise ValueError(f"it edits {len(groups)} tokens, and the sentence has {n}")
    edits: dict[tuple[int, int], int] = {}
    for row, group in enumerate(groups):
        if not _GROUP.fullmatch(group):
            shown = group if len(group) <= 20 else group[:20] + "…"
            raise ValueError(
                f"token {row + 1}'s part “{shown}” is not a list of a letter a–p and a number -999 to 999"
            )
        for letter, value in _CELL.findall(group):
            dim = DIM_LETTERS.index(letter)
            if dim >= width:
                raise ValueError(
                    f"it edits dimension {dim + 1} ({letter}) of token {row + 1}, and the embeddings "
                    f"are {width} wide"
                )
            if (row, dim) in edits:
                raise ValueError(f"it edits dimension {dim + 1} of token {row + 1} twice")
            edits[(row, dim)] = int(value)
    return edits


def format_edits(edits: Edits) -> str:
    """The edits string for ``edits``: the inverse of :func:`parse_edits`, shortest form."""
    if not edits:
        return ""
    last = max(row for row, _ in edits)
    groups = [
        "".join(f"{DIM_LETTERS[d]}{edits[(r, d)]}" for d in sorted(d for rr, d in edits if rr == r))
        for r in range(last + 1)
    ]
    return "_".join(groups)


# A number as a reader types it into a cell: ASCII digits only (float() would also read "0_5" as 5
# and "١" as 1), a point for decimals, an optional exponent; "−" (U+2212) is read as "-".
_TYPED_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?", re.IGNORECASE)
_TYPED_CHARS = 20  # how much of the typed text a refusal quotes


def _typed(text: str) -> str:
    """The typed text as a refusal quotes it: “abc”, cut to its first characters."""
    return f"“{text[:_TYPED_CHARS]}{'…' if len(text) > _TYPED_CHARS else ''}”"


def _read_typed(text: str) -> float:
    """A cell's typed text as a float; ``ValueError`` naming it unless it reads as a number."""
    t = text.strip().replace("−", "-")
    typed = _typed(text.strip())
    if not t:
        raise ValueError("the cell was left empty")
    if _TYPED_NUMBER.fullmatch(t):
        return float(t)
    if t.lstrip("+-").lower() in ("inf", "infinity"):
        raise ValueError(f"{typed} is not a finite number")
    if re.fullmatch(r"[+-]?[0-9]*,[0-9]+", t):  # a decimal comma
        raise ValueError(f"{typed} is not a number: write decimals with a point, as in {t.replace(',', '.')}")
    raise ValueError(f"{typed} is not a number")


def to_hundredths(value: object) -> int:
    """An edited cell's value in hundredths; ``ValueError`` unless a finite number in ±9.99.

    The embedding editor sends what the reader typed as text (``ui.sentence``: a number column
    would turn "abc" into 0 in the browser), so a refusal can name what was typed and why: not a
    number, not finite, outside ±9.99, or a cell left empty. A number (``0.5``) is read as is.
    """
    if value is None:
        raise ValueError("the cell was left empty")
    if isinstance(value, str):
        v, shown = _read_typed(value), _typed(value.strip())  # "1e999" reads as inf: outside
    elif isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        v, shown = float(value), f"{float(value):g}"
        if not np.isfinite(v):
            raise ValueError(f"{shown} is not a finite number")
    else:
        raise ValueError(f"{_typed(str(value))} is not a number")
    if not np.isfinite(v) or abs(round(v * 100)) > EDIT_LIMIT:
        raise ValueError(f"{shown} is outside −9.99 to 9.99")
    return round(v * 100)


def edit(s: Sentence, cells: Mapping[tuple[int, int], object]) -> tuple[str, tuple[str, ...]]:
    """The edits string after setting ``cells`` ((token, dim) -> value, as an editor reports them)
    in ``s``, and one message per refused cell (left empty, not a finite number in ±9.99, or off the grid).

    A refused cell keeps its value; a cell set back to its derived value is no longer an edit.
    """
    edits = dict(s.edits)
    derived = np.stack([word_hundredths(w, s.width) for w in s.words])
    refused = []
    for (row, dim), value in cells.items():
        if not (0 <= row < s.n and 0 <= dim < s.width):
            refused.append(f"token {row + 1}, dimension {dim + 1}: not in the sentence")
            continue
        try:
            h = to_hundredths(value)
        except ValueError as err:
            refused.append(f"{s.labels[row]}, dimension {dim + 1}: {err}")
            continue
        if h == derived[row, dim]:
            edits.pop((row, dim), None)
        else:
            edits[(row, dim)] = h
    return format_edits(edits), tuple(refused)


def build(text: str, width: int = BOOK_WIDTH, payload: str = "") -> Sentence:
    """The sentence the pages run on, from the text box, the width and the edits string.

    Never raises for any ``text`` and ``payload``; a bad ``width`` (the slider's bounds) does.
    Edits that leave a cell at its derived value are dropped, so ``edits`` is canonical.
    """
    _check_width(width)
    notes: list[str] = []
    words, typed = split(text)
    cleaned = [clean_token(t) for t in str(text).split()]
    if any(c != t for c, t in zip(cleaned, str(text).split(), strict=True)):
        notes.append("Control, direction and invisible formatting characters were removed from the sentence.")
    if not words:
        words, typed = tokens.TOKENS, len(tokens.TOKENS)
        notes.append("The sentence box is empty, so the pages show the book's sentence.")
    elif typed > MAX_TOKENS:
        notes.append(f"The sentence has {typed:,} tokens; the pages use the first {MAX_TOKENS}.")
    if "<" in text and ">" in text:
        notes.append("Markup in the sentence is shown as text; it is never rendered.")
    base = np.stack([word_hundredths(w, width) for w in words])  # [n, width]
    try:
        edits = parse_edits(str(payload), len(words), width)
    except ValueError as err:
        notes.append(f"The embedding edits could not be used ({err}), so none are applied.")
        edits = {}
    h = base.copy()
    for (row, dim), value in edits.items():
        h[row, dim] = value
    kept = tuple(sorted((cell, v) for cell, v in edits.items() if base[cell] != v))
    return Sentence(
        words=tuple(words),
        labels=labels(words),
        embeddings=from_hundredths(h),
        width=int(width),
        edits=kept,
        notes=tuple(notes),
    )


def book() -> Sentence:
    """The book's sentence: ``Your journey starts with one step``, its ``inputs`` unedited."""
    return build(BOOK_TEXT)


def hundredths_of(s: Sentence) -> np.ndarray:  # -> [n, width] int64
    """The sentence's embeddings in hundredths, as the editor and the edits string count them."""
    return np.rint(s.embeddings * 100).astype(np.int64)


def weights_for(ws: WeightSet, width: int) -> WeightSet:
    """``ws`` for inputs ``width`` wide: the same seed and initialisation, ``d_in = width``.

    The book's sets are ``(3, d_out)``; a wider sentence runs on ``torch.manual_seed(seed)``
    followed by the same calls with ``d_in = width`` (what the book's classes do when built with
    that ``d_in``). At width 3 this is ``ws`` itself, bit for bit.
    """
    d_in, d_out = ws.w_query.shape
    if width == d_in:
        return ws
    fresh = init_weights(ws.seed, ws.init, width, d_out)
    return WeightSet(ws.label, ws.seed, ws.init, fresh.w_query, fresh.w_key, fresh.w_value)


def example_batch(x: np.ndarray, d_in: int, dtype: type = np.float32) -> np.ndarray:  # -> [2, n, d_in]
    """``torch.stack((inputs, inputs))`` for a sentence's embeddings ``x`` [n, width], as the book
    feeds its multi-head classes.

    A class built ``d_in`` wide cannot take a sentence of another width; it then gets ``n``
    stand-in embeddings, ``torch.manual_seed(0); torch.rand(n, d_in)``, fixed whatever the weight
    seed (for the book's six tokens exactly ``core.multihead.example_batch``'s).
    """
    x = np.asarray(x, dtype=np.float64)
    if d_in < 1:
        raise ValueError(f"d_in must be a positive integer, got {d_in}")
    e: np.ndarray
    if x.shape[1] == d_in:
        e = x.astype(dtype)
    else:
        e = TorchGenerator(STAND_IN_SEED).rand(len(x), d_in).astype(dtype)
    return np.stack((e, e))


def nearest_pair(x: np.ndarray) -> tuple[int, int, float] | None:
    """The two different positions whose embeddings are closest, and their distance.

    What makes two tokens hard to tell apart for any attention: the projections see only the
    embedding. ``None`` for a single token.
    """
    e = np.asarray(x, dtype=np.float64)
    if len(e) < 2:
        return None
    d2 = np.sum((e[:, None, :] - e[None, :, :]) ** 2, axis=-1)
    d2[np.diag_indices(len(e))] = np.inf
    i, j = np.unravel_index(int(np.argmin(d2)), d2.shape)
    return int(min(i, j)), int(max(i, j)), float(np.sqrt(d2[i, j]))
