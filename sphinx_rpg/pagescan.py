"""One walk of each page before its post-transforms: what the page holds, so features it lacks cost nothing.

Every feature that fills a placeholder when a page is written (listings, changelogs, graphs, sheets,
the calculator) and each of sphinx-design's post-transforms (tab sets, dropdowns, asides, badges,
links opening a new tab; loaded for ``node:cards``) used to walk every page of the book to find its
nodes, although most pages hold none: about a dozen whole-tree walks per page.  ``PageScan`` walks
the page once and remembers which node classes it met and whether anything of sphinx-design is there;
each of those transforms then returns at once on a page without its nodes.  The scan is kept on the
document object itself (a Python attribute, never a node attribute: it is not pickled or written),
so parallel writers and LaTeX's assembled documents each scan what they resolve.  A document that was
not scanned (a transform applied by hand) reports every feature present: the walks then run as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

_ATTRIBUTE = "_rpg_page_contents"


class PageContents(NamedTuple):
    """What one scan found: the node classes, sphinx-design's marks, the node:def containers."""

    kinds: frozenset[type[nodes.Node]]
    design: bool
    rpg_nodes: tuple[nodes.Element, ...]


def _is_design(node: nodes.Element) -> bool:
    """Marks sphinx-design puts on what its directives and roles make: ``design_component``,
    ``sd_*`` attributes (``sd_new_tab``, ``sd_tooltip``) and ``sd-*`` classes (``sd-btn``)."""
    attributes = node.attributes
    if len(attributes) > len(nodes.Element.basic_attributes):  # most nodes have only the basic ones
        for key in attributes:
            if key.startswith("sd_") or key == "design_component":
                return True
    return any(name.startswith("sd-") for name in attributes["classes"])


def scan(document: nodes.document) -> PageContents:
    kinds: set[type[nodes.Node]] = set()
    design = False
    found: list[nodes.Element] = []
    for node in document.findall(nodes.Element):
        kinds.add(type(node))
        if not design and _is_design(node):
            design = True
        if "rpg_uid" in node.attributes and "rpg-node" in node["classes"]:
            found.append(node)
    return PageContents(frozenset(kinds), design, tuple(found))


def remember(document: nodes.document, found: PageContents) -> None:
    setattr(document, _ATTRIBUTE, found)


def contents(document: nodes.document) -> PageContents | None:
    value = getattr(document, _ATTRIBUTE, None)
    return value if isinstance(value, PageContents) else None


def holds(document: nodes.document, *kinds: type[nodes.Node]) -> bool:
    """Whether the page may hold a node of one of ``kinds`` (True when it was not scanned)."""
    found = contents(document)
    if found is None:
        return True
    return any(issubclass(kind, wanted) for kind in found.kinds for wanted in kinds)


def uses_design(document: nodes.document) -> bool:
    found = contents(document)
    return found is None or found.design


class PageScan(SphinxPostTransform):
    """First of all post-transforms: the one walk the others consult."""

    default_priority = 1

    def run(self, **kwargs: Any) -> None:
        remember(self.document, scan(self.document))


def _gated_transform(transform: type[SphinxPostTransform]) -> type[SphinxPostTransform]:
    def run(self: SphinxPostTransform, **kwargs: Any) -> None:
        if uses_design(self.document):
            transform.run(self, **kwargs)

    return type(transform.__name__, (transform,), {"run": run, "__doc__": transform.__doc__,
                                                   "__module__": __name__})


def _gated_handler(handler: Callable[..., Any]) -> Callable[..., Any]:
    def gated(app: Any, doctree: nodes.document, *args: Any) -> Any:
        return handler(app, doctree, *args) if uses_design(doctree) else None

    gated.__qualname__ = f"gated {getattr(handler, '__qualname__', 'handler')}"
    return gated


def gate_design(app: Any) -> None:
    """sphinx-design's post-transforms and ``doctree-resolved`` handlers run only on pages that use it.

    They act only on nodes sphinx-design made (its marks, ``_is_design``); a page without any is left
    as it would be.  This reaches into Sphinx's registry and event lists, so it changes nothing unless
    both are laid out as expected (lists of transform classes, of listeners with a ``handler`` and a
    ``_replace``): under any other layout everything stays ungated, which costs time, never output.
    """
    try:
        transforms = app.registry.post_transforms
        listeners = app.events.listeners["doctree-resolved"]
    except (AttributeError, KeyError, TypeError):
        return
    if not isinstance(transforms, list) or not isinstance(listeners, list):
        return
    try:
        gated_transforms = [
            _gated_transform(transform) if isinstance(transform, type) and issubclass(transform, SphinxPostTransform)
            and transform.__module__.startswith("sphinx_design") else transform
            for transform in transforms]
        gated_listeners = [
            listener._replace(handler=_gated_handler(listener.handler))
            if str(getattr(getattr(listener, "handler", None), "__module__", "")).startswith("sphinx_design")
            else listener
            for listener in listeners]
    except Exception:  # a listener without _replace, a handler that is not a function...: leave all ungated
        return
    transforms[:] = gated_transforms
    listeners[:] = gated_listeners
