"""The tables, code and prose of "Three matrices", written from its view's numbers.

Every sentence that states a number or a claim is built here from a :class:`View`, and a claim
that holds only for some inputs is written only when the view says it holds; otherwise its true
counterpart is (issue #24). One token, or one word repeated, makes the scores symmetric in every
mode and every softmax denominator equal, so "never symmetric" and "the right conclusion" are
conditions, not facts.

Where the post is loose (issue #13, item 3) the page says what is true beside it: the weight error
comes from softmax's row denominators ``Σ_j exp(ω_ij/√d_k)``, not from the row sums of ``XXᵀ``
the post cites; "never symmetric, in any mode" holds for the book's inputs, not in general; and
the same pair reads differently here and on the Recap because this page divides by ``√d_k``.

The forward pass is the book's own class for the weights on screen (issue #24, item 8):
``SelfAttention_v1`` (``nn.Parameter(torch.rand(...))``, ``x @ self.W_key``) for ``torch.rand``
weights, section 3.4's; ``SelfAttention_v2`` (``nn.Linear``, ``self.W_key(x)``) for
``nn.Linear`` ones, section 3.5's, with the projections changed as the mode changes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from core import book
from core.reproduce.book_code import self_attention_class
from ui import format as fmt
from ui.cell_text import sum_text
from ui.sentence import md
from ui.weights import MODE_LABELS

if TYPE_CHECKING:
    from topics.three_matrices.view import View

W_NAMES = ("W_q", "W_k", "W_v")
E = "e^{\\omega_{ij}/\\sqrt{d_k}}"
SCALE = "keys.shape[-1] ** 0.5"  # the book's divisor: the keys' width, d_k


def den_text(log_z: float) -> str:
    """A denominator as the cell panel prints one (``ui.cell_text.sum_text``: 2 decimals, fewer
    where float32 does not hold them, 4 significant digits past 10⁵), or as a power of e where
    float64 cannot hold it (past e^709)."""
    return sum_text(float(np.exp(log_z))) if log_z < 709 else f"e^{fmt.num(log_z, 1)}"


def dens_text(log_z: np.ndarray) -> str:
    return ", ".join(den_text(v) for v in log_z)


def all_equal(a: np.ndarray) -> bool:
    return bool(np.all(a == a[0]))


def distinct_text(a: np.ndarray) -> str:
    """``all equal``, ``all different`` or ``not all equal``: what exact comparison says of ``a``."""
    if all_equal(a):
        return "all equal"
    return "all different" if len(np.unique(a)) == len(a) else "not all equal"


def count_text(matmuls: int, transposes: int) -> str:
    """``five matrix multiplications and a transpose``: the recorded operations in the post's words."""
    plural = "" if matmuls == 1 else "s"
    tail = "a transpose" if transposes == 1 else f"{fmt.in_words(transposes)} transposes"
    return f"{fmt.in_words(matmuls)} matrix multiplication{plural} and {tail}"


def lead(v: View) -> str:
    """The page's opening: what two different matrices buy, and whether these inputs show it."""
    text = (
        "A token no longer scores against another token directly: both are projected first, through "
        "two *different* matrices. That is what lets a token ask a question (its query) that differs "
        "from the answer it advertises (its key). Switch the mode and watch the score error: it is "
        "exactly 0 until the two matrices differ"
    )
    if v.row("three").score_error > 0:
        return text + "."
    if v.n == 1:
        why = "one token has only its score against itself, which reads the same both ways"
    elif v.same_inputs:
        why = "every token has the same embedding, so every score is the same"
    else:
        why = "for these embeddings every pair's score reads the same both ways"
    return f"{text}, and here it stays 0 even then: {why}."


def modes_table(v: View) -> pd.DataFrame:
    """The three modes side by side: both errors, one pair of tokens both ways (the post's journey
    and starts for the book's sentence; a single token's weight on itself), the denominators."""
    j, s = v.pair
    a, b = v.labels[j], v.labels[s]
    rows = []
    for r in v.modes:
        pair = {f"{a} → {b}": fmt.num(r.forward)}
        if j != s:
            pair[f"{b} → {a}"] = fmt.num(r.backward)
        rows.append(
            {
                "mode": MODE_LABELS[r.mode],
                "score error": fmt.num(r.score_error),
                "weight error": fmt.num(r.weight_error),
                **pair,
                "row denominators Σⱼ exp(ωᵢⱼ/√d_k)": f"[{dens_text(r.log_denominators)}]",
            }
        )
    return pd.DataFrame(rows).set_index("mode")


def when_symmetric(v: View) -> str:
    """Exactly when the weights would be symmetric, and whether these are: the weight error's help."""
    if v.n == 1:
        weight = fmt.num(v.trace.weights[0, 0])
        return f"With one token, A is the 1 × 1 matrix [{weight}]: symmetric in every mode."
    dens = v.log_denominators
    low, high = den_text(dens.min()), den_text(dens.max())
    spread = (
        f"here all {fmt.in_words(v.n)} read {low}" if low == high else f"here they run from {low} to {high}"
    )
    if v.score_error > 0:
        return (
            "With asymmetric scores, A = Aᵀ needs (ωᵢⱼ − ωⱼᵢ)/√d_k = log Zᵢ − log Zⱼ for every pair, "
            f"where Zᵢ is row i's denominator; {spread}."
        )
    return (
        f"With symmetric scores, A = Aᵀ exactly when all {fmt.in_words(v.n)} row denominators Zᵢ are "
        f"equal; {spread}."
    )


def divisor_help(v: View) -> str:
    """The divisor's help: every mode, the no-matrix one too, divides by the projection width."""
    return f"Every mode divides by √{v.d_k}, the projection width d_k, the no-matrix mode too."


def _denominators(v: View) -> str:
    """Why symmetric scores give (or do not give) symmetric weights: the softmax's denominators."""
    none, n = v.row("none"), v.n
    dens = none.log_denominators
    how = (
        f"It divides row $i$ by $Z_i = \\sum_j {E}$, and $A_{{ij}} = {E}/Z_i$ while "
        f"$A_{{ji}} = {E}/Z_j$ (the scores are symmetric): the two agree exactly when $Z_i = Z_j$."
    )
    values = (
        f"With no matrices the {fmt.in_words(n)} denominators are {dens_text(dens)}, {distinct_text(dens)}, "
        f"so the weight error is {fmt.num(none.weight_error)}."
    )
    claim = "the post's “never symmetric, in any mode”"
    if none.weight_error == 0:
        return (
            "With symmetric scores the weights are symmetric too when the softmax's denominators are "
            f"equal. {how} {values} So {claim} is a fact about the post's six tokens, not about "
            "attention: it does not hold for these."
        )
    symmetric = [MODE_LABELS[r.mode].lower() for r in v.modes if r.weight_error == 0]
    if symmetric:
        tail = (
            f", and here the weights are symmetric with {fmt.listing(symmetric)}: {claim} does not hold "
            "for these tokens."
        )
    else:
        tail = f": {claim} is a fact about these {fmt.in_words(n)} tokens, not about attention."
    return (
        "With symmetric scores the weights are still not symmetric, and the reason is the softmax's "
        f"denominators. {how} {values} Inputs whose denominators were all equal would give a weight "
        f"error of exactly 0{tail}"
    )


def _row_sums(v: View) -> str:
    """The post's row sums of ``XXᵀ``: a sum of scores, not what the softmax divides by."""
    asymmetric = v.row("none").weight_error > 0
    equal = all_equal(v.row_sums)
    whose = "the post's numbers, and correct as sums" if v.is_book else "here for your sentence"
    if asymmetric and not equal:
        verdict = "the right conclusion from the wrong quantity"
    elif not asymmetric and equal:
        verdict = "here they are all equal, and so are the denominators, so both point to symmetric weights"
    elif asymmetric:
        verdict = "here they are all equal while the weights are not symmetric, so they would mislead"
    else:
        verdict = "here they differ while the weights are symmetric, so they would mislead"
    return (
        "The post puts the asymmetry down to the row sums of $XX^{\\top}$ instead, "
        f"{fmt.vec(v.row_sums)[1:-1]} ({whose}). They are sums of scores, not what the softmax "
        f"divides by: {verdict}."
    )


def _recap(v: View) -> str:
    """The pair's weight here and on the Recap: this page divides by ``√d_k``, the Recap does not."""
    none = v.row("none")
    j, s = v.pair
    who = f"{md(v.labels[j])} gives " + ("itself" if j == s else md(v.labels[s]))
    here, recap = fmt.num(none.forward), fmt.num(v.recap_forward)
    divisor = v.trace.divisor
    if here != recap:
        first = f"With no matrices, {who} **{here}** here but **{recap}** on the Recap."
    else:
        first = f"With no matrices, {who} **{here}** here and on the Recap alike."
    because = (
        f"this page divides every mode's scores by √d_k = {fmt.num(divisor)} before the softmax, as "
        "section 3.4 does, while the Recap follows section 3.3, which has no divisor."
    )
    if divisor > 1:
        effect = "Dividing narrows the gaps between scores, which flattens each row's softmax toward uniform"
    else:
        effect = "Dividing by 1 changes no score"
    if here == recap:
        if v.n == 1:
            effect += ": one token takes all of its own weight, divisor or not"
        elif v.same_inputs:
            effect += ": with every score the same, each row is uniform either way"
        else:
            effect += ", though this pair's weight agrees to the 4 decimals shown"
    return f"{first} Same inputs, same scores: {because} {effect}."


def denominators_paragraph(v: View) -> str:
    """Why symmetric scores need not give symmetric weights, the post's row sums beside the true
    denominators (named as the post's only when the book's sentence is on screen), and why the
    same pair reads differently on the Recap."""
    if v.n == 1:
        return (
            f"With one token, A is the 1 × 1 matrix [{fmt.num(v.trace.weights[0, 0])}] in every mode, "
            "and a single weight is symmetric: the post's “never symmetric, in any mode” needs at least "
            f"two tokens.\n\n{_recap(v)}"
        )
    return f"{_denominators(v)}\n\n{_row_sums(v)}\n\n{_recap(v)}"


def unused(v: View) -> tuple[str, ...]:
    """The projection matrices this mode's forward never multiplies by (all three with no matrices,
    ``W_k`` when tied)."""
    return tuple(w for w in W_NAMES if not any(f"X {w}" in op.code for op in v.ops))


# --- the forward pass: the book's class for the weights on screen, in this mode ----------------


def _projection(init: str, w: str) -> str:
    """``x @ self.W_key`` (SelfAttention_v1, nn.Parameter) or ``self.W_key(x)`` (v2, nn.Linear)."""
    return f"x @ self.{w}" if init == "rand" else f"self.{w}(x)"


def forward_code(v: View) -> str:
    """The book's class whose initialisation drew the weights on screen, built as the page builds it,
    with the projections this mode runs (a changed line says so), and the call that gives Z."""
    ws = v.weight_set
    cls, source = self_attention_class(ws.init)
    p = {w: _projection(ws.init, w) for w in ("W_query", "W_key", "W_value")}
    pad = " " * 8
    book_lines = f"{pad}keys = {p['W_key']}\n{pad}queries = {p['W_query']}\n{pad}values = {p['W_value']}"
    if book_lines not in source:
        raise ValueError(f"{cls}'s source no longer projects as expected:\n{book_lines}")
    if v.mode == "tied":
        lines = (
            f"{pad}queries = {p['W_query']}\n{pad}keys = queries  # changed: tied, W_q serves as W_k\n"
            f"{pad}values = {p['W_value']}"
        )
    elif v.mode == "none":
        width = "self.W_key.shape[-1]" if ws.init == "rand" else "self.W_key.out_features"
        lines = (
            f"{pad}queries = keys = values = x  # changed: no matrices\n"
            f"{pad}d_k = {width}  # changed: still W_k's width, as in every mode"
        )
    else:
        lines = book_lines
    text = source.strip("\n").replace(book_lines, lines)
    if v.mode == "none":
        if SCALE not in text:
            raise ValueError(f"{cls}'s source no longer scales by {SCALE}")
        text = "\n".join(
            line.replace(SCALE, "d_k**0.5") + "  # changed" if SCALE in line else line
            for line in text.splitlines()
        )
    d_in, d_out = ws.w_query.shape
    return (
        text
        + f"\n\n\ntorch.manual_seed({ws.seed})\nsa = {cls}(d_in={d_in}, d_out={d_out})\n"
        + "context_vec = sa(inputs)  # Z = AV"
    )


def forward_latex(v: View) -> str:
    """The equations of this mode's forward pass."""
    projections = {
        "three": r"Q = XW_q,\; K = XW_k,\; V = XW_v",
        "tied": r"Q = K = XW_q,\; V = XW_v",
        "none": r"Q = K = V = X",
    }[v.mode]
    # three lines, so a phone's width holds each
    return (
        r"\begin{gathered}" + projections + r",\\ \Omega = QK^{\top},\quad "
        r"A = \mathrm{softmax}\!\left(\frac{\Omega}{\sqrt{d_k}}\right),\\ Z = AV\end{gathered}"
    )


def forward_caption(v: View) -> str:
    """Which class the weights come from, how it holds them, and what this mode changed."""
    ws = v.weight_set
    cls, _ = self_attention_class(ws.init)
    d_in, d_out = ws.w_query.shape
    if ws.init == "rand":
        text = (
            f"{cls} holds each matrix as nn.Parameter(torch.rand(d_in, d_out)), ({d_in}, {d_out}) as "
            "shown above, so `x @ self.W_key` is XW_k as written."
        )
    else:
        text = (
            f"{cls} holds each matrix in nn.Linear(d_in, d_out, bias=False), which stores its weight "
            f"transposed, ({d_out}, {d_in}): `self.W_key(x)` is x @ W_key.weight.T, that is XW_k with "
            f"the ({d_in}, {d_out}) W_k shown above."
        )
    if v.mode == "none":
        text += (
            " With no matrices the changed lines replace all three projections and keep the divisor at "
            "√d_k, W_k's width, as every mode here does: the book's class is the three-matrix mode."
        )
    elif v.mode == "tied":
        text += (
            " Tied, the changed line gives the keys W_q's projection and W_k goes unused: the book's "
            "class is the three-matrix mode."
        )
    return text


def ops_paragraph(v: View) -> str:
    """The operations this mode runs, beside the count the post quotes for three matrices."""
    this, quote = count_text(v.matmuls, v.transposes), book.FIGURE_01["five_ops"]
    three = v.row("three")
    text = f"This mode runs **{this}**, counted as the code above runs them."
    if this == quote:
        return text + f" That is the count the post quotes from Giles Thomas for three matrices: “{quote}”."
    if count_text(three.matmuls, three.transposes) == quote:
        return (
            text + f" The post quotes Giles Thomas's count for three matrices, “{quote}”, which is what the "
            "three-matrix mode runs."
        )
    return text + f" The post quotes Giles Thomas's count for three matrices, “{quote}”."


MARKED = "Its row of Z = AV below is marked ▸."


def focus_sentence(v: View) -> str:
    """Where the focused query's weights go (the view's :func:`ui.format.most_weight` sentence:
    one key, several tied keys, or every key alike), and where its output is marked."""
    return "" if v.focus is None else f"{v.focus.most} {MARKED}"


def ops_table(v: View) -> pd.DataFrame:
    """The operations the forward pass ran, in order, with their shapes and multiply-adds."""
    return pd.DataFrame(
        {
            "operation": [op.code for op in v.ops],
            "kind": [op.kind for op in v.ops],
            "result": [" × ".join(str(d) for d in op.shape) for op in v.ops],
            "multiply-adds": [f"{op.macs:,}" if op.kind == "matmul" else "0 (metadata)" for op in v.ops],
        },
        index=range(1, len(v.ops) + 1),
    )
