"""The DnDalike (rules v0.1): an unnamed old-school rules system published on the blog "renfieldscat".

Six stats on 3d6, saving throws against fatigue, secret wounds and finishing blows, and combat played
as a stack of announced actions.  ``REGISTRY`` collects every node of the topic modules.
"""

from __future__ import annotations

from rules.dndalike import characters, combat, core, levels, powers, skills, spellcasting, wounds
from rules.dndalike._shared import NODE_TYPES, SYSTEM, TITLE
from rules.nodes import Registry

#: Topic modules, in the book's order.
TOPICS = (characters, core, wounds, combat, skills, spellcasting, levels, powers)

REGISTRY = Registry(SYSTEM, title=TITLE, node_types=NODE_TYPES)
for _topic in TOPICS:
    REGISTRY.include(_topic.NODES)

__all__ = ["REGISTRY", "TOPICS"]
