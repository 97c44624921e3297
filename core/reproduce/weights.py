"""How a script rebuilds a page's weight set: the book's own class after ``torch.manual_seed``.

No weights travel in a script. ``core.weights`` regenerates the book's matrices from a seed and an
initialisation; a script does what the book does instead, builds ``SelfAttention_v1`` (``torch.rand``)
or ``SelfAttention_v2`` (``nn.Linear``) after ``torch.manual_seed(seed)``, and reads the matrices
off the module as the equation reads them, ``(d_in, d_out)``.
"""

from __future__ import annotations

import numpy as np

from core.reproduce.book_code import self_attention_class
from core.weights import WeightSet, init_weights


def check_weight_set(ws: WeightSet, d_in: int) -> tuple[int, int]:
    """``(d_in, d_out)`` of ``ws``, after checking it is what its seed and initialisation draw.

    A script can only promise the page's numbers if the module it builds holds the page's weights.
    """
    rows, d_out = np.shape(ws.w_query)
    if rows != d_in:
        raise ValueError(f"the weights take {rows}-wide embeddings, the inputs are {d_in} wide")
    again = init_weights(ws.seed, ws.init, rows, d_out)
    pairs = zip((ws.w_query, ws.w_key, ws.w_value), (again.w_query, again.w_key, again.w_value), strict=True)
    for mine, drawn in pairs:
        if not np.array_equal(mine, drawn):
            raise ValueError(f"these weights are not what {ws.init} draws after torch.manual_seed({ws.seed})")
    return rows, d_out


def build_lines(ws: WeightSet, d_in: int, name: str = "sa") -> tuple[str, list[str], list[str]]:
    """The class source, the lines that build the module, and the lines that read W_q, W_k, W_v.

    ``nn.Linear`` stores its weight as ``(d_out, d_in)``, so v2's matrices are read transposed.
    """
    _, d_out = check_weight_set(ws, d_in)
    cls, source = self_attention_class(ws.init)
    build = [
        f"torch.manual_seed({ws.seed})",
        f"{name} = {cls}(d_in={d_in}, d_out={d_out})",
        f"{name} = {name}.double()  # float64 from the float32 draw, as the page computes",
    ]
    if ws.init == "rand":
        read = [f"{w} = {name}.{w}.detach()" for w in ("W_query", "W_key", "W_value")]
    else:
        read = [
            "# nn.Linear stores its weight transposed: weight.T reads (d_in, d_out).",
            *(f"{w} = {name}.{w}.weight.detach().T" for w in ("W_query", "W_key", "W_value")),
        ]
    return source, build, read
