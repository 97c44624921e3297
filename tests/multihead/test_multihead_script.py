"""The Multi-head page's script without PyTorch: its shape, its safety, ruff, and that it exists exactly
where the page draws tensors (the PyTorch run is ``test_multihead_reproduce.py``)."""

from __future__ import annotations

import random

import pytest

from core import multihead as mh
from core import tokens
from core.config import AttentionConfig
from tests.hostile import LABELS as HOSTILE_LABELS
from tests.multihead import multihead_cases as mc
from tests.reproduce.checks import assert_labels_stay_data, assert_ruff_clean, assert_standalone
from topics.multihead import script, view

T, X = tokens.TOKENS, tokens.inputs()


@pytest.fixture(scope="module")
def scripts() -> dict[str, script.Script]:
    return {name: script.for_page(s) for name, s in mc.every().items()}


def test_each_script_imports_torch_alone_and_rebuilds_the_weights_from_the_seed(scripts):
    for name, s in scripts.items():
        assert s.runtime == "torch", name
        assert_standalone(s, "multi-head")
        assert "torch.manual_seed(" in s.code, name  # no weight travels in the script


def test_the_scripts_pass_ruff_check_and_ruff_format(scripts, tmp_path):
    """With this project's rules, with ruff's defaults, and unchanged by ruff format."""
    assert_ruff_clean(scripts.values(), tmp_path)


@pytest.mark.parametrize("kind", ["wrapper", "split"])
def test_hostile_token_labels_stay_data(kind):
    """Whatever a label holds, the script compiles, ``tokens`` reads back as exactly the labels, and
    no label reaches the code outside a string literal."""
    for label in HOSTILE_LABELS:
        labels = (label, *T[1:])
        assert_labels_stay_data(script.build(labels, X, kind, AttentionConfig(), 123).code, labels)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: script.build(T, X, "split", AttentionConfig(d_out=3, num_heads=2), 123), "divisible"),
        (lambda: script.build(T, X, "wrapper", AttentionConfig(), 1, stand_in_seed=0), "torch.rand"),
        (lambda: script.build(T, X, "both", AttentionConfig(), 1), "kind must be"),
        (lambda: script.build(T, X, "split", AttentionConfig(context_length=4), 1), "context_length"),
        (lambda: script.for_page(view.Settings(d_out=3)), "not divisible"),
        (
            lambda: script.for_page(view.Settings(kind="wrapper", d_in=1024, d_out=1024, heads=16)),
            "parameters",
        ),
    ],
)
def test_settings_no_script_can_reproduce_raise_a_readable_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_a_script_exists_exactly_where_the_page_draws_tensors():
    """Over settings drawn from the controls' ranges, drawable or not: the page's view draws a run
    exactly when the script builder writes a script, and says why where it draws none."""
    rng = random.Random(mc.SEED)
    outcomes = []
    for _ in range(60):
        s = mc.draw(rng)
        cfg = s.config
        if mc.drawable(s) and mh.counts(s.kind, cfg).total_params > mc.QUICK_PARAMS:
            continue  # drawable but slow to draw here; the reproduce test runs such views
        v = view.build(s)
        shows = v.run is not None and v.run.error is None
        assert shows == mc.drawable(s), s
        assert shows or v.split_error or (v.run is not None and v.run.error), s
        try:
            script.for_page(s)
        except ValueError:
            assert not shows, s
        else:
            assert shows, s
        outcomes.append(shows)
    assert outcomes.count(True) >= 5 and outcomes.count(False) >= 5, outcomes
