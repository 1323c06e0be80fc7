"""NUGGET (Silver Branch Games): a free, rules-light RPG of d6 pools, as an executable rulebook.

Each topic module registers its rules into :data:`REGISTRY`; importing this package imports them all.
"""

from rules.nugget import (  # noqa: F401
    characters,
    combat,
    destiny,
    harm,
    initiative,
    matchup,
    npcs,
    rolls,
    statblocks,
    threats,
    tracker,
)
from rules.nugget.registry import NODE_TYPES, REGISTRY, NuggetError

__all__ = ["REGISTRY", "NODE_TYPES", "NuggetError"]
