"""The import rules of the layout (README, "Layout"), read from the sources.

Imports run one way: page -> view -> core, and page -> figures. The graph is built from every
``import`` statement in the project, function-local ones included (an optional import that runs
only on some path is still an import), and followed transitively, so a view that imports a helper
that imports Streamlit breaks the rule as surely as one that imports Streamlit itself.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "topics", "ui")
DRAWING = ("streamlit", "plotly")


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the project by dotted name (page scripts too: they import like modules)."""
    found = {_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    found |= {p.stem: p for p in ROOT.glob("*.py")}
    return found


def _resolve(name: str) -> str | None:
    """``name`` as a project module, or None when it is a third-party one."""
    while name:
        if name in modules():
            return name
        name = name.rpartition(".")[0]
    return None


@cache
def direct(module: str) -> frozenset[str]:
    """What ``module`` imports: project modules by name, third-party ones by their top package."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for n in names:
            resolved = _resolve(n)
            out.add(resolved if resolved is not None else n.split(".")[0])
    out.discard(module)
    return frozenset(out)


def reach(module: str) -> set[str]:
    """Everything ``module`` imports, directly or through other project modules."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for m in direct(todo.pop()):
            if m not in seen:
                seen.add(m)
                if m in modules():
                    todo.append(m)
    return seen


def topic_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "topics" and len(parts) > 1 else None


TOUR = "read_along"  # the guided tour (topics/read_along), the one topic that reads the others
TOPICS = sorted(p.name for p in (ROOT / "topics").iterdir() if (p / "page.py").exists())


def test_every_topic_is_a_folder_with_a_page_and_a_view():
    assert len(TOPICS) >= 10
    for t in TOPICS:
        assert (ROOT / "topics" / t / "view.py").exists(), f"topics/{t} has no view.py"


@pytest.mark.parametrize("module", sorted(m for m in modules() if topic_of(m)))
def test_no_topic_imports_another(module):
    """A topic's modules import core, ui, their own folder, and at most the table of contents.

    The one exception is the guided tour: Read along draws each step from the topic's own view,
    the function that topic's page runs, and may draw it with that topic's figures. Its steps
    (pure) import views only; its drawings import figures too; nothing of it imports a page.
    The Class page's view reads the tour's questions, their options, answers and hints, from the
    tour's step definitions (pure data), and nothing else of it.
    """
    own = topic_of(module)
    others = {m for m in direct(module) if topic_of(m) not in (None, own)}
    if module == "topics.classroom.view":
        others -= {f"topics.{TOUR}.step", f"topics.{TOUR}.steps"}
    if own == TOUR:
        allowed = ("view",) if ".steps" in module else ("view", "figures")
        # ``from topics.recap import view`` names the package too: its PAGE is public anyway
        others = {m for m in others if m.count(".") == 2 and m.rsplit(".", 1)[-1] not in allowed}
    assert not others, f"{module} imports {sorted(others)}"


def test_the_tour_reads_views_and_figures_only():
    """The exception above is real: the tour's steps do read other topics' views."""
    steps = {m for m in modules() if m.startswith(f"topics.{TOUR}.steps.")}
    read = {m for s in steps for m in direct(s) if topic_of(m) not in (None, TOUR) and m.count(".") == 2}
    assert read and all(m.endswith(".view") for m in read), read


@pytest.mark.parametrize(
    "module",
    sorted(m for m in modules() if m.split(".")[0] == "core" or m.endswith(".view") or m.endswith(".script")),
)
def test_core_views_and_scripts_draw_nothing(module):
    """core, every view.py and every Reproduce script builder: no Streamlit, no Plotly, not even
    through a helper."""
    drawing = {m for m in reach(module) if m.split(".")[0] in DRAWING}
    assert not drawing, f"{module} reaches {sorted(drawing)}"


@pytest.mark.parametrize("module", sorted(m for m in modules() if m.split(".")[0] in ("core", "ui")))
def test_shared_code_knows_no_topic(module):
    """core and ui serve every page, so they name none; core is below ui."""
    bad = {m for m in direct(module) if m.split(".")[0] == "topics"}
    if module.startswith("core"):
        bad |= {m for m in direct(module) if m.split(".")[0] == "ui"}
    assert not bad, f"{module} imports {sorted(bad)}"


def test_the_graph_sees_through_helpers():
    """The rule is transitive: a page reaches Streamlit directly, a view's core reaches NumPy."""
    assert "streamlit" in reach("topics.recap.page")
    assert "numpy" in reach("core.attention")


def cycles(graph: dict[str, list[str]] | None = None) -> list[list[str]]:
    """Every import cycle between the project's modules: the strongly connected components of the
    import graph (Tarjan's algorithm) with more than one module, or a module importing itself.
    ``typing.TYPE_CHECKING`` imports count: a type that must be imported back is a cycle in the design
    even when Python never runs it. ``graph`` (module -> what it imports) defaults to the project's."""
    if graph is None:
        graph = {m: sorted(d for d in direct(m) if d in modules()) for m in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(m: str) -> None:  # recursive: the project's import chains are short
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for d in graph[m]:
            if d not in index:
                visit(d)
                low[m] = min(low[m], low[d])
            elif d in on_stack:
                low[m] = min(low[m], index[d])
        if low[m] == index[m]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == m:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


def test_no_import_cycle():
    """Imports run one way (page → view → core; prose reads the view's numbers, never the reverse),
    so no module imports, directly or through others, a module that imports it back."""
    assert cycles() == []


def test_the_cycle_finder_finds_a_cycle():
    """The finder above is not vacuous: cycles are reported, a chain is not."""
    assert cycles({"a": ["b"], "b": ["a", "c"], "c": []}) == [["a", "b"]]
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["b"], "b": ["c"], "c": []}) == []
