"""No library patched at run time (issue 36), read from the app's sources.

The app (every module of ``core``, ``topics``, ``ui``, the chart element's package and the two
root scripts) must use its libraries through their documented API only:

- no assignment to an attribute of anything imported from a third-party package (``pio.to_json =
  ...``, ``go.Figure.to_dict = ...``), nor ``setattr`` / ``delattr`` on one;
- no class derived from a Plotly class (the old ``_Checked(go.Figure)`` skipped its constructor);
- no import of a library's private module (a dotted part starting with ``_``, as ``_plotly_utils``),
  and from Streamlit only its documented modules (``STREAMLIT_PUBLIC``), ``DeltaGenerator`` and
  ``ColumnConfig`` as types.

The test harnesses (``tests``, ``bench``) may reach into Streamlit to drive it; the app may not.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP_DIRS = ("core", "topics", "ui", "chart_component")
APP_FILES = ("streamlit_app.py", "allocator.py")
PROJECT = {"core", "topics", "ui", "allocator", "bench", "tests", "aww_chart"}
# Streamlit's documented modules, and two whose classes the app names as types only.
STREAMLIT_PUBLIC = {
    "streamlit",
    "streamlit.errors",
    "streamlit.delta_generator",
    "streamlit.elements.lib.column_types",
}
# Known exceptions, each with its reason. ui/budget.py writes a waiting message from inside a
# cached function without Streamlit replaying it on a cache hit: no public API says "do not record".
INTERNAL_ALLOWED = {("ui/budget.py", "streamlit.runtime.scriptrunner_utils.script_run_context")}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def sources() -> list[Path]:
    files = [p for d in APP_DIRS for p in (ROOT / d).rglob("*.py")]
    return sorted(files + [ROOT / f for f in APP_FILES])


def _third_party(module: str) -> bool:
    return module.split(".")[0] not in PROJECT and module != "__future__"


def _imports(tree: ast.AST) -> list[tuple[str, str]]:
    """``(bound name, module it comes from)`` for every import in ``tree``, relative ones skipped."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(((a.asname or a.name).split(".")[0], a.name))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for a in node.names:
                out.append((a.asname or a.name, f"{node.module}.{a.name}"))
    return out


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _submodule(module: str, name: str) -> str | None:
    """``module.name`` when ``from module import name`` imports a module, else None."""
    try:
        return f"{module}.{name}" if importlib.util.find_spec(f"{module}.{name}") else None
    except (ImportError, ValueError):
        return None


def problems(source: str, rel: str) -> list[str]:
    """What breaks the rules in the module ``rel`` whose text is ``source``."""
    tree = ast.parse(source)
    imported = _imports(tree)
    foreign = {name for name, module in imported if _third_party(module)}
    plotly = {name for name, module in imported if module.split(".")[0] in ("plotly", "_plotly_utils")}
    out = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        line = getattr(node, "lineno", 0)
        for t in targets:
            if isinstance(t, ast.Attribute) and _root(t) in foreign:
                out.append(f"{rel}:{line}: assigns {ast.unparse(t)}, an attribute of a library")
        func = node.func if isinstance(node, ast.Call) else None
        args = node.args if isinstance(node, ast.Call) else []
        name = func.id if isinstance(func, ast.Name) else ""
        if name in ("setattr", "delattr") and args and _root(args[0]) in foreign:
            out.append(f"{rel}:{line}: {name} on a library's {ast.unparse(args[0])}")
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if _root(base) in plotly:
                    out.append(
                        f"{rel}:{node.lineno}: class {node.name} derives from Plotly's {ast.unparse(base)}"
                    )
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        modules = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            subs = [_submodule(node.module, a.name) for a in node.names]
            modules = [node.module, *(m for m in subs if m)]
        for module in modules:
            if not _third_party(module):
                continue
            if any(part.startswith("_") for part in module.split(".")):
                out.append(f"{rel}:{node.lineno}: imports the private module {module}")
            if module.split(".")[0] == "streamlit" and module not in STREAMLIT_PUBLIC:
                if module.startswith("streamlit.components.v2") and isinstance(node, ast.Import):
                    continue
                if (rel, module) not in INTERNAL_ALLOWED:
                    out.append(f"{rel}:{node.lineno}: imports Streamlit's internal {module}")
    return out


def test_the_app_patches_no_library_and_imports_no_private_module():
    found = [p for path in sources() for p in problems(path.read_text(encoding="utf-8"), _rel(path))]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "import plotly.io as pio\npio.to_json = len\n",
        "from plotly import io\nio.to_json = len\n",
        "import plotly.graph_objects as go\ngo.Figure.to_dict = len\n",
        "import streamlit as st\nsetattr(st, 'plotly_chart', len)\n",
        "import plotly.graph_objects as go\nclass Checked(go.Figure):\n    pass\n",
        "from plotly.graph_objects import Figure\nclass Checked(Figure):\n    pass\n",
        "from _plotly_utils.utils import to_typed_array_spec\n",
        "from streamlit import dataframe_util\n",
        "from streamlit.runtime.state import SessionState\n",
    ],
)
def test_each_kind_of_patch_is_found(source):
    """The check above, on a module holding one patch of each kind: each is reported, and the
    module's allowed imports alone are not."""
    assert problems(source, "ui/probe.py"), source
    allowed = (
        "import streamlit as st\nfrom streamlit.delta_generator import DeltaGenerator\n"
        "import plotly.io as pio\n"
    )
    assert problems(allowed + "x = pio.to_json({}, validate=False)\n", "ui/probe.py") == []
