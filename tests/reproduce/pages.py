"""Each page's script beside the page's own values, for the default view and random legal settings.

A :class:`Case` holds one script and what the page shows for the same settings, computed here
with the same ``core`` calls the page script makes (``app_pages/*.py``), keyed by the label the
script prints. Random settings are drawn from each control's own range or ladder, so every case
is a view a reader can reach. The oracle tests run the scripts and compare (``printed.py``).
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np

from core import (
    attention,
    cost,
    dropout,
    learning,
    masking,
    reproduce,
    scaling,
    tokens,
    weights,
)
from core import multihead as mh
from core.config import AttentionConfig
from tests.reproduce.case import Case, Noise, weight_set
from ui import cost_format as cf

T = tokens.TOKENS
X = tokens.inputs()
MAX_DRAWN_PARAMS = 4_000_000  # ui.multihead_view.MAX_DRAWN_PARAMS (ui imports streamlit)


# --- recap ---------------------------------------------------------------------------------


def recap(query: int = 1, key: int = 2, labels: tuple[str, ...] = T, x: np.ndarray = X) -> Case:
    tr = attention.attention_without_weights(x)
    spread_in, spread_out = attention.mean_pairwise_distance(x), attention.mean_pairwise_distance(tr.context)
    q, k = labels[query], labels[key]
    return Case(
        "recap",
        {"query": q, "key": k},
        reproduce.recap(labels, x, query, key),
        {
            "Scores omega = inputs @ inputs.T": tr.scores,
            "Weights = softmax(scores), row by row": tr.weights,
            f"Context vector for {q}": tr.context[query],
            f"Raw affinity {q}-{k}": tr.scores[query, key],
            f"...and {k}-{q}": tr.scores[key, query],
            "Mean pairwise distance, inputs": spread_in,
            "Mean pairwise distance, outputs": spread_out,
            "Outputs' spread as a share of the inputs'": spread_out / spread_in,
            "Outputs z, one row a token": tr.context,
            "Nearest input embedding": [labels[i] for i in attention.nearest_embedding(tr.context, x)],
        },
    )


def recap_random(rng: random.Random) -> Case:
    return recap(rng.randrange(6), rng.randrange(6))


# --- three matrices ------------------------------------------------------------------------


def three_matrices(
    ws: weights.WeightSet | None = None,
    mode: str = "three",
    labels: tuple[str, ...] = T,
    x: np.ndarray = X,
    pair: tuple[int, int] = (1, 2),
) -> Case:
    ws = ws or weights.section_3_4()
    tr = attention.attention_in_mode(x, ws, mode)
    j, s = pair
    cls = "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"
    out: dict[str, object] = {
        "Score error max|omega - omega^T|": attention.asymmetry_error(tr.scores),
        "Weight error max|A - A^T|": attention.asymmetry_error(tr.weights),
        "Divisor sqrt(d_k)": tr.divisor,
        "Scores omega": tr.scores,
        "omega - omega^T": attention.asymmetry(tr.scores),
        "Weights A = softmax(omega / sqrt(d_k))": tr.weights,
    }
    for m in attention.MODES:
        t = attention.attention_in_mode(x, ws, m)
        names = f"{labels[j]} -> {labels[s]}, {labels[s]} -> {labels[j]}"
        out[f"Mode {m}, [score error, weight error, {names}]"] = [
            attention.asymmetry_error(t.scores),
            attention.asymmetry_error(t.weights),
            t.weights[j, s],
            t.weights[s, j],
        ]
    out["Row sums of inputs @ inputs.T"] = attention.attention_in_mode(x, ws, "none").scores.sum(axis=1)
    out |= {"Q": tr.queries, "K": tr.keys, "V": tr.values, "Z = AV": tr.context}
    if mode == "three":
        out[f"The book's forward, {cls}(inputs), gives Z too"] = tr.context
    out |= {"W_query": ws.w_query, "W_key": ws.w_key, "W_value": ws.w_value}
    return Case(
        "three-matrices",
        {"mode": mode, "weights": ws.label},
        reproduce.three_matrices(labels, x, ws, mode, (j, s)),
        out,
    )


def three_matrices_random(rng: random.Random) -> Case:
    return three_matrices(weight_set(rng), rng.choice(attention.MODES))


# --- masking -------------------------------------------------------------------------------

NAIVE = ("scale", "softmax", "multiply by tril", "divide each row by its sum")
EFFICIENT = ("scores", "fill the future", "scale", "softmax")
LOGITS = np.array([1.0, 2.0, 3.0, 0.0, 0.0])


def masking_case(
    ws: weights.WeightSet | None = None,
    stage: int = 4,
    fill: str = "-inf",
    logits: np.ndarray = LOGITS,
    labels: tuple[str, ...] = T,
    x: np.ndarray = X,
) -> Case:
    ws = ws or weights.section_3_5()
    fills = {"-inf": -np.inf, "zero": 0.0}
    tr = attention.self_attention(x, ws)
    naive = masking.naive_path(tr.scores, tr.divisor)
    eff = masking.efficient_path(tr.scores, tr.divisor, fills[fill])
    largest = float(np.max(np.abs(masking.difference(naive, eff))))
    out: dict[str, object] = {
        f"Naive, step {stage} of 4, {NAIVE[stage - 1]}": naive[stage - 1].matrix,
        f"Efficient, step {stage} of 4, {EFFICIENT[stage - 1]}": eff[stage - 1].matrix,
    }
    if stage != 4:
        out["Masked weights after step 4 (efficient)"] = eff[-1].matrix
    out["Naive path masks (first entry), a weight"] = naive[1].matrix[0, 0]
    out["Efficient path masks (first entry), a score"] = eff[0].matrix[0, 0]
    out["Largest |naive - efficient|"] = Noise(largest) if fill == "-inf" else largest
    for name, f in (("-inf", -np.inf), ("0", 0.0)):
        final = masking.efficient_path(tr.scores, tr.divisor, f)[-1].matrix
        out[f"Attention to later tokens, fill {name}"] = masking.future_share(final)
    sm = masking.softmax_extended(logits)
    same = sm.torch == "the same weights"
    out["softmax(logits)"] = sm.weights if same else np.full(len(logits), np.nan)
    return Case(
        "masking",
        {"stage": stage, "fill": fill, "weights": ws.label, "logits": logits.tolist()},
        reproduce.masking(labels, x, ws, stage, fill, logits),
        out,
    )


def _logits(rng: random.Random) -> np.ndarray:
    n = rng.randint(1, 12)
    pool = [lambda: rng.uniform(-10, 10), lambda: float(rng.randint(-3, 3)), lambda: -np.inf]
    if rng.random() < 0.2:
        pool.append(lambda: np.inf)
    return np.array([rng.choice(pool)() for _ in range(n)])


def masking_random(rng: random.Random) -> Case:
    return masking_case(weight_set(rng), rng.randint(1, 4), rng.choice(("-inf", "zero")), _logits(rng))


# --- dropout -------------------------------------------------------------------------------

DROPOUT_DRAWS = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)


def dropout_case(
    p: float = 0.5, scale: bool = True, seed: int = 123, draws: int = 10_000, generator: str = "numpy"
) -> Case:
    ws = weights.section_3_5()
    w = masking.causal_weights(X, ws)
    stats = dropout.dropout_stats(w, dropout.keep_masks(seed, draws, len(T), p, generator), p, scale)
    first = "One draw after dropout" + (" (the first)" if generator == "numpy" else "")
    return Case(
        "dropout",
        {"p": p, "scale": scale, "seed": seed, "draws": draws, "generator": generator},
        reproduce.dropout(T, X, ws, p, scale, seed, draws, generator),
        {
            "Causal weights, before dropout": w,
            first: stats.first,
            "Its row sums": stats.first.sum(axis=1),
            "Zero rows in this draw": int((~stats.first.any(axis=1)).sum()),
            f"Mean row sum over {draws:,} draws": stats.running_mean[-1],
            "Expected mean row sum": stats.expectation,
            "Each row's mean sum": stats.row_sum_mean,
            "Share of draws where row i is the zero vector": stats.zero_rate,
            "Theory p**i": stats.zero_theory,
        },
    )


def _p(rng: random.Random) -> float:
    # The slider's values: Streamlit steps a float slider by repeated addition of 0.05.
    return [round(0.05 * i, 2) for i in range(19)][rng.randrange(19)]


def dropout_random(rng: random.Random, generator: str) -> Case:
    return dropout_case(
        _p(rng), rng.random() < 0.5, rng.randrange(2**31), rng.choice(DROPOUT_DRAWS), generator
    )


# --- multi-head ----------------------------------------------------------------------------

WIDTHS = (*range(1, 17), 20, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


BOOK_TOY = AttentionConfig()


def multihead(kind: str = "split", cfg: AttentionConfig = BOOK_TOY, seed: int = 123) -> Case:
    params = mh.init_params(kind, cfg, seed)  # type: ignore[arg-type]
    x = mh.example_batch(cfg.d_in)
    res = mh.forward(x, params)
    w, _ = mh.query_matrix(params)
    stand_in = None if cfg.d_in == 3 else mh.STAND_IN_SEED
    return Case(
        "multi-head",
        {"kind": kind, "cfg": cfg, "seed": seed},
        reproduce.multihead(T, x[0].astype(np.float64), kind, cfg, seed, stand_in_seed=stand_in),
        {
            "Output, first batch item": res.output[0],
            "context_vecs.shape": f"torch.Size({list(res.output.shape)})",
            "W_q": w,
            "Attention weights, first batch item, one matrix a head": res.weights[0],
            "Divisor sqrt(keys.shape[-1])": res.divisor,
            "Parameters": mh.counts(kind, cfg).total_params,  # type: ignore[arg-type]
        },
    )


def multihead_random(rng: random.Random) -> Case:
    while True:
        kind = rng.choice(mh.KINDS)
        cfg = AttentionConfig(rng.choice(WIDTHS[:20]), rng.choice(WIDTHS[:22]), rng.randint(1, 16))
        if kind == "split" and not cfg.divisible:
            continue
        if mh.counts(kind, cfg).total_params <= MAX_DRAWN_PARAMS // 40:  # keep the suite quick
            return multihead(kind, cfg, rng.randint(0, 1000))


def gpt2_small() -> Case:
    return multihead("split", AttentionConfig(768, 768, 12, 1024), 123)


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


# --- divide by sqrt(d_k) -------------------------------------------------------------------

SCALING_DRAWS = (100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)


def scaling_case(
    d_k: int = 64,
    divisor: bool = True,
    draws: int = 500,
    n_keys: int = 6,
    seed: int = 0,
    sampler: str = "exact",
) -> Case:
    config = scaling.StudyConfig(draws, n_keys, seed, sampler)  # type: ignore[arg-type]
    grid = scaling.study_grid(config)
    out: dict[str, object] = {}
    for d in sorted({d_k, *scaling.TABLE_D_KS}):
        if d not in grid:
            continue
        r = scaling.study_at(config, d)
        out[f"d_k = {d}, std of q.k"] = r.std
        for name, summ in (("no divisor", r.raw), ("divided by sqrt(d_k)", r.scaled)):
            out[f"d_k = {d}, {name}, median"] = summ.median
            out[f"d_k = {d}, {name}, mean"] = summ.mean
            out[f"d_k = {d}, {name}, live share"] = summ.live_share
            out[f"d_k = {d}, {name}, underflow share"] = summ.underflow_share
            out[f"d_k = {d}, {name}, naive zero share"] = summ.naive_zero_share
    scores = scaling.one_draw(scaling.StudyConfig(1, n_keys, seed, sampler), d_k)  # type: ignore[arg-type]
    scores = scores / np.sqrt(d_k) if divisor else scores
    out["One draw, log10 of each weight"] = attention.log_softmax(scores) / np.log(10)
    out["One draw, log10 of its largest |J|"] = float(scaling.log_largest_jacobian_entry(scores)) / np.log(10)
    return Case(
        "divide-by-sqrt-dk",
        {"d_k": d_k, "divisor": divisor, "draws": draws, "keys": n_keys, "seed": seed, "sampler": sampler},
        reproduce.divide_by_sqrt_dk(d_k, divisor, draws, n_keys, seed, sampler),
        out,
    )


def scaling_random(rng: random.Random) -> Case:
    sampler = rng.choice(scaling.SAMPLERS)
    draws = rng.choice(SCALING_DRAWS[:6] if sampler == "brute" else SCALING_DRAWS)
    return scaling_case(
        rng.choice(scaling.D_K_GRID),
        rng.random() < 0.5,
        draws,
        rng.randint(2, 64),
        rng.randint(0, 999),
        sampler,
    )


# --- what n² costs -------------------------------------------------------------------------

BASELINE_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
COST_WIDTHS = (3, 64, 128, 256, 512, 768, 1_024, 1_280, 1_600, 2_048, 4_096, 5_120, 8_192, 12_288, 16_384)
HEAD_WIDTHS = (1, 2, 4, 8, 16, 32, 64, 80, 96, 128, 256)


def cost_case(
    n: int = cost.GPT_4_1_WINDOW,
    bytes_per_score: int = 2,
    gpu: cost.Gpu = cost.GPUS[0],
    heads: int = 1,
    layers: int = 1,
    t0_ms: int = 100,
    d_in: int = 768,
    d_k: int = 64,
) -> Case:
    cfg = cost.CostConfig(n, bytes_per_score, heads, layers, gpu, Fraction(t0_ms, 1000))
    row = cost.cost_row(cfg)
    macs = cost.head_macs(n, d_in, d_k)
    out: dict[str, object] = {
        "Bytes": f"{row.nbytes:,} = {cf.binary_size(row.nbytes)}",
        "Cards to buy": f"{row.cards_to_buy} exact ratio {cf.fixed(row.cards, 2)}",
        "Time per token": f"{cf.fixed(row.seconds, 3)} s = {cf.hours(row.seconds)}",
        "Scores": f"{row.scores:,} of which the causal mask keeps {row.live_cells:,}",
    }
    for r in cost.cost_table(cfg):
        out[f"n = {r.n:,}"] = (
            f"scores {r.scores:,}, bytes {r.nbytes:,} ({cf.binary_size(r.nbytes)}), cards "
            f"{cf.fixed(r.cards, 2)} -> {r.cards_to_buy:,}, time {cf.fixed(r.seconds, 3)} s = "
            f"{cf.fixed(r.seconds / 3600, 2)} h"
        )
    out["Projections Q, K, V (multiply-adds)"] = f"{macs.linear:,}"
    out["QK^T + AV (multiply-adds)"] = f"{macs.quadratic:,}"
    out["Quadratic part wins from n"] = f"{cost.crossover(d_in, d_k):,}"
    return Case(
        "n-squared",
        {
            "n": n,
            "bytes": bytes_per_score,
            "gpu": gpu.name,
            "heads": heads,
            "layers": layers,
            "t0_ms": t0_ms,
            "d_in": d_in,
            "d_k": d_k,
        },
        reproduce.what_n_squared_costs(n, bytes_per_score, gpu, heads, layers, t0_ms, d_in, d_k),
        out,
    )


def cost_random(rng: random.Random) -> Case:
    return cost_case(
        rng.choice(cost.context_ladder()),
        rng.choice((4, 2, 1)),
        rng.choice(cost.GPUS),
        rng.randint(1, 128),
        rng.randint(1, 128),
        rng.choice(BASELINE_MS),
        rng.choice(COST_WIDTHS),
        rng.choice(HEAD_WIDTHS),
    )
