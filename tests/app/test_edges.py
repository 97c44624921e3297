"""Every page at the edges of its settings reads right (issue 38): one token, two tokens, one head,
a context of one, the uniform target, the most tokens.

An audit found, at those settings, "1 queries by 1 keys" in chart names, "(emb_dim 64, 1 heads)",
"At the full context, 1 tokens", "each of the 1 later key adds", a loss printed "-0.0e+0", and an
empty paragraph on Learning to attend. Each page is opened here from a share link, as a reader
opens it, and every text it draws is read: markdown, captions, headers, expander labels, metrics
(label, value, help), tables' cells and every chart's accessible name.
"""

from __future__ import annotations

import re

import pytest

from core.sentence import MAX_TOKENS
from tests.app.conftest import assert_clean, chart_names, open_page
from tests.app.test_wording import shown_text
from topics import PAGES, page_of
from topics.read_along import steps as tour_steps

ONE_TOKEN, TWO_TOKENS = "hello", "hello world"
EDGES: dict[str, tuple[dict[str, str], ...]] = {  # per topic, beyond the sentence: its own edges
    "overview": ({},),
    "read_along": ({},),
    "classroom": ({},),  # no sentence, no control: opened as it is
    "recap": ({"query": "hello", "key": "hello"},),
    "three_matrices": ({"focus": "hello"},),
    "layer": ({"layer_focus": "hello"}, {"layer_focus": "hello", "layer_weights": "Section 3.5"}),
    "learning": ({"learn_focus": "hello"}, {"target": "Uniform", "learn_focus": "hello"}),
    "scaling": ({"keys": "2", "d_k": "1"},),
    "masking": ({"mask_focus": "hello"}, {"mask_focus": "hello", "fill": "0 (the shortcut)"}),
    "dropout": ({"p": "0.9", "drop_focus": "hello"}, {"p": "0.0", "drop_focus": "hello"}),
    "multihead": ({"heads": "1", "mh_focus": "hello"},),
    "cost": ({"n": "1", "cost_heads": "1", "layers": "1"}, {"n": "2"}),
    "next": (
        {"n_heads": "1", "n_layers": "1", "context_length": "1", "kv_tokens": "1", "kv_batch": "1"},
        {"block": "Custom", "emb_dim": "64", "n_heads": "1", "context_length": "1", "next_focus": "hello"},
    ),
}
CASES = [
    pytest.param(
        (topic, {**({"text": text} if page_of(topic).follows_sentence else {}), **edge}),
        id=f"{topic}-{i}-{n}",
    )
    for topic, edges in EDGES.items()
    for i, edge in enumerate(edges)
    for n, text in (("one", ONE_TOKEN), ("two", TWO_TOKENS))
    if page_of(topic).follows_sentence or n == "one"  # a page without a sentence: once
]
# The most tokens a sentence holds, and the uniform target there: where Learning's verdict ran dry.
LONGEST = " ".join(f"w{i}" for i in range(MAX_TOKENS))
CASES += [
    pytest.param(("learning", {"text": LONGEST}), id="learning-longest"),
    pytest.param(("learning", {"text": LONGEST, "target": "Uniform"}), id="learning-longest-uniform"),
    pytest.param(("masking", {"text": LONGEST, "mask_focus": "w31"}), id="masking-longest"),
    pytest.param(("layer", {"text": LONGEST, "layer_focus": "w31"}), id="layer-longest"),
]

# Nouns the pages count, in the plural: "1 keys" and "one keys" are wrong wherever they stand.
PLURALS = (
    *("tokens", "keys", "queries", "rows", "columns", "positions", "heads", "weights", "layers", "draws"),
    *("products", "matrices", "scores", "logits", "entries", "numbers", "values", "bytes", "parameters"),
    *("steps", "runs", "cards", "dimensions", "vectors", "words", "outputs", "inputs", "elements"),
    *("cells", "blocks", "transposes", "seconds", "sequences", "denominators", "stripes", "embeddings"),
    *("operations", "multiplications"),
)
PLURAL = re.compile(
    r"(?<![\d.,])\b(?:1|one) (?:later |live |output |dot |row |stand-in )?(?:" + "|".join(PLURALS) + r")\b"
    r"|\b(?:each of|all|the) (?:the )?1 \w+",
    re.IGNORECASE,
)
NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-−]0(?:\.0+)?(?:e[+-]?\d+)?%?(?![\d.])")


def every_text(at) -> list[str]:
    """What a reader meets on the page: :func:`shown_text` (markdown, captions, expander labels,
    metric labels and help, code…), each metric's value, each table's cells and each chart's name."""
    tables = [
        str(x)
        for df in at.dataframe
        for x in [*df.value.columns, *df.value.index, *df.value.to_numpy().ravel()]
    ]
    return [*shown_text(at), *(m.value for m in at.metric), *tables, *chart_names(at)]


@pytest.fixture(scope="module", params=CASES)
def edge_page(request):
    topic, query = request.param
    at = open_page(page_of(topic).path, query, timeout=180)
    assert_clean(at)
    return at


def test_no_count_of_one_takes_a_plural(edge_page):
    found = [m.group(0) for t in every_text(edge_page) for m in PLURAL.finditer(t)]
    assert found == [], found


def test_no_zero_is_printed_with_a_minus(edge_page):
    """Code blocks are left out: a Reproduce script's comment may quote PyTorch's own ``-0.0000``."""
    code = {c.value for c in edge_page.code}
    found = [m.group(0) for t in every_text(edge_page) if t not in code for m in NEGATIVE_ZERO.finditer(t)]
    assert found == [], found


def test_no_paragraph_is_empty(edge_page):
    empty = [i for i, m in enumerate(edge_page.markdown) if not m.value.strip()]
    assert empty == [], [edge_page.markdown[i - 1].value[:80] for i in empty if i]


def test_the_patterns_catch_what_the_audit_found():
    """The three readers above would have failed on the audit's findings (a test that cannot fail is
    a defect): each pattern matches the text it was written for, and passes its fixed wording."""
    for wrong in (
        "Attention weights A, 1 queries by 1 keys",
        "(emb_dim 64, 1 heads)",
        "At the full context, 1 tokens",
        "each of the 1 later key adds",
        "a row of 1 live weights dies whole",
        "over all 1 keys whatever their order",
        "each of 1 rows is the zero vector",
    ):
        assert PLURAL.search(wrong), wrong
    for right in (
        "1 query by 1 key",
        "(emb_dim 64, 1 head)",
        "the one later key adds",
        "row 1 holds",
        "= 1 times",
    ):
        assert not PLURAL.search(right), right
    assert (
        NEGATIVE_ZERO.search("loss -0.0e+0")
        and NEGATIVE_ZERO.search("-0.0000")
        and NEGATIVE_ZERO.search("-0.0%")
    )
    for fine in ("-0.0001", "1.0e-05", "exp(0 − 1.2)", "x-0", "−0.5", "10"):
        assert not NEGATIVE_ZERO.search(fine), fine


def test_every_page_is_opened_at_its_edges():
    assert {p.path for p in PAGES} == {page_of(topic).path for topic in EDGES}


@pytest.mark.parametrize("step", range(1, len(tour_steps.STEPS) + 1))
def test_every_step_of_the_tour_reads_right_at_one_token(step):
    at = open_page(page_of("read_along").path, {"text": ONE_TOKEN, "step": str(step)}, timeout=180)
    assert_clean(at)
    texts = every_text(at)
    code = {c.value for c in at.code}
    assert [m.group(0) for t in texts for m in PLURAL.finditer(t)] == []
    assert [m.group(0) for t in texts if t not in code for m in NEGATIVE_ZERO.finditer(t)] == []
    assert all(m.value.strip() for m in at.markdown)
