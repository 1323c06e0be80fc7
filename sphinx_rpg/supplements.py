"""Supplements: a book that extends a core book, replacing some of its nodes with provenance.

A supplement links the core through intersphinx (``intersphinx_mapping``); a ``node:def`` with
``:overrides:`` (the core's intersphinx name, or ``rpg_supplement_of`` when left empty) replaces the
core node of the same uid.  Inside the supplement every ``:node:ref:`` then reaches the replacement;
the heading says "Changed by <supplement>" and links the core rule it replaces.  Overriding a uid the
core does not define is a ``node.override`` warning: the core was renamed, or the uid is mistyped.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.environment import BuildEnvironment

from sphinx_rpg.warnings import warn


def core_item(env: BuildEnvironment, book: str, uid: str, location: Any) -> tuple[str, str] | None:
    """(address, core project name) of ``uid`` in ``book``'s inventory; a located warning when absent."""
    if not book:
        warn("override", f"node {uid!r}: :overrides: names no core book (give one, or set rpg_supplement_of)",
             location)
        return None
    if "sphinx.ext.intersphinx" not in env.config.extensions:
        warn("override", f"node {uid!r} overrides a node of {book!r}, but sphinx.ext.intersphinx is not "
                         "enabled: add it to extensions and name the core in intersphinx_mapping", location)
        return None
    from sphinx.ext.intersphinx import InventoryAdapter  # here: a book without overrides never imports it

    named = InventoryAdapter(env).named_inventory
    if book not in named:
        known = ", ".join(sorted(named)) or "none loaded"
        warn("override", f"node {uid!r}: no intersphinx inventory named {book!r} (known: {known})", location)
        return None
    item = named[book].get("node:node", {}).get(uid)
    if item is None:
        warn("override", f"node {uid!r} overrides a node that {book!r} does not define "
                         "(renamed or removed in the core, or a typo)", location)
        return None
    if isinstance(item, tuple):  # an inventory item before Sphinx 8.2: (project, version, uri, title)
        address, project = str(item[2]), str(item[0])
    else:
        address, project = str(item.uri), str(item.project_name)
    if "://" not in address:  # relative to the supplement's root: make it relative to this page
        address = "../" * env.docname.count("/") + address
    return address, project


def provenance(supplement: str, core_project: str, address: str) -> nodes.Node:
    """"Changed by <supplement>: replaces the core rule in <core>." in Sphinx's versionchanged markup."""
    box = addnodes.versionmodified(type="versionchanged", version=supplement)
    paragraph = nodes.paragraph("", "", nodes.inline("", f"Changed by {supplement}: ",
                                                     classes=["versionmodified", "changed"]),
                                classes=["rpg-override"])
    paragraph += nodes.Text("replaces ")
    paragraph += nodes.reference("", "the core rule", refuri=address, internal=False)
    paragraph += nodes.Text(f" in {core_project}.")
    box += paragraph
    return box
