"""The Nemron registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.  The six
published node type codes (``A``, ``S``, ``AB``, ``E``, ``T``, ``R``) are kept as they are; this book
adds one, ``RU`` (rule), for the mechanics it registers that are not game objects a character holds.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.nodes import CORE_NODE_TYPES, Registry, shared_types

#: The published six node types plus ``RU`` for rules (initiative, falling damage, ...).
NODE_TYPES: Mapping[str, str] = {**CORE_NODE_TYPES, **shared_types("RU")}

REGISTRY = Registry("nemron", title="Nemron RPG", node_types=NODE_TYPES)


class NemronError(ValueError):
    """Base class of every invalid-input error the Nemron rules raise."""
