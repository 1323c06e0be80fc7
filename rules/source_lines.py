"""Where a rule's implementation starts in its source file, found without re-reading the file per rule.

A registry notes each rule's first line (warnings point there).  ``inspect.getsourcelines`` answers
it, but by tokenizing the function's block, or by parsing the whole module for a class, once per rule:
about half the time it takes to import every game's registry, paid by every process that loads them
(each build, test worker and command).  A function's code object knows its first line already; a
class's line comes from one parse of its module, shared by all its classes.  The answer is
``inspect.getsourcelines``'s: the first decorator's line where there is one.
"""

from __future__ import annotations

import ast
import inspect
import sys
from functools import cache
from typing import Any


def first_line(implementation: Any) -> int | None:
    """The line ``inspect.getsourcelines(implementation)`` starts at, or ``None`` when it has no source."""
    target = inspect.unwrap(implementation) if callable(implementation) else implementation
    code = getattr(target, "__code__", None)
    if inspect.isfunction(target) and code is not None:
        return int(code.co_firstlineno)
    if inspect.isclass(target):
        module = sys.modules.get(target.__module__)
        path = getattr(module, "__file__", None)
        if path:
            line = _class_lines(path).get(target.__qualname__)
            if line is not None:
                return line
    try:
        return inspect.getsourcelines(implementation)[1]
    except (OSError, TypeError):
        return None


@cache
def _class_lines(path: str) -> dict[str, int]:
    """Each class of the module at ``path`` by qualified name: the line of its first decorator, or of
    ``class`` without one (nothing when the file cannot be read or parsed)."""
    try:
        with open(path, encoding="utf-8") as stream:
            tree = ast.parse(stream.read(), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    lines: dict[str, int] = {}

    def visit(statements: list[ast.stmt], prefix: str) -> None:  # statements only: no class in an expression
        for statement in statements:
            if isinstance(statement, ast.ClassDef):
                name = prefix + statement.name
                start = statement.decorator_list[0].lineno if statement.decorator_list else statement.lineno
                lines.setdefault(name, start)
                visit(statement.body, name + ".")
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(statement.body, f"{prefix}{statement.name}.<locals>.")
            else:
                for _, inner in ast.iter_fields(statement):  # in the fields' order, as inspect visits them
                    if isinstance(inner, list):
                        visit([part for block in inner for part in _statements(block)], prefix)

    visit(tree.body, "")
    return lines


def _statements(node: ast.AST) -> list[ast.stmt]:
    """The statements ``node`` holds: itself for a statement, its body for an ``except`` or ``case``."""
    if isinstance(node, ast.stmt):
        return [node]
    body = getattr(node, "body", None)
    return body if isinstance(body, list) else []
