"""Learning to attend, issue 13, item 4: what each mode can reach (proof, linear program, search)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import sentence, tokens, weights
from core.attention import MODES
from topics.learning import reach
from topics.learning import training as learning

X = tokens.inputs()
N = len(tokens.TOKENS)


def relative_error(a, b):
    return float(np.linalg.norm(a - b)) / max(float(np.linalg.norm(a)), float(np.linalg.norm(b)), 1e-4)


PAIR = learning.target_pattern("pair", N)
SWAPS = learning.target_pattern("swaps", N)
PREVIOUS = learning.target_pattern("previous", N)


def test_the_new_targets_and_their_cycles():
    assert list(np.argmax(PAIR, axis=1)) == [1, 0, 2, 3, 4, 5]
    assert list(np.argmax(SWAPS, axis=1)) == [1, 0, 3, 2, 5, 4]
    assert list(np.argmax(learning.target_pattern("swaps", 5), axis=1)) == [1, 0, 3, 2, 4]
    assert reach.cycles(PAIR) == ((0, 1),)
    assert reach.cycles(SWAPS) == ((0, 1), (2, 3), (4, 5))
    assert reach.cycles(PREVIOUS) == ()
    ring = np.eye(N)[[1, 2, 0, 3, 4, 5]]  # Your → journey → starts → Your
    assert reach.cycles(ring) == ((0, 1, 2),)
    assert [reach.tied_row_bound(t) for t in (PAIR, SWAPS, PREVIOUS, ring)] == [5, 3, 6, 5]
    assert reach.tied_row_bound(learning.target_pattern("uniform", N)) is None


def _tied_rows(w: np.ndarray, target: np.ndarray) -> np.ndarray:  # [B, d_in, d] -> [B, n] bool
    q = X @ w
    return np.argmax(q @ np.swapaxes(q, -1, -2), axis=-1) == np.argmax(target, axis=-1)


@pytest.mark.parametrize("width", [1, 2, 3, 6])
def test_no_random_tied_matrix_gets_both_rows_of_a_two_cycle(width):
    w = np.random.default_rng(width).normal(size=(200_000, 3, width))
    right = _tied_rows(w, PAIR)
    assert not np.any(right[:, 0] & right[:, 1])
    assert right[:, 0].any() and right[:, 1].any()  # each row alone is reachable
    q = X @ w  # Cauchy–Schwarz on the scores themselves: Ω_01² ≤ Ω_00 Ω_11
    omega = q @ np.swapaxes(q, -1, -2)
    assert np.all(omega[:, 0, 1] ** 2 <= omega[:, 0, 0] * omega[:, 1, 1] * (1 + 1e-12))


@pytest.mark.parametrize("width", [2, 3])
def test_adam_aimed_at_only_the_cycle_never_gets_both_rows(width):
    # Adversarial: the loss holds the two cycle rows alone, from 16 starts; tied never gets both,
    # three matrices do.
    rng = np.random.default_rng(width)
    t = np.zeros((N, N))
    t[:2] = PAIR[:2]
    w0 = rng.uniform(-1, 1, (16, 3, width))
    w1 = rng.uniform(-1, 1, (16, 3, width))
    p = np.stack((np.concatenate([w0, w0]), np.concatenate([w0, w1])))
    tied = np.array([1.0] * 16 + [0.0] * 16)
    config = learning.TrainConfig(lr=0.05, steps=1_000, record_every=1_000)
    _, _, snaps, _ = learning.descend(X, np.broadcast_to(t, (32, N, N)), p, tied, config)
    w = snaps[-1]
    right = learning.rows_right(learning.attention(X, w[0], w[1], "three"), PAIR)
    assert not np.any(right[:16, 0] & right[:16, 1])
    assert np.any(right[16:, 0] & right[16:, 1])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(1, 6))
def test_any_tied_matrix_loses_a_row_of_every_cycle(seed, width):
    w = np.random.default_rng(seed).normal(scale=10, size=(1, 3, width))
    right = _tied_rows(w, SWAPS)[0]
    for a, b in reach.cycles(SWAPS):
        assert not (right[a] and right[b])


def test_zero_rows_leave_the_loss_and_the_gradient_alone():
    # The search drops rows by zeroing them; the hand-written gradient must then be the gradient
    # of the remaining rows' loss (central differences).
    rng = np.random.default_rng(3)
    t = PREVIOUS.copy()
    t[[2, 4]] = 0.0
    p = rng.normal(size=(2, 1, 3, 2))
    loss, g = learning._loss_and_grads(X, p, t, None)
    h, fd = 1e-6, np.zeros_like(p)
    for idx in np.ndindex(*p.shape):
        up, down = p.copy(), p.copy()
        up[idx] += h
        down[idx] -= h
        fd[idx] = (
            learning._loss_and_grads(X, up, t, None)[0] - learning._loss_and_grads(X, down, t, None)[0]
        )[0] / (2 * h)
    assert relative_error(g, fd) < 1e-6
    assert loss[0] < learning.loss_value(X, p[0, 0], p[1, 0], PREVIOUS, "three")  # two rows fewer


def _linprog_max_rows(target):
    """The most rows any 3 × 3 M gets right, by SciPy's HiGHS: the oracle for linear_reach."""
    linprog = pytest.importorskip("scipy.optimize").linprog
    to = np.argmax(target, axis=1)
    for k in range(N, 0, -1):
        for rows in itertools.combinations(range(N), k):
            a = [np.outer(X[i], X[to[i]] - X[j]).ravel() for i in rows for j in range(N) if j != to[i]]
            res = linprog(np.zeros(9), A_ub=-np.array(a), b_ub=-np.ones(len(a)), bounds=[(None, None)] * 9)
            if res.status == 0:
                return k
    return 0


@pytest.mark.parametrize("kind", ["previous", "first", "last", "pair", "swaps"])
def test_linear_reach_equals_scipys_linear_program_and_its_witness_is_real(kind):
    target = learning.target_pattern(kind, N)
    best = reach.linear_reach(X, target)
    assert best is not None
    assert best.rows == _linprog_max_rows(target)
    w_q, w_k = reach.realise(best.m, 3)
    right = learning.rows_right(learning.attention(X, w_q, w_k, "three"), target)
    assert tuple(right) == best.right and right.sum() == best.rows


def test_three_pairs_swapped_is_out_of_reach_at_every_width_but_rank_two_is_not_why():
    # Issue 13 guessed the rank of a width-2 score matrix might cap the swaps at 3 of 6. It does
    # not: no 3 × 3 M at all gets 6 rows (every width realises only such M, X being 3 wide), and
    # the search finds the maximum, 5, already at width 2.
    best = reach.linear_reach(X, SWAPS)
    assert best is not None and best.rows == 5
    found = reach.search(X, SWAPS, 2)["three"]
    assert found.rows == 5
    assert learning.rows_right(learning.attention(X, found.w_query, found.w_key, "three"), SWAPS).sum() == 5


def test_one_tied_matrix_reaches_five_rows_of_the_previous_token_pattern():
    # Issue 13: the default run's 2 of 6 is where Adam stalls from the book's start.
    found = reach.search(X, PREVIOUS, 2)["tied"]
    assert found.rows == 5
    np.testing.assert_array_equal(found.w_query, found.w_key)
    assert (
        learning.rows_right(learning.attention(X, found.w_query, found.w_query, "tied"), PREVIOUS).sum() == 5
    )
    ws = weights.section_3_4()
    run = learning.train(X, PREVIOUS, ws.w_query, ws.w_key, "tied")
    assert learning.rows_right(run.attention[-1], PREVIOUS).sum() == 2


def test_the_pair_target_separates_the_modes():
    # Tied: at most 5 of 6, proven; three matrices: all 6, from the book's start at the book's width
    # and in the search from width 3, where the linear program says 6 is exactly reachable.
    assert reach.tied_row_bound(PAIR) == 5
    ws = weights.section_3_4()
    runs = learning.train_modes(X, PAIR, ws.w_query, ws.w_key)
    assert learning.rows_right(runs["three"].attention[-1], PAIR).sum() == 6
    assert learning.rows_right(runs["tied"].attention[-1], PAIR).sum() == 3
    found = reach.search(X, PAIR, 3)
    best = reach.linear_reach(X, PAIR)
    assert found["three"].rows == 6 and best is not None and best.rows == 6
    assert found["tied"].rows == 5  # the bound is met: exactly 5


def test_search_is_deterministic_and_reports_what_it_ran():
    a = reach.search(X, PAIR, 2)
    b = reach.search(X, PAIR, 2)
    for mode in MODES:
        assert a[mode].rows == b[mode].rows and a[mode].right == b[mode].right
        np.testing.assert_array_equal(a[mode].w_query, b[mode].w_query)
    assert a["tied"].runs == reach.SEARCH_STARTS * len(reach.search_variants(PAIR, "tied"))
    assert a["three"].runs == reach.SEARCH_STARTS * (N + 1)
    assert (0,) in reach.search_variants(PAIR, "tied") and (0, 1) not in reach.search_variants(PAIR, "tied")
    assert (0, 2, 4) in reach.search_variants(SWAPS, "tied")
    with pytest.raises(ValueError, match="starts"):
        reach.search(X, PAIR, 2, starts=0)
    with pytest.raises(ValueError, match="d_out"):
        reach.realise(np.eye(3), 2)


def test_linear_reach_on_sentences_the_book_never_had():
    """One token has no other key to beat; a repeated word's key is its twin's and its query too, so
    attending to either twin is attending to the word, and the word's rows attend alike; past
    MAX_SEARCH_TOKENS the subsets are not tried."""
    one = reach.linear_reach(np.array([[0.4, 0.2, 0.9]]), np.eye(1))
    assert one is not None and one.rows == 1
    x = np.array([[0.1, 0.8, 0.3], [0.6, 0.2, 0.5], [0.1, 0.8, 0.3]])  # tokens 1 and 3 are one word
    # Rows 1 and 2 ask for token 1's word; row 3, the same query as row 1, asks for token 2: one of
    # rows 1 and 3 is lost in every mode, and the linear program finds the other two.
    previous = learning.target_pattern("previous", 3, 0)
    found = reach.linear_reach(x, previous)
    assert found is not None and found.rows == 2 and found.right == (True, True, False)
    word = learning.words(x)
    assert word.tolist() == [0, 1, 0] and reach.ties_bound(previous, word) == 2
    n = reach.MAX_SEARCH_TOKENS + 1
    with pytest.raises(ValueError, match="up to"):
        reach.linear_reach(np.random.default_rng(0).random((n, 3)), np.eye(n))


def _brute_tied_bound(target: np.ndarray, word: np.ndarray) -> int:
    """Every choice of one asked-for word (or none) per word, kept when its arrows have no cycle."""
    to = word[np.argmax(target, axis=-1)]
    present = sorted(set(word.tolist()))
    options = [[*sorted(set(to[word == c].tolist())), -1] for c in present]
    best = 0
    for choice in itertools.product(*options):
        arrow = dict(zip(present, choice, strict=True))
        acyclic = True
        for start in present:
            seen, i = set(), start
            while arrow.get(i, -1) not in (-1, i):
                if i in seen:
                    acyclic = False
                    break
                seen.add(i)
                i = arrow[i]
        if acyclic:
            best = max(best, sum(int(np.sum((word == c) & (to == d))) for c, d in arrow.items()))
    return best


@pytest.mark.parametrize("seed", range(40))
def test_the_tied_bound_is_the_best_choice_of_arrows_without_a_cycle(seed):
    """Issue 24, item 7: repeated words (drawn at random) tie rows; the branching equals brute force."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 8))
    word = np.arange(n)
    for i in range(n):  # each token a repeat of an earlier word's first position, or a new word
        w = int(rng.integers(0, i + 1))
        word[i] = w if word[w] == w else i
    kind = learning.TARGETS[seed % len(learning.TARGETS)]
    if kind == "uniform":
        kind = "previous"
    target = learning.target_pattern(kind, n, int(rng.integers(0, n)))
    assert reach.tied_row_bound(target, word) == _brute_tied_bound(target, word)
    counts = reach.asked(target, word)
    assert counts is not None and reach.ties_bound(target, word) == counts.max(axis=1).sum()


def test_the_thirteen_token_example_loses_three_rows_to_ties_and_one_to_a_cycle():
    x = sentence.build("the cat sat on the mat and the dog sat on the log").embeddings
    word, previous = learning.words(x), learning.target_pattern("previous", 13)
    assert word.tolist() == [0, 1, 2, 3, 0, 5, 6, 0, 8, 2, 3, 0, 12]
    assert (reach.ties_bound(previous, word), reach.tied_row_bound(previous, word)) == (10, 9)
    assert reach.word_cycles(previous, word) is None  # "the" asks for three words: no single arrow
