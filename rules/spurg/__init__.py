"""SPURG (Staunchly Public, Unrestricted Ruleset Groundwork): the engine behind ``docs/spurg/``.

Every topic module registers its nodes into one shared :data:`REGISTRY` (uids ``Spurg.<Category>.<Name>``).
"""

from __future__ import annotations

from rules.spurg import (  # noqa: F401
    characters,
    combat,
    contests,
    damage,
    encumbrance,
    matchup,
    play,
    statblocks,
    tracker,
    verdict,
)
from rules.spurg.registry import NODE_TYPES, REGISTRY, SpurgError

__all__ = ["REGISTRY", "NODE_TYPES", "SpurgError"]
