"""Every cache in the app declares a bound in bytes, and its largest entry fits what it declares.

The bound is ``ui.caches``: entries × the bytes of the largest entry. These tests find every
``st.cache_data`` and ``st.cache_resource`` in the sources and in the imported ``ui`` modules,
fail on one that is undeclared or unbounded, and re-measure each largest entry at the worst legal
setting of the page that fills it (pickled bytes for ``st.cache_data``, which stores a pickle;
memory held, by ``tracemalloc``, for ``st.cache_resource``, which stores the object).
"""

from __future__ import annotations

import ast
import gc
import importlib
import pickle
import pkgutil
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from streamlit.runtime.caching.cache_utils import CachedFunc

import ui
from core import learning, tokens, weights
from core.sentence import weights_for
from ui import caches, learning_readouts, scaling_reference
from ui import dropout_study as dropout_study
from ui import learning_study as learning_study
from ui import multihead_view as mv
from ui import reproduce as reproduce_ui
from ui import scaling_study as scaling_study

ROOT = Path(__file__).resolve().parents[2]
CACHES = ("cache_data", "cache_resource")


def _cache_calls(tree: ast.AST) -> list[ast.Attribute]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in CACHES]


def declared_in_sources() -> dict[str, ast.FunctionDef]:
    """``module.function`` for every function a ``ui`` module decorates with a cache."""
    out = {}
    for path in sorted((ROOT / "ui").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        decorated = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                for deco in node.decorator_list:
                    if _cache_calls(deco):
                        out[f"ui.{path.stem}.{node.name}"] = node
                        decorated |= {id(a) for a in _cache_calls(deco)}
        stray = [a for a in _cache_calls(tree) if id(a) not in decorated and a.attr in CACHES]
        uses = [a for a in stray if not _is_clear_call(a, tree)]
        assert not uses, f"{path.name}: a cache outside a module-level decorator (line {uses[0].lineno})"
    return out


def _is_clear_call(attr: ast.Attribute, tree: ast.AST) -> bool:
    """``st.cache_data.clear()`` is not a cache."""
    return any(isinstance(n, ast.Attribute) and n.value is attr and n.attr == "clear" for n in ast.walk(tree))


def cached_functions() -> dict[str, CachedFunc]:
    """Every cached function the imported ``ui`` modules define."""
    out = {}
    for m in pkgutil.iter_modules(ui.__path__):
        module = importlib.import_module(f"ui.{m.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, CachedFunc) and obj.__wrapped__.__module__ == module.__name__:
                out[f"{module.__name__}.{name}"] = obj
    return out


def test_page_scripts_and_the_entry_point_define_no_cache():
    # A cached function defined in a page script keeps each run's script namespace alive.
    for path in [ROOT / "streamlit_app.py", *sorted((ROOT / "app_pages").glob("*.py"))]:
        found = _cache_calls(ast.parse(path.read_text(encoding="utf-8")))
        assert not found, f"{path.name} line {found[0].lineno}: move the cached function into ui/"


def test_every_cache_is_declared_and_bounded_in_bytes():
    in_sources, imported = declared_in_sources(), cached_functions()
    assert set(in_sources) == set(imported), "a cached function the scan and the import disagree on"
    assert set(imported) == set(caches.BOUNDS), "declare every cache in ui.caches, and only those"
    for name, func in imported.items():
        info, bound = func._info, caches.BOUNDS[name]
        assert info.max_entries is not None, f"{name} keeps any number of entries"
        assert info.max_entries == bound.entries, name
        assert info.cache_type.name.lower() == bound.kind, name
        if bound.kind == "data":  # a byte limit, where one is set, is the declared one
            assert info.max_size_bytes in (None, bound.bytes), name
            assert info.max_size_bytes is not None, (
                f"{name}: pass **caches.data(...) so Streamlit enforces the byte bound too"
            )


def test_all_caches_full_of_their_largest_entries_fit_the_budget():
    assert 0 < caches.total_bytes() <= caches.BUDGET
    assert all(b.entries >= 1 and b.entry_bytes > 0 for b in caches.BOUNDS.values())


def _w(width: int = 3) -> weights.WeightSet:
    return weights_for(weights.section_3_4(), width)


# The largest sentence a reader can set: 32 tokens of 16 dimensions (core.sentence).
X32 = np.round(np.random.default_rng(0).random((32, 16)), 2)
X8 = X32[: learning.MAX_SEARCH_TOKENS]  # the longest sentence the search runs on

# The largest entry each cache can hold, at the worst legal setting of its page. Entries are
# summaries, so most sizes depend on one control only (steps, keys, the widths and heads) and on
# the sentence's size.
WORST: dict[str, Callable[[], object]] = {
    "ui.scaling_study.study_at": lambda: scaling_study.study_at.__wrapped__(500, 64, 999, "exact", 65536),
    "ui.scaling_study.whole_study": lambda: scaling_study.whole_study.__wrapped__(500, 64, 999, "exact"),
    "ui.scaling_study.one_draw": lambda: scaling_study.one_draw.__wrapped__(64, 999, "exact", 65536, False),
    "ui.scaling_reference.references": lambda: scaling_reference.references.__wrapped__(),
    "ui.dropout_study.run": lambda: max(
        (
            dropout_study.run.__wrapped__(0.9, False, 2**31 - 1, draws, "numpy", x)
            for draws, x in ((100_000, tokens.inputs()), (2_000, X32))  # the draws a 32-token sentence gets
        ),
        key=lambda r: len(pickle.dumps(r)),
    ),
    "ui.learning_study.train": lambda: learning_study.train.__wrapped__(
        "previous", 0, "adam", 0.02, 5_000, _w(16).w_query, _w(16).w_key, X32
    ),
    "ui.reproduce._nudged": lambda: reproduce_ui._nudged.__wrapped__(
        "previous", 0, "adam", 0.02, 5_000, X32, _w(16).w_query, _w(16).w_key
    ),
    "ui.learning_readouts.limits": lambda: learning_readouts.limits.__wrapped__("previous", 0, 6, X8),
    # The most output cells a drawable setting has (1,024 wide × 16 heads) and the most W_q cells.
    "ui.multihead_view.run": lambda: max(
        (
            mv.run.__wrapped__(*s, 123, len(x), x)
            for s in (("wrapper", 64, 1024, 16), ("wrapper", 384, 384, 9))
            for x in (tokens.inputs(), X32)
        ),
        key=lambda r: len(pickle.dumps(r)),
    ),
    "ui.multihead_view._book_outputs": lambda: mv._book_outputs.__wrapped__(),
}
WORST_RESOURCE: dict[str, tuple] = {
    "ui.multihead_view.figures_for": tuple(
        (*s, 123, len(x), x, labels)
        for s in (("wrapper", 64, 1024, 16), ("wrapper", 384, 384, 9))
        for x, labels in ((tokens.inputs(), tokens.TOKENS), (X32, tuple(f"t{i}" for i in range(32))))
    ),
}


@pytest.mark.parametrize("name", sorted(WORST))
def test_the_largest_data_entry_fits_its_declaration(name):
    size = len(pickle.dumps(WORST[name]()))
    assert size <= caches.BOUNDS[name].entry_bytes, f"{name}: {size:,} bytes"


@pytest.mark.parametrize("name", sorted(WORST_RESOURCE))
def test_the_largest_resource_entry_fits_its_declaration(name):
    func = cached_functions()[name]
    for args in WORST_RESOURCE[name]:
        mv.run(*args[:-1])  # what the resource reads, cached first so only the resource is counted
        gc.collect()
        tracemalloc.start()
        try:
            value = func.__wrapped__(*args)
            gc.collect()
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert value is not None
        assert held <= caches.BOUNDS[name].entry_bytes, f"{name}{args}: {held:,} bytes"


def test_every_cache_has_a_measured_worst_entry():
    assert set(WORST) | set(WORST_RESOURCE) == set(caches.BOUNDS)
