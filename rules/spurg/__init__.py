"""SPURG (Staunchly Public, Unrestricted Ruleset Groundwork): the engine behind ``docs/spurg/``.

Every topic module registers its nodes into one shared :data:`REGISTRY` (uids ``Spurg.<Category>.<Name>``).
"""

from __future__ import annotations

from rules.spurg._registry import NODE_TYPES, REGISTRY
from rules.spurg import verdict, contests, damage, characters, encumbrance, combat, play, tracker  # noqa: E402,F401

__all__ = ["REGISTRY", "NODE_TYPES"]
