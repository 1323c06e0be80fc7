"""The Sphinx application is typed as ``Sphinx`` wherever the extension takes it, never ``Any``.

``mypy --strict`` checks nothing through an ``Any``: a call to a method the application or its
builder does not have passes silently until a build fails.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sphinx_rpg"


def untyped_apps(source: str) -> Iterator[tuple[int, str, str]]:
    """(line, function, annotation) of each parameter named ``app`` not annotated ``Sphinx``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                annotation = ast.unparse(argument.annotation) if argument.annotation else ""
                if argument.arg == "app" and annotation.strip("'\"") != "Sphinx":
                    yield node.lineno, getattr(node, "name", "lambda"), annotation or "(none)"


def test_every_sphinx_application_parameter_is_typed_sphinx() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)}:{line} {function}(app: {annotation})"
             for path in sorted(PACKAGE.rglob("*.py"))
             for line, function, annotation in untyped_apps(path.read_text(encoding="utf-8"))]
    assert found == []


def test_an_app_typed_any_or_left_bare_is_found() -> None:
    """The check itself."""
    source = "def a(app: Any) -> None: ...\ndef b(app): ...\ndef c(app: Sphinx) -> None: ...\n"
    assert [(line, name) for line, name, _ in untyped_apps(source)] == [(1, "a"), (2, "b")]
