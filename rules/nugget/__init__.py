"""NUGGET (Silver Branch Games): a free, rules-light RPG of d6 pools, as an executable rulebook.

Each topic module registers its rules into :data:`REGISTRY`; importing this package imports them all.
"""

from rules.nugget.registry import NODE_TYPES, REGISTRY, NuggetError
from rules.nugget import rolls, characters, initiative, harm, combat, threats, destiny, npcs  # noqa: E402,F401

__all__ = ["REGISTRY", "NODE_TYPES", "NuggetError"]
