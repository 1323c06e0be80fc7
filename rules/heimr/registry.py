"""The Heimr registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
"""

from __future__ import annotations

from rules.nodes import Registry, shared_types

#: Heimr's own node types: short codes, readable labels.
NODE_TYPES: dict[str, str] = {
    **shared_types("A", "AB", "R", "RU", "E", "AC", "G"),
    "P": "Position",
    "D": "Defence",
    "IN": "Injury",
    "M": "Module",
}

REGISTRY = Registry("heimr", title="Heimr Tabletop RPG Core", node_types=NODE_TYPES)


class HeimrError(ValueError):
    """Base class of every invalid-input error raised by the Heimr rules."""
