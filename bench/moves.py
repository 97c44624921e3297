"""Move one bound control of a Streamlit page in Chromium, as a reader does, back and forth.

A control is found by its key (Streamlit gives its element the class ``st-key-<key>``). Each call
of a :class:`Mover` moves it once, alternately to a neighbouring value and back, so after the
first two moves every value it shows has been computed once (a warm rerun, as in
``bench.pages.rerun_times``):

- a slider or select slider: one arrow-key step (left first when it stands at its high end);
- a radio: its next option (the previous one when it stands on the last);
- a select box: the option after the current one, or the options at ``indices`` (a focus control
  goes back and forth between two tokens, never through "no focus");
- a number input: its step-up button, then step-down; a toggle: a click.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Mover:
    page: object
    key: str
    indices: tuple[int, int] | None = None  # a select box's two options, by position
    moves: int = 0
    _home: int = 0  # a radio's or select box's two options, by position, once the first move is made
    _other: int = 0
    _left_first: bool = False  # a slider standing at its high end steps left first

    @property
    def root(self):
        return self.page.locator(f".st-key-{self.key}")  # type: ignore[attr-defined]

    def kind(self) -> str:
        self.root.locator("input").first.wait_for()  # a page still drawing: wait for the control
        for kind in ("stSlider", "stSelectSlider", "stRadio", "stSelectbox", "stNumberInput", "stCheckbox"):
            if self.root.locator(f"[data-testid='{kind}']").count():
                return kind
        raise LookupError(f"no control with key {self.key!r} on {self.page.url}")  # type: ignore[attr-defined]

    def __call__(self) -> None:
        kind, back = self.kind(), self.moves % 2 == 1
        self.moves += 1
        if kind in ("stSlider", "stSelectSlider"):
            thumb = self.root.locator("input[type='range']").first
            if self.moves == 1:
                self._left_first = thumb.evaluate("t => t.value === t.max")
            thumb.focus()
            thumb.press("ArrowLeft" if self._left_first != back else "ArrowRight")
        elif kind == "stRadio":
            labels = self.root.locator("label:has(input[type='radio'])")
            if self.moves == 1:
                checks = labels.evaluate_all("ls => ls.map(l => l.querySelector('input').checked)")
                self._home = checks.index(True)
                self._other = self._home + 1 if self._home + 1 < len(checks) else self._home - 1
            labels.nth(self._home if back else self._other).click()
        elif kind == "stSelectbox":
            self._select(back)
        elif kind == "stNumberInput":
            testid = "stNumberInputStepDown" if back else "stNumberInputStepUp"
            self.root.locator(f"[data-testid='{testid}']").click()
        else:
            self.root.locator("label").first.click()

    def _select(self, back: bool) -> None:
        combo = self.root.locator("input[role='combobox']")
        options = self.page.locator("[role='listbox'] [role='option']")  # type: ignore[attr-defined]
        for attempt in range(3):  # on a loaded machine the first click may not open the list
            combo.click()
            try:
                options.first.wait_for(timeout=20_000)
                break
            except Exception:
                if attempt == 2:
                    raise
        if self.moves == 1:
            texts = [t.strip() for t in options.all_inner_texts()]
            current = texts.index(combo.input_value()) if combo.input_value() in texts else 0
            self._home, self._other = self.indices or (current, (current + 1) % len(texts))
        options.nth(self._home if back else self._other).click()
