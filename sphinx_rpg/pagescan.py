"""One walk of each page before its post-transforms: what the page holds, so features it lacks cost nothing.

Every feature of this extension that fills a placeholder when a page is written (listings,
changelogs, graphs, sheets, the calculator) used to walk every page of the book to find its nodes,
although most pages hold none.  ``PageScan`` walks the page once and remembers which node classes it
met; each of those transforms then returns at once on a page without its nodes.  The scan is kept
here, in a table keyed weakly by the document (nothing is written on the document, which belongs
to docutils), so parallel writers and LaTeX's assembled documents each scan what they resolve and a
document's entry goes with it.  A document that was not scanned (a transform applied by hand)
reports every feature present: the walks then run as before.

Other extensions' transforms (sphinx-design's, when a project lists it for ``node:cards``) run as
their extension registered them: they are not ours to gate.
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform


class PageContents(NamedTuple):
    """What one scan found: the node classes and the node:def containers.

    The containers are held weakly: the table of scans holds its documents weakly, and an entry
    holding the document's own nodes would keep every scanned document alive (a node reaches its
    document through its parents)."""

    kinds: frozenset[type[nodes.Node]]
    rpg_node_refs: tuple[weakref.ref[nodes.Element], ...]

    @property
    def rpg_nodes(self) -> tuple[nodes.Element, ...]:
        return tuple(node for node in (ref() for ref in self.rpg_node_refs) if node is not None)


_SCANS: weakref.WeakKeyDictionary[nodes.document, PageContents] = weakref.WeakKeyDictionary()


def scan(document: nodes.document) -> PageContents:
    kinds: set[type[nodes.Node]] = set()
    found: list[nodes.Element] = []
    for node in document.findall(nodes.Element):
        kinds.add(type(node))
        if "rpg_uid" in node.attributes and "rpg-node" in node["classes"]:
            found.append(node)
    return PageContents(frozenset(kinds), tuple(weakref.ref(node) for node in found))


def remember(document: nodes.document, found: PageContents) -> None:
    _SCANS[document] = found


def contents(document: nodes.document) -> PageContents | None:
    return _SCANS.get(document)


def holds(document: nodes.document, *kinds: type[nodes.Node]) -> bool:
    """Whether the page may hold a node of one of ``kinds`` (True when it was not scanned)."""
    found = contents(document)
    if found is None:
        return True
    return any(issubclass(kind, wanted) for kind in found.kinds for wanted in kinds)


class PageScan(SphinxPostTransform):
    """First of all post-transforms: the one walk the others consult."""

    default_priority = 1

    def run(self, **kwargs: Any) -> None:
        remember(self.document, scan(self.document))


def setup(app: Sphinx) -> None:
    app.add_post_transform(PageScan)
