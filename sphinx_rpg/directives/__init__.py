"""The ``node`` domain's directives."""

from sphinx_rpg.directives.definition import NodeDefinition, node_heading
from sphinx_rpg.directives.example import NodeExample
from sphinx_rpg.directives.legend import NodeLegend
from sphinx_rpg.directives.listing import ListingResolver, NodeCards, NodeListing, node_listing
from sphinx_rpg.directives.tables import NodeOdds, NodeTable
from sphinx_rpg.editions import DesignerBlock, PlayerBlock
from sphinx_rpg.graphs import NodeGraph
from sphinx_rpg.releases import NodeChanges
from sphinx_rpg.sheets import NodeSheet
from sphinx_rpg.statblocks import NodeStatBlock

DIRECTIVES = {
    "def": NodeDefinition,
    "list": NodeListing,
    "cards": NodeCards,
    "table": NodeTable,
    "odds": NodeOdds,
    "example": NodeExample,
    "legend": NodeLegend,
    "designer": DesignerBlock,
    "player": PlayerBlock,
    "changes": NodeChanges,
    "graph": NodeGraph,
    "sheet": NodeSheet,
    "statblock": NodeStatBlock,
}

__all__ = ["DIRECTIVES", "ListingResolver", "node_heading", "node_listing"]
