"""What every DnDalike topic module shares: the node types, a registry factory and the dice adapter.

Kept private (a leading underscore) so the API reference lists only the rule modules.
"""

from __future__ import annotations

from rules.nodes import Registry

SYSTEM = "dndalike"
TITLE = "DnDalike (rules v0.1)"

#: The system's own node type codes: readable words, because the book prints them in headings.
NODE_TYPES: dict[str, str] = {
    "stat": "Stat",
    "derived": "Derived value",
    "class": "Class",
    "gear": "Equipment",
    "roll": "Roll",
    "rule": "Rule",
    "resource": "Resource",
    "action": "Action",
    "step": "Turn step",
    "power": "Class power",
    "school": "School of magic",
}


def topic_registry(topic: str) -> Registry:
    """A registry for one topic module; the package's ``REGISTRY`` includes them all."""
    return Registry(f"{SYSTEM}.{topic}", title=TITLE, node_types=NODE_TYPES)
