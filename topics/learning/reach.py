"""What each mode of figure 01 can reach, as opposed to where one run stops (issue 13).

Pure NumPy, three kinds of evidence: :func:`tied_row_bound` proves an upper bound for tied
weights (Cauchy–Schwarz forbids cycles of "attends most to"), :func:`linear_reach` finds the exact
maximum over every score matrix ``X M Xᵀ`` (a linear program, solved with Wolfe's minimum-norm-point
algorithm so the app needs NumPy alone), and :func:`search` gives a lower bound from seeded Adam
restarts, trained with :func:`topics.learning.training.descend`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from core.attention import MODES, Mode
from core.weights import init_weights
from topics.learning.training import (
    Target,
    TrainConfig,
    attention,
    descend,
    rows_right,
    target_pattern,
    words,
)


def attends_most_to(target: np.ndarray) -> np.ndarray:  # [n, n] -> [n]
    """Each row's target token (its unique largest entry), or −1 where the row has none (uniform)."""
    t = np.asarray(target, dtype=np.float64)
    unique = np.sum(t == t.max(axis=-1, keepdims=True), axis=-1) == 1
    return np.where(unique, np.argmax(t, axis=-1), -1)


def cycles(target: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """The cycles of the target's "attends most to" arrows, tokens that attend to themselves left out.

    Each row has one arrow, so the arrows form a functional graph and its cycles are disjoint.
    ``"pair"`` has one, ``(0, 1)``; ``"swaps"`` three; ``"previous"`` none (a chain ending in
    the first token, which attends to itself).
    """
    to = attends_most_to(target)
    found: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for start in range(len(to)):
        path: list[int] = []
        i = start
        while i >= 0 and i not in seen and i not in path and to[i] != i:
            path.append(i)
            i = int(to[i])
        if i in path:
            found.append(tuple(path[path.index(i) :]))
        seen.update(path)
    return tuple(found)


def asked(target: np.ndarray, word: np.ndarray | None = None) -> np.ndarray | None:  # -> [w, w]
    """How many rows of each word ask for each word: ``counts[c, d]``, rows of word ``c`` whose
    target token is word ``d`` (``word`` from :func:`topics.learning.training.words`; each token
    its own word when not given). ``None`` when a row has no single target token."""
    to = attends_most_to(target)
    if np.any(to < 0):
        return None
    w = np.arange(len(to)) if word is None else np.asarray(word)
    counts = np.zeros((len(w), len(w)), dtype=int)
    np.add.at(counts, (w, w[to]), 1)
    return counts


def ties_bound(target: np.ndarray, word: np.ndarray | None = None) -> int | None:
    """The most rows any mode can get right, proven: per word, the most of its rows that ask for
    one word. A repeated word's rows are one query against the same keys, so they attend alike in
    every mode, with or without matrices: rows of one word that ask for different words cannot all
    be right. ``n`` when no word repeats; ``None`` when a row has no single target token."""
    counts = asked(target, word)
    return None if counts is None else int(counts.max(axis=1).sum())


def tied_row_bound(target: np.ndarray, word: np.ndarray | None = None) -> int | None:
    """The most rows tied weights can get right, proven: the best arrows without a cycle.

    Tied scores are dot products of queries, ``Ω_ij = q_i·q_j``. Row ``i`` attends most to a
    word ``j`` other than its own only if ``q_i·q_j > q_i·q_i``, and Cauchy–Schwarz
    (``q_i·q_j ≤ |q_i||q_j|``) then forces ``|q_j| > |q_i|``: every arrow points to a strictly
    longer query. Round a cycle the length would have to exceed itself, so at least one arrow of
    every cycle is lost, at any width and with any divisor. For a 2-cycle this is
    ``Ω_ij² ≤ Ω_ii·Ω_jj``: no two tokens can each attend to the other more than to themselves.

    Each word keeps one arrow (its rows attend alike, :func:`ties_bound`), worth the rows that ask
    for it; the most rows right is the heaviest choice of arrows with no cycle, a maximum
    branching (Chu–Liu/Edmonds). Without repeated words that is ``n`` minus the number of cycles.
    ``None`` when a row has no single target token.
    """
    counts = asked(target, word)
    if counts is None:
        return None
    present = [int(c) for c in np.flatnonzero(counts.sum(axis=1))]
    root = len(counts)  # a word's arrow to itself: no constraint, the branching's root
    edges = {(c, root): int(counts[c, c]) for c in present}
    edges |= {(c, d): int(counts[c, d]) for c in present for d in present if d != c and counts[c, d]}
    return _branching(present, edges, root)


def word_cycles(target: np.ndarray, word: np.ndarray) -> tuple[tuple[int, ...], ...] | None:
    """The cycles of the words' arrows (each word its first position), when every word asks for
    one word; ``None`` when a repeated word's rows ask for several (then no single set of arrows
    is the target's) or a row has no single target token. Without repeats: :func:`cycles`."""
    counts = asked(target, word)
    if counts is None or np.any((counts > 0).sum(axis=1) > 1):
        return None
    present = np.flatnonzero(counts.sum(axis=1))
    arrows = np.eye(len(counts))
    arrows[present] = counts[present] > 0
    return cycles(arrows)


def _branching(nodes: list[int], edges: dict[tuple[int, int], int], root: int) -> int:
    """The heaviest choice of one arrow per node (``edges[(u, v)]``: u's arrow to v) in which every
    path leads to ``root``: Chu–Liu/Edmonds, contracting one cycle of best arrows at a time."""
    best = {u: max((w, v) for (a, v), w in edges.items() if a == u)[1] for u in nodes}
    for start in nodes:
        path, i = [], start
        while i != root and i not in path:
            path.append(i)
            i = best[i]
        if i == root:
            continue
        cycle = path[path.index(i) :]
        kept = sum(edges[(u, best[u])] for u in cycle)
        z = max(root, *nodes) + 1
        contracted: dict[tuple[int, int], int] = {}
        for (u, v), w in edges.items():
            if u in cycle and v in cycle:
                continue
            key, weight = (
                ((z, v), w - edges[(u, best[u])]) if u in cycle else ((u, z if v in cycle else v), w)
            )
            contracted[key] = max(weight, contracted.get(key, weight))
        return kept + _branching([u for u in nodes if u not in cycle] + [z], contracted, root)
    return sum(edges[(u, best[u])] for u in nodes)


def _min_norm_point(points: np.ndarray, max_iter: int = 500) -> np.ndarray:  # [m, D] -> [D]
    """The point of the convex hull of ``points`` nearest the origin (Wolfe's 1976 algorithm).

    Finite and exact up to rounding: it keeps an affinely independent corral of points, moves to
    the nearest point of their affine hull while that stays inside the simplex, and adds the
    point that most decreases ``x·p`` until none does.
    """
    p = np.asarray(points, dtype=np.float64)
    scale = float(np.max(np.sum(p * p, axis=1)))
    tol = 1e-12 * scale
    corral = [int(np.argmin(np.sum(p * p, axis=1)))]
    lam = np.ones(1)
    x = p[corral[0]]
    for _ in range(max_iter):
        j = int(np.argmin(p @ x))
        if x @ x - p[j] @ x <= tol or j in corral:
            break
        corral.append(j)
        lam = np.append(lam, 0.0)
        while True:
            sub = p[corral]
            k = len(corral)
            kkt = np.block([[sub @ sub.T, np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
            mu = np.linalg.lstsq(kkt, np.append(np.zeros(k), 1.0), rcond=None)[0][:k]
            if np.all(mu > 1e-15):
                lam = mu
                break
            out = (mu <= 1e-15) & (lam - mu > 0)
            theta = min(1.0, float(np.min(lam[out] / (lam[out] - mu[out])))) if out.any() else 1.0
            lam = theta * mu + (1 - theta) * lam
            keep = lam > 1e-15
            corral = [c for c, kept in zip(corral, keep, strict=True) if kept]
            lam = lam[keep] / lam[keep].sum()
        x = lam @ p[corral]
    return x


# The reach tries subsets of rows (2ⁿ at worst) and the search trains once per row left out: both
# are for short sentences (the time of 8 tokens is measured by bench/bench_learning.py).
MAX_SEARCH_TOKENS = 8


@dataclass(frozen=True)
class Reach:
    """The most rows one score matrix ``X M Xᵀ`` can get right, over every ``d_in × d_in`` M.

    ``M`` is a witness: its scores get exactly the rows in ``right`` right. Three matrices of
    width ``d_out ≥ d_in`` can realise any ``M`` (``W_q = M``, ``W_k = I``, padded with zeros),
    so there the count is exact; a narrower width restricts ``M = W_q W_kᵀ`` to rank ``d_out``,
    so there it is only an upper bound.
    """

    rows: int
    right: tuple[bool, ...]
    m: np.ndarray  # [d_in, d_in]


def _constraints(x: np.ndarray, to: np.ndarray, rows: tuple[int, ...], word: np.ndarray) -> np.ndarray | None:
    """Row ``i`` is right when ``x_iᵀ M (x_{to(i)} − x_j) > 0`` for every key ``j`` of another word
    than the target's (a repeat of the target's word is the same key, and right with it): linear in M.

    ``None`` when one of them reads ``0 > 0`` (a zero query): no M meets it, so these rows cannot
    all be right. Two rows of one word that ask for different words give opposite inequalities:
    no M meets both, which the subsets find.
    """
    out = [
        np.outer(x[i], x[to[i]] - x[j]).ravel() for i in rows for j in range(len(x)) if word[j] != word[to[i]]
    ]
    a = np.array(out).reshape(len(out), x.shape[1] ** 2)  # one token: no other key, no constraint
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    return None if np.any(norms == 0) else a / norms


def linear_reach(x: np.ndarray, target: np.ndarray) -> Reach | None:
    """The largest set of rows any ``M`` gets right: a feasibility test per subset of rows.

    Strict homogeneous inequalities ``a·m > 0`` have a solution exactly when the origin lies
    outside the convex hull of the ``a`` (Gordan's theorem), and then the hull's point nearest
    the origin is one. Subsets are tried from the largest down, so the first feasible one is a
    maximum; its witness is checked directly, the infeasible ones by the distance being zero.
    ``None`` when a row has no single target token.
    """
    x = np.asarray(x, dtype=np.float64)
    to = attends_most_to(target)
    if np.any(to < 0):
        return None
    n, d = x.shape
    word = words(x)
    if n > MAX_SEARCH_TOKENS:
        raise ValueError(
            f"the subsets of {n} rows are too many to try; the reach is computed for up to "
            f"{MAX_SEARCH_TOKENS} tokens"
        )
    for k in range(n, 0, -1):
        for rows in itertools.combinations(range(n), k):
            a = _constraints(x, to, rows, word)
            if a is None:
                continue
            if not len(a):  # no inequality to meet: any M, the zero matrix included
                return Reach(n, (True,) * n, np.zeros((d, d)))
            m = _min_norm_point(a)
            if np.all(a @ m > 1e-9 * np.linalg.norm(m)) and np.linalg.norm(m) > 1e-9:
                mat = m.reshape(d, d)
                right = word[np.argmax(x @ mat @ x.T, axis=-1)] == word[to]
                return Reach(int(right.sum()), tuple(bool(r) for r in right), mat)
    return Reach(0, (False,) * n, np.zeros((d, d)))


@dataclass(frozen=True)
class Found:
    """A mode's best result over the search's runs: rows right, and the weights that got there."""

    mode: Mode
    rows: int
    right: tuple[bool, ...]
    w_query: np.ndarray  # [d_in, d_out]
    w_key: np.ndarray  # [d_in, d_out]; W_q itself when tied
    start: int  # which start (0: the book's section 3.4 draw at this width)
    ignored: tuple[int, ...]  # rows the winning run's loss left out
    runs: int  # how many runs this mode's result is the best of


SEARCH = TrainConfig(lr=0.05, steps=1_000, record_every=1_000)
TRAINED: tuple[Mode, ...] = ("tied", "three")  # the modes with dials
SEARCH_STARTS = 4  # the book's draw and three seeded ones: ~0.5 s for every mode on this machine


def search_variants(target: np.ndarray, mode: Mode) -> tuple[tuple[int, ...], ...]:
    """Which rows each run of the search leaves out of its loss.

    Cross-entropy over every row trades rows against each other, and Adam can settle where no
    row moves (the tied previous-token run stalls at 2 of 6). So the search also trains with
    each row left out in turn, and for tied weights with one row of every cycle left out in each
    way, since the proof says those rows are lost anyway.
    """
    n = int(np.shape(target)[0])
    out: list[tuple[int, ...]] = [(), *((r,) for r in range(n))]
    if mode == "tied":
        out += [tuple(sorted(c)) for c in itertools.product(*cycles(target)) if len(c) > 1]
    return tuple(dict.fromkeys(out))


def search_runs(target: np.ndarray, starts: int = SEARCH_STARTS) -> int:
    """How many runs :func:`search` trains in lockstep for ``target``."""
    return starts * sum(len(search_variants(target, mode)) for mode in TRAINED)


def limits_bytes(kind: Target, token: int, width: int, x: np.ndarray) -> int:
    """An upper bound on the bytes :func:`limits` holds at its peak: what it declares to the server's
    heavy-work budget. The search's batch of ``B`` runs holds about a dozen arrays the size of its
    weights ``[2, B, d_in, d_out]``, a few the size of Q and K ``[2, B, n, d_out]`` and of the
    scores ``[B, n, n]``; the linear program's constraints are small (at most ``n²`` rows of
    ``d_in²``). Counted in float64 cells, with room to spare; ``tests/learning/test_learning_budget.py``
    measures :func:`limits` with tracemalloc against it."""
    n, d_in = np.shape(x)
    if n > MAX_SEARCH_TOKENS:
        return 0
    b = search_runs(target_pattern(kind, n, token))
    cells = 16 * 2 * b * d_in * width + 6 * 2 * b * n * width + 10 * b * n * n + 4 * n * n * d_in * d_in
    return 8 * cells + 512 * 1024


def search(
    x: np.ndarray,
    target: np.ndarray,
    d_out: int,
    *,
    starts: int = SEARCH_STARTS,
    seed: int = 0,
    config: TrainConfig = SEARCH,
) -> dict[Mode, Found]:
    """Each mode's most rows right over several Adam runs: a lower bound on what it can do.

    Starts: the book's section 3.4 draw (``torch.rand(d_in, d_out)`` after seed 123) and
    ``starts − 1`` more, uniform in [−1, 1) from ``numpy.random.default_rng(seed)``; each start
    is trained on every variant of :func:`search_variants`, all runs in lockstep. Deterministic.
    ``"none"`` has no dials: its rows are what ``XXᵀ`` gives.
    """
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    n, d_in = x.shape
    if not 1 <= starts <= 64:
        raise ValueError(f"starts must be between 1 and 64, got {starts}")
    book = init_weights(123, "rand", d_in, d_out)
    rng = np.random.default_rng(seed)
    begin = [(book.w_query.astype(np.float64), book.w_key.astype(np.float64))]
    begin += [tuple(rng.uniform(-1, 1, (2, d_in, d_out))) for _ in range(starts - 1)]
    runs: list[tuple[Mode, int, tuple[int, ...]]] = []
    ts, wq, wk = [], [], []
    for mode in TRAINED:
        for ignored in search_variants(t, mode):
            keep = np.ones(n)
            keep[list(ignored)] = 0.0
            for s, (q, k) in enumerate(begin):
                runs.append((mode, s, ignored))
                ts.append(t * keep[:, None])
                wq.append(q)
                wk.append(q if mode == "tied" else k)
    tied = np.array([float(mode == "tied") for mode, _, _ in runs])
    _, _, snaps, _ = descend(x, np.array(ts), np.stack((np.array(wq), np.array(wk))), tied, config)
    w = snaps[-1]  # [2, B, d_in, d_out]
    word = words(x)
    right = rows_right(attention(x, w[0], w[1], "three"), t, words=word)  # [B, n]
    none = rows_right(attention(x, w[0, 0], w[1, 0], "none"), t, words=word)
    out: dict[Mode, Found] = {
        "none": Found("none", int(none.sum()), tuple(bool(r) for r in none), w[0, 0], w[1, 0], 0, (), 1)
    }
    for mode in TRAINED:
        idx = [b for b, r in enumerate(runs) if r[0] == mode]
        best = max(idx, key=lambda b: int(right[b].sum()))  # the first of the best: deterministic
        _, s, ignored = runs[best]
        out[mode] = Found(
            mode, int(right[best].sum()), tuple(bool(r) for r in right[best]),
            w[0, best], w[1, best], s, ignored, len(idx),
        )  # fmt: skip
    return {m: out[m] for m in MODES}


def realise(m: np.ndarray, d_out: int) -> tuple[np.ndarray, np.ndarray]:  # [d_in, d_in] -> 2 × [d_in, d_out]
    """Three matrices of width ``d_out ≥ d_in`` whose scores are ``X M Xᵀ``: ``W_q = M``, ``W_k = I``."""
    d_in = np.shape(m)[0]
    if d_out < d_in:
        raise ValueError(f"d_out = {d_out} cannot realise every {d_in} × {d_in} M; it needs d_out ≥ {d_in}")
    w_q, w_k = np.zeros((d_in, d_out)), np.zeros((d_in, d_out))
    w_q[:, :d_in], w_k[:, :d_in] = m, np.eye(d_in)
    return w_q, w_k


def limits(
    kind: Target, token: int, width: int, x: np.ndarray
) -> tuple[dict[Mode, Found] | None, Reach | None]:
    """The page's evidence for the ``kind`` target on inputs ``x``: the search's best per mode at
    ``width`` and the linear program's reach (~0.5 s for the book's six tokens); neither past
    :data:`MAX_SEARCH_TOKENS`."""
    if len(x) > MAX_SEARCH_TOKENS:
        return None, None
    target = target_pattern(kind, len(x), token)
    return search(x, target, width), linear_reach(x, target)
