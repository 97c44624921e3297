"""The Learning page's script: the same three trainings with autograd and ``torch.optim``.

The page trains with a hand-written gradient in NumPy; the script lets autograd find it and
``torch.optim.Adam`` (PyTorch's defaults, which the page's Adam copies: β₁ 0.9, β₂ 0.999, ε 1e-8,
bias-corrected) or ``torch.optim.SGD`` (plain gradient descent) apply it, in float64 from the
book's float32 draw. Tied weights are one tensor used for queries and keys, so autograd sums the
two paths' gradients, as the page does by hand. The two runs are the same algorithm but not the
same float64 operations (autograd's order, Adam's ``lerp``), so they differ in the last bits and
those bits can grow over thousands of steps. A second NumPy run from weights nudged by one unit
in the last place (:func:`nudged`, :func:`drift`) measures, without torch, how much this run
amplifies such a change: the page states it, and the test suite checks that a run it calls
stable prints the page's numbers to the printed digits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from core.attention import MODES, Mode
from core.reproduce import weights as rw
from core.reproduce.source import TORCH, Script, check_inputs, comment, filename, header, inputs_block, join
from core.weights import WeightSet
from topics.learning.training import MAX_STEPS, OPTIMISERS, TARGETS, Optimiser, Target, Trajectory, fit

STABLE = 1e-9  # a nudged run that stays this close is not amplifying rounding


@dataclass(frozen=True)
class Drift:
    """How far the page's run moves when every starting weight is nudged by one unit in the last
    place, in the numbers the script prints: a probe of whether the run amplifies rounding.

    PyTorch's autograd and Adam round in another order than the page's hand-written float64
    gradient, a perturbation of the same size; a run that does not amplify it gives PyTorch's
    numbers to the printed digits, one that does gives numbers about this far off.
    """

    loss: float  # largest |change| of a printed loss
    attention: float  # of an attention weight at the step shown
    scores: float  # of a score at the step shown, relative to the largest |score| (at least 1)
    diverged: bool  # the nudged run stopped (loss past 1e6) at another step

    @property
    def stable(self) -> bool:
        return not self.diverged and max(self.loss, self.attention, self.scores) <= STABLE


def _printed(
    runs: Mapping[Mode, Trajectory], mode: Mode, step: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r = runs[mode]
    i = r.at(step)
    losses = np.array([v for t in runs.values() for v in (t.losses[0], t.losses[-1])] + [r.losses[step]])
    return losses, r.attention[i], r.scores[i]


def nudged(
    kind: Target,
    token: int,
    optimiser: Optimiser,
    lr: float,
    steps: int,
    w_query: np.ndarray,
    w_key: np.ndarray,
    x: np.ndarray,
) -> dict[Mode, Trajectory]:
    """The page's run (:func:`topics.learning.training.fit`) again, from W_q and W_k each nudged up
    by one unit in the last place."""
    up_q, up_k = (np.nextafter(np.asarray(w, dtype=np.float64), np.inf) for w in (w_query, w_key))
    return fit(kind, token, optimiser, lr, steps, up_q, up_k, x)[1]


def drift(
    runs: Mapping[Mode, Trajectory], nudged_runs: Mapping[Mode, Trajectory], mode: Mode, step: int
) -> Drift:
    """How far the nudged runs end from the page's in what the script prints (each mode's first
    and last loss; ``mode``'s loss, attention and scores at ``step``)."""
    (la, aa, sa), (lb, ab, sb) = _printed(runs, mode, step), _printed(nudged_runs, mode, step)
    scale = max(1.0, float(np.max(np.abs(sa))))
    return Drift(
        loss=float(np.max(np.abs(la - lb))),
        attention=float(np.max(np.abs(aa - ab))),
        scores=float(np.max(np.abs(sa - sb))) / scale,
        diverged=any(runs[m].diverged_at != nudged_runs[m].diverged_at for m in runs),
    )


def _target_lines(kind: str, token: int, names: tuple[str, ...]) -> list[str]:
    n = len(names)
    lines = ["n = len(tokens)", "target = torch.zeros(n, n, dtype=torch.float64)"]
    if kind == "previous":
        lines += ["target[torch.arange(n), (torch.arange(n) - 1).clamp(min=0)] = 1.0"]
    elif kind == "first":
        lines += ["target[:, 0] = 1.0"]
    elif kind == "last":
        lines += ["target[:, -1] = 1.0"]
    elif kind == "token":
        if not 0 <= token < n:
            raise ValueError(f"token must be a position 0 to {n - 1}, got {token}")
        lines += [f"target[:, {token}] = 1.0  # {comment(names[token])}"]
    elif kind == "uniform":
        lines += ["target[:] = 1.0 / n"]
    elif kind == "pair":
        lines += ["target[torch.arange(n), torch.arange(n)] = 1.0"]
        if n > 1:
            lines += ["target[:2, :2] = torch.tensor([[0.0, 1.0], [1.0, 0.0]])"]
    elif kind == "swaps":
        lines += [
            "i = torch.arange(n)",
            "partner = torch.where(i % 2 == 0, i + 1, i - 1)",
            "target[i, torch.where(partner < n, partner, i)] = 1.0",
        ]
    else:
        raise ValueError(f"target must be one of {TARGETS}, got {kind!r}")
    return lines


TARGET_WORDS = {
    "previous": "each token attends to the one before it (the first to itself)",
    "first": "every token attends to the first",
    "last": "every token attends to the last",
    "token": "every token attends to one token",
    "uniform": "every weight 1/n",
    "pair": "the first two tokens attend to each other, every other token to itself",
    "swaps": "tokens swapped in pairs (0 and 1, 2 and 3, ...), an odd last one to itself",
}


def build(
    labels: Sequence[str],
    x: np.ndarray,
    ws: WeightSet,
    kind: Target,
    token: int,
    mode: Mode,
    optimiser: Optimiser,
    lr: float,
    steps: int,
    step: int,
    drift: Drift | None = None,
) -> Script:
    """Train every mode from ``ws``'s W_q and W_k towards the ``kind`` target for ``steps`` steps;
    print each mode's first and last loss, and ``mode``'s attention and scores at ``step``.

    With ``drift`` (the page's nudge probe for this run), the note says how far PyTorch's numbers
    can end from the page's (:func:`drift_note`)."""
    names, v = check_inputs(labels, x)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if optimiser not in OPTIMISERS:
        raise ValueError(f"optimiser must be one of {OPTIMISERS}, got {optimiser!r}")
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a positive number, got {lr!r}")
    if not 0 <= int(steps) <= MAX_STEPS or not 0 <= int(step) <= int(steps):
        raise ValueError(f"steps must be 0 to {MAX_STEPS} and the step shown 0 to steps, got {steps}, {step}")
    target = _target_lines(kind, token, names)
    source, build, _ = rw.build_lines(ws, v.shape[1], name="sa")
    build = [line for line in build if ".double()" not in line]
    if ws.init == "rand":
        start = ["start_query = sa.W_query.detach().double()", "start_key = sa.W_key.detach().double()"]
    else:
        start = [
            "start_query = sa.W_query.weight.detach().T.double()  # nn.Linear's weight, transposed",
            "start_key = sa.W_key.weight.detach().T.double()",
        ]
    opt = (
        "torch.optim.Adam(params, lr=lr)  # betas (0.9, 0.999), eps 1e-8"
        if optimiser == "adam"
        else "torch.optim.SGD(params, lr=lr)  # plain gradient descent"
    )
    code = join(
        ["import torch", "from torch import nn"],
        header(
            f'Learning to attend as the page shows it: target "{kind}", {TARGET_WORDS[kind]}; '
            f"{'Adam' if optimiser == 'adam' else 'plain gradient descent'} at lr {lr!r} for {steps:,} "
            f'steps from {type_name(ws)} after torch.manual_seed({ws.seed}); mode "{mode}" shown at '
            f"step {step:,}.",
            f"Needs {TORCH} only. Autograd finds the gradient the page writes out by hand, in float64 "
            "as the page trains. Same algorithm, not the same float64 operations: the page states how "
            "far apart the two runs end.",
        ),
        source,
        inputs_block(names, v),
        [
            "torch.set_num_threads(1)  # tiny tensors: one thread beats a pool",
            *build,
            *start,
            "d_k = start_key.shape[-1]",
        ],
        ["# The target pattern, one row a query.", *target],
        """
# A repeated word has one embedding: one query, one key. Each token's word is the first position
# with its embedding; a row is right when its largest weight is on the target token's word (read
# from the word's first row, so rounding cannot split a tie), or, for a row with no single target
# token (uniform), when every weight is within 0.01 of the target's.
word = (inputs[:, None, :] == inputs[None, :, :]).all(-1).int().argmax(-1)
single = (target == target.amax(-1, keepdim=True)).sum(-1) == 1


def rows_right(attention):
    on_word = word[attention[word].argmax(-1)] == word[target.argmax(-1)]
    close = (attention - target).abs().max(-1).values < 0.01
    return int(torch.where(single, on_word, close).sum())
""",
        '''
def scores_of(W_q, W_k, mode):
    """The three modes: no matrices, tied (keys use W_q), three matrices (section 3.4's W_q, W_k)."""
    if mode == "none":
        queries = keys = inputs
    elif mode == "tied":
        queries = keys = inputs @ W_q
    else:
        queries, keys = inputs @ W_q, inputs @ W_k
    return queries @ keys.T
''',
        '''
def loss_of(W_q, W_k, mode):
    """Mean over rows of the cross-entropy -sum_j T_ij log A_ij, A = softmax(omega / sqrt(d_k))."""
    log_attention = torch.log_softmax(scores_of(W_q, W_k, mode) / d_k**0.5, dim=-1)
    return -(target * log_attention).sum() / n
''',
        f'''
def train(mode):
    """Losses until a loss passes 1e6 (diverged: stop there, as the page does), and the weights
    at the step shown and at the last step, or at the last good step before either."""
    W_q = start_query.clone().requires_grad_(mode != "none")
    W_k = start_key.clone().requires_grad_(mode == "three")
    params = [w for w in (W_q, W_k) if w.requires_grad]
    optimizer = {opt.split("  #")[0]} if params else None
    losses, diverged = [], None
    for s in range(steps + 1):
        loss = loss_of(W_q, W_k, mode)
        if not loss.item() < 1e6:
            diverged = s
            break
        losses.append(loss.item())
        last = (W_q.detach().clone(), W_k.detach().clone())
        if s <= shown:
            kept = last
        if s == steps or optimizer is None:
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    losses += [losses[-1]] * (steps + 1 - len(losses))  # no dials, or stopped: it stays
    return losses, diverged, kept, last


def attention_of(W_q, W_k, mode):
    return torch.softmax(scores_of(W_q, W_k, mode) / d_k**0.5, dim=-1)
''',
        [
            f"lr, steps, shown = {lr!r}, {int(steps)}, {int(step)}",
            "# " + opt.split("  # ")[1].capitalize() + ": the page's update rule.",
            'runs = {mode: train(mode) for mode in ("none", "tied", "three")}',
            "for mode, (losses, diverged, _, last) in runs.items():",
            "    ends = torch.tensor([losses[0], losses[-1]], dtype=torch.float64)",
            '    print(f"{mode}, loss at step 0 and at step {steps}:", ends)',
            '    print(f"{mode}, diverged at step:", diverged)',
            '    print(f"{mode}, rows right at step {steps}:", rows_right(attention_of(*last, mode)))',
        ],
        [
            f'mode = "{mode}"',
            "losses, _, (W_q, W_k), _ = runs[mode]",
            "scores = scores_of(W_q, W_k, mode)",
            "attention = attention_of(W_q, W_k, mode)",
            "loss = torch.tensor(losses[shown], dtype=torch.float64)",
            'print(f"{mode} at step {shown}, loss:", loss)',
            'print(f"{mode} at step {shown}, rows right:", rows_right(attention))',
            'print(f"{mode} at step {shown}, attention A:")',
            "print(attention)",
            'print(f"{mode} at step {shown}, scores omega:")',
            "print(scores)",
            'print(f"{mode} at step {shown}, score error:", (scores - scores.T).abs().max())',
            'print("Target:")',
            "print(target)",
        ],
    )
    note = (
        "The script trains with autograd and torch.optim in float64: the same algorithm as this "
        "page's NumPy run, not the same float64 operations."
    )
    return Script(
        code,
        filename("learning-to-attend", kind, mode, optimiser, f"lr-{lr:g}", f"steps-{steps}", f"step-{step}"),
        "torch",
        note if drift is None else f"{note} {drift_note(drift)}",
    )


def type_name(ws: WeightSet) -> str:
    """The book's class the weights come from."""
    return "SelfAttention_v1" if ws.init == "rand" else "SelfAttention_v2"


def drift_note(drift: Drift) -> str:
    """What the page says about the script's numbers beside its own, from the nudge probe."""
    if drift.stable:
        return (
            "This run does not amplify rounding: nudging every starting weight by one unit in its last "
            f"place moves no printed number by more than {STABLE:.0e}. The script's autograd and "
            "torch.optim round in another order, and its numbers equal this page's to the digits it "
            "prints (checked by the test suite with torch 2.13)."
        )
    if drift.diverged:
        return (
            "This run is on a knife's edge: nudging every starting weight by one unit in its last place "
            "changes the step at which it blows up (loss past 1e6). The script's autograd and "
            "torch.optim round in another order, so its run may stop elsewhere and end far from this "
            "page's numbers. Each program repeats its own numbers exactly."
        )
    return (
        "This run amplifies rounding: nudging every starting weight by one unit in its last place "
        f"moves a printed loss by up to {drift.loss:.1e}, an attention weight by up to "
        f"{drift.attention:.1e} and a score by up to {drift.scores:.1e} of the largest. The script's "
        "autograd and torch.optim round in another order, so expect its numbers to differ from this "
        "page's by about as much. Each program repeats its own numbers exactly."
    )
