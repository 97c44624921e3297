"""The Multi-head page's checks against its sources: every number the book, the solutions and the
post print for figure 05 (section 3.6), beside the live value the view computed."""

from __future__ import annotations

from core import book
from topics.multihead.view import Book, sci_row, shape
from ui import checks
from ui import format as fmt

NOTE = (
    "Quoted: what PyTorch prints for the book's classes after torch.manual_seed(123) on the book's "
    "batch (first batch item; the second is identical), and the post's section on multi-head "
    "attention. Live: computed here at those settings, whatever the controls say."
)


def _rounded(label: str, quoted: str, value: float, source: str, note: str = "") -> checks.Check:
    """A quote rounded to its printed decimals: within rounding when ``value`` lies in the interval
    that rounding allows (27.7 allows 27.65 to 27.75), which the verdict names."""
    places = fmt.decimals_of(quoted)
    half = 0.5 * 10.0**-places
    q = float(quoted)
    low, high = f"{q - half:.{places + 1}f}", f"{q + half:.{places + 1}f}"
    return checks.within(
        label,
        quoted,
        value,
        q - half,
        q + half,
        live=fmt.num(value),
        source=source,
        note=note,
        why=f"{low} to {high}"
        if q - half <= value <= q + half
        else f"{fmt.num(value)} is outside {low} to {high}",
    )


def _printed_digits(label: str, quoted: str, live: str, source: str, note: str) -> checks.Check:
    """A tensor PyTorch printed in scientific mode (5 significant digits) against the live one printed
    the same way: within rounding when the two printings read the same, else differs."""
    same = live == quoted
    return checks.Check(
        label,
        quoted,
        live,
        checks.Verdict.ROUNDING if same else checks.Verdict.DIFFERS,
        source,
        note,
        why="5 significant digits, as PyTorch prints" if same else f"live {live} against {quoted}",
    )


def book_checks(b: Book) -> list[checks.Check]:
    """Every number the book and the post print for figure 05, beside the live value in ``b``."""
    q = book.FIGURE_05
    printed = (  # label, the view's output, the rows printed, the shape printed
        ("CausalAttention(3, 2)", "causal_attention", q["causal_attention"], None),
        ("MultiHeadAttentionWrapper(3, 2, heads 2)", "wrapper", q["wrapper"], q["wrapper_shape"]),
        ("Exercise 3.2: wrapper with d_out 1", "exercise_3_2", q["exercise_3_2"], q["exercise_3_2_shape"]),
        ("MultiHeadAttention(3, 2, heads 2)", "split", q["split"], q["split_shape"]),
    )
    rows: list[checks.Check] = []
    for label, key, lines, quoted_shape in printed:
        out = b.outputs[key]
        rows += [
            checks.exact(
                f"{label}, row {i + 1}",
                text,
                out[0, i],
                source=checks.BOOK_CODE,
                note="PyTorch 2.13 prints it",
            )
            for i, text in enumerate(lines)
        ]
        if quoted_shape is not None:
            rows.append(
                checks.same(f"{label}: output shape", quoted_shape, shape(out.shape), source=checks.BOOK_CODE)
            )
    rows += [
        _printed_digits(
            f"Exercise 3.2, official solution, row {i + 1} (stale)",
            text,
            sci_row(b.stale[i]),
            source=checks.SOLUTIONS,
            note="stale: live is the wrapper with softmax(dim=1), the bug fixed in d4754f1",
        )
        for i, text in enumerate(book.EXERCISE_3_2_SOLUTION)
    ]
    return [
        *rows,
        checks.same(
            "GPT-3 175B: heads per layer",
            "96",
            str(b.gpt3_heads),
            source=checks.POST,
            note="“GPT-3 has 96 of them”; Brown et al. 2020, table 2.1",
        ),
        checks.same(
            "GPT-3 175B: head_dim",
            "128",
            str(b.gpt3_head_dim),
            source=checks.HERE,
            note=f"Computed here: d_model / heads = {fmt.integer(b.gpt3_d_model)} / {b.gpt3_heads}, "
            "exact integer division, from GPT-3 175B's configuration (Brown et al. 2020, table 2.1)",
        ),
        checks.same(
            "GPT-2 small: head_dim",
            q["gpt2_head_dim"],
            str(b.gpt2_head_dim),
            source=checks.POST,
            note="768 / 12",
        ),
        checks.same(
            "GPT-2 small: divisor √head_dim", q["gpt2_divisor"], f"{b.gpt2_divisor:g}", source=checks.POST
        ),
        _rounded("…not √d_out", q["gpt2_divisor_not"], b.gpt2_d_out_root, source=checks.POST, note="√768"),
        checks.same(
            "GPT-2 small: MultiHeadAttention parameters",
            q["gpt2_attention_params"],
            fmt.integer(b.gpt2_params),
            source=checks.POST,
            note="incl. out_proj",
        ),
    ]
