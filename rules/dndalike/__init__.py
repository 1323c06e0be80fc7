"""The DnDalike (rules v0.1): an unnamed old-school rules system published on the blog "renfieldscat".

Six stats on 3d6, saving throws against fatigue, secret wounds and finishing blows, and combat played
as a stack of announced actions.  Importing the package registers every topic's nodes into
:data:`REGISTRY`.
"""

from __future__ import annotations

from rules.dndalike import (  # noqa: F401  (imported for their registrations)
    characters,
    combat,
    core,
    levels,
    matchup,
    powers,
    skills,
    spellcasting,
    statblocks,
    wounds,
)
from rules.dndalike.registry import NODE_TYPES, REGISTRY, DndalikeError

__all__ = ["NODE_TYPES", "REGISTRY", "DndalikeError"]
