"""SPURG (Staunchly Public, Unrestricted Ruleset Groundwork): the engine behind ``docs/spurg/``.

Every topic module registers its nodes into one shared :data:`REGISTRY` (uids ``Spurg.<Category>.<Name>``).
"""

from __future__ import annotations

from rules.spurg.registry import NODE_TYPES, REGISTRY, SpurgError
from rules.spurg import verdict, contests, damage, characters, encumbrance, combat, play  # noqa: E402,F401

__all__ = ["REGISTRY", "NODE_TYPES", "SpurgError"]
