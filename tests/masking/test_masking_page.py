"""The running Masking the future page: what only a session shows (widgets, URL binding, messages,
the figures' specs, the Reproduce expander). Its numbers are the view's (test_masking_view.py);
here they are read off the page to see that the page draws that view."""

import base64
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core import weights
from tests.app.conftest import APP, assert_clean, charts, metrics, open_page, widget
from topics.masking import box, script, view
from topics.masking.view import FILL_LABELS, Settings, build
from ui import checks as checks_ui
from ui import format as fmt

PAGE = "topics/masking/page.py"
FUTURE = "Attention token 1 gives to tokens it may not see"
LARGEST = "Largest |naive − efficient|"
DEFAULT_BARS = "softmax → [0.0844, 0.2295, 0.6239, 0.0311, 0.0311]"


def _chart(at, key):
    (chart,) = [c for c in charts(at) if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


def _bars(at):
    return [c for c in charts(at) if c.proto.id.endswith("fig03_bars")]


def _bars_title(at):
    return _chart(at, "fig03_bars")["layout"]["title"]["text"]


def _z(trace):
    """A heatmap's colour values: Plotly ships them as a base64 typed array."""
    z = trace["z"]
    if isinstance(z, dict):
        shape = tuple(int(v) for v in str(z.get("shape", "-1")).split(","))  # "6, 6"
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.array(z, dtype=np.float64)


def _checks_tally(at):
    """(passed, total) from the expander's title, "Checks against the sources: N of M match"."""
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    counts = checks_ui.parse_title(exp.label)
    return sum(counts.values()) - counts[checks_ui.Verdict.DIFFERS], sum(counts.values())


def _text(at):
    return " ".join(md.value for md in at.markdown)


def _readouts(v: view.View) -> dict[str, str]:
    """The metrics the page should show for the view ``v``."""
    return {
        "Naive path masks (first entry)": fmt.num(v.naive_first),
        "Efficient path masks (first entry)": fmt.num(v.efficient_first),
        LARGEST: v.largest_short,
        FUTURE: fmt.num(v.future[v.fill][0]),
    }


@pytest.fixture(scope="module")
def default_page():
    """The default view, with the Reproduce expander open (its key set, as a click does)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.query_params.clear()
    at.session_state["reproduce_masking"] = True
    return at.switch_page(PAGE).run()


def test_the_default_page_draws_the_default_view(default_page):
    at, v = default_page, build(Settings())
    assert_clean(at)
    assert metrics(at) == _readouts(v)
    assert v.prose in _text(at)
    leak = at.dataframe[0].value  # the zero fill's 0.8029 beside the book's sealed 0.0000
    assert leak.loc["Your", FILL_LABELS["zero"]] == "0.8029"
    assert (leak[FILL_LABELS["-inf"]] == "0.0000").all()
    assert _bars_title(at) == DEFAULT_BARS
    assert "Section 3.5 (sa_v2, seed 789)" in " ".join(c.value for c in at.caption)
    assert widget(at, "mask_weights").value == "Section 3.5"
    assert widget(at, "logits").proto.max_chars == box.MAX_CHARS
    passed, total = _checks_tally(at)
    assert passed == total >= 8
    assert at.latex and any("\\sum_{l \\le i}" in x.value for x in at.latex)
    code = " ".join(c.value for c in at.code)
    assert "torch.triu(torch.ones(context_length, context_length), diagonal=1)" in code
    assert "[:num_tokens, :num_tokens]" in code and "self.dropout(attn_weights)" in code
    assert not at.warning and not at.info


def test_the_reproduce_expander_shows_the_script_for_the_default_view_and_a_download(default_page):
    at, v = default_page, build(Settings())
    s = script.build(v.labels, Settings().x, v.weights, v.stage, v.fill, v.logits)
    (box_,) = [e for e in at.expander if e.label.startswith("Reproduce in")]
    assert box_.label == "Reproduce in PyTorch"
    (shown,) = [c.value for c in box_.code]
    assert shown == s.code.rstrip("\n")  # st.code drops the final newline; the download keeps it
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_masking_download"]
    assert s.filename in button.proto.label


def test_stepping_every_stage_and_fill_redraws_the_heatmaps_and_readouts():
    at = open_page(PAGE)
    for fill in ("-inf", "zero"):
        widget(at, "fill").set_value(fill).run()
        for stage in (1, 2, 3, 4):  # one session steps through all of them, as a reader would
            widget(at, "stage").set_value(stage).run()
            assert_clean(at)
            v = build(Settings(stage=stage, fill=fill))
            headers = [md.value for md in at.markdown if md.value.startswith("**")]
            assert headers == [
                f"**Naive, step {stage} of 4: {v.naive.name}**",
                f"**Efficient, step {stage} of 4: {v.efficient.name}**",
            ]
            assert metrics(at) == _readouts(v)
            spec = _chart(at, "fig03_efficient")["data"][0]
            (cells,) = [t["hovertext"] for t in _chart(at, "fig03_efficient")["data"] if "hovertext" in t]
            shown = [h.rsplit(": ", 1)[1] for h in cells]  # "query → key: value", on hover
            text = np.array(shown).reshape(len(spec["z"]), -1)  # each cell's text, row by row
            minus_inf = int(np.sum(text == "−∞"))
            # The -inf fill shows as "−∞" text on steps 2 and 3 (15 future cells), never as a colour.
            assert minus_inf == (15 if fill == "-inf" and stage in (2, 3) else 0), stage
            z = _z(spec)
            # Only the −∞ cells are left uncoloured (NaN in z); nothing else non-finite gets a colour.
            np.testing.assert_array_equal(np.isnan(z), text == "−∞")
            assert not np.isinf(z).any()
            assert np.isfinite(_z(_chart(at, "fig03_naive")["data"][0])).all()
        assert v.prose in _text(at)


def test_a_url_with_every_bound_key_renders_that_view():
    query: dict[str, str | list[str]] = {
        "mask_weights": "Any seed",
        "mask_seed": "789",
        "mask_init": "nn.Linear",
        "stage": "2",
        "fill": FILL_LABELS["zero"],
        "logits": "0, 0",
        "mask_focus": "starts",
        "mask_cell": "one",
    }
    at = open_page(PAGE, query)
    assert_clean(at)
    assert widget(at, "stage").value == 2 and widget(at, "fill").value == "zero"
    assert "nn.Linear, seed 789" in " ".join(c.value for c in at.caption)
    seed_789 = weights.init_weights(789, "linear")
    v = build(Settings(weights=seed_789, stage=2, fill="zero", focus=2, cell=4, logits="0, 0"))
    assert metrics(at) == _readouts(v)
    assert v.cell is not None and f"**One cell, step by step: {v.cell.heading}**" in _text(at)
    assert v.cell.heading == "starts → one" and v.cell.notes[0] in " ".join(m.value for m in at.markdown)
    assert metrics(at)["Efficient path masks (first entry)"] == "0.2899"  # seed 789, nn.Linear is sa_v2
    assert v.focus is not None and v.focus.extra in _text(at) and "**Focus: starts**" in _text(at)
    assert _bars_title(at) == "softmax → [0.5000, 0.5000]"


def test_the_box_keeps_the_last_good_input_and_says_what_it_did_with_any_row():
    at = open_page(PAGE)
    widget(at, "logits").set_value("0 0").run()
    assert_clean(at)
    assert not at.warning and _bars_title(at) == "softmax → [0.5000, 0.5000]"
    widget(at, "logits").set_value("__import__('os').system('echo pwned')").run()
    assert_clean(at)
    (warning,) = at.warning
    assert "is not a number" in warning.value and "last good input: 0 0" in warning.value
    assert _bars_title(at) == "softmax → [0.5000, 0.5000]"
    widget(at, "logits").set_value("1 2 " + "y" * 500).run()
    (warning,) = at.warning
    assert len(warning.value) < 200  # a message quotes only a prefix
    widget(at, "logits").set_value("-inf, 1, 2").run()  # Issue 13, item 6: −∞ is the natural experiment
    assert_clean(at)
    (info,) = at.info
    assert "exactly 0" in info.value and "PyTorch" in info.value and not at.warning
    assert _bars_title(at) == "softmax → [0.0000, 0.2689, 0.7311]"
    assert "nan" not in json.dumps(_chart(at, "fig03_bars")["data"][0]).lower()
    for text, why in (("-inf -inf", "0/0"), ("nan, 1", "NaN")):  # no softmax: a message, no bars
        widget(at, "logits").set_value(text).run()
        assert_clean(at)
        assert not _bars(at)
        (warning,) = at.warning
        assert "nothing is drawn" in warning.value and why in warning.value


HOSTILE_TEXT = [
    "",
    "nan nan nan x",
    "1e999",
    " ".join(["1"] * 10_000),
    "__import__('os')",
    "🙂" * 50,
    "x" * 10_000,
]


def test_hostile_text_in_the_box_shows_a_message_and_the_default_bars():
    at = open_page(PAGE)
    for junk in HOSTILE_TEXT:
        widget(at, "logits").set_value(junk).run()
        assert_clean(at)
        assert len(at.warning) == 1 and "Showing the last good input" in at.warning[0].value, junk[:20]
        assert _bars_title(at) == DEFAULT_BARS


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 400, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE, ids=lambda t: repr(t[:12]))
def test_garbage_in_every_key_renders_the_default_view(junk):
    keys = (
        "mask_weights",
        "mask_seed",
        "mask_init",
        "stage",
        "fill",
        "logits",
        "mask_focus",
        "mask_cell",
        "mask_scale",
    )
    at = open_page(PAGE, dict.fromkeys(keys, junk))
    assert_clean(at)
    assert metrics(at) == _readouts(build(Settings()))
    if junk in ("-1", "inf"):  # valid logits: the softmax of one number (even +∞) is 1
        assert _bars_title(at) == "softmax → [1.0000]"
    elif len(junk) > box.MAX_CHARS:  # longer than the box takes: the link's value is dropped, not parsed
        assert _bars_title(at) == DEFAULT_BARS
        assert "logits" not in at.query_params
        assert len(at.warning) == 0
    elif junk in ("nan", "-inf"):  # valid input with no softmax: a message, no bars
        assert not _bars(at)
        assert len(at.warning) == 1 and "nothing is drawn" in at.warning[0].value
    else:
        assert _bars_title(at) == DEFAULT_BARS
        assert len(at.warning) == 1


def test_extreme_edits_that_make_the_naive_path_divide_zero_by_zero_get_a_warning():
    payload = "a-999b999c999d-999e999f999h-999i999_a999b999c999d999e-999f999g999h999j999"
    at = open_page(PAGE, {"text": "a b", "dim": "10", "emb": payload, "mask_weights": "Section 3.4"})
    assert_clean(at)
    assert any("divides 0 by 0 in row 1" in w.value for w in at.warning)
    assert metrics(at)[LARGEST] == "0/0"


def _heatmap(at, key):
    return next(t for t in _chart(at, key)["data"] if t["type"] == "heatmap")


def _bar_title(trace):
    return (trace["colorbar"].get("title") or {}).get("text")


@pytest.mark.parametrize("stage", [1, 2, 4])
def test_the_weights_scale_from_the_link_reaches_the_weight_stages_only(stage):
    at = open_page(PAGE, {"stage": str(stage), "mask_scale": "0 to the largest weight"})
    assert_clean(at)
    v = build(Settings(stage=stage))
    for key, shown, is_weights in (
        ("fig03_naive", v.naive, stage >= 2),  # the naive path's softmax is its step 2
        ("fig03_efficient", v.efficient, stage == 4),  # the efficient path's is its last
    ):
        trace = _heatmap(at, key)
        if is_weights:
            assert "the largest" in _bar_title(trace), key
            assert trace["zmin"] == 0 and trace["zmax"] == pytest.approx(np.nanmax(shown.matrix)), key
        else:  # scores keep their signed scale, white at 0
            assert _bar_title(trace) is None, key
    assert _bar_title(_heatmap(at, "fig03_diff")) is None  # a signed difference: never relative


@pytest.mark.parametrize("value", ["0 to 1, fixed", "bogus"])
def test_the_fixed_scale_and_an_unknown_scale_colour_the_weights_from_0_to_1(value):
    at = open_page(PAGE, {"mask_scale": value})
    assert_clean(at)
    for key in ("fig03_naive", "fig03_efficient"):
        trace = _heatmap(at, key)
        assert _bar_title(trace) is None and (trace["zmin"], trace["zmax"]) == (0, 1), key


def test_a_long_sentence_on_the_fixed_scale_says_why_its_weights_are_pale():
    text = " ".join(f"w{i}" for i in range(12))
    hint = "pale on the fixed 0–1 scale"
    assert any(hint in c.value for c in open_page(PAGE, {"text": text}).caption)
    relative = open_page(PAGE, {"text": text, "mask_scale": "0 to each row's largest"})
    assert not any(hint in c.value for c in relative.caption)
