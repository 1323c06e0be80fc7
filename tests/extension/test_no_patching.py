"""The extension writes nothing into other packages' objects: it uses their public API or does without.

A patch that reaches into Sphinx's (or another extension's) internals falls back silently when an
upgrade changes them, so nothing fails and the book quietly gets slower or wrong.  This test reads
every module of ``sphinx_rpg/`` (as syntax, not by running it) and fails on any of these writes:

1. **A private attribute of another object**: storing or deleting ``x._name`` (one leading
   underscore, not a dunder) where ``x`` is anything but ``self`` or ``cls``; ``setattr`` /
   ``delattr`` with such a name, or with a name the code computes, on anything but ``self``/``cls``.
2. **Any attribute of another package's object**: storing or deleting an attribute through an
   expression that passes a name which, in this code base, always denotes another package's object:
   the Sphinx application, environment, builder, registry, event manager, template context
   bridge, search indexer, docutils document or doctree (``FOREIGN``), or a module imported from
   another package (``sphinx.foo.bar = ...``).  ``self.env.x = ...`` counts: ``env`` is Sphinx's.
3. **Item writes or in-place changes of another package's containers**: ``x[...] = ...``, ``del
   x[...]`` or a mutating method (``append``, ``update``, ...) on such an expression, on a private
   attribute of another object (``x._y[...] = ...``), or on a local name bound from either
   (``listeners = app.events.listeners[...]; listeners[:] = ...``).

What stays allowed, because the owner documents it as the way to use it:

* configuration values, ``config.name = ...`` (also ``app.config.name``): Sphinx lets
  ``config-inited`` handlers change them;
* items of the environment's ``temp_data`` and ``ref_context``, which Sphinx keeps for extensions'
  per-document data (``DOCUMENTED_STORES``); data kept between builds lives in the node domain's
  ``data``, which is ours;
* the interpreter's ``sys`` and ``os`` state in the modules of the ``rpg`` command
  (``COMMAND_MODULES``), which runs in a process of its own;
* attributes and items of objects this package creates (``self.x``, a ``node["x"]`` attribute of a
  docutils node, a copied settings object, a ``zipfile.ZipInfo`` it builds), and the template
  context dict that ``html-page-context`` hands to handlers to change (``context[...] = ...``).

Per-object state the extension needs (a build's catalogue, a page's scan) lives in tables of its
own keyed weakly by the foreign object.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "sphinx_rpg"
FIRST_PARTY = {"sphinx_rpg", "rules"}
#: Names that in this code base always hold another package's object.
FOREIGN = {"app", "env", "builder", "registry", "events", "document", "doctree", "indexer", "templates",
           "domains", "project", "tags", "state", "inliner", "reporter", "sphinx", "docutils", "sphinx_design"}
MUTATORS = {"append", "extend", "insert", "update", "setdefault", "pop", "popitem", "remove", "clear", "add",
            "discard", "sort", "reverse", "__setitem__", "__delitem__"}
#: Modules that run only in the ``rpg`` command's own process, which they own: there the interpreter's
#: own state (``sys.path``, ``os.environ``) is theirs to set.  Sphinx's objects stay off limits.
COMMAND_MODULES = {"cli.py", "cli_base.py", "serve.py", "matchup_cli.py", "new.py"}
PROCESS_STATE = {"sys", "os"}
#: Stores another package documents as the place for an extension's data.
DOCUMENTED_STORES = {"temp_data", "ref_context"}
#: Modules allowed a write, each with the reason it must.
EXEMPT = {
    "engine.py": "rewrites sys.modules so a project's own 'rules' package cannot shadow the engine",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _chain(expression: ast.expr) -> list[str]:
    """``self.app.env.x`` -> ["self", "app", "env", "x"]; subscripts pass through, a call's result is new
    (empty chain): what a function returns is not known here to be another package's."""
    names: list[str] = []
    while True:
        if isinstance(expression, ast.Attribute):
            names.append(expression.attr)
            expression = expression.value
        elif isinstance(expression, ast.Subscript):
            expression = expression.value
        elif isinstance(expression, ast.Name):
            names.append(expression.id)
            return names[::-1]
        else:
            return names[::-1]


class _Checker(ast.NodeVisitor):
    def __init__(self, imported: set[str]) -> None:
        self.imported = imported
        self.tainted: list[set[str]] = [set()]  # per function: local names bound from foreign containers
        self.found: list[tuple[int, str]] = []

    # -- what an expression is
    def _foreign(self, expression: ast.expr) -> bool:
        """Passes through another package's object (its configuration values excepted)."""
        chain = _chain(expression)
        if not chain:
            return False
        if chain[0] in self.imported or chain[0] in self.tainted[-1]:
            return True
        if chain[-1] == "config" or (chain[:-1] and chain[-2] == "config") or chain[-1] in DOCUMENTED_STORES:
            return False
        return any(name in FOREIGN for name in chain) or any(
            _private(name) for name in chain[1:]) and chain[0] not in ("self", "cls")

    def _private_of_other(self, target: ast.Attribute) -> bool:
        base = target.value
        return _private(target.attr) and not (isinstance(base, ast.Name) and base.id in ("self", "cls"))

    def _reads_foreign_container(self, value: ast.expr) -> bool:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "getattr":
            args = value.args
            if len(args) >= 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
                return _private(args[1].value) or self._foreign(args[0])
        return isinstance(value, (ast.Attribute, ast.Subscript)) and self._foreign(value)

    # -- writes
    def _target(self, target: ast.expr, line: int) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._target(element, line)
        elif isinstance(target, ast.Starred):
            self._target(target.value, line)
        elif isinstance(target, ast.Attribute):
            config_value = _chain(target.value)[-1:] == ["config"] and not _private(target.attr)
            if self._private_of_other(target) or (self._foreign(target.value) and not config_value):
                self.found.append((line, ast.unparse(target)))
        elif isinstance(target, ast.Subscript):
            base = target.value
            if (isinstance(base, ast.Attribute) and self._private_of_other(base)) or self._foreign(base):
                self.found.append((line, ast.unparse(target)))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node.lineno)
            if isinstance(target, ast.Name):
                (self.tainted[-1].add if self._reads_foreign_container(node.value)
                 else self.tainted[-1].discard)(target.id)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target, node.lineno)
        if isinstance(node.target, ast.Name) and node.value is not None and self._reads_foreign_container(node.value):
            self.tainted[-1].add(node.target.id)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, node.lineno)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target, node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
            obj = node.args[0]
            own = isinstance(obj, ast.Name) and obj.id in ("self", "cls")
            name = node.args[1] if len(node.args) > 1 else None
            literal = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
            if not own and (literal is None or _private(literal) or self._foreign(obj)):
                self.found.append((node.lineno, ast.unparse(node)))
        elif isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            base = func.value
            if (isinstance(base, ast.Attribute) and self._private_of_other(base)) or self._foreign(base):
                self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.tainted.append(set())
        self.generic_visit(node)
        self.tainted.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function


def _imported_packages(tree: ast.Module) -> set[str]:
    """Local names bound to modules (or their members) of other packages."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] not in FIRST_PARTY:
                    names.add((alias.asname or alias.name).partition(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.partition(".")[0] not in FIRST_PARTY:
                names.update(alias.asname or alias.name for alias in node.names)
    return names


def violations(source: str, command: bool = False) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    imported = _imported_packages(tree)
    checker = _Checker(imported - PROCESS_STATE if command else imported)
    checker.visit(tree)
    return checker.found


def _modules() -> Iterator[Path]:
    yield from sorted(PACKAGE.rglob("*.py"))


def test_no_module_writes_into_another_packages_objects() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
             for path in _modules() if path.name not in EXEMPT or path.parent != PACKAGE
             for line, text in violations(path.read_text(encoding="utf-8"),
                                          command=path.name in COMMAND_MODULES and path.parent == PACKAGE)]
    assert not found, "writes into another package's objects:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "def f(app):\n    app.registry.x = 1\n",
    "def f(env):\n    env._x = 1\n",
    "import sphinx.foo\nsphinx.foo.bar = 1\n",
    "from sphinx.util import logging\nlogging.getLogger = None\n",
    "def f(app):\n    app.builder.cache = {}\n",
    "def f(self):\n    self.env.x = 1\n",
    "def f(thing):\n    thing._private = 1\n",
    "def f(thing):\n    thing._private += 1\n",
    "def f(thing):\n    del thing._private\n",
    "def f(document):\n    setattr(document, 'scan', 1)\n",
    "def f(thing, name):\n    setattr(thing, name, 1)\n",
    "def f(thing):\n    setattr(thing, '_x', 1)\n",
    "def f(app):\n    listeners = app.events.listeners['doctree-resolved']\n    listeners[:] = []\n",
    "def f(app):\n    transforms = app.registry.post_transforms\n    transforms.append(1)\n",
    "def f(indexer):\n    entries = getattr(indexer, '_index_entries', None)\n    entries['page'] = []\n",
    "def f(thing):\n    thing._table['k'] = 1\n",
    "def f(app):\n    app.config._raw_config = {}\n",
], ids=lambda source: source.splitlines()[-1].strip())
def test_a_write_into_another_packages_object_is_caught(source: str) -> None:
    assert violations(source), source


@pytest.mark.parametrize("source", [
    "class A:\n    def f(self):\n        self._cache = {}\n        self.app = 1\n",
    "def f(config):\n    config.html_static_path = []\n",
    "def f(app):\n    app.config.html_static_path = []\n",
    "def f(node):\n    node['classes'] = ['x']\n",
    "def f(context):\n    context['toctree'] = None\n",
    "import copy\ndef f(settings):\n    quiet = copy.copy(settings)\n    quiet.report_level = 5\n",
    "import zipfile\ndef f():\n    info = zipfile.ZipInfo('x')\n    info.compress_type = 8\n",
    "def f(app):\n    found = {}\n    found['k'] = app.builder.name\n",
], ids=lambda source: source.splitlines()[-1].strip())
def test_writes_to_our_own_objects_and_configuration_values_pass(source: str) -> None:
    assert not violations(source), source


def test_only_the_command_may_set_the_interpreters_own_state() -> None:
    source = "import sys\ndef f(here):\n    sys.path.insert(0, here)\n"
    assert violations(source) and not violations(source, command=True)
    assert violations("def f(app):\n    app.registry.x = 1\n", command=True)


def private_reads(source: str) -> list[tuple[int, str]]:
    """Reads of a private attribute (``x._name``) through Sphinx's or docutils' objects (``FOREIGN``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if any(name in FOREIGN for name in _chain(node.value)):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_reads_a_private_attribute_of_sphinx() -> None:
    """A private attribute may vanish in any release (``env._builder_cls`` exists only since Sphinx 8.1):
    what a page is written for is asked through the post-transform API (``sphinx_rpg.output_format``)."""
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
             for path in _modules() for line, text in private_reads(path.read_text(encoding="utf-8"))]
    assert not found, "reads of Sphinx's private attributes:\n" + "\n".join(found)
    assert private_reads("def f(self):\n    return self.env._builder_cls.format\n")
