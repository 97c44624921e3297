"""Every cache in the app declares a bound in bytes at its function, and its largest entry fits it.

The bound is declared with :mod:`ui.cache`'s decorators: entries × the bytes of the largest entry,
and the arguments of the largest legal entries (``worst``). These tests import every module of the
app, fail on a cache made any other way, and re-measure each largest entry against its
declaration (pickled bytes for ``st.cache_data``, which stores a pickle; memory held, by
``tracemalloc`` and Arrow's allocator for a table's buffers, for ``st.cache_resource``, which stores
the object).
"""

from __future__ import annotations

import ast
import gc
import importlib
import pickle
import tracemalloc
from pathlib import Path

import pyarrow as pa  # type: ignore[import-untyped]
import pytest
from streamlit.runtime.caching.cache_utils import CachedFunc

from ui import cache

ROOT = Path(__file__).resolve().parents[2]
RAW = ("cache_data", "cache_resource")


def app_modules() -> list[Path]:
    """Every module of the app that a page may import: shared helpers and topic modules."""
    return sorted([*(ROOT / "ui").glob("*.py"), *(ROOT / "topics").glob("*/*.py")])


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _import_all() -> None:
    for path in app_modules():
        if path.name != "page.py":  # page scripts run under Streamlit, they are not imported
            importlib.import_module(_module_name(path))


def test_no_module_calls_streamlits_cache_itself():
    """Only ui.cache wraps st.cache_data and st.cache_resource; clearing a cache is allowed."""
    for path in [ROOT / "streamlit_app.py", *app_modules()]:
        if path == ROOT / "ui" / "cache.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        clears = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "clear"}
        raw = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in RAW]
        found = [n for n in raw if id(n) not in clears]
        assert not found, f"{path.relative_to(ROOT)} line {found[0].lineno}: use ui.cache.data or .resource"


def test_page_scripts_and_the_entry_point_define_no_cache():
    """A cached function defined in a page script keeps each run's script namespace alive."""
    for path in [ROOT / "streamlit_app.py", *(ROOT / "topics").glob("*/page.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        decorated = [
            f.name
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef) and any("cache" in ast.unparse(d) for d in f.decorator_list)
        ]
        assert not decorated, f"{path.relative_to(ROOT)}: move {decorated} into a module of the topic"


def test_every_cached_function_is_registered_with_its_bound():
    _import_all()
    assert cache.REGISTRY, "no cache registered: the import walk found nothing"
    for name, c in cache.REGISTRY.items():
        module = importlib.import_module(name.rsplit(".", 1)[0])
        assert isinstance(c.func, CachedFunc), name
        info = c.func._info  # Streamlit's CachedDataFuncInfo or CachedResourceFuncInfo
        assert getattr(info, "max_entries", None) == c.bound.entries, name
        assert info.cache_type.name.lower() == c.bound.kind, name
        if c.bound.kind == "data":
            assert getattr(info, "max_size_bytes", None) == c.bound.bytes, name
        assert getattr(module, name.rsplit(".", 1)[1]) is c.func, f"{name}: the module holds another object"
    cached_anywhere = {
        f"{m}.{k}"
        for m in {n.rsplit(".", 1)[0] for n in cache.REGISTRY}
        for k, v in vars(importlib.import_module(m)).items()
        if isinstance(v, CachedFunc)
    }
    assert cached_anywhere <= set(cache.REGISTRY)


def test_all_caches_full_of_their_largest_entries_fit_the_budget():
    _import_all()
    assert 0 < cache.total_bytes() <= cache.BUDGET


def _names(kind: str) -> list[str]:
    _import_all()
    return sorted(n for n, c in cache.REGISTRY.items() if c.bound.kind == kind)


@pytest.mark.parametrize("name", _names("data"))
def test_the_largest_data_entry_fits_its_declaration(name):
    c = cache.REGISTRY[name]
    sizes = [len(pickle.dumps(c.plain(*args))) for args in c.bound.worst()]
    assert sizes, f"{name}: worst() names no arguments"
    assert max(sizes) <= c.bound.entry_bytes, f"{name}: {max(sizes):,} bytes"


@pytest.mark.parametrize("name", _names("resource"))
def test_the_largest_resource_entry_fits_its_declaration(name):
    c = cache.REGISTRY[name]
    worst = list(c.bound.worst())
    assert worst, f"{name}: worst() names no arguments"
    for args in worst:
        c.plain(*args)  # once first, so caches it reads are warm and only the value is counted
        gc.collect()
        arrow_before = pa.total_allocated_bytes()
        tracemalloc.start()
        try:
            value = c.plain(*args)
            gc.collect()
            held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        held += pa.total_allocated_bytes() - arrow_before  # a table's buffers: Arrow's, not Python's
        assert value is not None
        assert held <= c.bound.entry_bytes, f"{name}{args[:6]}: {held:,} bytes"
