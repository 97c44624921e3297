"""The Multi-head page's "Reproduce in PyTorch" script (figure 05): the book's wrapper or split class,
as configured, on the page's batch. No Streamlit: ``tests/multihead`` runs it and holds what it
prints against the page's view."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core import multihead as mh
from core import sentence
from core.config import AttentionConfig
from core.multihead import KINDS
from core.reproduce.book_code import CAUSAL_ATTENTION, MULTI_HEAD_ATTENTION, MULTI_HEAD_ATTENTION_WRAPPER
from core.reproduce.source import (
    TORCH,
    Script,
    check_inputs,
    filename,
    header,
    join,
    list_literal,
    string,
    tensor_literal,
)
from core.torchgen import TorchGenerator
from topics.multihead.view import (
    DIVISOR,
    HEAD_WIDTH,
    MAX_DRAWN_PARAMS,
    NONE,
    OUTPUT_SPLIT,
    OUTPUT_WRAPPER,
    PARAMETERS,
    PROJECTION_MATMULS,
    Settings,
)


def build(
    labels: Sequence[str],
    x: np.ndarray,
    kind: str,
    cfg: AttentionConfig,
    seed: int,
    stand_in_seed: int | None = None,
) -> Script:
    """``MultiHeadAttentionWrapper`` or ``MultiHeadAttention`` built after ``torch.manual_seed(seed)``
    on ``torch.stack((inputs, inputs))``: the output, W_q's stripes, each head's weights, the counts.

    ``stand_in_seed``: the inputs are ``torch.rand(n, d_in)`` after that seed (the page's stand-in
    embeddings when d_in is not the sentence's width), and the script draws them so instead of
    spelling them out.
    """
    names, v = check_inputs(labels, x)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if v.shape[1] != cfg.d_in:
        raise ValueError(f"the inputs are {v.shape[1]} wide, the module takes d_in = {cfg.d_in}")
    if len(names) > cfg.context_length:
        raise ValueError(f"{len(names)} tokens do not fit context_length = {cfg.context_length}")
    if cfg.dropout != 0.0:
        raise ValueError("the page shows the classes with dropout 0.0")
    if kind == "split":
        _ = cfg.head_dim  # the book's assert, as a ValueError with a message to act on
    n, d_in = v.shape
    if stand_in_seed is None:
        inputs = [*list_literal("tokens", (string(t) for t in names)), *tensor_literal("inputs", v, names)]
    else:
        drawn = TorchGenerator(stand_in_seed).rand(n, d_in).astype(np.float64)
        if not np.array_equal(drawn, v):
            raise ValueError(
                f"these inputs are not torch.rand({n}, {d_in}) after torch.manual_seed({stand_in_seed})"
            )
        inputs = [
            *list_literal("tokens", (string(t) for t in names)),
            f"# Stand-in embeddings, {d_in} wide: the page draws them so, whatever the weight seed.",
            f"torch.manual_seed({stand_in_seed})",
            f"inputs = torch.rand({n}, {d_in})",
        ]
    if kind == "wrapper":
        cls, other_cls = "MultiHeadAttentionWrapper", "MultiHeadAttention"
        head_width = "mha.heads[0].d_out"
        read = [
            "# Each head's W_query, as XW_q reads it, side by side: the columns torch.cat glues.",
            "W_q = torch.cat([head.W_query.weight.detach().T for head in mha.heads], dim=1)",
            "weights = torch.stack([head.attn_weights[0] for head in mha.heads])",
        ]
    else:
        cls, other_cls = "MultiHeadAttention", "MultiHeadAttentionWrapper"
        head_width = "mha.head_dim"
        read = [
            "# One W_query for every head: head i owns columns i * head_dim to (i + 1) * head_dim.",
            "W_q = mha.W_query.weight.detach().T",
            "weights = mha.attn_weights[0]  # [num_heads, num_tokens, num_tokens]",
        ]
    other_builds = other_cls == "MultiHeadAttentionWrapper" or cfg.divisible
    wrapper_needed = kind == "wrapper" or other_builds
    split_needed = kind == "split" or other_builds
    classes = [
        *([CAUSAL_ATTENTION, MULTI_HEAD_ATTENTION_WRAPPER] if wrapper_needed else []),
        *([MULTI_HEAD_ATTENTION] if split_needed else []),
    ]
    label = {"MultiHeadAttentionWrapper": OUTPUT_WRAPPER, "MultiHeadAttention": OUTPUT_SPLIT}
    if other_builds:
        other = [
            f"# The page shows both classes' output shapes. {other_cls} at the same settings, built on",
            "# PyTorch's meta device: shapes without numbers, so it costs no memory and draws no weights.",
            'with torch.device("meta"):',
            f"    other = {other_cls}(d_in, d_out, context_length, 0.0, num_heads)",
            'other_shape = other(batch.to("meta")).shape',
        ]
        other_print = f"print({string(label[other_cls] + ':')}, other_shape)"
    else:
        other = [
            f"# MultiHeadAttention asserts d_out % num_heads == 0: {cfg.d_out} % {cfg.num_heads} = "
            f"{cfg.d_out % cfg.num_heads},",
            "# so the split class has no output at these settings.",
        ]
        other_print = f"print({string(label[other_cls] + ': ' + NONE)})"
    own_print = f"print({string(label[cls] + ':')}, context_vecs.shape)"
    shapes = [own_print, other_print] if kind == "wrapper" else [other_print, own_print]
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f"Multi-head attention as the page shows it: {cls}(d_in={cfg.d_in}, d_out={cfg.d_out}, "
            f"context_length={cfg.context_length}, dropout=0.0, num_heads={cfg.num_heads}) after "
            f"torch.manual_seed({seed}), on the book's batch of two copies of the inputs.",
            f"Needs {TORCH} only. The page computes in float64 from the float32 weights and inputs, "
            "and so does this script: every number printed equals the page's to the 4 decimals "
            "both show.",
        ),
        *classes,
        inputs,
        [
            "batch = torch.stack((inputs, inputs), dim=0)",
            "torch.set_grad_enabled(False)  # nothing is trained here",
            f"d_in, d_out, num_heads = {cfg.d_in}, {cfg.d_out}, {cfg.num_heads}",
            f"context_length = {cfg.context_length}",
            f"torch.manual_seed({seed})",
            f"mha = {cls}(d_in, d_out, context_length, 0.0, num_heads=num_heads)",
            "mha = mha.double()  # float64 from the float32 draw, as the page computes",
            "context_vecs = mha(batch.double())",
        ],
        read,
        other,
        [
            'print("Output, first batch item:")',
            "print(context_vecs[0])",
            'print("W_q:")',
            "print(W_q)",
            'print("Attention weights, first batch item, one matrix a head:")',
            "print(weights)",
            "# The page's six readouts, under the page's labels.",
            "# One matmul for each W_query, W_key and W_value, in every head that has them.",
            'modules = [name.split(".")[-1] for name, _ in mha.named_modules()]',
            'projection_matmuls = sum(modules.count(w) for w in ("W_query", "W_key", "W_value"))',
            f"head_width = {head_width}  # keys.shape[-1] in every head",
            f"print({string(HEAD_WIDTH[kind] + ':')}, head_width)",
            f"print({string(DIVISOR + ':')}, head_width**0.5)",
            f"print({string(PROJECTION_MATMULS + ':')}, projection_matmuls)",
            *shapes,
            f"print({string(PARAMETERS + ':')}, sum(p.numel() for p in mha.parameters()))",
        ],
    )
    return Script(
        code,
        filename(
            "multi-head",
            kind,
            f"heads-{cfg.num_heads}",
            f"d-in-{cfg.d_in}",
            f"d-out-{cfg.d_out}",
            f"seed-{seed}",
        ),
        "torch",
        "The script builds the book's class after torch.manual_seed and runs it in float64 from its "
        "float32 weights, as this page does: its numbers equal the page's to the 4 decimals both print.",
    )


def for_page(s: Settings) -> Script:
    """The script for the page's settings ``s``: on the sentence's embeddings, or on the stand-ins
    ``core.sentence.example_batch`` draws from ``torch.manual_seed(0)`` when d_in is not the
    sentence's width. A ``ValueError`` says why there is none for a setting the page draws nothing
    for."""
    cfg = s.config
    if s.kind == "split" and not cfg.divisible:
        _ = cfg.head_dim  # raises the ValueError the page shows
    total = mh.counts(s.kind, cfg).total_params
    if total > MAX_DRAWN_PARAMS:
        raise ValueError(
            f"the page draws no tensors for {total:,} parameters (over {MAX_DRAWN_PARAMS:,}), so there is "
            "nothing on screen to reproduce. Lower d_out or the number of heads."
        )
    batch = sentence.example_batch(s.x, cfg.d_in)[0].astype(np.float64)
    stand_in = None if s.x.shape[1] == cfg.d_in else sentence.STAND_IN_SEED
    return build(s.labels, batch, s.kind, cfg, s.seed, stand_in_seed=stand_in)
