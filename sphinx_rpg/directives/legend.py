"""``node:legend``: what a book's type codes (E, R, RU, Attr...) mean, from its registry's type names."""

from __future__ import annotations

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from rules.nodes import Registry
from sphinx_rpg.binding import binding_for
from sphinx_rpg.directives.cells import fit_column_widths
from sphinx_rpg.warnings import warn


class NodeLegend(SphinxDirective):
    """``.. node:legend:: nemron``: a two-column table, code and meaning, in the registry's order.

    The argument is the registry's system name; it may be left out when the book binds one registry.
    """

    optional_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        registry = self._registry()
        if registry is None:
            return []
        caption = f"Node types of {registry.title}"
        table = nodes.table(classes=["rpg-legend"])
        table += nodes.title(caption, caption)
        group = nodes.tgroup(cols=2)
        table += group
        group += nodes.colspec(colwidth=1)
        group += nodes.colspec(colwidth=4)
        group += nodes.thead("", self._row("Code", "Means"))
        body = nodes.tbody()
        for code, meaning in registry.node_types.items():
            body += self._row(code, meaning, literal=True)
        group += body
        fit_column_widths(group)
        self.set_source_info(table)
        self.add_name(table)
        return [table]

    @staticmethod
    def _row(code: str, meaning: str, *, literal: bool = False) -> nodes.row:
        first: nodes.Node = nodes.literal(code, code) if literal else nodes.Text(code)
        return nodes.row("", nodes.entry("", nodes.paragraph("", "", first)),
                         nodes.entry("", nodes.paragraph(meaning, meaning)))

    def _registry(self) -> Registry | None:
        binding = binding_for(self.config)
        systems = [registry.system for registry in binding.registries]
        if self.arguments:
            registry = binding.registry(self.arguments[0].strip())
            if registry is None:
                warn("option", f"node:legend: no configured registry has the system {self.arguments[0]!r} "
                               f"(known: {', '.join(systems) or 'none'})", self.get_location())
            return registry
        if len(binding.registries) == 1:
            return binding.registries[0]
        warn("option", "node:legend: name the system whose types to explain "
                       f"(one of: {', '.join(systems) or 'no registry is configured'})", self.get_location())
        return None
