"""Nemron RPG (rules.nemron.org, by Andre Engelbrecht, CC BY-SA 4.0) as an executable rules engine.

Each topic module registers its nodes in :data:`rules.nemron.nodes.NODES`; this package exports that
registry as ``REGISTRY`` with the Nemron pool notation (``Agility 2 › Athletics 1``) as its pool
parser, so the book can print exact odds for a pool written the Nemron way.
"""

from __future__ import annotations

from rules.nemron import (
    actions,
    characters,
    checks,
    combat,
    damage,
    effects,
    energy,
    health,
    nodes,
    progression,
    tracker,
)
from rules.nemron.checks import parse_pool, pool_distribution
from rules.nemron.nodes import RANK_DICE, rank_die

REGISTRY = nodes.NODES
REGISTRY.pool_parser = pool_distribution

__all__ = [
    "REGISTRY", "RANK_DICE", "rank_die", "parse_pool", "pool_distribution",
    "actions", "characters", "checks", "combat", "damage", "effects", "energy", "health", "nodes",
    "progression", "tracker",
]
