"""The Recap's prose, every number and every claim read from the view (issue #24, item 5).

The post describes the book's sentence: weights never far from uniform, outputs that huddle near
the centre of the inputs, a divisor that moves journey → starts toward 1/6. A reader's sentence or
an edited embedding can break each of these, so each sentence here is chosen by the view's
condition (:attr:`View.near_uniform`, :attr:`View.huddled`, :attr:`View.centred`,
:attr:`View.toward_uniform`, with their thresholds in ``topics.recap.view``) and says what holds.
"""

from __future__ import annotations

from topics.recap.view import NEAR_UNIFORM, View
from ui import format as fmt
from ui.sentence import md


def factor(v: View) -> str:
    """:data:`NEAR_UNIFORM` as the prose writes it."""
    return f"{NEAR_UNIFORM:g}"


def lead(v: View) -> str:
    """Section 3.3's three steps, and what they do to this sentence (no TeX: see
    ``topics.dropout.text.lead``)."""
    steps = (
        "Before any matrices, attention is three steps: score every pair of tokens with a dot product "
        "(Ω = XXᵀ), softmax each row into weights, and average the inputs with them. "
        f"{fmt.count(v.dot_products, 'dot product')} and no parameters."
    )
    if v.n == 1:
        return f"{steps} With one token there is nothing to average: its output is its input."
    if v.huddled and v.near_uniform and v.centred:  # the post's collapse
        return f"{steps} It works, and it barely does anything."
    if v.huddled:
        return (
            f"{steps} It works, and here it barely tells the tokens apart: the outputs end up close together."
        )
    return f"{steps} It works, and nothing in it can learn what to look at."


def weight(v: View) -> str:
    """The followed pair's weight, and the same pair on Three matrices, divided by √d_k first."""
    q, k, w, w01, u = (
        md(v.labels[v.query]),
        md(v.labels[v.key]),
        fmt.num(v.weight),
        fmt.num(v.fig01_weight),
        fmt.num(v.uniform),
    )
    here = (
        f"Here {q} gives {k} a weight of **{w}**: section 3.3 softmaxes the raw scores, with no divisor. "
        "On *Three matrices* the same pair with no matrices"
    )
    divides = (
        f"that page divides every mode's scores by √{v.fig01_d_k} = {fmt.num(v.fig01_divisor)}, √d_k of "
        "section 3.4's projections, in all three modes so they differ only in the matrices"
    )
    if v.n == 1:
        return f"{here} reads **{w01}** too: a row of one token gives it all the weight, divided or not."
    if w01 == w:
        return (
            f"{here} reads **{w01}** too, though {divides}. Dividing shrinks the gaps between scores, which "
            f"flattens each row toward uniform, 1/{v.n} = {u} a weight, but this pair's weight does not "
            "change in the fourth decimal."
        )
    if v.toward_uniform:
        return (
            f"{here} reads **{w01}**, closer to uniform, because {divides}. Dividing shrinks the gaps "
            f"between scores, which flattens each row's softmax toward uniform, 1/{v.n} = {u} a weight."
        )
    return (
        f"{here} reads **{w01}**, because {divides}. Dividing shrinks the gaps between scores, which "
        f"flattens each row as a whole toward uniform, 1/{v.n} = {u} a weight, yet a single weight can "
        "move the other way: this pair's weight moves away from it."
    )


def collapse_heading(v: View) -> str:
    return "The collapse" if v.huddled else "The outputs"


def collapse(v: View) -> str:
    """How far the weights are from uniform, and whether the outputs huddle, and where."""
    c, n, u = v.collapse, v.n, fmt.num(v.uniform)
    if n == 1:
        return "With one token its weight is 1 and its output is its own input: there is nothing to average."
    if c.spread_share is None:
        return (
            f"Every input here is the same vector, so every weight is 1/{n} = {u} and every output is that "
            "vector too: there is no spread to lose."
        )
    lo, hi, share = fmt.num(v.lightest), fmt.num(v.heaviest), fmt.percent(c.spread_share)
    average = f"Each output is a weighted average of all {n} inputs"
    if v.near_uniform:
        weights = (
            f"{average}, and the weights are never far from uniform: every one lies between {lo} and "
            f"{hi}, within a factor of {factor(v)} of 1/{n} = {u}"
        )
    else:
        weights = (
            f"{average}, but here the weights are far from uniform: they run from {lo} to {hi}, where "
            f"an even split gives each 1/{n} = {u}"
        )
    where = "near the centre of the inputs" if v.centred else "together, away from the centre of the inputs"
    if v.huddled and v.near_uniform:
        return f"{weights}, so the {n} outputs huddle {where}: their spread is {share} of the inputs'."
    if v.huddled:
        return f"{weights}. The {n} outputs still huddle {where}: their spread is {share} of the inputs'."
    return f"{weights}. The outputs do not huddle: they keep {share} of the inputs' spread."
