"""The shape a newcomer can draw: first-party modules import each other without a circle.

Every ``import`` counts, wherever it stands (inside a function, under ``TYPE_CHECKING``): a circle
hidden in a function is still a circle.  An import of a package counts as an import of its
``__init__``; ``from package import module`` counts as an import of that module.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sphinx_rpg", "rules")


def first_party_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The first-party modules ``module`` imports, anywhere in its file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                target = target if target in known else base
                if target in known and target != module:
                    yield target


@functools.cache  # parsing every module takes a second and a half: the tests share one graph
def import_graph() -> dict[str, frozenset[str]]:
    known = first_party_modules()
    return {module: frozenset(imported(module, path, known)) for module, path in known.items()}


def cycles(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_first_party_modules_import_each_other_without_a_circle() -> None:
    assert cycles(import_graph()) == []


def test_the_engine_never_imports_the_extension() -> None:
    graph = import_graph()
    assert {(m, t) for m, targets in graph.items() if m.startswith("rules") for t in targets
            if t.startswith("sphinx_rpg")} == set()


def test_an_import_inside_a_function_counts(tmp_path: Path) -> None:
    """The checker itself: a circle closed only by an import inside a function is reported."""
    late = tmp_path / "late.py"
    late.write_text("def later():\n    from sphinx_rpg import domain\n    from . import binding\n")
    known = {"sphinx_rpg.late": late, "sphinx_rpg.domain": late, "sphinx_rpg.binding": late}
    assert set(imported("sphinx_rpg.late", late, known)) == {"sphinx_rpg.domain", "sphinx_rpg.binding"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
