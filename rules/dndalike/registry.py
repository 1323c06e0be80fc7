"""The DnDalike registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
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

REGISTRY = Registry(SYSTEM, title=TITLE, node_types=NODE_TYPES)


class DndalikeError(ValueError):
    """Base class of every invalid-input error the DnDalike rules raise."""
