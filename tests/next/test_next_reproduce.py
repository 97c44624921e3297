"""The Reproduce oracle of "What comes next": its script, run with PyTorch, prints the page's view.

For the default view, a reader's own sentence and random legal settings (a seeded
``random.Random``, each value drawn from its control's own range), the script is built with
``topics/next/script.py`` from the page's settings and the weights its view used, run in one fresh
interpreter (``tests.reproduce.run``), and what it prints is held against the fields of the SAME
``view.build(...)`` result the page draws: tensors at PyTorch's printed precision, counts and
bytes exactly. An unmasked gap is float64 rounding noise, which the page states as a bound
(``Shuffle.limit``): the script's gap, PyTorch's digits, must be under that same bound. The script
prints what the page shows (issue #24, item 11): the differences its heatmaps draw, not the two
tensors they come from. The script's shape, safety and ruff run without
torch; the oracle is skipped where torch is not installed.
"""

from __future__ import annotations

import random

import pytest

from core import tokens
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.reproduce.case import Case, Noise, reader_sentence
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from tests.reproduce.run import problems, run
from topics.next import block, script, view
from topics.next.block import BlockConfig
from topics.next.controls import BYTES, KV_LIMITS, LIMITS
from topics.next.view import Settings

SEED = 17  # the random settings are the same on every run
RANDOM = 4


def gap(value: float, limit: float) -> object:
    """A gap the page shows as a bound (rounding noise) must be noise under that bound in the script."""
    return Noise(value, limit) if value <= limit else value


def expected(v: view.View) -> dict[str, object]:
    """What the script prints, label by label, read from the page's view."""
    sh, first, pre = v.shuffle, v.first, v.prefix
    out: dict[str, object] = {"Shuffled sentence": " ".join(sh.rows)}
    for name, r in (("Without the mask", sh.free), ("With the causal mask", sh.masked)):
        out[f"{name}, P f(X) - f(P X)"] = r.difference  # the heatmap's cells
        out[f"{name}, max |P f(X) - f(P X)|"] = gap(r.gap, sh.limit)
    if sh.focus is not None:
        f = sh.focus
        out["Focus, with the mask, in the original order"] = f.masked_original
        out["Focus, with the mask, shuffled"] = f.masked_shuffled
        out["Focus, without the mask, in the original order"] = f.free
        out["Focus, without the mask, shuffled"] = f.free_shuffled
    out |= {
        "Token 1, MultiHeadAttention": first.output,
        "Token 1, out_proj(W_value(x_1))": first.direct,
        "Token 1, max gap": first.gap,
        "One layer, the last token's largest change": gap(pre.one_layer, pre.limit),
        "Two stacked layers, the last token's largest change": pre.two_layers,
    }
    return out | {
        "Attention": v.params.attention,
        "Feed-forward": v.params.feed_forward,
        "Layer norms": v.params.layer_norms,
        "Whole block": v.params.total,
        f"{v.block.n_layers} blocks": v.stack,
        "Cache size in bytes": v.kv.bytes,
        "Per token in bytes": v.kv.per_token,
        "At the full context in bytes": v.kv.full,
        "Blocks' weights in bytes": v.kv.weight_bytes,
        "Equals the blocks' weights at tokens": v.kv.equal_at,
        "Exceeds the blocks' weights from tokens": v.kv.exceeds,
    }


def case(name: str, s: Settings) -> Case:
    """The script for ``s`` beside the view the page draws for ``s``."""
    v = view.build(s)
    shown = {"case": name, "perm": s.perm, "block": s.block, "kv": (s.kv_tokens, s.kv_bytes, s.kv_batch)}
    return Case("what-comes-next", shown, script.for_view(s, v), expected(v))


def random_settings(rng: random.Random) -> Settings:
    """A view a reader can reach: every value inside its control's range, heads dividing the width
    (the page shows the last good configuration otherwise), a preset half the time."""
    if rng.random() < 0.5:
        cfg = block.GPT2_PRESETS[rng.choice(list(block.GPT2_PRESETS))]
    else:
        (_, w_low, w_high, _), (_, h_low, h_high, _) = LIMITS["emb_dim"], LIMITS["n_heads"]
        heads = rng.randint(h_low, min(h_high, 64))
        width = heads * rng.randint(max(1, w_low // heads), w_high // heads)
        draw = {k: rng.randint(LIMITS[k][1], LIMITS[k][2]) for k in ("n_layers", "context_length", "ff_mult")}
        cfg = BlockConfig(width, heads, qkv_bias=rng.random() < 0.5, **draw)
    n = len(tokens.TOKENS)
    (_, t_low, t_high, _, _), (_, b_low, b_high, _, _) = KV_LIMITS["kv_tokens"], KV_LIMITS["kv_batch"]
    return Settings(
        block=cfg,
        perm=tuple(rng.sample(range(n), n)),
        focus=rng.choice((None, *range(n))),
        kv_tokens=rng.randint(t_low, t_high),
        kv_bytes=rng.choice(tuple(BYTES)),
        kv_batch=rng.randint(b_low, b_high),
    )


def readers_sentence() -> Settings:
    labels, x, _ = reader_sentence()  # 9 tokens, 16 wide, typed values; the page draws its own weights
    return Settings(labels, x, perm=tuple(range(len(labels)))[::-1], kv_tokens=8192)


def all_settings() -> dict[str, Settings]:
    rng = random.Random(SEED)
    return {
        "default": Settings(),
        "a reader's 9-token 16-wide sentence": readers_sentence(),
        "the identity order": Settings(perm=tuple(range(6))),
        "a focus, and a token that keeps its place": Settings(perm=(0, 1, 4, 3, 2, 5), focus=3),
        **{f"random {i + 1}": random_settings(rng) for i in range(RANDOM)},
    }


SETTINGS = all_settings()


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    return {name: case(name, s) for name, s in SETTINGS.items()}


# --- the oracle: PyTorch prints the view ---------------------------------------------------------


@pytest.fixture(scope="module")
def batch(cases) -> dict[str, tuple[Case, dict]]:
    pytest.importorskip("torch")
    made = list(cases.values())
    return dict(zip(cases, zip(made, run(made), strict=True), strict=True))


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_script_prints_the_pages_view(batch, name):
    c, result = batch[name]
    found = problems(c, result)
    assert not found, "\n".join(found[:20])


# --- the script without torch: its shape, its safety, ruff ---------------------------------------


def test_each_script_imports_torch_alone_and_rebuilds_its_weights(cases):
    for name, c in cases.items():
        assert c.script.runtime == "torch", name
        assert_standalone(c.script, "what-comes-next")
        assert "torch.manual_seed(" in c.script.code, name  # no weight travels in the script


def test_the_scripts_pass_ruff_check_and_ruff_format(cases, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean((c.script for c in cases.values()), tmp_path)


def test_hostile_token_labels_stay_data():
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal or a one-line comment."""
    for label in HOSTILE_LABELS:
        s = Settings((label, *tokens.TOKENS[1:]), perm=(1, 0, 2, 3, 4, 5), kv_tokens=1, kv_bytes=1)
        assert_labels_stay_data(script.for_view(s, view.build(s)).code, s.labels)


@pytest.mark.parametrize(
    ("perm", "kv", "message"),
    [((0, 0, 1, 2, 3, 4), (1, 1, 1), "permutation"), (tuple(range(6)), (0, 1, 1), "kv_tokens")],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(perm, kv, message):
    s = Settings()
    with pytest.raises(ValueError, match=message):
        script.what_comes_next(s.labels, s.embeddings, view.build(s).shuffle.weights, perm, s.block, *kv)
