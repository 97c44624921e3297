"""Each page's script beside the page's own values, for the default view and random legal settings.

A :class:`Case` holds one script and what the page shows for the same settings, computed here
with the same ``core`` calls the page script makes (``app_pages/*.py``), keyed by the label the
script prints. Random settings are drawn from each control's own range or ladder, so every case
is a view a reader can reach. The oracle tests run the scripts and compare (``printed.py``).
"""

from __future__ import annotations

import random

from core import (
    attention,
    equivariance,
    learning,
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
from tests.reproduce.case import Case, Noise, weight_set

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


# --- learning ------------------------------------------------------------------------------

RATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
STEPS = (100, 200, 500, 1_000, 2_000, 5_000)


def learning_case(
    kind: str = "previous",
    token: int = 0,
    mode: str = "three",
    optimiser: str = "adam",
    lr: float = 0.02,
    steps: int = 5_000,
    step: int | None = None,
    ws: weights.WeightSet | None = None,
) -> tuple[Case, reproduce.Drift]:
    """The case and the page's nudge probe for it (how much this run amplifies rounding)."""
    ws = ws or weights.section_3_4()
    step = steps if step is None else step
    target = learning.target_pattern(kind, len(T), token)  # type: ignore[arg-type]
    every = learning.record_every(steps, len(X))
    config = learning.TrainConfig(optimiser, lr, steps, record_every=every)  # type: ignore[arg-type]
    runs = learning.train_modes(X, target, ws.w_query, ws.w_key, config)
    out: dict[str, object] = {}
    for m, r in runs.items():
        out[f"{m}, loss at step 0 and at step {steps}"] = [r.losses[0], r.losses[-1]]
        out[f"{m}, diverged at step"] = r.diverged_at
    r = runs[mode]
    i = r.at(step)
    out[f"{mode} at step {step}, loss"] = r.losses[step]
    out[f"{mode} at step {step}, attention A"] = r.attention[i]
    out[f"{mode} at step {step}, scores omega"] = r.scores[i]
    out[f"{mode} at step {step}, score error"] = attention.asymmetry_error(r.scores[i])
    out["Target"] = target
    case = Case(
        "learning",
        {
            "target": kind,
            "token": token,
            "mode": mode,
            "optimiser": optimiser,
            "lr": lr,
            "steps": steps,
            "step": step,
            "weights": ws.label,
        },
        reproduce.learning(T, X, ws, kind, token, mode, optimiser, lr, steps, step),
        out,
    )
    nudged = reproduce.nudged(X, target, ws.w_query, ws.w_key, config)
    return case, reproduce.drift(runs, nudged, mode, step)


def learning_random(rng: random.Random) -> tuple[Case, reproduce.Drift]:
    kind = rng.choice(learning.TARGETS)
    steps = rng.choice(STEPS)
    every = learning.record_every(steps, len(tokens.TOKENS))
    step = steps if rng.random() < 0.5 else rng.randrange(0, steps + 1, every)
    ws = weight_set(rng)
    width = rng.randint(1, 6)
    if width != ws.w_query.shape[1]:
        ws = weights.init_weights(ws.seed, ws.init, 3, width)
    return learning_case(
        kind,
        rng.randrange(6) if kind == "token" else 0,
        rng.choice(attention.MODES),
        rng.choice(learning.OPTIMISERS),
        rng.choice(RATES),
        steps,
        step,
        ws,
    )
