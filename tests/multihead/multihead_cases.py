"""The Multi-head page's Reproduce cases: settings a reader can reach, each script beside the page's view.

Each :class:`tests.reproduce.case.Case` holds the script ``topics.multihead.script.for_page`` writes
for the settings and what the view (``topics.multihead.view.build``) holds for the same settings,
keyed by the label the script prints. Nothing here computes a number: the expected values are the
view's fields. W_q and the output are drawn thinned past 96 cells a side, so the view holds only
the kept cells; the others are NaN here, "not on screen", and are not compared.
"""

from __future__ import annotations

import random

import numpy as np

from core import multihead as mh
from tests.reproduce.case import Case, reader_sentence
from topics.multihead import script, view
from topics.multihead.thinning import Thinned

SEED = 17  # the random settings are the same on every run
RANDOM = 4  # random legal settings beside the named ones
QUICK_PARAMS = view.MAX_DRAWN_PARAMS // 40  # random settings stay below this: the batch stays quick


def on_screen(t: Thinned) -> np.ndarray:
    """The whole matrix's shape, the cells the figure draws in place, NaN where it draws none."""
    full = np.full(t.shape, np.nan)
    full[np.ix_(t.rows, t.cols)] = t.cells
    return full


def case(name: str, s: view.Settings) -> Case:
    """The script for ``s`` and what the page's view shows for ``s``."""
    v = view.build(s)
    r = v.run
    assert r is not None and r.error is None and r.output is not None and r.w_query is not None, name
    settings = {
        "name": name,
        "kind": s.kind,
        "heads": s.heads,
        "d_in": s.d_in,
        "d_out": s.d_out,
        "seed": s.seed,
    }
    shapes = {
        view.OUTPUT_WRAPPER: v.output_wrapper,
        view.OUTPUT_SPLIT: v.output_split,
    }
    readouts = {  # each readout the page shows, as the script prints it (issue 24, item 11)
        view.HEAD_WIDTH[s.kind]: v.head_width,
        view.DIVISOR: v.divisor,
        view.PROJECTION_MATMULS: v.projection_matmuls,
        **{k: view.NONE if d is None else f"torch.Size({list(d)})" for k, d in shapes.items()},
        view.PARAMETERS: v.params,
    }
    return Case(
        "multi-head",
        settings,
        script.for_page(s),
        {
            "Output, first batch item": on_screen(r.output),
            "W_q": on_screen(r.w_query),
            "Attention weights, first batch item, one matrix a head": r.weights,
            **{ro.label: readouts[ro.label] for ro in v.readouts},
        },
    )


def named() -> dict[str, view.Settings]:
    """The page's default, its presets, and a reader's sentence at its own width and with stand-ins."""
    labels, x, _ = reader_sentence()  # 9 tokens, 16 wide
    return {
        "default (the book's toy)": view.Settings(),
        "GPT-2 small preset": view.Settings(
            preset="GPT-2 small", kind="split", d_in=768, d_out=768, heads=12
        ),
        "Exercise 3.2 preset": view.Settings(preset="Exercise 3.2", kind="wrapper", d_out=1),
        "a reader's sentence, 16 wide": view.Settings(labels, x, "Custom", "wrapper", 3, 16, 4, 5),
        "a reader's sentence, stand-ins": view.Settings(labels, x, "Custom", "split", 4, 5, 8, 77),
    }


def drawable(s: view.Settings) -> bool:
    """Whether the page draws tensors for ``s`` (else it says why, and there is no script)."""
    cfg = s.config
    return (s.kind == "wrapper" or cfg.divisible) and mh.counts(
        s.kind, cfg
    ).total_params <= view.MAX_DRAWN_PARAMS


def draw(rng: random.Random) -> view.Settings:
    """Any setting the controls allow: the book's sentence or a reader's, every control from its range."""
    labels, x, _ = (
        reader_sentence() if rng.random() < 0.5 else (view.Settings().labels, view.Settings().x, None)
    )
    return view.Settings(
        labels,
        x,
        "Custom",
        rng.choice(mh.KINDS),
        rng.randint(1, view.MAX_HEADS),
        rng.choice(view.WIDTHS),
        rng.choice(view.WIDTHS),
        rng.randint(0, view.MAX_SEED),
    )


def randoms(n: int = RANDOM, seed: int = SEED) -> dict[str, view.Settings]:
    """``n`` random drawable settings, kept below ``QUICK_PARAMS`` so the torch batch stays quick."""
    rng, out = random.Random(seed), dict[str, view.Settings]()
    while len(out) < n:
        s = draw(rng)
        if drawable(s) and mh.counts(s.kind, s.config).total_params <= QUICK_PARAMS:
            out[f"random {len(out) + 1}"] = s
    return out


def every() -> dict[str, view.Settings]:
    return named() | randoms()
