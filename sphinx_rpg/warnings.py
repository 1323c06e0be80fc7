"""Typed, located warnings: every problem the extension reports is ``node.<subtype>``.

Users silence a kind with ``suppress_warnings = ["node.coverage"]`` (or ``"node"`` for all of them).
"""

from __future__ import annotations

from typing import Any

from sphinx.util import logging

from rules.tables import Table

logger = logging.getLogger("sphinx_rpg")

#: Every subtype the extension emits, with what it means (the manual's table is built from this).
SUBTYPES: dict[str, str] = {
    "uid": "a node:def without a :uid:, or with one that is not a dotted identifier",
    "type": "a missing :type:, an unknown type code, or an ill-formed type list",
    "duplicate": "two node:defs share a uid (both places are named)",
    "ref": "a :node:ref: whose uid no page defines (and no intersphinx inventory has)",
    "type_mismatch": "a node:def's :type: disagrees with its bound rule object",
    "unbound": "coverage: a node:def whose uid no configured registry binds",
    "undocumented": "coverage: a rule object that no page defines",
    "registry": "an rpg_registries entry that cannot be imported, read, or is not a Registry",
    "facts": "a bound rule object whose facts() raised (the node is shown without its facts)",
    "name": "a node:def name that spans lines or holds control characters (it is folded to one line)",
    "value": "a :node:value: with a bad key or target",
    "table": "a node:table or node:odds that cannot be computed, names no published table, or varies too much",
    "filter": "a listing filter that cannot be parsed",
    "option": "a directive option or an rpg_* setting with a bad value",
    "chart": "a :chart: on a table with nothing numeric to plot; the table stays",
    "override": "a node:def :overrides: naming a book or node the core book's inventory does not have",
    "statblock": "a node:statblock naming no published stat block, or one the engine cannot build",
    "matchup": "a node:matchup that is not 'system: a vs b', names unknown fighters, or the engine cannot answer",
    "release": "an rpg_releases catalogue that cannot be read, or a node:changes naming an unknown release",
    "edition": "a paragraph ending in ':' with nothing after it, or an engine word (name=value, Name(, "
               "rules.) in the player edition's text",
    "calculator": "the dice calculator's engine wheel cannot be built, or rpg_pyodide_vendor holds no Pyodide",
    "formula": "a name in a rule's formula that is no node but one letter away from one (a typo)",
    "title": "a node:def whose title differs from its rule object's name",
    "markup": "markup that needs an extension the project does not enable: a MyST :::{node:...} colon fence "
              "without colon_fence, or node:cards without sphinx_design in extensions (shown as a table)",
}


def warn(subtype: str, message: str, location: Any = None) -> None:
    """Emit ``node.<subtype>``; ``location`` is a docutils node, ``(docname, line)`` or ``"file:line"``."""
    assert subtype in SUBTYPES, subtype
    logger.warning(message, location=location, type="node", subtype=subtype)


def subtypes_table() -> Table:
    """Every warning subtype and what triggers it (the manual prints this)."""
    return Table.of(("Subtype", "Reported for"), [(f"node.{name}", meaning) for name, meaning in SUBTYPES.items()],
                    "Warning subtypes", code=("Subtype",))
