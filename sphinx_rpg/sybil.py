"""Run a rulebook's worked examples with Sybil, in reST and MyST pages.

Every ``>>>`` example of a page runs, in one namespace per page.  Inside a ``node:def`` the bound
rule object is already there: ``node`` is the :class:`rules.nodes.Node`, ``rule`` its implementation.
In a rulebook's ``conftest.py``::

    from sphinx_rpg.sybil import rulebook_sybil
    pytest_collect_file = rulebook_sybil(["rules.nemron:REGISTRY"]).pytest()

or ``rulebook_sybil(conf_py="docs/conf.py")`` to use the registries conf.py names.
"""

from __future__ import annotations

import doctest
import inspect
import re
import runpy
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sybil import Document, Region, Sybil
from sybil.parsers.myst import DocTestDirectiveParser as MystDocTestDirectiveParser
from sybil.parsers.myst import PythonCodeBlockParser as MystPythonCodeBlockParser
from sybil.parsers.rest import DocTestParser as RestDocTestParser
from sybil.parsers.rest.lexers import DirectiveLexer as RestDirectiveLexer

from sphinx_rpg.binding import bind

OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
Span = tuple[int, int, str]


_BOUND = "__sphinx_rpg_bound__"
#: a MyST node:def in a backtick, tilde or colon fence; the closing fence matches the opening one
_MYST_NODE_DEF = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{node:def\}[^\n]*\n"
                            r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
_MYST_UID = re.compile(r"^[ \t]*:?uid:[ \t]*(\S+)", re.M)


def _wrap(evaluator: Callable[[Any], Any], node: Any) -> Callable[[Any], Any]:
    """Bind ``node``/``rule`` inside a node:def; outside one, remove what an earlier example bound."""

    def evaluate(example: Any) -> Any:
        namespace = example.namespace
        if node is not None:
            namespace.update({"node": node, "rule": node.implementation, _BOUND: True})
        elif namespace.pop(_BOUND, False):
            namespace.pop("node", None)
            namespace.pop("rule", None)
        return evaluator(example)

    return evaluate


class RulebookParser:
    """Doctests anywhere in a page; those inside a ``node:def`` see their rule object."""

    def __init__(self, registries: Sequence[str] = (), optionflags: int = OPTIONFLAGS) -> None:
        self.registries = tuple(registries)
        self.rest_examples = RestDocTestParser(optionflags)
        self.myst_examples: list[Callable[[Document], Iterable[Region]]] = [
            MystPythonCodeBlockParser(doctest_optionflags=optionflags), MystDocTestDirectiveParser(optionflags)]
        self.rest_nodes = RestDirectiveLexer(directive=r"node:def")

    def node_spans(self, document: Document, markdown: bool) -> list[Span]:
        if markdown:
            spans = []
            for match in _MYST_NODE_DEF.finditer(document.text):
                uid = _MYST_UID.search(match.group("body"))
                if uid:
                    spans.append((match.start(), match.end(), uid.group(1)))
            return spans
        spans = []
        for lexed in self.rest_nodes(document):
            uid = (lexed.lexemes.get("options") or {}).get("uid", "").strip()
            if uid:
                spans.append((lexed.start, lexed.end, uid))
        return spans

    def examples(self, document: Document, markdown: bool) -> Iterable[Region]:
        if not markdown:
            return self.rest_examples(document)
        return (region for parser in self.myst_examples for region in parser(document))

    def __call__(self, document: Document) -> Iterator[Region]:
        markdown = Path(document.path).suffix.lower() in (".md", ".markdown")
        spans = self.node_spans(document, markdown)
        binding = bind(self.registries)
        for region in self.examples(document, markdown):
            if region.evaluator is not None:
                enclosing = [s for s in spans if s[0] <= region.start < s[1]]
                innermost = max(enclosing, key=lambda s: s[0]) if enclosing else None
                node = binding.lookup(innermost[2]) if innermost else None
                region.evaluator = _wrap(region.evaluator, node)
            yield region


def registries_from_conf(conf_py: str | Path) -> list[str]:
    """The ``rpg_registries`` a Sphinx conf.py names (conf.py runs as it does under Sphinx)."""
    namespace = runpy.run_path(str(conf_py))
    return list(namespace.get("rpg_registries", []))


def rulebook_sybil(registries: Sequence[str] = (), *, conf_py: str | Path | None = None,
                   path: str | Path | None = None, patterns: Sequence[str] = ("*.rst", "*.md"),
                   **sybil_options: Any) -> Sybil:
    """A Sybil for a rulebook; ``path`` defaults to the directory of the calling ``conftest.py``.

    (Sybil itself resolves a relative path against the module that constructs it, which would be
    this one, so the caller's directory is passed explicitly.)
    """
    if conf_py is not None:
        registries = [*registries, *registries_from_conf(conf_py)]
    if path is None:
        caller = inspect.stack()[1].filename
        path = Path(caller).resolve().parent
    return Sybil(parsers=[RulebookParser(registries)], patterns=list(patterns), path=str(Path(path).resolve()),
                 **sybil_options)
