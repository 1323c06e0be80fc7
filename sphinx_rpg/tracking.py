"""What the domain must know beyond ``node:def`` and ``:node:ref:`` to keep incremental builds right.

* Every way a page can link a node is a reference the domain tracks (``:any:``, MyST ``[](#uid)``,
  besides ``:node:ref:``), so renaming or removing the node rewrites that page.
* A ``node:def`` inside an ``only`` or ``ifconfig`` block that this build excludes is not a node: it
  is forgotten when the page is read, and such pages are read again when the tags or the
  configuration change.
* Nodes another project publishes (intersphinx) are remembered, so pages linking them are rewritten
  when the inventory changes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from docutils import nodes
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import CONFIG_OK, BuildEnvironment

from sphinx_rpg.domain import node_domain

#: pending_xref types that are resolved by asking every domain (``resolve_any_xref``).
ANY_REFTYPES = ("any", "myst")


def note_doctree(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: one walk of the page for both jobs below (a big book has thousands of pages)."""
    wanted: tuple[type[nodes.Element], ...] = (addnodes.pending_xref, addnodes.only)
    if "sphinx.ext.ifconfig" in app.extensions:
        from sphinx.ext.ifconfig import ifconfig as ifconfig_node

        wanted = (*wanted, ifconfig_node)
    refs: list[addnodes.pending_xref] = []
    blocks: list[tuple[str, nodes.Element]] = []
    for node in elements(doctree, wanted):
        if isinstance(node, addnodes.pending_xref):
            refs.append(node)
        else:
            blocks.append(("only" if isinstance(node, addnodes.only) else "ifconfig", node))
    note_links(app, refs)
    forget_excluded(app, doctree, blocks)


def elements(root: nodes.Element, kinds: tuple[type[nodes.Element], ...]) -> list[nodes.Element]:
    """The elements under ``root`` (itself included) that are instances of ``kinds``, in document order.

    One walk with a stack: ``findall`` with a predicate calls it through a generator per node and
    level, several times slower on a page of a few hundred nodes.
    """
    found: list[nodes.Element] = []
    stack: list[nodes.Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, nodes.Element):
            if isinstance(node, kinds):
                found.append(node)
            stack.extend(reversed(node.children))
    return found


def note_links(app: Sphinx, refs: Iterable[addnodes.pending_xref]) -> None:
    """References that reach nodes through ``:any:`` or MyST links."""
    env = app.env
    domain = node_domain(env)
    for ref in refs:
        if ref.get("reftype") in ANY_REFTYPES and ref.get("refdomain") != "doc" and ref.get("reftarget"):
            domain.note_reference(env.docname, str(ref["reftarget"]))


def _only_excludes(app: Sphinx, node: nodes.Element) -> bool:
    try:
        return not app.tags.eval_condition(node["expr"])
    except Exception:
        return False


def _ifconfig_excludes(app: Sphinx, node: nodes.Element, settings: Any) -> bool:
    """Ask sphinx.ext.ifconfig itself, on a bare copy of the block: its verdict, not a second evaluator."""
    from sphinx.ext.ifconfig import process_ifconfig_nodes

    quiet = copy.copy(settings)
    quiet.report_level, quiet.halt_level = 5, 5  # its own warning comes when the page is written
    probe = new_document("<ifconfig probe>", quiet)
    block = node.copy()
    marker = nodes.inline()
    block += marker
    probe += block
    process_ifconfig_nodes(app, probe, app.env.docname)
    return marker not in list(probe.findall(nodes.inline))


def forget_excluded(app: Sphinx, doctree: nodes.document, blocks: Iterable[tuple[str, nodes.Element]]) -> None:
    """Nodes this build excludes (``only``/``ifconfig`` blocks) are not recorded (nor linked, listed or exported)."""
    env = app.env
    domain = node_domain(env)
    for kind, block in blocks:
        anchors = [n["rpg_anchor"] for n in block.findall(nodes.Element) if n.get("rpg_anchor")]
        if not anchors:
            continue
        domain.note_conditional(env.docname, kind)
        excluded = _only_excludes(app, block) if kind == "only" else _ifconfig_excludes(app, block, doctree.settings)
        if excluded:
            for anchor in anchors:
                domain.forget(env.docname, anchor)


def reread_conditional(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                       removed: set[str]) -> list[str]:
    """``env-get-outdated``: pages whose nodes hang on tags or configuration, when those changed."""
    domain = node_domain(env)
    tags = sorted(app.tags)
    previous = domain.data.get("tags")
    domain.data["tags"] = tags
    config_changed = env.config_status != CONFIG_OK
    pages = []
    for docname, kinds in domain.data.setdefault("conditional", {}).items():
        if docname in removed:
            continue
        if ("only" in kinds and previous is not None and previous != tags) or ("ifconfig" in kinds and config_changed):
            pages.append(docname)
    return sorted(pages)


def setup(app: Sphinx) -> None:
    """Remember what each page read from outside itself, and reread pages whose conditions changed."""
    app.connect("doctree-read", note_doctree)
    app.connect("env-get-outdated", reread_conditional)
