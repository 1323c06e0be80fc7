"""The ``node`` domain's core directives: definitions, listings, computed tables, examples, legends.

Directives that belong to a feature of their own (sheets, graphs, stat blocks, editions, changes,
the calculator) are registered by that feature's module.
"""

from sphinx.application import Sphinx

from sphinx_rpg.directives.definition import (
    NodeDefinition,
    depart_node_heading_html,
    node_heading,
    visit_node_heading_html,
)
from sphinx_rpg.directives.example import NodeExample
from sphinx_rpg.directives.legend import NodeLegend
from sphinx_rpg.directives.listing import ListingResolver, NodeCards, NodeListing, node_listing
from sphinx_rpg.directives.tables import NodeOdds, NodeTable

DIRECTIVES = {
    "def": NodeDefinition,
    "list": NodeListing,
    "cards": NodeCards,
    "table": NodeTable,
    "odds": NodeOdds,
    "example": NodeExample,
    "legend": NodeLegend,
}


def setup(app: Sphinx) -> None:
    for name, directive in DIRECTIVES.items():
        app.add_directive_to_domain("node", name, directive)
    app.add_node(node_heading, html=(visit_node_heading_html, depart_node_heading_html))
    app.add_node(node_listing)
    app.add_post_transform(ListingResolver)


__all__ = ["DIRECTIVES", "ListingResolver", "node_heading", "node_listing", "setup"]
