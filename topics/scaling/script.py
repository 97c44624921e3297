"""Divide by √d_k's Reproduce script: the Monte Carlo study, draw for draw, in NumPy.

The page samples with NumPy's ``default_rng``, which PyTorch cannot reproduce, so its script is
NumPy: the page's generator seeded the page's way, its sampler and its log-domain statistics,
operation for operation, so every number comes out bit for bit (with the same NumPy: NumPy keeps
``Generator`` streams stable in practice but does not promise it across versions). It prints what
the page shows, no more: √d_k, the readouts at the chosen d_k with their standard errors and the
live share at each cut-off, the caption's shares, the table's live column, and the one draw.
"""

from __future__ import annotations

from core.reproduce.source import Script, filename, header, join
from topics.scaling import monte_carlo as mc
from topics.scaling import text
from topics.scaling.monte_carlo import Sampler
from topics.scaling.quotes import QUOTES

_EXACT = '''
def sample_scores(rng, d_k, draws, n_keys):
    """q.k_j = |q| z_j: the keys are rotation invariant, so a draw costs O(n) at any d_k."""
    norm_q = np.sqrt(rng.chisquare(d_k, size=draws))
    return norm_q[:, None] * rng.standard_normal((draws, n_keys))
'''

_BRUTE = '''
def sample_scores(rng, d_k, draws, n_keys, memory=128 * 2**20):
    """q and the keys materialised, in chunks of `memory` bytes, then the dot products."""
    chunk = min(max(1, memory // ((n_keys + 1) * d_k * 8)), draws)
    buf = np.empty((chunk, n_keys + 1, d_k))  # q, then the keys
    out = np.empty((draws, n_keys))
    for start in range(0, draws, chunk):
        b = buf[: min(chunk, draws - start)]
        rng.standard_normal(out=b)
        out[start : start + len(b)] = np.matmul(b[:, 1:, :], b[:, 0, :, None])[..., 0]
    return out
'''

_STATISTICS = '''
def log_odds_against_top(w):
    """log S, S = sum over j != top of exp(w_j - w_top) = (1 - a_max) / a_max, never underflowing."""
    keys = np.moveaxis(w, -1, 0)
    top, second = np.array(keys[0]), np.full(keys.shape[1:], -np.inf)
    for k in keys[1:]:
        np.maximum(second, np.minimum(top, k), out=second)
        np.maximum(top, k, out=top)
    total = np.zeros(keys.shape[1:])
    for k in keys:
        total += np.exp(np.minimum(k, second) - second)
    return (second - top) + np.log(total - 1.0)


def summary(log_s):
    """Median, mean and live shares of the largest Jacobian entry a_max (1 - a_max), from logs,
    each with its standard error as the page computes it."""
    s = np.exp(log_s)
    a = 1.0 / (1.0 + s)
    x = np.sort(log_s - 2 * np.log1p(s))  # log of the largest |J| of each draw
    n = len(x)
    # The median of an even count: the mean of the two middle values, in the log domain; its
    # standard error from the order statistics sqrt(n)/2 ranks either side.
    pair = np.logaddexp(x[n // 2 - 1], x[n // 2]) - np.log(2.0)
    log_median = float(x[n // 2] if n % 2 else pair)
    half = 0.5 * np.sqrt(n)
    lo = x[max(0, int(np.floor(n / 2 - half)))]
    hi = x[min(n - 1, int(np.ceil(n / 2 + half)) - 1)]
    log_mean = x[-1] + np.log(np.mean(np.exp(x - x[-1])))  # shifted: no underflow
    dev = np.exp(x)
    dev -= np.mean(dev)
    out = {
        "median": float(np.exp(log_median)),
        "median standard error": float(np.exp(hi) - np.exp(lo)) / 2,
        "mean": float(np.exp(log_mean)),
        "mean standard error": float(np.sqrt(np.mean(dev * dev))) / float(np.sqrt(n)),
        "underflow share": float(np.mean(x < np.log(np.finfo(np.float64).tiny))),
        "naive zero share": float(np.mean((a - a * a) == 0)),
    }
    cuts = [("live share", 1e-3)] + [(f"share at least {c}", v) for c, v in CUTOFFS]
    for name, cut in cuts:
        p = float(np.mean(x >= np.log(cut)))
        out[name], out[f"{name} standard error"] = p, float(np.sqrt(p * (1 - p) / n))
    return out
'''


GROUPS = {False: "no divisor", True: "divided by sqrt(d_k)"}
_STD = ("", "std of q.k")
_KEYS = {"median": "median", "mean": "mean", "live": "live share"}


def shown_numbers(d_k: int, divisor: bool, grid: tuple[int, ...]) -> list[tuple[int, str, str]]:
    """``(d_k, group, key)`` of every study figure the page shows, in its order, each once.

    The readouts at ``d_k`` (the divisor as set: spread, median, mean, live share and the share at
    each cut-off, each with its standard error; the caption's two shares without the divisor),
    then the table's live column (each quoted statistic at its d_k, with its standard error).
    Nothing past brute force's reach (not in ``grid``): the page shows a dash there.
    """
    out: list[tuple[int, str, str]] = []

    def add(d: int, group: str, key: str, error: bool = True) -> None:
        for k in (key, f"{key}, standard error" if group == "" else f"{key} standard error")[: 1 + error]:
            if d in grid and (d, group, k) not in out:
                out.append((d, group, k))

    add(d_k, *_STD)
    for key in ("median", "mean", "live share", *(f"share at least {text.cutoff(c)}" for c in mc.CUTOFFS)):
        add(d_k, GROUPS[divisor], key)
    for key in ("naive zero share", "underflow share"):
        add(d_k, GROUPS[False], key, error=False)
    for q in QUOTES:
        if q.stat == "std":
            add(q.d_k, *_STD)
        else:
            kind, _, on = q.stat.partition("_")
            add(q.d_k, GROUPS[on == "scaled"], _KEYS[kind])
    return out


def divide_by_sqrt_dk(
    d_k: int, divisor: bool, draws: int, n_keys: int, seed: int, sampler: Sampler
) -> Script:
    """The study at ``d_k`` and the four d_k of the readout table, and the bar chart's one draw."""
    config = mc.StudyConfig(draws, n_keys, seed, sampler)  # validates draws, keys, seed, sampler
    if d_k not in mc.D_K_GRID:
        raise ValueError(f"d_k must be one of the page's {mc.D_K_GRID}, got {d_k}")
    grid = mc.study_grid(config)
    d_ks = [d for d in sorted({d_k, *mc.TABLE_D_KS}) if d in grid]
    brute = sampler == "brute"
    shown = "\n".join(
        f'    ({d}, "{group}", "{key}"),' for d, group, key in shown_numbers(d_k, divisor, grid)
    )
    code = join(
        ["import numpy as np"],
        header(
            f"Divide by sqrt(d_k) as the page shows it: {draws:,} draws of one query and "
            f"{n_keys} keys, seed {seed}, the {'brute-force' if brute else 'exact'} sampler, at "
            f"d_k = {d_k:,} ({'divided by sqrt(d_k)' if divisor else 'no divisor'}) and at the "
            "d_k of the table of quoted numbers.",
            "Needs NumPy only. The page draws with NumPy's default_rng, seeded per d_k, and this "
            "script repeats its sampling and statistics operation for operation: every number equals "
            "the page's bit for bit, with the same NumPy version"
            + (" and the same BLAS threads (the dot products are one matmul)." if brute else "."),
        ),
        _BRUTE if brute else _EXACT,
        [
            "# A draw is live when its largest |J| is at least 1e-3; the page shows the share at",
            "# each of these cut-offs too.",
            "CUTOFFS = (" + ", ".join(f'("{text.cutoff(c)}", {c!r})' for c in mc.CUTOFFS) + ")",
        ],
        _STATISTICS,
        [
            f"draws, n_keys, seed = {draws}, {n_keys}, {seed}",
            f"chunk = {mc.CHUNK_DRAWS}  # draws sampled at once, as the page does",
            "results = {}",
            f"for d_k in {d_ks}:",
            "    rng = np.random.default_rng([seed, d_k, 0])  # one stream per (seed, d_k)",
            "    raw, scaled, squares = [], [], []",
            "    for start in range(0, draws, chunk):",
            "        w = sample_scores(rng, d_k, min(chunk, draws - start), n_keys)",
            "        raw.append(log_odds_against_top(w))",
            "        scaled.append(log_odds_against_top(w / np.sqrt(d_k)))",
            "        squares.append(np.mean(w * w, axis=-1))",
            "    per_draw = np.concatenate(squares)  # the mean of the squared scores in each draw",
            "    var = float(np.mean(per_draw))",
            "    var_se = float(np.std(per_draw) / np.sqrt(draws))",
            "    results[d_k] = {",
            '        "": {',
            '            "std of q.k": float(np.sqrt(var)),',
            '            "std of q.k, standard error": var_se / (2 * np.sqrt(var)),',
            "        },",
            '        "no divisor": summary(np.concatenate(raw)),',
            '        "divided by sqrt(d_k)": summary(np.concatenate(scaled)),',
            "    }",
        ],
        [
            f"# What the page shows: the readouts at d_k = {d_k:,} and the table's live column.",
            f'print("sqrt(d_k):", float(np.sqrt({d_k})))',
            "shown = [",
            *shown.splitlines(),
            "]",
            "for d_k, group, key in shown:",
            '    label = ", ".join(part for part in (f"d_k = {d_k}", group, key) if part)',
            '    print(f"{label}:", results[d_k][group][key])',
        ],
        [
            f"# The bar chart: one draw from its own stream, at d_k = {d_k:,}.",
            f"d_k, divisor = {d_k}, {divisor}",
            "scores = sample_scores(np.random.default_rng([seed, d_k, 1]), d_k, 1, n_keys)[0]",
            "if divisor:",
            "    scores = scores / np.sqrt(d_k)",
            "shifted = scores - np.max(scores, axis=-1, keepdims=True)",
            "log_weights = shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))",
            'print("One draw, log10 of each weight:", (log_weights / np.log(10)).tolist())',
            "log_s = log_odds_against_top(scores)",
            "largest = log_s - 2 * np.log1p(np.exp(log_s))",
            'print("One draw, log10 of its largest |J|:", float(largest) / np.log(10))',
        ],
    )
    return Script(
        code,
        filename(
            "divide-by-sqrt-dk",
            f"d-k-{d_k}",
            "divided" if divisor else "raw",
            f"draws-{draws}",
            f"keys-{n_keys}",
            f"seed-{seed}",
            sampler,
        ),
        "numpy",
        "NumPy's generator has no PyTorch equivalent, so this page's script is NumPy: it repeats the "
        "page's draws and statistics operation for operation and prints the same numbers bit for "
        "bit (same NumPy version" + (", same BLAS threads)." if brute else ")."),
    )
