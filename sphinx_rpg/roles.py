"""``:node:value:`uid:key``` puts a number or formula the engine owns into running text."""

from __future__ import annotations

from fractions import Fraction

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxRole

from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line
from sphinx_rpg.formula import formula_names, formula_node
from sphinx_rpg.lines import LocatedRole
from sphinx_rpg.typeset import minus_signs
from sphinx_rpg.warnings import warn


def format_value(value: object) -> str:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)


class NodeValueRole(LocatedRole, SphinxRole):
    """The value of ``key`` on the rule bound to ``uid``; the page is rebuilt when the rule changes."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        uid, sep, key = self.text.strip().rpartition(":")
        if not sep or not uid or not key:
            warn("value", f":node:value: needs 'uid:key', got {self.text!r}", self.get_location())
            return [nodes.inline(self.text, self.text, classes=["rpg-value", "rpg-error"])], []
        node = binding_for(self.config).lookup(uid)
        if node is None:
            from sphinx_rpg.spelling import did_you_mean

            hint = did_you_mean(uid, (bound.uid for bound in binding_for(self.config).nodes()))
            warn("value", f":node:value: no rule object is bound to {uid!r}{hint}", self.get_location())
            return [nodes.inline(self.text, self.text, classes=["rpg-value", "rpg-error"])], []
        if node.source_file is not None:
            self.env.note_dependency(str(node.source_file))
        try:
            text = one_line(call_engine(lambda: format_value(node.value(key))))
        except EngineFailure as failure:  # a values mapping may raise anything: the node and the error are named
            error = failure.error
            reason = (str(error.args[0]) if type(error) is KeyError and error.args
                      else f"{uid!r}: the value {key!r} cannot be computed: {failure}")
            warn("value", f":node:value: {one_line(reason)}", self.get_location())
            return [nodes.inline(self.text, self.text, classes=["rpg-value", "rpg-error"])], []
        formula = node.formula if key == "formula" and key not in node.values else None
        if formula is not None:  # typeset as the node's Formula fact is: "Agility × 2", never "Agility * 2"
            registry = binding_for(self.config).registry_of(uid)
            names = call_engine(lambda: formula_names(node, registry)) if registry is not None else {}
            typeset = call_engine(lambda: formula_node(formula, names, docname=self.env.docname))
            return [nodes.inline("", "", typeset, classes=["rpg-value"])], []
        text = minus_signs(text)  # typeset prose: a minus sign, never a hyphen
        return [nodes.inline(text, text, classes=["rpg-value"])], []


def setup(app: Sphinx) -> None:
    app.add_role_to_domain("node", "value", NodeValueRole())
