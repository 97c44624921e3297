"""Each page's script beside the page's own values, for the default view and random legal settings.

A :class:`Case` holds one script and what the page shows for the same settings, computed here
with the same ``core`` calls the page script makes (``app_pages/*.py``), keyed by the label the
script prints. Random settings are drawn from each control's own range or ladder, so every case
is a view a reader can reach. The oracle tests run the scripts and compare (``printed.py``).
"""

from __future__ import annotations

import random

from core import (
    equivariance,
    reproduce,
    tokens,
    weights,
)
from core.block import (
    GPT2_PRESETS,
    BlockConfig,
    block_params,
    kv_cache_bytes,
    stack_params,
    tokens_to_outgrow,
)
from tests.reproduce.case import Case, Noise

T = tokens.TOKENS
X = tokens.inputs()


# --- what comes next -----------------------------------------------------------------------


GPT2_BLOCK = BlockConfig()


def what_comes_next(
    perm: tuple[int, ...] = (5, 4, 3, 2, 1, 0),
    cfg: BlockConfig = GPT2_BLOCK,
    kv: tuple[int, int, int] = (1024, 2, 1),
) -> Case:
    ws = weights.section_3_4()
    free, masked = (equivariance.permutation_test(X, ws, perm, c) for c in (False, True))
    params = block_params(cfg)
    per_token = kv_cache_bytes(cfg.n_layers, 1, cfg.emb_dim, kv[1], kv[2])
    out: dict[str, object] = {"Shuffled sentence": " ".join(T[i] for i in perm)}
    for name, r in (("Without the mask", free), ("With the causal mask", masked)):
        out[f"{name}, P f(X)"] = r.permuted_outputs
        out[f"{name}, f(P X)"] = r.outputs_of_permuted
        out[f"{name}, max |P f(X) - f(P X)|"] = Noise(r.gap) if r.gap < 1e-12 else r.gap
    out |= {
        "Attention": params.attention,
        "Feed-forward": params.feed_forward,
        "Layer norms": params.layer_norms,
        "Whole block": params.total,
        f"{cfg.n_layers} blocks": stack_params(cfg),
        "Cache size in bytes": kv_cache_bytes(cfg.n_layers, kv[0], cfg.emb_dim, kv[1], kv[2]),
        "Per token in bytes": per_token,
        "Outgrows the blocks' weights at tokens": tokens_to_outgrow(per_token, stack_params(cfg) * kv[1]),
    }
    return Case(
        "what-comes-next",
        {"perm": perm, "cfg": cfg, "kv": kv},
        reproduce.what_comes_next(T, X, ws, perm, cfg, *kv),
        out,
    )


def what_comes_next_random(rng: random.Random) -> Case:
    perm = tuple(rng.sample(range(6), 6))
    if rng.random() < 0.5:
        cfg = rng.choice(list(GPT2_PRESETS.values()))
    else:
        heads = rng.randint(1, 64)
        cfg = BlockConfig(
            heads * rng.randint(1, 256),
            heads,
            rng.randint(1, 256),
            rng.randint(1, 2_097_152),
            rng.random() < 0.5,
            rng.randint(1, 16),
        )
    kv = (rng.randint(1, 2_097_152), rng.choice((4, 2, 1)), rng.randint(1, 4096))
    return what_comes_next(perm, cfg, kv)
