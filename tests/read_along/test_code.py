"""The book's code beside each step: every line run in PyTorch at the reader's sentence gives the
shape and value its comment prints; a prediction's part is covered until the reveal; and at a
9-token sentence most steps show code with the sentence's live shapes."""

from __future__ import annotations

import re

import pytest

from core import sentence
from topics.read_along.code import number
from topics.read_along.steps import STEPS
from topics.read_along.steps.scaling_masking import key_width

NINE = "the cat sat on the mat because it was"


def test_most_steps_show_the_books_code_with_live_shapes():
    s = sentence.build(NINE)
    codes = [d.make(s).code for d in STEPS]
    shown = [c for c in codes if c is not None]
    assert len(shown) >= 20
    live = [c for c in shown if any(9 in shp for shp in c.shapes)]
    assert len(live) >= 12
    width = next(d for d in STEPS if d.key == "which_width").make(s).code
    assert width is not None and width.lines[1].shape == (9, key_width(s))  # the d_k the step asks about
    assert all(re.search(r"# \[(\d+, )*9[],]", c.text()) for c in live)


@pytest.mark.parametrize("text", [NINE, "one"], ids=["nine", "one"])
def test_every_line_gives_its_comment_in_pytorch(text):
    torch = pytest.importorskip("torch")
    s = sentence.build(text)
    for d in STEPS:
        code = d.make(s).code
        if code is None:
            continue
        ns: dict[str, object] = {}
        exec("\n".join(code.setup), ns)  # the Reproduce script's setup: classes, inputs, weights
        for line in code.lines:
            exec(line.code, ns)
            if line.shape is None and line.value is None:
                continue
            got = eval(line.target, ns)
            assert isinstance(got, torch.Tensor), (d.key, line.code)
            if line.shape is not None:
                assert tuple(got.shape) == line.shape, (d.key, line.code)
            if line.value is not None:
                assert number(float(got[line.at])) == number(line.value), (d.key, line.code)


def test_a_predictions_part_waits_for_its_reveal():
    """Before the reveal a covered comment reads "?" and a line that is the answer is left out:
    step 11's torch.triu names the masked triangle; step 12's cell is the asked weight."""
    s = sentence.build(NINE)
    steps = {d.key: d.make(s) for d in STEPS}
    triangle = steps["which_triangle"].code
    assert triangle is not None
    assert "triu" not in triangle.text(hide=True) and "-torch.inf" not in triangle.text(hide=True)
    assert "triu" in triangle.text()
    zero = steps["zero_score"]
    assert zero.code is not None and zero.question is not None
    assert zero.question.answer_text.split(": ")[-1] in zero.code.text()
    assert zero.question.answer_text.split(": ")[-1] not in zero.code.text(hide=True)
    for key, step in steps.items():
        if step.code is None or step.question is None:
            continue
        for line in step.code.lines:
            if line.secret or line.secret_shape:
                assert "?" in line.comment(hide=True), (key, line.code)
