"""Nemron RPG (rules.nemron.org, by Andre Engelbrecht, CC BY-SA 4.0) as an executable rules engine.

Each topic module registers its nodes in :data:`rules.nemron.registry.REGISTRY`; this package exports
that registry as ``REGISTRY``; :mod:`rules.nemron.checks` registers the Nemron pool notation
(``Agility 2 › Athletics 1``) on it, so the book and the ``rpg`` command read pools the Nemron way.
"""

from __future__ import annotations

from rules.nemron import (
    actions,
    area,
    characters,
    checks,
    combat,
    damage,
    effects,
    energy,
    health,
    matchup,
    nodes,
    progression,
    statblocks,
    tracker,
)
from rules.nemron.checks import parse_pool, pool_distribution
from rules.nemron.nodes import RANK_DICE, rank_die
from rules.nemron.registry import NODE_TYPES, REGISTRY, NemronError

__all__ = [
    "REGISTRY", "NODE_TYPES", "NemronError", "RANK_DICE", "rank_die", "parse_pool", "pool_distribution",
    "actions", "area", "characters", "checks", "combat", "damage", "effects", "energy", "health", "matchup", "nodes",
    "progression", "statblocks", "tracker",
]
