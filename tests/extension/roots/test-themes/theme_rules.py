"""The smallest bound game for the theme tests: one node with a formula."""

from rules.nodes import Registry

REGISTRY = Registry("themegame", node_types={"E": "Effect", "R": "Resource"})
REGISTRY.define("Theme.Trait.Energy", "Energy", "E,R", summary="Fuel for abilities.",
                formula="floor((Control + Sense) / 2) + 5")
