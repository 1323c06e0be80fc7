"""How the rules connect, in the book: "Depends on" / "Used by" facts and the ``node:graph`` picture.

The relationships come from the engine (``rules.graph``: formulas name their inputs), never from the
pages.  ``node:graph`` draws them as an inline SVG in HTML, each box a link to its node, drawn in the
page's text colour so it reads in light and dark themes and in print; LaTeX draws the same layout
as a TikZ figure in black (``graph_print``); every builder also gets the same facts as a list.
Links are made by Sphinx's own resolver: the first pass leaves a ``pending_xref`` per node, the
second reads the resolved addresses and draws.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.graph import Dependencies, dependencies
from rules.nodes import Node, Registry
from sphinx_rpg.binding import binding_for, registry_option
from sphinx_rpg.formula import spoken
from sphinx_rpg.graph_layout import BOX_HEIGHT, graph_layout
from sphinx_rpg.output_format import writes_html, writes_latex
from sphinx_rpg.pagescan import holds

#: Largest picture drawn; a bigger graph is listed only (a picture of hundreds of boxes helps nobody).
MAX_GRAPH_NODES = 200


@lru_cache(maxsize=32)
def registry_dependencies(registry: Registry) -> Dependencies:
    """A registry's dependencies, computed once per process (registries do not change in a build)."""
    return dependencies(registry)


def node_link(uid: str, title: str, docname: str) -> addnodes.pending_xref:
    """A link Sphinx resolves; its text keeps the uid, so the address can be read back afterwards."""
    ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=uid, refexplicit=True,
                                refwarn=True, refdoc=docname)
    ref += nodes.inline(title, title, rpg_uid=uid)
    return ref


def connection_fields(rule: Node, registry: Registry | None, docname: str) -> list[nodes.field]:
    """"Depends on" and "Used by" facts for a bound node (empty when its formula names no node)."""
    if registry is None:
        return []
    graph = registry_dependencies(registry)
    fields = []
    for label, uids in (("Depends on", graph.depends_on(rule.uid)), ("Used by", graph.used_by(rule.uid))):
        if not uids:
            continue
        paragraph = nodes.paragraph()
        for position, uid in enumerate(uids):
            if position:
                paragraph += nodes.Text(", ")
            paragraph += node_link(uid, registry[uid].title, docname)
        fields.append(nodes.field("", nodes.field_name(label, label), nodes.field_body("", paragraph)))
    return fields


# -- node:graph ------------------------------------------------------------------------------------------
class node_graph(nodes.General, nodes.Element):
    """Placeholder for a graph: plain options, then the links Sphinx resolves, then the picture."""


class NodeGraph(SphinxDirective):
    """``.. node:graph::`` with ``:system:`` (a bound registry's system name) and ``:caption:``."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {"system": directives.unchanged_required, "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        system = self.options.get("system", "").strip()
        registry = registry_option(self.config, "node:graph", system, location)
        if registry is None:
            return []
        graph = registry_dependencies(registry)
        for uid in graph.connected():
            path = registry[uid].source_file
            if path is not None:
                self.env.note_dependency(str(path))
        placeholder = node_graph(system=system, caption=self.options.get("caption", ""))
        self.set_source_info(placeholder)
        placeholder += connections_list(graph, registry, self.env.docname)
        return [placeholder]


def connections_list(graph: Dependencies, registry: Registry, docname: str) -> nodes.Node:
    """Each derived node with what it derives from: the graph as text (print, screen readers)."""
    if not graph.inputs:
        return nodes.paragraph("", "No formula of this system names another node.")
    items = nodes.bullet_list(classes=["rpg-graph-list"])
    for target in sorted(graph.inputs, key=lambda uid: registry[uid].name.lower()):
        paragraph = nodes.paragraph("", "", node_link(target, registry[target].title, docname))
        paragraph += nodes.Text(" from ")
        for position, source in enumerate(graph.depends_on(target)):
            if position:
                paragraph += nodes.Text(", ")
            paragraph += node_link(source, registry[source].title, docname)
        extra = graph.parameters.get(target, ())
        if extra:
            paragraph += nodes.Text(" and " + ", ".join(spoken(name) for name in extra))  # words, as a formula
        items += nodes.list_item("", paragraph)
    return items


def graph_svg(graph: Dependencies, names: dict[str, str], titles: dict[str, str], hrefs: dict[str, str],
              caption: str) -> str:
    """The picture: columns of boxes (inputs left), an arrow from each input to what it derives."""
    x_of, y_of, column_width, width, height = graph_layout(graph, names)
    label = escape(caption or "How the rules connect", quote=True)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rpg-graph" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="{width:.0f}" height="{height:.0f}" role="group" aria-label="{label}">',
             '<defs><marker id="rpg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
             'fill="currentColor"/></marker></defs>']
    for source, target in graph.edges():
        x1 = x_of[source] + column_width[source]
        y1 = y_of[source] + BOX_HEIGHT / 2
        x2, y2 = x_of[target], y_of[target] + BOX_HEIGHT / 2
        bend = max(20.0, (x2 - x1) / 2)
        parts.append(f'<path class="rpg-graph-edge" d="M {x1:.1f} {y1:.1f} C {x1 + bend:.1f} {y1:.1f}, '
                     f'{x2 - bend:.1f} {y2:.1f}, {x2 - 1:.1f} {y2:.1f}" marker-end="url(#rpg-arrow)"/>')
    for uid in sorted(x_of):
        box = (f'<g class="rpg-graph-node"><title>{escape(titles[uid])}</title>'  # no internal id: it is read out
               f'<rect x="{x_of[uid]:.1f}" y="{y_of[uid]:.1f}" width="{column_width[uid]:.1f}" '
               f'height="{BOX_HEIGHT}" rx="5"/>'
               f'<text x="{x_of[uid] + column_width[uid] / 2:.1f}" y="{y_of[uid] + BOX_HEIGHT / 2:.1f}">'
               f'{escape(names[uid])}</text></g>')
        href = hrefs.get(uid)
        parts.append(f'<a href="{escape(href, quote=True)}">{box}</a>' if href else box)
    parts.append("</svg>")
    return "".join(parts)


class GraphRenderer(SphinxPostTransform):
    """After references resolve: draw the picture above the list (HTML); other builders keep the list."""

    default_priority = 20

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_graph):
            return
        html = writes_html(self.document)
        latex = writes_latex(self.document)
        binding = binding_for(self.config)
        for placeholder in list(self.document.findall(node_graph)):
            registry = binding.registry(placeholder["system"])
            if registry is None:
                placeholder.replace_self([])
                continue
            graph = registry_dependencies(registry)
            hrefs: dict[str, str] = {}
            for reference in placeholder.findall(nodes.reference):
                marked = next(iter(reference.findall(nodes.inline)), None)
                if marked is None or not marked.get("rpg_uid"):
                    continue
                address = reference.get("refuri") or (f"#{reference['refid']}" if reference.get("refid") else "")
                if address:
                    hrefs[marked["rpg_uid"]] = address
            result: list[nodes.Node] = []
            caption = placeholder["caption"]
            if caption:
                result.append(nodes.rubric(caption, caption))
            connected = graph.connected()
            if html and 0 < len(connected) <= MAX_GRAPH_NODES:
                names = {uid: registry[uid].name for uid in connected}
                titles = {uid: registry[uid].title for uid in connected}
                svg = graph_svg(graph, names, titles, hrefs, caption)
                result.append(nodes.container("", nodes.raw("", svg, format="html"), classes=["rpg-graph-box"]))
            elif latex and 0 < len(connected) <= MAX_GRAPH_NODES:  # paper: the same picture, as a vector figure
                from sphinx_rpg.graph_print import graph_tikz

                names = {uid: registry[uid].name for uid in connected}
                result.append(nodes.raw("", graph_tikz(graph, names, caption), format="latex"))
            result.extend(placeholder.children)
            placeholder.replace_self(result)


def setup(app: Sphinx) -> None:
    """``node:graph``: a dependency picture drawn from the registry."""
    app.add_directive_to_domain("node", "graph", NodeGraph)
    app.add_node(node_graph)
    app.add_post_transform(GraphRenderer)
