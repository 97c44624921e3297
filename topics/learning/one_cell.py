"""One cell of Learning to attend, at the step shown: its arithmetic and the pull of the loss on it.

Issue 22 asks every page with token heatmaps for a cell panel; this page's own lines are the cell
at the chosen step and its gradient. The numbers come from the run's snapshot at the step the page
shows (:attr:`topics.learning.view.View.step`): that step's W_q and W_k make the query and the key,
the untrained W_v the values, and the recorded attention row the weights, so the panel prints what
the heatmaps print.

The gradient is the derivative of the page's loss with respect to the cell's score ω_ij, in closed
form (:func:`topics.learning.training.score_gradient`): ``(a_ij − T_ij) / (n √d_k)``. The loss is
the cross-entropy of the book's section 5.1.2 ("Calculating the text generation loss"), with each
target row as the answer and each attention row as the guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core import cell
from core.attention import Mode
from topics.learning import training
from topics.learning.training import Trajectory
from ui import cell_text
from ui import format as fmt
from ui.cell_text import Panel

LOSS_SOURCE = "the book's section 5.1.2, “Calculating the text generation loss”"


@dataclass(frozen=True)
class CellAtStep:
    """Cell ``(i, j)`` of one mode's run at one recorded step, and the loss's pull on its score."""

    mode: Mode
    step: int  # the step the numbers belong to (the page's step shown)
    arithmetic: cell.Cell  # the score, the softmax and the context vector at that step
    target: float  # T_ij: the weight the target asks for
    start: float  # a_ij at step 0
    gradient: float  # ∂L/∂ω_ij at that step, ω_ij the unscaled score
    n: int  # tokens: the loss is a mean over n rows
    d_k: int  # the divisor is √d_k

    @property
    def weight(self) -> float:
        return self.arithmetic.weight


def at_step(
    x: np.ndarray, run: Trajectory, values: np.ndarray, target: np.ndarray, step: int, i: int, j: int
) -> CellAtStep:
    """The cell ``(i, j)`` of ``run`` at ``step`` (a recorded step), from that snapshot's matrices.

    ``values`` [n, d_v] are the page's values (W_v is not trained). No matrices: the embeddings are
    the queries and keys, the same at every step. Tied: the snapshot's W_k is its W_q.
    """
    snap = run.at(step)
    x = np.asarray(x, dtype=np.float64)
    q, k = (x, x) if run.mode == "none" else (x @ run.w_query[snap], x @ run.w_key[snap])
    d_k = int(run.w_key.shape[-1])
    a = run.attention[snap]
    c = cell.cell(q, k, values, i, j, float(np.sqrt(d_k)), weights=a)
    gradient = training.score_gradient(a, target, d_k)[i, j]
    return CellAtStep(
        run.mode, step, c, float(target[i, j]), float(run.attention[0, i, j]), float(gradient), len(x), d_k
    )


def gradient_text(x: float) -> str:
    """4 decimals, or 3 significant digits in scientific notation below 0.01, where 4 decimals
    would keep one digit of a small pull, or none."""
    return fmt.num(x) if x == 0 or abs(x) >= 0.01 else fmt.sci(x, 2)


# Where the query and key come from, per mode ({i}, {j}: the two tokens; {s}: the step).
PROJECTED: dict[Mode, str] = {
    "three": "x_{i} W_q and k_{j} = x_{j} W_k, with W_q and W_k as trained up to step {s}",
    "tied": (
        "x_{i} W_q and k_{j} = x_{j} W_q (tied: the keys are made with W_q too), "
        "W_q as trained up to step {s}"
    ),
    "none": "x_{i} and k_{j} = x_{j}: with no matrices the embeddings score each other directly",
}


def notes(c: CellAtStep, rows: tuple[str, ...]) -> tuple[str, str, str]:
    """The page's lines: the cell at this step, its gradient, and what the gradient's sign means."""
    qi, kj = fmt.md(rows[c.arithmetic.i]), fmt.md(rows[c.arithmetic.j])
    a, t, s = fmt.num(c.weight), fmt.num(c.target), c.step
    if c.mode == "none":
        when = (
            f"No matrices: nothing is trained, so this cell is the same at step {s} as at step 0. "
            f"Its weight is {a}; the target asks for {t}."
        )
    else:
        mats = "W_q (used for the keys too)" if c.mode == "tied" else "W_q and W_k"
        reached = (
            f"At step 0 nothing is trained yet: {mats} are the starting set's."
            if s == 0
            else f"The cell at step {s}: {mats} are where gradient descent has taken them by then."
        )
        when = (
            f"{reached} W_v is not trained, so the values are the starting set's. This weight was "
            f"{fmt.num(c.start)} at step 0 and is {a} at step {s}; the target asks for {t}."
        )
    grad = (
        f"Its gradient at step {s}. The loss is the cross-entropy of {LOSS_SOURCE}, with each target "
        "row as the answer and each row of A as the guess: L = −(1/n) Σ T_ij log a_ij. How fast L "
        f"changes as this cell's score ω (before the ÷ √d_k) grows: ∂L/∂ω_{qi},{kj} = (a − T) / (n · √d_k) "
        f"= ({a} − {t}) / ({c.n} · {fmt.num(c.arithmetic.divisor)}) = **{gradient_text(c.gradient)}**."
    )
    if c.gradient < 0:
        sign = (
            "Negative: this cell has less weight than the target asks, so raising its score lowers the loss."
        )
    elif c.gradient > 0:
        sign = (
            "Positive: this cell has more weight than the target asks, so lowering its score lowers the loss."
        )
    else:
        sign = "Zero: this cell's weight is exactly what the target asks, so nothing pulls on its score."
    if c.mode == "none":
        sign += " With no matrices there is nothing to move: the pull goes nowhere, and the loss stays flat."
    else:
        sign += (
            " Gradient descent cannot set a score directly: it moves the matrices along the sum of every "
            "cell's pull, so this score follows only as far as they let it."
        )
    sign += (
        " (Why the score and not the weight a: a weight cannot move alone, since its row sums to 1; a "
        "score can, and the softmax shares its change out across the row, which is why the pull is "
        "simply a − T.)"
    )
    return when, grad, sign


def panel(c: CellAtStep, rows: tuple[str, ...]) -> Panel:
    """The cell panel: section 3.4's arithmetic at this step, then this page's lines."""
    return cell_text.panel(
        c.arithmetic,
        rows,
        rows,
        projected=PROJECTED[c.mode].replace("{s}", str(c.step)),
        divisor_name=f"√d_k = √{c.d_k}",
        notes=notes(c, rows),
    )
