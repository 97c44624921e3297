"""The whole layer (issue 44): every stage at the reader's sentence, its live shape in its chart's
title and name, the focus outlined from X to Z, each stage linked to the step that teaches it, and
the layer's numbers those of the app's own stage math (and of PyTorch, where it is installed)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from core import masking
from core import sentence as core_sentence
from core.sentence import weights_for
from core.weights import section_3_4, section_3_5
from tests.app.conftest import assert_clean, chart_names, charts, open_page
from topics import page_of, tour_step
from topics.layer import figures, view
from topics.read_along.steps import STEPS

NINE = "the quick brown fox jumps over the lazy dog"


def settings(text: str = NINE, focus: int | None = None, ws=None) -> view.Settings:
    s = core_sentence.build(text)
    return view.Settings(s.labels, s.embeddings, ws or section_3_4(), focus)


@pytest.mark.parametrize("ws", [section_3_4(), section_3_5()], ids=["3.4", "3.5"])
def test_every_stage_is_the_layers_own_math(ws):
    s = settings(ws=ws)
    v = view.build(s)
    m = {st.symbol.split(" ")[0].split(",")[0]: st.matrix for st in v.stages}
    tr = masking.causal_attention(s.embeddings, weights_for(ws, s.embeddings.shape[1]))
    np.testing.assert_array_equal(m["X"], s.embeddings)
    for sym, got in (("Q", tr.queries), ("K", tr.keys), ("V", tr.values), ("Ω", tr.scores)):
        np.testing.assert_array_equal(m[sym], got)
    future = masking.future_mask(len(v.labels))
    assert np.isneginf(m["Masked"][future]).all() and np.isfinite(m["Masked"][~future]).all()
    np.testing.assert_array_equal(m["A"], tr.weights)
    dropped = v.stages[-2].matrix
    assert set(np.unique(np.round(dropped / np.where(m["A"] > 0, m["A"], 1), 12))) <= {0.0, 1 / (1 - view.P)}
    np.testing.assert_allclose(m["Z"], dropped @ tr.values, rtol=0, atol=1e-15)


def test_the_dropout_draw_is_pytorchs():
    torch = pytest.importorskip("torch")
    a = view.build(settings()).stages[-3].matrix
    torch.manual_seed(view.DROPOUT_SEED)
    expected = torch.nn.Dropout(view.P)(torch.tensor(a)).numpy()
    np.testing.assert_allclose(view.dropout(a), expected, rtol=1e-15, atol=0)


def test_nine_tokens_name_each_stage_with_its_live_shape():
    """Done when: one page names every stage with its live shape ([9, 3], [9, 2], [9, 9]) in at
    least five charts."""
    v = view.build(settings())
    shapes = [re.search(r"\[\d+, \d+\]", s.title).group(0) for s in v.stages]  # type: ignore[union-attr]
    assert {"[9, 3]", "[9, 2]", "[9, 9]", "[3, 2]"} <= set(shapes)
    live = [c for c in figures.charts(v).values() if re.search(r"\[9, [239]\]", c.name)]
    assert len(live) >= 5
    for c, s in zip(figures.charts(v).values(), v.stages, strict=True):
        assert c.figure.layout.title.text == s.title and s.shape in c.name


@pytest.mark.parametrize("focus", [0, 4, 8])
def test_the_focus_is_outlined_in_every_token_stage(focus):
    v = view.build(settings(focus=focus))
    for key, chart in figures.charts(v).items():
        shapes = chart.figure.layout.shapes
        stage = v.stage(key)
        if stage.by_token:
            assert shapes and all(s.y0 == focus - 0.5 for s in shapes), key
        else:
            assert not shapes, key
    assert "z = " in v.focus_note and v.labels[focus] in v.focus_note


def test_each_stage_links_the_step_and_page_that_teach_it():
    for s in view.build(settings()).stages:
        number, title = tour_step(s.step)
        assert STEPS[number - 1].title == title and STEPS[number - 1].topic == s.topic
        page_of(s.topic)  # a page is registered


@pytest.mark.parametrize("text", ["hello", " ".join(f"w{i}" for i in range(core_sentence.MAX_TOKENS))])
def test_one_and_the_most_tokens(text):
    v = view.build(settings(text, focus=0))
    n = len(v.labels)
    assert all(s.matrix.shape[0] in (n, v.d_in) for s in v.stages)
    for c in figures.charts(v).values():  # no NaN or −∞ reaches a figure: a masked cell has no fill
        drawn = [x for t in c.figure.data if t.type == "heatmap" for r in t.z for x in r if x is not None]
        assert drawn and np.isfinite(drawn).all()


def test_the_page_draws_every_stage_at_the_readers_sentence():
    at = open_page(page_of("layer").path, {"text": NINE, "layer_focus": "fox"})
    assert_clean(at)
    names = chart_names(at)
    assert len(names) == len(view.build(settings()).stages)
    assert sum(bool(re.search(r"\[9, [239]\]", n)) for n in names) >= 5
    outlined = [c for c in charts(at) if json.loads(c.proto.spec)["layout"].get("shapes")]
    assert len(outlined) == sum(s.by_token for s in view.build(settings()).stages)
    assert [c.value for c in at.code][:2] == [s.code for s in view.build(settings()).stages][:2]


@pytest.mark.parametrize("ws", [section_3_4(), section_3_5()], ids=["3.4", "3.5"])
def test_the_reproduce_script_computes_every_stage_the_page_draws(ws):
    pytest.importorskip("torch")
    from topics.layer import script

    s = settings(ws=ws)
    code = script.build(s.labels, s.embeddings, ws, view.P, view.DROPOUT_SEED).code
    ran: dict = {"__name__": "layer_script"}
    exec(compile(code.replace("print(", "(lambda *a: None)("), "layer", "exec"), ran)  # silent
    for name, stage in zip(script.STAGES, view.build(s).stages, strict=True):
        np.testing.assert_allclose(ran[name].numpy(), stage.matrix, rtol=1e-12, atol=1e-12, err_msg=name)
