"""Facts computed from a bound rule object, rendered under the node's heading."""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes

from rules.nodes import Node, Registry
from sphinx_rpg.formula import formula_names, formula_node
from sphinx_rpg.typeset import minus_signs


def _field(label: str, *body: nodes.Node) -> nodes.field:
    return nodes.field("", nodes.field_name(label, label), nodes.field_body("", nodes.paragraph("", "", *body)))


def implementation_link(path: str) -> nodes.Node:
    """A link to the rule's API entry; plain code text when no page documents it (no warning)."""
    ref = addnodes.pending_xref("", refdomain="py", reftype="obj", reftarget=path, refexplicit=False,
                                refwarn=False)
    ref += nodes.literal(path, path, classes=["xref", "py", "py-obj"])
    return ref


def facts_block(rule: Node, connections: list[nodes.field] | None = None, *,
                engine_paths: bool = True, registry: Registry | None = None,
                docname: str | None = None) -> list[nodes.Node]:
    """The facts of a bound node; ``connections`` adds "Depends on" / "Used by" (``sphinx_rpg.graphs``);
    ``engine_paths=False`` (player edition) drops the Rule: link.  A formula's names read as the nodes
    of ``registry`` they mean, linked from ``docname``."""
    fields = nodes.field_list(classes=["rpg-facts"])
    names = formula_names(rule, registry) if registry is not None and rule.formula is not None else {}
    for fact in rule.facts():
        value: nodes.Node = (formula_node(fact.formula, names, docname=docname) if fact.formula is not None
                             else nodes.Text(minus_signs(fact.text)))
        fields += _field(fact.label, value)
    for field in connections or ():
        fields += field
    if engine_paths and rule.implementation_path:
        fields += _field("Rule", implementation_link(rule.implementation_path))
    return [fields] if len(fields) else []
