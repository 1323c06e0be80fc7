"""The NUGGET registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
"""

from __future__ import annotations

from rules.nodes import Registry, shared_types

#: The shared codes NUGGET uses (attributes, skills, rolls, rules), then its own.
NODE_TYPES: dict[str, str] = {
    **shared_types("A", "S", "RL", "RU"),
    "Char": "Character feature",
    "Stat": "Derived statistic",
    "Setting": "Per-game setting",
    "Cond": "Condition",
    "Weapon": "Weapon or armour",
    "Threat": "Threat",
    "Destiny": "Destiny use",
    "NPC": "Non-player character tier",
}

REGISTRY = Registry("nugget", title="NUGGET", node_types=NODE_TYPES)


class NuggetError(ValueError):
    """Base class of every invalid-input error the NUGGET rules raise."""
