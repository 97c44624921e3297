"""The Masking the future page (figure 03): defaults, every stage and fill, the box, hostile URLs."""

import base64
import json

import numpy as np
import pytest

from core import attention, masking, tokens, weights
from tests.app.conftest import assert_clean, metrics, open_page, widget

PAGE = "topics/masking/page.py"
FILL_LABELS = {"-inf": "−∞ (the book)", "zero": "0 (the shortcut)"}
FUTURE = "Attention token 1 gives to tokens it may not see"
LARGEST = "Largest |naive − efficient|"


def _chart(at, key):
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


def _z(trace):
    """A heatmap's colour values: Plotly ships them as a base64 typed array."""
    z = trace["z"]
    if isinstance(z, dict):
        shape = tuple(int(v) for v in str(z.get("shape", "-1")).split(","))  # "6, 6"
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.array(z, dtype=np.float64)


def _bars_title(at):
    return _chart(at, "fig03_bars")["layout"]["title"]["text"]


def _checks_tally(at):
    """(passed, total) from the expander's title, "Checks against the book: N of M match"."""
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the book")]
    passed, total = exp.label.removeprefix("Checks against the book: ").removesuffix(" match").split(" of ")
    return int(passed), int(total)


def _text(at):
    return " ".join(md.value for md in at.markdown)


def test_default_view_shows_every_figure03_number():
    at = open_page(PAGE)
    assert_clean(at)
    m = metrics(at)
    assert m["Naive path masks (first entry)"] == "0.1921"
    assert m["Efficient path masks (first entry)"] == "0.2899"
    assert float(m[LARGEST]) < 1e-15 and "e-" in m[LARGEST]  # scientific notation, float64 noise
    text = _text(at)
    assert "Row 1 collapses to 1.0000" in text
    assert "[0.5517, 0.4483]" in text and "[0.3800, 0.3097, 0.3103]" in text
    # The leak table shows the zero fill's 0.8029 beside the book's sealed 0.0000.
    leak = at.dataframe[0].value
    assert leak.loc["Your", FILL_LABELS["zero"]] == "0.8029"
    assert (leak[FILL_LABELS["-inf"]] == "0.0000").all()
    assert _bars_title(at) == "softmax → [0.0844, 0.2295, 0.6239, 0.0311, 0.0311]"
    assert "Section 3.5 (sa_v2, seed 789)" in " ".join(c.value for c in at.caption)
    assert widget(at, "mask_weights").value == "Section 3.5"
    passed, total = _checks_tally(at)
    assert passed == total >= 8
    assert at.latex and any("\\sum_{l \\le i}" in x.value for x in at.latex)
    code = " ".join(c.value for c in at.code)
    assert "torch.triu(torch.ones(context_length, context_length), diagonal=1)" in code
    assert "[:num_tokens, :num_tokens]" in code and "self.dropout(attn_weights)" in code


@pytest.mark.parametrize("fill", ["-inf", "zero"])
def test_every_stage_and_fill(fill):
    at = open_page(PAGE)
    widget(at, "fill").set_value(fill).run()
    naive, efficient = (
        masking.naive_path(*_book_scores()),
        masking.efficient_path(*_book_scores(), _fill(fill)),
    )
    for stage in (1, 2, 3, 4):  # one session steps through all four, as a reader would
        widget(at, "stage").set_value(stage).run()
        assert_clean(at)
        headers = [md.value for md in at.markdown if md.value.startswith("**")]
        assert headers == [
            f"**Naive, step {stage} of 4: {naive[stage - 1].name}**",
            f"**Efficient, step {stage} of 4: {efficient[stage - 1].name}**",
        ]
        spec = _chart(at, "fig03_efficient")["data"][0]
        minus_inf = sum(cell == "−∞" for row in spec["text"] for cell in row)
        # The -inf fill shows as "−∞" text on steps 2 and 3 (15 future cells), never as a colour.
        assert minus_inf == (15 if fill == "-inf" and stage in (2, 3) else 0), stage
        z = _z(spec)
        # Only the −∞ cells are left uncoloured (NaN in z); nothing else non-finite gets a colour.
        np.testing.assert_array_equal(np.isnan(z), np.array(spec["text"]) == "−∞")
        assert not np.isinf(z).any()
        assert np.isfinite(_z(_chart(at, "fig03_naive")["data"][0])).all()
        m = metrics(at)
        assert m["Naive path masks (first entry)"] == "0.1921"  # the same at every step
        if fill == "zero":
            assert m[FUTURE] == "0.8029"
            assert float(m[LARGEST]) > 0.1  # the leak, in 4 decimals
        else:
            assert m[FUTURE] == "0.0000"
            assert float(m[LARGEST]) < 1e-15


def _book_scores():
    tr = attention.self_attention(tokens.inputs(), weights.section_3_5())
    return tr.scores, tr.divisor


def _fill(key):
    return float("-inf") if key == "-inf" else 0.0


def test_weight_set_control_switches_the_pipelines_but_not_the_checks():
    at = open_page(PAGE)
    widget(at, "mask_weights").set_value("Section 3.4").run()
    assert_clean(at)
    assert metrics(at)["Efficient path masks (first entry)"] != "0.2899"
    assert "Section 3.4" in " ".join(c.value for c in at.caption)
    passed, total = _checks_tally(at)
    assert passed == total  # the checks stay at the book's settings


def test_the_box_parses_keeps_the_last_good_input_and_never_raises():
    at = open_page(PAGE)
    widget(at, "logits").set_value("0 0").run()
    assert_clean(at)
    assert not at.warning
    assert _bars_title(at) == "softmax → [0.5000, 0.5000]"
    widget(at, "logits").set_value("__import__('os').system('echo pwned')").run()
    assert_clean(at)
    (warning,) = at.warning
    assert "is not a number" in warning.value and "last good input: 0 0" in warning.value
    assert _bars_title(at) == "softmax → [0.5000, 0.5000]"


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
        assert _bars_title(at) == "softmax → [0.0844, 0.2295, 0.6239, 0.0311, 0.0311]"


def test_a_url_with_every_bound_key_renders_that_view():
    at = open_page(
        PAGE,
        {
            "mask_weights": "Any seed",
            "mask_seed": "789",
            "mask_init": "nn.Linear",
            "stage": "2",
            "fill": FILL_LABELS["zero"],
            "logits": "0, 0",
        },
    )
    assert_clean(at)
    assert widget(at, "stage").value == 2 and widget(at, "fill").value == "zero"
    assert "nn.Linear, seed 789" in " ".join(c.value for c in at.caption)
    m = metrics(at)
    assert m["Efficient path masks (first entry)"] == "0.2899"  # seed 789, nn.Linear is sa_v2
    assert m[FUTURE] == "0.8029"
    assert _bars_title(at) == "softmax → [0.5000, 0.5000]"


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 400, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.fixture(scope="module")
def default_view():
    at = open_page(PAGE)
    return metrics(at), _bars_title(at)


@pytest.mark.parametrize("junk", GARBAGE, ids=lambda t: repr(t[:12]))
def test_garbage_in_every_key_renders_the_default_view(junk, default_view):
    default_metrics, default_title = default_view
    at = open_page(
        PAGE,
        {
            "mask_weights": junk,
            "mask_seed": junk,
            "mask_init": junk,
            "stage": junk,
            "fill": junk,
            "logits": junk,
        },
    )
    assert_clean(at)
    assert metrics(at) == default_metrics
    if junk in ("-1", "inf"):  # valid logits: the softmax of one number (even +∞) is 1
        assert _bars_title(at) == "softmax → [1.0000]"
    elif len(junk) > 1_000:  # longer than the box takes: the link's value is dropped, not parsed
        assert _bars_title(at) == default_title
        assert "logits" not in at.query_params
        assert len(at.warning) == 0
    elif junk in ("nan", "-inf"):  # valid input with no softmax: a message, no bars
        assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("fig03_bars")]
        assert len(at.warning) == 1 and "nothing is drawn" in at.warning[0].value
    else:
        assert _bars_title(at) == default_title
        assert len(at.warning) == 1


def _bars(at):
    return [c for c in at.get("plotly_chart") if c.proto.id.endswith("fig03_bars")]


@pytest.mark.parametrize(
    ("text", "title", "message"),
    [
        ("-inf, 1, 2", "softmax → [0.0000, 0.2689, 0.7311]", "exactly 0"),
        ("−∞, −∞, 0", "softmax → [0.0000, 0.0000, 1.0000]", "exactly 0"),
        ("inf, 1, INF", "softmax → [0.5000, 0.0000, 0.5000]", "1/2 each"),
    ],
)
def test_infinities_in_the_box_give_defined_weights_and_say_so(text, title, message):
    # Issue 13, item 6: −∞ is the page's natural experiment.
    at = open_page(PAGE, {"logits": text})
    assert_clean(at)
    assert _bars_title(at) == title
    (info,) = at.info
    assert message in info.value and "PyTorch" in info.value
    ticks = _chart(at, "fig03_bars")["data"][0]
    assert "nan" not in json.dumps(ticks).lower()


@pytest.mark.parametrize(("text", "why"), [("-inf -inf", "0/0"), ("nan, 1", "NaN"), ("1, NaN", "NaN")])
def test_a_row_with_no_softmax_gives_a_message_and_no_bars(text, why):
    at = open_page(PAGE, {"logits": text})
    assert_clean(at)
    assert not _bars(at)
    (warning,) = at.warning
    assert "nothing is drawn" in warning.value and why in warning.value


def test_the_box_is_capped_and_messages_quote_only_a_prefix():
    at = open_page(PAGE)
    assert widget(at, "logits").proto.max_chars == masking.MAX_CHARS
    widget(at, "logits").set_value("1 2 " + "y" * 500).run()
    assert_clean(at)
    (warning,) = at.warning
    assert len(warning.value) < 200


def test_the_prose_under_the_stages_follows_the_fill_and_the_weights():
    # Issue 13, item 6: with the fill at 0 the text no longer says "Row 1 collapses to 1.0000".
    at = open_page(PAGE, {"fill": FILL_LABELS["zero"]})
    text = _text(at)
    assert "Row 1 collapses" not in text
    assert "row 1 keeps only 0.1971 on the first token and hands 0.8029 to the 5 tokens after it" in text
    at = open_page(PAGE, {"weights": "Section 3.4"})
    (prose,) = [md.value for md in at.markdown if md.value.startswith("Row 1 collapses to 1.0000")]
    assert "[0.5517, 0.4483]" not in prose  # section 3.5's row 2, not these weights'
    row2 = masking.causal_weights(tokens.inputs(), weights.section_3_4())[1, :2]
    assert f"row 2 is [{row2[0]:.4f}, {row2[1]:.4f}]" in prose
