"""The DnDalike registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
"""

from __future__ import annotations

from rules.nodes import Registry, shared_types

SYSTEM = "dndalike"
TITLE = "DnDalike (rules v0.1)"

#: The shared codes DnDalike uses (rules, rolls, resources, actions, gear), then its own words.
NODE_TYPES: dict[str, str] = {
    **shared_types("RU", "RL", "R", "AC", "G"),
    "stat": "Stat",
    "derived": "Derived value",
    "class": "Class",
    "step": "Turn step",
    "power": "Class power",
    "school": "School of magic",
}

REGISTRY = Registry(SYSTEM, title=TITLE, node_types=NODE_TYPES)


class DndalikeError(ValueError):
    """Base class of every invalid-input error the DnDalike rules raise."""
