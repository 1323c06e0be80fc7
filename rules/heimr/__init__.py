"""Heimr Tabletop RPG Core: dice challenges of 1d6 plus d10s, abilities, fatigue, health and combat.

Importing the package registers every topic's nodes into :data:`REGISTRY`.
"""

from rules.heimr import (  # noqa: F401  (imported for their registrations)
    abilities,
    challenge,
    characters,
    combat,
    defence,
    effects,
    experience,
    fatigue,
    grid,
    health,
    matchup,
    modules,
    statblocks,
    tracker,
)
from rules.heimr.registry import NODE_TYPES, REGISTRY, HeimrError

__all__ = ["REGISTRY", "NODE_TYPES", "HeimrError"]
