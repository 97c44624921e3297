"""Read-along steps for the tour's close: what the n × n score matrix costs (the cost page), then
what comes after chapter 3 (the What-comes-next page): attention's blindness to order, the KV
cache, and the block the module becomes in chapter 4."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.sentence import Sentence
from topics.cost import view as cost
from topics.next import view as nxt
from topics.read_along.step import RELATIVE, Figure, Question, Step, StepDef, token
from ui import format as fmt

BASE_N = 1_024  # GPT-2's context length: the doubling question starts here
TIB = 1 << 40  # bytes in a tebibyte: the unit the cost page reads 2 TiB in
CARD_BANDS = ((1, "1 card or fewer"), (9, "2 to 9 cards"), (99, "10 to 99 cards"))  # then "100 or more"


@dataclass(frozen=True)
class Doubling:
    """The cost page at a context length and at twice it: what the doubling step draws."""

    base: cost.View
    doubled: cost.View


def _reversed(n: int) -> tuple[int, ...]:
    return tuple(range(n - 1, -1, -1))


def _order(perm: tuple[int, ...]) -> str:
    """The What-comes-next page's order box, 1-based: ``(5, 4, 3, 2, 1, 0)`` -> ``"6 5 4 3 2 1"``."""
    return " ".join(str(i + 1) for i in perm)


def short(name: str) -> str:
    """A GPT-2 preset's name without its size: ``"GPT-2 small (124M)"`` -> ``"GPT-2 small"``."""
    return name.split(" (")[0]


def next_view(s: Sentence, focus: int | None = None) -> nxt.View:
    """The What-comes-next page at the reader's sentence: GPT-2 small, the sentence reversed, and
    the KV cache holding the sentence's tokens at 2 bytes a number."""
    return nxt.build(
        nxt.Settings(s.labels, s.embeddings, perm=_reversed(s.n), focus=focus, kv_tokens=s.n, kv_bytes=2)
    )


def n_squared(s: Sentence) -> Step:
    """Every query scores every key: n² scores, and what doubling n does to their bytes."""
    here = cost.build(cost.Settings(n=s.n))
    base, doubled = (cost.build(cost.Settings(n=m)) for m in (BASE_N, 2 * BASE_N))
    b, d = base.row, doubled.row
    factor = d.nbytes / b.nbytes
    size = base.cfg.bytes_per_score
    text = (
        "Every query is scored against every key, so one head of one layer holds an n × n matrix of "
        f"scores, even those that section 3.5's mask later hides. Your sentence's {s.n} "
        f"token{' makes' if s.n == 1 else 's make'} {fmt.integer(here.row.scores)} "
        f"score{'' if here.row.scores == 1 else 's'}: {fmt.integer(here.row.nbytes)} bytes at {size} bytes a "
        f"score (bf16, a number format {size} bytes wide that models train in). GPT-2's context of "
        f"{fmt.integer(b.n)} tokens makes {fmt.integer(b.scores)} scores, "
        f"{fmt.integer(b.nbytes)} bytes."
    )
    return Step(
        text=text,
        figure=Figure(
            "cost_doubling",
            Doubling(base, doubled),
            "Memory of the score matrices against the context length n, one head, one layer",
            f"Marked on the score-matrix curve: n = {fmt.integer(b.n)} ({fmt.integer(b.nbytes)} bytes) and "
            f"n = {fmt.integer(d.n)} ({fmt.integer(d.nbytes)} bytes). Both axes are logarithmic.",
            covered=f"the curve stops at n = {fmt.integer(b.n)}; the doubled length is not drawn yet.",
        ),
        question=Question(
            prompt=f"Double the context, from {fmt.integer(b.n)} to {fmt.integer(d.n)} tokens. The score "
            "matrix's memory grows by what factor?",
            options=(),
            answer=factor,
            answer_text=f"×{factor:g}: {fmt.integer(d.nbytes)} bytes against {fmt.integer(b.nbytes)}",
            explanation=(
                f"Both sides of the n × n matrix double, so the scores go from {fmt.integer(b.scores)} to "
                f"{fmt.integer(d.scores)} and the bytes from {fmt.integer(b.nbytes)} to "
                f"{fmt.integer(d.nbytes)}: ×{factor:g}. Memory grows as the square of the context; more "
                "heads or layers only multiply it."
            ),
            tolerance=RELATIVE,
            relative=True,
            unit=("time", "times"),
            hint=(
                f"The matrix is n × n. Doubling n doubles the rows; what happens to the columns, and so "
                f"to the {fmt.integer(b.scores)} scores?"
            ),
            secrets=(fmt.integer(d.nbytes),),  # (its scores, 2²², are a tick of the chart's axis)
        ),
        link={"n": str(d.n)},
    )


def card_band(cards: int) -> int:
    """The option of :data:`CARD_BANDS` (or the last, "100 or more") that ``cards`` falls in."""
    return next((i for i, (top, _) in enumerate(CARD_BANDS) if cards <= top), len(CARD_BANDS))


def frontier(s: Sentence) -> Step:
    """One head at GPT-4.1's window: terabytes, and the cards it fills (the cost page's defaults)."""
    v = cost.build(cost.Settings())
    r, gpu = v.row, v.gpu.name
    text = (
        f"Now a frontier window: GPT-4.1 reads up to {fmt.integer(r.n)} tokens. One head of one layer "
        f"would hold {fmt.integer(r.scores)} scores, {fmt.integer(r.nbytes)} bytes at "
        f"{v.cfg.bytes_per_score} bytes a score: about {fmt.num(r.nbytes / TIB, 3)} TiB. Nobody pays this "
        "bill: FlashAttention computes the scores tile by tile in on-chip memory and never stores the "
        "whole matrix, so its memory grows like n, though its time still grows like n²."
    )
    options = (*(label for _, label in CARD_BANDS), "100 cards or more")
    return Step(
        text=text,
        figure=Figure(
            "cost_table",
            v,
            f"The cost table: one head's score matrix at some context lengths, on {gpu} cards",
            f"The row marked “(current)” is GPT-4.1's window, {fmt.integer(r.n)} tokens.",
            covered="the cards of the current row and of every longer window show ?.",
        ),
        question=Question(
            prompt=f"How many {gpu} cards would this one matrix fill?",
            options=options,
            answer=card_band(r.cards_to_buy),
            answer_text=f"{fmt.num(float(r.cards), 2)} cards, so {r.cards_to_buy} to buy",
            explanation=(
                f"{fmt.integer(r.nbytes)} bytes over one card's memory is {fmt.num(float(r.cards), 2)}, "
                f"and nobody sells part of a card: {r.cards_to_buy}. That is one head of one layer, before "
                "the weights; every head and every layer adds a matrix of its own."
            ),
            hint=f"Divide the current row's bytes by one {gpu} card's memory; the rows above show the scale.",
            secrets=(fmt.num(float(r.cards), 2),),
        ),
        link={"n": str(r.n)},
    )


def shuffle(s: Sentence) -> Step:
    """Attention cannot see order: reverse the sentence and, without the mask, a token's output only
    moves with it. The causal mask is what changes it."""
    v = next_view(s, focus=0)
    sh = v.shuffle
    f = sh.focus
    assert f is not None  # a focus was asked for
    first = token(s.labels[0])
    free_gap = float(np.max(np.abs(f.free - f.free_shuffled)))
    same = free_gap <= sh.limit
    a, b = fmt.vec(f.free), fmt.vec(f.free_shuffled)
    unmasked = f"is {a} in both orders" if a == b else f"is {a} and {b}, equal up to rounding"
    if same:
        why = (
            f"Without the mask its output {unmasked}: every score is a dot product of two tokens, and a "
            "softmax does not care in which order its terms arrive."
        )
    else:
        why = f"Its output {unmasked}, a gap of {fmt.sci(free_gap)}: more than rounding explains."
    masked_gap = float(np.max(np.abs(f.masked_original - f.masked_shuffled)))
    if s.n == 1:
        mask = "With one token there is no other order, so the causal mask changes nothing either."
    elif sh.same_mix[f.row]:
        mask = (
            "With the causal mask it is the same too: every token of your sentence is the same word, so "
            f"{first} sees the same mix of embeddings at position 1 and at position {f.after}."
        )
    elif masked_gap <= sh.limit:
        mask = (
            f"With the causal mask it moves by no more than rounding either, though at position {f.after} "
            f"it sees all {s.n} tokens."
        )
    else:
        mask = (
            f"With the causal mask it changes, {fmt.vec(f.masked_original)} then "
            f"{fmt.vec(f.masked_shuffled)}: at position 1 it saw only itself, at position {f.after} it sees "
            f"all {s.n} tokens."
        )
    moves = (
        f"so {first} moves from position 1 to position {f.after}"
        if s.n > 1
        else f"which leaves {first}, its one token, at position 1"
    )
    text = (
        "Chapter 3 never tells attention where a token sits: there are no position embeddings yet. "
        f"Reverse your sentence, {moves}, and run section 3.4's self-attention f, without the causal "
        "mask, on both orders. Write P for the reordering: P·f(X) is each token's output from the "
        "original order, moved to its new position, and f(P·X) its output from the reversed sentence. "
        "Their difference is P·f(X) − f(P·X)."
    )
    return Step(
        text=text,
        figure=Figure(
            "next_shuffle",
            v,
            "Without the mask: each token's output in the original order minus its output shuffled, "
            "P·f(X) − f(P·X), one row per position of the reversed sentence",
            f"Outlined: the row of {first}, now at position {f.after}. A white cell "
            "is no difference beyond rounding.",
            covered="only P·f(X) is drawn; f(P·X), and the difference, are not.",
        ),
        question=Question(
            prompt=f"Without the causal mask, what happens to the output vector of {first}?",
            options=("The same vector, moved with its token", "A different vector"),
            answer=0 if same else 1,
            answer_text=f"{'the same vector' if same else 'a different vector'}, {a} "
            + ("both ways" if a == b else f"and {b}"),
            explanation=f"{why} {mask}",
            hint=(
                "Every score is a dot product of two tokens' vectors, and a softmax adds up its terms "
                "in any order. Does anything in f depend on where a token sits?"
            ),
            secrets=() if a == b else (b,),
        ),
        link={"perm": _order(sh.perm), "next_focus": s.labels[0]},
    )


def kv_cache(s: Sentence) -> Step:
    """What a KV cache costs per token, on GPT-2 small: 2 × layers × d_model × bytes per number."""
    v = next_view(s)
    kv, blk, name = v.kv, v.block, short(v.name)
    two, layers, _, width, nbytes, _ = kv.factors
    product = f"{two} × {layers} × {fmt.integer(width)} × {nbytes}"
    text = (
        "When a GPT writes text one token at a time, each new token's query needs the keys and values "
        "of every token before it. Recomputing them at every step is waste, so a KV cache keeps them: "
        "every layer stores one key and one value vector per token, each d_model numbers wide (d_model "
        f"is the model's width, the length of a token's vector inside it). GPT-2 small has {layers} "
        f"layers and d_model = {fmt.integer(width)}; store each number in {nbytes} bytes (bf16)."
    )
    tokens = f"{kv.tokens} token{'' if kv.tokens == 1 else 's'}"
    if kv.exceeds <= kv.context_length:
        outweigh = f"it outweighs the blocks' weights from {fmt.integer(kv.exceeds)} tokens on."
    else:
        outweigh = (
            f"it would outweigh the blocks' weights only from {fmt.integer(kv.exceeds)} tokens, past "
            "GPT-2's context."
        )
    return Step(
        text=text,
        figure=Figure(
            "next_kv",
            v,
            "KV cache bytes against the tokens cached, GPT-2's four sizes, 2 bytes a number",
            f"Marked: your sentence's {tokens} on {name}'s bold line, {fmt.integer(kv.bytes)} bytes. "
            "The dashed level is the weights of its blocks.",
            covered=f"{name}'s line and your sentence's marker are not drawn yet; the other sizes' are.",
        ),
        question=Question(
            prompt=f"How many bytes does {name}'s KV cache hold per token?",
            options=(),
            answer=kv.per_token,
            answer_text=f"{fmt.integer(kv.per_token)} bytes = {product}",
            explanation=(
                f"{two} (a key and a value) × {layers} layers × {fmt.integer(width)} numbers × {nbytes} "
                f"bytes = {fmt.integer(kv.per_token)} bytes per token, growing linearly with the tokens, "
                f"not as their square. Your sentence's {tokens} {'needs' if kv.tokens == 1 else 'need'} "
                f"{fmt.integer(kv.bytes)} bytes and GPT-2's "
                f"full context of {fmt.integer(blk.context_length)} tokens {fmt.integer(kv.full)}; {outweigh}"
            ),
            tolerance=RELATIVE,
            relative=True,
            unit=("byte", "bytes"),
            hint=(
                "Per token, every layer keeps a key and a value, each d_model numbers of 2 bytes. "
                "Multiply the four factors."
            ),
            secrets=(fmt.integer(kv.per_token),),
        ),
        link={"block": v.name, "kv_tokens": str(kv.tokens), "kv_bytes": str(nbytes)},
    )


def the_end(s: Sentence) -> Step:
    """The tour's close: what the reader has seen, and the block chapter 4 builds around it."""
    v = next_view(s)
    p = v.params
    text = (
        "That is chapter 3: attention without weights, trainable queries, keys and values, √d_k, the "
        "causal mask, dropout, heads, and what the n × n scores cost. Chapter 4 wraps the module in a GPT "
        "block with layer norms, shortcut connections and a feed-forward network, which holds "
        f"{fmt.percent(v.ff_share)} of a {short(v.name)} block's {fmt.integer(p.total)} parameters. "
        "Below: the six ideas of the chapter, each with the step that taught it, and your predictions."
    )
    return Step(
        text=text,
        figure=Figure(
            "next_block",
            v,
            f"Where one {short(v.name)} block's parameters sit",
            f"Outlined: attention's four matrices, {fmt.integer(p.attention)} parameters, against the "
            f"feed-forward's {fmt.integer(p.feed_forward)}.",
        ),
        link={"block": v.name},
    )


STEPS: tuple[StepDef, ...] = (
    StepDef("n_squared", "cost", "Every query scores every key", n_squared, asks=True),
    StepDef("frontier", "cost", "A frontier context window", frontier, asks=True),
    StepDef("shuffle", "next", "Shuffle the tokens", shuffle, asks=True),
    StepDef("kv_cache", "next", "What the cache costs per token", kv_cache, asks=True),
    StepDef("the_end", "next", "The six ideas, and what comes next", the_end),
)
