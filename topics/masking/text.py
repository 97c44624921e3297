"""Masking the future's sentences, each built from the view's numbers and shown only where it holds.

Every claim here has a condition the view checks first (issue #24): the paths "end identical" only
to float64 rounding and only in rows whose full-row softmax keeps its visible weights normal
numbers; the 0 fill "leaks" only where a later token gets weight; a focused query "leaks" only if
it has a later token. Where a condition fails, the true counterpart is said instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.cell import Cell
from core.rounding import round_up
from topics.masking.paths import CellPaths
from ui import format as fmt
from ui.cell_text import closes, division, exp_error, exp_text, softmax_texts, sum_text

Rows = Sequence[int] | np.ndarray  # row indices, numbered from 0

SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)  # 2.2e-308: below it float64 keeps fewer digits

# "Why the renormalised path loses nothing": the algebra, and what it says before the view's note.
CANCEL_LATEX = (
    r"\hat{\alpha}_{ij} = \frac{\dfrac{e^{\omega_{ij}/\sqrt{d_k}}}{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}"
    r"\,\mathbf{1}[j\le i]}{\displaystyle\sum_{l \le i} \frac{e^{\omega_{il}/\sqrt{d_k}}}"
    r"{\sum_{k} e^{\omega_{ik}/\sqrt{d_k}}}} = \frac{e^{\omega_{ij}/\sqrt{d_k}}\,\mathbf{1}[j\le i]}"
    r"{\sum_{l \le i} e^{\omega_{il}/\sqrt{d_k}}}"
)
CANCEL = (
    "The full-row denominator sits once above the line and once below it, and cancels: what is "
    "left is the softmax over the visible prefix, exactly. The future was in the first softmax, "
    "and none of it survives the division. "
)
# "Three lines make the class causal": the book's CausalAttention, and why it reads as it does.
CAUSAL_CODE = """self.register_buffer(
    "mask", torch.triu(torch.ones(context_length, context_length), diagonal=1)
)
attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
attn_weights = self.dropout(attn_weights)"""
CAUSAL_CAPTION = (
    "A buffer moves to the GPU with the module but is not trained; the in-place fill is sliced "
    "because the buffer is built once at full context length; dropout is the next page."
)


def rows_text(rows: Rows) -> str:
    """``row 2``, ``rows 1 and 3``, ``rows 1, 2 and 4`` (numbered from 1)."""
    names = [str(int(i) + 1) for i in rows]
    if len(names) == 1:
        return f"row {names[0]}"
    return f"rows {', '.join(names[:-1])} and {names[-1]}"


def share_text(x: float) -> str:
    """A weight to 4 decimals, or with its exponent when 4 decimals would print a leak as 0.0000."""
    x = float(x)
    return "0" if x == 0 else fmt.num(x) if abs(x) >= 5e-5 else fmt.sci(x)


def difference_text(x: float, limit: float) -> str:
    """A difference between the two paths: ``0/0`` where the naive path divided zero by zero, a bound
    (:func:`ui.format.noise`) where it is float64 rounding, else its value (4 decimals, or with its
    exponent below 1e-3)."""
    x = float(x)
    if np.isnan(x):
        return "0/0"
    if abs(x) <= limit:
        return fmt.noise(x, limit)
    return fmt.sci(x) if abs(x) < 1e-3 else fmt.num(x)


def cell_text(x: float, limit: float) -> str:
    """A difference grid cell: ``0`` (exactly), ``≈0`` (below the rounding bound), ``0/0`` or the value."""
    x = float(x)
    if np.isnan(x):
        return "0/0"
    if x == 0:
        return "0"
    return "≈0" if abs(x) <= limit else difference_text(x, limit)


def lead(broken: Rows) -> str:
    """The page's lead: the two ways, and how they end on this sentence. No TeX: the page opens on
    it, and a first visit draws TeX only once its code has been fetched, then pushes everything
    under it down."""
    ending = (
        "end identical, to float64 rounding"
        if not len(broken)
        else "end identical in exact arithmetic; on this sentence float64 breaks the naive one in "
        + rows_text(broken)
    )
    return (
        "A model that predicts the next token must not read it: query *i* may attend only to keys "
        "*j* ≤ *i*. The book masks in two ways. The **naive** path softmaxes the full rows, zeroes "
        "the future with `torch.tril` and renormalises each row; the **efficient** path fills the "
        f"future of the raw scores with −∞ and softmaxes once. Step them side by side: they look "
        f"unrelated half-way and {ending}."
    )


def _agreement(largest: float, limit_text: str) -> str:
    """How the paths end in the rows float64 keeps at full precision."""
    if largest == 0:
        return "agree exactly"
    return f"agree to float64 rounding, every difference below {limit_text}"


def _broken(undefined: Rows, broken: Rows, worst: float) -> str:
    """What float64 did in the ``broken`` rows: 0/0 (``undefined``), or subnormal visible weights that
    left the naive path up to ``worst`` from the −∞ fill's weights, more than rounding."""
    parts = []
    if len(undefined):
        parts.append(
            f"in {rows_text(undefined)} the full-row softmax left every visible weight at exactly 0, "
            "and the naive path divides 0 by 0"
        )
    thin = [i for i in broken if i not in set(undefined)]
    if thin:
        parts.append(
            f"in {rows_text(thin)} the full-row softmax left every visible weight below 2.2e-308, "
            "where float64 keeps fewer digits, and the naive path ends up to "
            f"{difference_text(worst, 0.0)} from the −∞ fill's weights"
        )
    return "; ".join(parts)


def stage_prose(
    final: np.ndarray,
    sealed: bool,
    largest: float,
    limit: float,
    undefined: Rows,
    broken: Rows,
    worst: float,
) -> str:
    """The sentence under the stages, read off the efficient path's last stage as the controls set it.

    ``largest`` is the largest difference over the rows where the paths agree to rounding (not
    ``broken``); ``worst`` is the largest ``|naive − causal|`` over the broken rows that are not 0/0
    (``undefined``).
    With the book's −∞ fill the first row collapses onto the first token; with the 0 fill the future
    keeps weight, and the sentence says how much. Rows 2 and 3 are named only where the sentence has them.
    """
    w = np.asarray(final, dtype=np.float64)
    n = len(w)
    limit_text = fmt.sci(round_up(limit), 0)
    if n == 1:
        return (
            f"With one token there is no future to mask: both paths end at the single weight "
            f"{fmt.num(w[0, 0])}."
        )
    rest = "" if not len(broken) else f" outside {rows_text(broken)}: {_broken(undefined, broken, worst)}"
    if sealed:
        later = [f"row {i + 1} is {fmt.vec(w[i, : i + 1])}" for i in range(1, min(3, n))]
        return (
            f"Row 1 collapses to {fmt.num(w[0, 0])} because the first token sees only itself; "
            f"{' and '.join(later)}. Half-way the paths look unrelated, because the naive one masks "
            "weights (zeros where the future was) and the efficient one masks scores (−∞). "
            f"After step 4 they {_agreement(largest, limit_text)}{rest}."
        )
    future = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), w, 0.0).sum(axis=-1)
    opening = (
        "With the future filled by 0 instead of −∞, later tokens keep weight"
        if future.any()
        else "With the future filled by 0 instead of −∞, later tokens still get no weight here, but only "
        "because every e^(0 − score) underflows to 0 in float64"
    )
    row2 = f", and row 2 keeps {fmt.num(1 - future[1])} on the two tokens it may see" if n > 2 else ""
    if largest > limit:
        ending = f"The naive path still masks, so the two differ by up to {difference_text(largest, limit)}"
    else:
        ending = f"The naive path still masks, yet here the two {_agreement(largest, limit_text)}"
    return (
        f"{opening}: row 1 keeps {fmt.num(w[0, 0])} on the first token and hands {share_text(future[0])} "
        f"to {_the(n - 1, 'token')} after it{row2}. {ending}{rest}."
    )


def cancel_note(largest: float, limit: float, undefined: Rows, broken: Rows, worst: float) -> str:
    """After the algebra of the cancellation: what float64 makes of it on this sentence.

    It compares the naive path with the −∞ fill whatever fill the controls set (the algebra is about
    that pair); ``largest`` is their largest difference outside the ``broken`` rows.
    """
    pair = "the naive path and the −∞ fill's softmax"
    if largest == 0:
        agree = f"{pair} agree exactly on this sentence"
    else:
        agree = (
            f"{pair} differ by less than {fmt.sci(round_up(limit), 0)} on this sentence, a bound on what "
            "two orders of the same sums can differ by (NumPy's order here, PyTorch's, the post's)"
        )
    if not len(broken):
        return f"In float64 the two sides round differently, since they sum in different orders: {agree}."
    return f"In float64 the cancellation can fail: {_broken(undefined, broken, worst)}. Elsewhere {agree}."


def undefined_note(rows: Rows) -> str:
    """The warning for the naive path's 0/0 rows (numbered from 1), or "" when there are none."""
    if not len(rows):
        return ""
    return (
        f"The naive path divides 0 by 0 in {rows_text(rows)}: a future score beats every visible one "
        "by so much that the full-row softmax leaves each visible weight at exactly 0. The efficient "
        "path never divides 0 by 0 (a token always sees itself), one more reason the book prefers it."
    )


def future_caption(zero_fill: np.ndarray) -> str:
    """The caption under the table of each token's attention to later tokens, for both fills."""
    shares = np.asarray(zero_fill, dtype=np.float64)
    if len(shares) == 1:
        return "Each token's attention to later tokens, for both fills: a lone token has none, so both are 0."
    if np.any(shares >= 5e-5):
        return "Each token's attention to later tokens, for both fills: a zero score is not a zero weight."
    return (
        "Each token's attention to later tokens, for both fills: here even the 0 fill leaks less than "
        "0.00005 in every row, because every row sees a score far above the fill's 0."
    )


def focus_extra(row: int, n: int, share: float, leak: np.ndarray) -> str:
    """With the 0 fill, what reaches the focused query's context vector from later tokens."""
    if row == n - 1:
        return "With the 0 fill it is the same: the last token has no later token to leak from."
    if share == 0:
        return "With the 0 fill it is the same: its later tokens' e^(0 − score) underflows to 0 in float64."
    return (
        f"With the 0 fill it is {fmt.vec(leak)}: {share_text(share)} of its attention leaks to later tokens."
    )


def grid_title(cells: Sequence[Sequence[str]], limit: float) -> str:
    """The difference grid's title, with what ``≈0`` means when a cell shows it."""
    noisy = any("≈0" in c for row in cells for c in row)
    bound = f" (≈0: below {fmt.sci(round_up(limit), 0)}, float64 rounding)" if noisy else ""
    return "Naive − efficient, after step 4" + bound


def stage_value(x: float) -> str:
    """A stage heatmap's cell as the page prints it: 4 decimals, ``−∞`` for the fill, ``0/0``."""
    x = float(x)
    if np.isnan(x):
        return "0/0"
    if np.isinf(x):
        return "−∞" if x < 0 else "∞"
    return fmt.num(x)


def _shifted(shift: float) -> str:
    return f" − {fmt.num(shift)}" if shift else ""


def cell_stage(p: CellPaths) -> str:
    """Where the panel's cell stands at the step the stage control shows, on both heatmaps."""
    rest = " The efficient heatmap shows the 0 fill, as the controls set it." if p.zero_fill else ""
    naive = "is blank (0/0)" if np.isnan(p.naive_shown) else f"reads {stage_value(p.naive_shown)}"
    return (
        f"At step {p.stage} of 4 this cell {naive} in the naive heatmap "
        f"(after “{p.naive_name}”) and {stage_value(p.efficient_shown)} in the efficient one (after "
        f"“{p.efficient_name}”). The arithmetic above is the efficient path with the book's −∞ fill, "
        f"through to its one softmax.{rest}"
    )


def _the(n: int, noun: str) -> str:
    """``the one later key``, ``the 3 later keys``: never "the 1 keys" nor "the 1 key"."""
    return f"the one {noun}" if n == 1 else f"the {fmt.count(n, noun)}"


def cell_mask(c: Cell, p: CellPaths, qi: str, kj: str) -> str:
    """Why the mask makes this cell's weight exactly 0, or what it does to its row if it does not."""
    mask = "`torch.triu(ones, diagonal=1)`"
    shifted = (
        f", every exponent shifted by the row's largest, {fmt.num(c.shift)}, so none overflows"
        if c.shift
        else ""
    )
    seen = _the(p.i + 1, "key")
    if p.future:
        return (
            f"Why −∞, then exactly 0: {kj} is key {p.j + 1}, after {qi} (query {p.i + 1}), so the mask "
            f"{mask} holds 1 here and `masked_fill_` writes −∞ over the score {fmt.num(c.score)} before "
            "the division; −∞ / √d_k is still −∞. exp(−∞) is exactly 0 in float64, not a small number, "
            f"so this key adds nothing to the row's denominator ({sum_text(c.denominator)}, summed over "
            f"{seen} {qi} may see{shifted}) and its weight is 0 / "
            f"{sum_text(c.denominator)} = 0."
        )
    if not p.later:
        return (
            f"{kj} is key {p.j + 1} and {qi} the last query: nothing comes after it, so the mask "
            f"{mask} changes nothing in this row."
        )
    later = _the(p.later, "later key")
    return (
        f"{kj} is key {p.j + 1}, not after {qi} (query {p.i + 1}), so the mask {mask} leaves this score "
        f"alone. It still shapes the weight: {later} {'gets' if p.later == 1 else 'get'} "
        f"−∞ and exp(−∞) = 0, so the denominator sums only {seen} {qi} may see."
    )


def cell_zero(c: Cell, p: CellPaths, qi: str) -> str:
    """What the 0 fill (the shortcut) gives this cell instead, worked out: exp(0) is not 0."""
    if not p.later:
        return (
            f"With the 0 fill nothing changes in this row: {qi} is the last token, with no later key to fill."
        )
    fill_exp = f"exp(0{_shifted(p.zero_shift)})"
    later = _the(p.later, "later key")
    exp, share = exp_text(p.zero_exp), share_text(p.zero_weight)
    after, sign = division(exp, p.zero_denominator, exp_error(p.zero_denominator), share)
    before = sum_text(c.denominator) if c.masked else softmax_texts(c)[1]  # as the panel prints it
    grows = (
        f"the row's denominator goes from {before} to {after}"
        if before != after
        else f"the row's denominator stays {before} to the digits shown"
    )
    if p.zero_fill_exp == 0:
        return (
            f"With the 0 fill instead, {later} {'scores' if p.later == 1 else 'score'} "
            f"0, but here {fill_exp} underflows to 0 in float64, so {grows} and this cell's weight is "
            f"{share_text(p.zero_weight)} on that path too."
        )
    if p.future:
        return (
            f"With the 0 fill instead (the shortcut), this score becomes 0, not −∞; ÷ √d_k it is still 0, "
            f"and {fill_exp} = {exp_text(p.zero_fill_exp)}. A zero score is not a zero weight: "
            f"{'' if p.later == 1 else 'each of '}{later} adds {exp_text(p.zero_fill_exp)}, {grows}, "
            f"and this cell gets {exp} / {after} {sign} **{share}**."
        )
    return (
        f"With the 0 fill instead, {later} {'adds' if p.later == 1 else 'each add'} "
        f"{fill_exp} = "
        f"{exp_text(p.zero_fill_exp)} to the denominator: {grows}, and this weight becomes "
        f"{exp} / {after} {sign} {share}."
    )


def _grid(p: CellPaths, naive: str) -> str:
    """What the difference grid reads in this cell, and why."""
    fill = ", with the 0 fill" if p.zero_fill else ""
    said = f"The difference grid (naive − efficient{fill}) reads {p.grid_cell} here"
    bound = fmt.sci(round_up(p.limit), 0)
    if p.grid_cell == "0/0":
        return f"{said}: the naive path divides 0 by 0 in this row."
    if p.grid_cell == "0":
        return f"{said}: both paths give the same float64 number."
    if p.grid_cell == "≈0":
        why = (
            "the size of float64 rounding"
            if p.zero_fill
            else "float64 rounding, since the two paths sum in different orders"
        )
        return f"{said}: a difference below {bound}, {why}."
    if p.zero_fill:
        return f"{said}: the naive path's {naive} against the 0 fill's {share_text(p.zero_weight)}."
    return (
        f"{said}: more than rounding, because the full-row softmax left this row's visible weights below "
        "2.2e-308, where float64 keeps fewer digits."
    )


def cell_naive(p: CellPaths) -> str:
    """The naive path to this cell: the full row's softmax, the tril, the renormalisation."""
    exp, share = exp_text(p.full_exp), share_text(p.full_weight)
    total, sign = division(exp, p.full_denominator, exp_error(p.full_denominator), share)
    full = (
        f"The naive path softmaxes first, over the whole row, later keys included: "
        f"exp({fmt.num(p.scaled)}{_shifted(p.full_shift)}) = {exp} over "
        f"{total} gives {'' if sign == '=' else '≈ '}{share} at step 2."
    )
    vs = share_text(p.visible_sum)
    naive = stage_value(p.naive_weight)
    if p.visible_sum == 0:
        step4 = "step 4 divides by the row's visible sum, which is 0 here: 0 / 0"
    elif p.future:
        step4 = f"step 4 divides the row by its visible sum, {vs}: 0 / {vs} = 0"
    else:
        step4 = (
            f"step 4 divides by the row's visible sum, {vs}: {share} / {vs} "
            f"{'=' if closes(share, vs, naive) else '≈'} {naive}, "
            "the full-row denominator cancelling"
        )
    keeps = "sets it to 0" if p.future else "keeps it"
    return f"{full} Step 3 (tril) {keeps}, and {step4}. {_grid(p, naive)}"


def cell_notes(c: Cell, p: CellPaths, qi: str, kj: str) -> tuple[str, ...]:
    """The panel's masking lines for cell ``c``: the stage shown, the mask, the 0 fill, the naive path.
    ``qi``/``kj`` are the two tokens, already Markdown-escaped."""
    return (cell_stage(p), cell_mask(c, p, qi, kj), cell_zero(c, p, qi), cell_naive(p))
