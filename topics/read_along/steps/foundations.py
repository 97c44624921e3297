"""Read-along steps for the chapter's foundations: attention without weights (section 3.3), the
three projections and the asymmetry they buy, the forward pass (3.4), and what training buys."""

from __future__ import annotations

from core.sentence import Sentence
from topics.read_along.step import Figure, Question, Step, StepDef
from topics.recap import view as recap
from topics.three_matrices.view import position
from ui import format as fmt

SYMMETRY_TOLERANCE = 1e-12  # |A − Aᵀ| at most this is symmetric: far above float64 rounding of a softmax


def _small(x: float) -> str:
    """A non-negative gap: 4 decimals, or scientific below 1e-4, or 0."""
    return fmt.num(x) if x >= 1e-4 else fmt.sci(x) if x else "0"


def _pair(s: Sentence) -> tuple[int, int]:
    """journey and starts on the book's sentence, tokens 2 and 3 (clipped) on any other."""
    return position(s.labels, "journey", 1), position(s.labels, "starts", 2)


def weightless(s: Sentence) -> Step:
    """Attention without weights: Ω = XXᵀ is symmetric, and the question is whether A is."""
    q, k = _pair(s)
    T = s.labels
    v = recap.build(recap.Settings(T, s.embeddings, T[q], T[k]))
    c = v.collapse
    gap = float(abs(c.weights - c.weights.T).max())
    symmetric = gap <= SYMMETRY_TOLERANCE
    a, b = fmt.md(T[q]), fmt.md(T[k])
    if symmetric:
        why = (
            "Here every row of exponentials has the same sum, so dividing each row by its sum keeps "
            "the symmetry. Once two embeddings differ, the rows' sums generally differ, and A is no "
            "longer symmetric."
        )
    else:
        why = (
            f"Ω reads the same both ways ({fmt.num(v.affinity)}), but softmax divides row {a} by its "
            f"own sum of exponentials and row {b} by another, so {a} → {b} gets {fmt.num(v.weight)} "
            f"while {b} → {a} gets {fmt.num(float(c.weights[k, q]))}."
        )
    text = (
        "Section 3.3 starts without any trainable weight. Each token's embedding is a row of X; "
        f"every pair is scored by a dot product, Ω = XXᵀ, {s.n} × {s.n} = {s.n * s.n} of them, and "
        "softmax turns each row of scores into weights that sum to 1. A dot product reads the same "
        f"both ways: ω({a}, {b}) = ω({b}, {a}), so Ω is symmetric."
    )
    return Step(
        text=text,
        figure=Figure(
            "recap_weights",
            v,
            "Attention weights A = softmax(XXᵀ), one row per query token",
            f"Outlined: the row of {T[q]} and its cell for {T[k]}.",
        ),
        question=Question(
            prompt="Ω is symmetric. Is A = softmax(Ω), taken row by row, symmetric too?",
            options=("Yes: softmax keeps the symmetry", "No: not at this sentence"),
            answer=0 if symmetric else 1,
            answer_text=f"{'yes' if symmetric else 'no'}, max|A − Aᵀ| = {_small(gap)} here",
            explanation=why,
        ),
        link={"query": T[q], "key": T[k]},
    )


STEPS: tuple[StepDef, ...] = (StepDef("weightless", "recap", "Attention without weights", weightless),)
