"""A page's controls as the page itself declares them, read through AppTest, as URL values.

Every control is bound to the URL, so a setting of a page is a query string, and the same
setting can be opened by AppTest (``open_page(path, query)``) or by a browser. The ranges are
read from the widgets of a run at the page's defaults, never typed in here, so a bench that
searches them follows the page when its ranges change.

Left out: buttons (an event, not a state: Resample only moves the seed, a preset button only
sets other controls, and Multi-head's Measure is benchmarked by ``bench multihead``) and free
text boxes (the masking page's logits and the permutation box, capped by the page at 64 numbers
and 6 tokens), except the sentence, which ``read_controls(path, sentence=True)`` adds as a ladder
of lengths (:func:`sentence_control`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

Setting = dict[str, str]  # URL key -> URL value


@dataclass(frozen=True)
class Control:
    """One bound widget: its URL key, the values the URL can hold, and the default's."""

    key: str
    kind: str  # Selectbox, Radio, SelectSlider, Toggle, or a numeric Slider / NumberInput
    values: tuple[str, ...]  # every choice in order; for a numeric range, its (min, max)
    numeric: bool = False  # a range of numbers on a grid of ``step``, not a list of choices
    ordered: bool = True  # False for a radio or a select box: their options have no ends
    step: float = 1.0
    integer: bool = True
    default: str = ""
    searched: tuple[str, ...] = ()  # the values a search tries, when not the extremes (the sentence)

    @property
    def extremes(self) -> tuple[str, ...]:
        """The values a worst case is looked for among: both ends of a range or ladder, every
        choice of an unordered list, or the rungs named in ``searched``."""
        if self.searched:
            return self.searched
        return (self.values[0], self.values[-1]) if self.ordered else self.values

    def sample(self, rng: random.Random) -> str:
        """Any legal value; a numeric range snaps to its step."""
        if not self.numeric:
            return rng.choice(self.values)
        lo, hi = (float(v) for v in self.values)
        k = rng.randint(0, round((hi - lo) / self.step))
        return url_number(lo + k * self.step, self.integer)


def url_number(v: float, integer: bool) -> str:
    return str(round(v)) if integer else repr(round(v, 10))


def _url_value(w, value) -> str:
    """The URL form of a widget's value, as Streamlit writes it: an option's label, a number, a
    lower-case boolean."""
    kind = type(w).__name__
    if kind in ("Toggle", "Checkbox"):
        return "true" if value else "false"
    if kind in ("Selectbox", "Radio"):
        return w.options[w.index]
    if kind == "SelectSlider":  # its label
        return str(w.format_func(value))
    return url_number(float(value), float(value).is_integer())


SENTENCE_LENGTHS = (1, 6, 12, 26, 32)  # tokens: one, the book's six, and up to core.sentence's most


def sentence_control(default: str) -> Control:
    """The sentence box as a ladder of lengths (:data:`SENTENCE_LENGTHS`): the first ``n`` words of
    a 32-word sentence that starts with the book's six, so six tokens are the book's sentence."""
    from bench.bench_pages import SENTENCE_32
    from core.sentence import MAX_TOKENS

    words = SENTENCE_32.split()
    if not len(words) >= MAX_TOKENS == SENTENCE_LENGTHS[-1]:
        raise RuntimeError(f"the ladder of lengths must reach core.sentence's {MAX_TOKENS} tokens")
    rungs = tuple(" ".join(words[:n]) for n in SENTENCE_LENGTHS)
    return Control("text", "TextInput", rungs, default=default, searched=rungs)


def read_controls(path: str, sentence: bool = False) -> list[Control]:
    """The page's bound controls, from one AppTest run at its defaults. With ``sentence``, the
    sentence box too (:func:`sentence_control`), first, where the page has one; the embedding width
    (``dim``) is a slider, read like any other, its ends ``core.sentence``'s widths."""
    from tests.app.conftest import open_page
    from tests.app.test_url_fuzz import bound_widgets

    at = open_page(path)
    out = []
    if sentence:
        out += [sentence_control(w.value) for w in bound_widgets(at) if w.key == "text"]
    for w in bound_widgets(at):
        kind = type(w).__name__
        if kind == "TextInput":
            continue
        default = _url_value(w, w.value)
        if kind in ("Toggle", "Checkbox"):
            out.append(Control(w.key, "Toggle", ("false", "true"), default=default))
        elif kind in ("Selectbox", "Radio"):
            out.append(Control(w.key, kind, tuple(w.options), ordered=False, default=default))
        elif kind == "SelectSlider":
            out.append(Control(w.key, kind, tuple(w.options), default=default))
        else:  # Slider (numeric) or NumberInput
            lo, hi, step = float(w.proto.min), float(w.proto.max), float(w.proto.step or 1)
            integer = all(float(x).is_integer() for x in (lo, hi, step))
            ends = (url_number(lo, integer), url_number(hi, integer))
            out.append(Control(w.key, kind, ends, True, True, step, integer, default))
    return out


def ran_at(at, keys) -> Setting:
    """The setting a run actually used, read back from its widgets, for ``keys``: a page narrows a
    control's range to what the rest allows (Dropout's draws to the sentence's length), so the URL
    asked for is not always what ran."""
    from tests.app.test_url_fuzz import bound_widgets

    return {
        w.key: w.value if type(w).__name__ == "TextInput" else _url_value(w, w.value)
        for w in bound_widgets(at)
        if w.key in keys
    }


def random_setting(controls: list[Control], rng: random.Random, extreme_share: float = 0.3) -> Setting:
    """A random legal setting of every control; each control at one of its extremes with
    probability ``extreme_share``, so corners come up often."""
    setting = {}
    for c in controls:
        setting[c.key] = rng.choice(c.extremes) if rng.random() < extreme_share else c.sample(rng)
    return setting


def query(setting: Setting, controls: list[Control]) -> Setting:
    """The URL of ``setting`` as the app writes it: a control at its default is left out. It
    matters: a link naming a preset and none of its values applies the preset (Multi-head)."""
    defaults = {c.key: c.default for c in controls}
    return {k: v for k, v in setting.items() if defaults.get(k) != v}


def describe(setting: Setting, controls: list[Control]) -> str:
    """``key=value`` for every control away from its default (``defaults`` when none is); the
    sentence as its number of tokens."""
    defaults = {c.key: c.default for c in controls}
    moved = [
        f"{k}={len(v.split()) if k == 'text' else v}" for k, v in setting.items() if defaults.get(k) != v
    ]
    return " ".join(moved) or "defaults"
