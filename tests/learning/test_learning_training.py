"""Learning to attend: the hand-written gradient, the optimisers, and what training reaches."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import tokens, weights
from core.attention import MODES
from topics.learning import training as learning

X = tokens.inputs()
N = len(tokens.TOKENS)
TRAINED = ("tied", "three")


def targets():
    """Every target kind; the picked token drawn too."""
    return st.builds(
        lambda kind, token: learning.target_pattern(kind, N, token),
        st.sampled_from(learning.TARGETS),
        st.integers(0, N - 1),
    )


def start_weights():
    """Random W_q, W_k [3, 2]: entries in [-2, 2] (the book's are in [-0.6, 1])."""
    return st.integers(0, 2**32 - 1).map(
        lambda seed: tuple(np.random.default_rng(seed).uniform(-2, 2, size=(2, 3, 2)))
    )


def finite_difference(w_q, w_k, target, mode, which, h=1e-5):
    """Central differences of the loss, one weight entry at a time (error O(h²) ≈ 1e-10)."""
    grad = np.zeros_like(w_q)
    for idx in np.ndindex(*w_q.shape):
        plus, minus = [w_q.copy(), w_k.copy()], [w_q.copy(), w_k.copy()]
        plus[which][idx] += h
        minus[which][idx] -= h
        grad[idx] = (
            learning.loss_value(X, *plus, target, mode) - learning.loss_value(X, *minus, target, mode)
        ) / (2 * h)
    return grad


def relative_error(a, b):
    # Floor the scale at 1e-4 so a gradient that is (near) zero, e.g. the uniform target met
    # exactly, is compared absolutely: 1e-6 of 1e-4 is still far below any real mistake.
    return np.linalg.norm(a - b) / max(np.linalg.norm(a), np.linalg.norm(b), 1e-4)


@settings(max_examples=40, deadline=None)
@given(ws=start_weights(), target=targets(), mode=st.sampled_from(TRAINED))
def test_hand_written_gradient_equals_central_differences(ws, target, mode):
    w_q, w_k = ws
    _, g_q, g_k = learning.loss_and_grad(X, w_q, w_k, target, mode)
    assert relative_error(g_q, finite_difference(w_q, w_k, target, mode, which=0)) < 1e-6
    if mode == "three":
        assert relative_error(g_k, finite_difference(w_q, w_k, target, mode, which=1)) < 1e-6
    else:  # tied: one matrix, one gradient, reported in both slots
        np.testing.assert_array_equal(g_q, g_k)


@settings(max_examples=20, deadline=None)
@given(ws=start_weights(), target=targets())
def test_tied_gradient_is_the_sum_of_both_paths(ws, target):
    w_q, _ = ws
    _, g_q, g_k = learning.loss_and_grad(X, w_q, w_q, target, "three")
    _, g_tied, _ = learning.loss_and_grad(X, w_q, np.zeros_like(w_q), target, "tied")
    np.testing.assert_allclose(g_tied, g_q + g_k, rtol=1e-12, atol=1e-15)


@settings(max_examples=20, deadline=None)
@given(ws=start_weights(), target=targets())
def test_no_matrices_has_nothing_to_train(ws, target):
    w_q, w_k = ws
    loss, g_q, g_k = learning.loss_and_grad(X, w_q, w_k, target, "none")
    assert not g_q.any() and not g_k.any()
    assert loss == learning.loss_value(X, w_q + 1.0, w_k - 1.0, target, "none")


@pytest.mark.parametrize("mode", TRAINED)
@pytest.mark.parametrize("kind", learning.TARGETS)
def test_gradient_equals_pytorch_autograd(mode, kind):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    w_q, w_k = rng.normal(size=(2, 3, 2))
    target = learning.target_pattern(kind, N, token=3)
    loss, g_q, g_k = learning.loss_and_grad(X, w_q, w_k, target, mode)
    x = torch.tensor(X, dtype=torch.float64)
    wq = torch.tensor(w_q, requires_grad=True)
    wk = wq if mode == "tied" else torch.tensor(w_k, requires_grad=True)
    scores = (x @ wq) @ (x @ wk).T
    t = torch.tensor(target)
    torch_loss = -(t * torch.log_softmax(scores / 2**0.5, dim=-1)).sum(dim=-1).mean()
    torch_loss.backward()
    assert loss == pytest.approx(torch_loss.item(), rel=1e-12)
    np.testing.assert_allclose(g_q, wq.grad.numpy(), rtol=1e-10, atol=1e-14)
    if mode == "three":
        np.testing.assert_allclose(g_k, wk.grad.numpy(), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize(("optimiser", "lr"), [("adam", 0.05), ("gd", 0.5)])
def test_training_steps_equal_torch_optim(optimiser, lr):
    torch = pytest.importorskip("torch")
    ws = weights.section_3_4()
    target = learning.target_pattern("previous", N)
    config = learning.TrainConfig(optimiser=optimiser, lr=lr, steps=200, record_every=1)
    ours = learning.train(X, target, ws.w_query, ws.w_key, "three", config)
    x, t = torch.tensor(X, dtype=torch.float64), torch.tensor(target)
    wq = torch.tensor(ws.w_query, dtype=torch.float64, requires_grad=True)
    wk = torch.tensor(ws.w_key, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adam([wq, wk], lr=lr) if optimiser == "adam" else torch.optim.SGD([wq, wk], lr=lr)
    theirs = []
    for _ in range(config.steps + 1):
        opt.zero_grad()
        loss = -(t * torch.log_softmax((x @ wq) @ (x @ wk).T / 2**0.5, dim=-1)).sum(dim=-1).mean()
        theirs.append(loss.item())
        loss.backward()
        opt.step()
    np.testing.assert_allclose(ours.losses, theirs, rtol=1e-9)


def test_a_small_rate_of_plain_gradient_descent_never_raises_the_loss():
    # With a rate well below 2/L (L the gradient's Lipschitz constant near the path), each step
    # of gradient descent lowers a smooth loss; 0.1 is far below what the curves tolerate.
    ws = weights.section_3_4()
    config = learning.TrainConfig(optimiser="gd", lr=0.1, steps=1000, record_every=100)
    for kind in ("previous", "first", "uniform"):
        runs = learning.train_modes(X, learning.target_pattern(kind, N), ws.w_query, ws.w_key, config)
        for mode in TRAINED:
            losses = runs[mode].losses
            assert np.all(np.diff(losses) <= 1e-12), (kind, mode)
            assert losses[-1] < losses[0] - 1e-3, (kind, mode)


@pytest.mark.parametrize("seed", range(5))
def test_previous_token_three_matrices_end_well_below_tied(seed):
    ws = weights.init_weights(seed, "rand")
    target = learning.target_pattern("previous", N)
    runs = learning.train_modes(X, target, ws.w_query, ws.w_key, learning.TrainConfig())
    three, tied = runs["three"].losses[-1], runs["tied"].losses[-1]
    assert three < 0.5 * tied
    assert (
        learning.rows_right(runs["three"].attention[-1], target).sum()
        > learning.rows_right(runs["tied"].attention[-1], target).sum()
    )


def test_previous_token_from_the_book_weights_reaches_the_issues_feasibility_numbers():
    # Issue 9's measurement: three matrices near 0.2 with 5 of 6 rows right; tied near 1.15, 2 of 6.
    ws = weights.section_3_4()
    target = learning.target_pattern("previous", N)
    runs = learning.train_modes(X, target, ws.w_query, ws.w_key, learning.TrainConfig())
    assert 0.15 < runs["three"].losses[-1] < 0.25
    assert learning.rows_right(runs["three"].attention[-1], target).sum() == 5
    assert runs["tied"].losses[-1] == pytest.approx(1.15, abs=0.01)
    assert learning.rows_right(runs["tied"].attention[-1], target).sum() == 2


def test_training_is_deterministic_and_tied_stays_a_gram_matrix():
    ws = weights.section_3_5()
    target = learning.target_pattern("last", N)
    config = learning.TrainConfig(steps=300, record_every=7)
    a = learning.train_modes(X, target, ws.w_query, ws.w_key, config)
    b = learning.train_modes(X, target, ws.w_query, ws.w_key, config)
    for mode in MODES:
        np.testing.assert_array_equal(a[mode].losses, b[mode].losses)
        np.testing.assert_array_equal(a[mode].attention, b[mode].attention)
    tied = a["tied"]
    np.testing.assert_array_equal(tied.w_query, tied.w_key)
    assert np.all(tied.scores == np.swapaxes(tied.scores, -1, -2))  # score error exactly 0, every step
    assert np.max(np.abs(a["three"].scores[-1] - a["three"].scores[-1].T)) > 0.1
    assert list(tied.recorded) == [*range(0, 300, 7), 300]
    # Lockstep training gives every mode the same trajectory as training it alone.
    alone = learning.train(X, target, ws.w_query, ws.w_key, "three", config)
    np.testing.assert_array_equal(alone.losses, a["three"].losses)


def test_no_matrices_is_a_flat_line_at_figure_01s_attention():
    from core.attention import attention_in_mode

    ws = weights.section_3_4()
    target = learning.target_pattern("previous", N)
    run = learning.train(X, target, ws.w_query, ws.w_key, "none", learning.TrainConfig(steps=50))
    assert np.all(run.losses == run.losses[0]) and len(run.losses) == 51
    assert list(run.recorded) == [0] and run.at(50) == 0
    np.testing.assert_allclose(run.attention[0], attention_in_mode(X, ws, "none").weights, rtol=1e-14)


def test_a_diverging_run_stops_and_shows_only_finite_numbers():
    ws = weights.section_3_4()
    target = learning.target_pattern("previous", N)
    config = learning.TrainConfig(optimiser="gd", lr=10.0, steps=2000, record_every=50)
    runs = learning.train_modes(X, target, ws.w_query, ws.w_key, config)
    for mode in TRAINED:
        run = runs[mode]
        assert run.diverged_at is not None
        assert np.all(run.losses < learning.MAX_LOSS)
        assert all(np.isfinite(a).all() for a in (run.attention, run.scores, run.w_query, run.w_key))
        assert run.recorded[-1] == run.diverged_at - 1
        assert np.all(run.losses[run.diverged_at :] == run.losses[run.diverged_at - 1])


def test_target_patterns():
    prev = learning.target_pattern("previous", N)
    assert list(np.argmax(prev, axis=1)) == [0, 0, 1, 2, 3, 4]
    assert list(np.argmax(learning.target_pattern("last", N), axis=1)) == [5] * 6
    assert list(np.argmax(learning.target_pattern("first", N), axis=1)) == [0] * 6
    assert list(np.argmax(learning.target_pattern("token", N, 3), axis=1)) == [3] * 6
    for kind in learning.TARGETS:
        np.testing.assert_allclose(learning.target_pattern(kind, N, 2).sum(axis=1), 1.0)
    assert learning.entropy_floor(prev) == 0.0
    assert learning.entropy_floor(learning.target_pattern("uniform", N)) == pytest.approx(np.log(6))
    with pytest.raises(ValueError, match="token"):
        learning.target_pattern("token", N, 6)
    with pytest.raises(ValueError, match="kind"):
        learning.target_pattern("next", N)


def test_rows_right_by_argmax_and_for_the_uniform_target_by_distance():
    prev = learning.target_pattern("previous", N)
    assert learning.rows_right(prev, prev).all()
    assert learning.rows_right(np.full((N, N), 1 / N) + 0.2 * prev, prev).all()
    uniform = learning.target_pattern("uniform", N)
    near = uniform + 0.009 * (np.eye(N) - 1 / N)  # every weight within 0.009 of 1/6
    far = uniform + 0.02 * (np.eye(N) - 1 / N)
    assert learning.rows_right(near, uniform).all()
    assert not learning.rows_right(far, uniform).any()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"optimiser": "sgd"}, "optimiser"),
        ({"lr": 0.0}, "lr"),
        ({"lr": float("nan")}, "lr"),
        ({"steps": learning.MAX_STEPS + 1}, "steps"),
        ({"record_every": 0}, "record_every"),
    ],
)
def test_bad_configs_say_what_to_fix(kwargs, match):
    with pytest.raises(ValueError, match=match):
        learning.TrainConfig(**kwargs)


def test_bad_arguments_say_what_to_fix():
    ws = weights.section_3_4()
    with pytest.raises(ValueError, match="mode"):
        learning.train(X, learning.target_pattern("first", N), ws.w_query, ws.w_key, "two")
    with pytest.raises(ValueError, match="distribution"):
        learning.loss_and_grad(X, ws.w_query, ws.w_key, np.eye(N) * 2, "three")
    with pytest.raises(ValueError, match="target"):
        learning.loss_and_grad(X, ws.w_query, ws.w_key, np.eye(5), "three")


# --- issue 13, item 4: what each mode can reach ----------------------------------------------

PAIR = learning.target_pattern("pair", N)
SWAPS = learning.target_pattern("swaps", N)
PREVIOUS = learning.target_pattern("previous", N)


def test_the_new_targets_and_their_cycles():
    assert list(np.argmax(PAIR, axis=1)) == [1, 0, 2, 3, 4, 5]
    assert list(np.argmax(SWAPS, axis=1)) == [1, 0, 3, 2, 5, 4]
    assert list(np.argmax(learning.target_pattern("swaps", 5), axis=1)) == [1, 0, 3, 2, 4]
    assert learning.cycles(PAIR) == ((0, 1),)
    assert learning.cycles(SWAPS) == ((0, 1), (2, 3), (4, 5))
    assert learning.cycles(PREVIOUS) == ()
    ring = np.eye(N)[[1, 2, 0, 3, 4, 5]]  # Your → journey → starts → Your
    assert learning.cycles(ring) == ((0, 1, 2),)
    assert [learning.tied_row_bound(t) for t in (PAIR, SWAPS, PREVIOUS, ring)] == [5, 3, 6, 5]
    assert learning.tied_row_bound(learning.target_pattern("uniform", N)) is None


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
    _, _, snaps, _ = learning._descend(X, np.broadcast_to(t, (32, N, N)), p, tied, config)
    w = snaps[-1]
    right = learning.rows_right(learning.attention(X, w[0], w[1], "three"), PAIR)
    assert not np.any(right[:16, 0] & right[:16, 1])
    assert np.any(right[16:, 0] & right[16:, 1])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), width=st.integers(1, 6))
def test_any_tied_matrix_loses_a_row_of_every_cycle(seed, width):
    w = np.random.default_rng(seed).normal(scale=10, size=(1, 3, width))
    right = _tied_rows(w, SWAPS)[0]
    for a, b in learning.cycles(SWAPS):
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
    import itertools

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
    reach = learning.linear_reach(X, target)
    assert reach is not None
    assert reach.rows == _linprog_max_rows(target)
    w_q, w_k = learning.realise(reach.m, 3)
    right = learning.rows_right(learning.attention(X, w_q, w_k, "three"), target)
    assert tuple(right) == reach.right and right.sum() == reach.rows


def test_three_pairs_swapped_is_out_of_reach_at_every_width_but_rank_two_is_not_why():
    # Issue 13 guessed the rank of a width-2 score matrix might cap the swaps at 3 of 6. It does
    # not: no 3 × 3 M at all gets 6 rows (every width realises only such M, X being 3 wide), and
    # the search finds the maximum, 5, already at width 2.
    assert learning.linear_reach(X, SWAPS).rows == 5
    found = learning.search(X, SWAPS, 2)["three"]
    assert found.rows == 5
    assert learning.rows_right(learning.attention(X, found.w_query, found.w_key, "three"), SWAPS).sum() == 5


def test_one_tied_matrix_reaches_five_rows_of_the_previous_token_pattern():
    # Issue 13: the default run's 2 of 6 is where Adam stalls from the book's start.
    found = learning.search(X, PREVIOUS, 2)["tied"]
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
    assert learning.tied_row_bound(PAIR) == 5
    ws = weights.section_3_4()
    runs = learning.train_modes(X, PAIR, ws.w_query, ws.w_key)
    assert learning.rows_right(runs["three"].attention[-1], PAIR).sum() == 6
    assert learning.rows_right(runs["tied"].attention[-1], PAIR).sum() == 3
    found = learning.search(X, PAIR, 3)
    assert found["three"].rows == 6 and learning.linear_reach(X, PAIR).rows == 6
    assert found["tied"].rows == 5  # the bound is met: exactly 5


def test_search_is_deterministic_and_reports_what_it_ran():
    a = learning.search(X, PAIR, 2)
    b = learning.search(X, PAIR, 2)
    for mode in MODES:
        assert a[mode].rows == b[mode].rows and a[mode].right == b[mode].right
        np.testing.assert_array_equal(a[mode].w_query, b[mode].w_query)
    assert a["tied"].runs == learning.SEARCH_STARTS * len(learning.search_variants(PAIR, "tied"))
    assert a["three"].runs == learning.SEARCH_STARTS * (N + 1)
    assert (0,) in learning.search_variants(PAIR, "tied") and (0, 1) not in learning.search_variants(
        PAIR, "tied"
    )
    assert (0, 2, 4) in learning.search_variants(SWAPS, "tied")
    with pytest.raises(ValueError, match="starts"):
        learning.search(X, PAIR, 2, starts=0)
    with pytest.raises(ValueError, match="d_out"):
        learning.realise(np.eye(3), 2)


def test_linear_reach_on_sentences_the_book_never_had():
    """One token has no other key to beat; a repeated word's key equals its twin's, so a row that must
    pick one of the two is never right; past MAX_SEARCH_TOKENS the subsets are not tried."""
    one = learning.linear_reach(np.array([[0.4, 0.2, 0.9]]), np.eye(1))
    assert one is not None and one.rows == 1
    x = np.array([[0.1, 0.8, 0.3], [0.6, 0.2, 0.5], [0.1, 0.8, 0.3]])  # tokens 1 and 3 are one word
    # Rows 1 and 2 must attend most to token 1, whose key is token 3's: neither can. Row 3 can.
    reach = learning.linear_reach(x, learning.target_pattern("previous", 3, 0))
    assert reach is not None and reach.rows == 1 and reach.right == (False, False, True)
    n = learning.MAX_SEARCH_TOKENS + 1
    with pytest.raises(ValueError, match="up to"):
        learning.linear_reach(np.random.default_rng(0).random((n, 3)), np.eye(n))
