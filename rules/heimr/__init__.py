"""Heimr Tabletop RPG Core: dice challenges of 1d6 plus d10s, abilities, fatigue, health and combat.

Importing the package registers every topic's nodes into :data:`REGISTRY`.
"""

from rules.heimr.registry import NODE_TYPES, REGISTRY, HeimrError
from rules.heimr import (  # noqa: F401  (imported for their registrations)
    challenge, characters, abilities, experience, grid, effects, health, combat, defence, fatigue, modules,
    tracker,
)

__all__ = ["REGISTRY", "NODE_TYPES", "HeimrError"]
