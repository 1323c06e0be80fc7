"""The Heimr registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
"""

from __future__ import annotations

from rules.nodes import Registry

#: Heimr's own node types: short codes, readable labels.
NODE_TYPES: dict[str, str] = {
    "A": "Attribute",
    "AB": "Ability",
    "R": "Resource",
    "RU": "Rule",
    "E": "Effect",
    "P": "Position",
    "AC": "Action",
    "D": "Defence",
    "IN": "Injury",
    "G": "Gear",
    "M": "Module",
}

REGISTRY = Registry("heimr", title="Heimr Tabletop RPG Core", node_types=NODE_TYPES)


class HeimrError(ValueError):
    """Base class of every invalid-input error raised by the Heimr rules."""
