"""Non-player characters: how much punishment each tier takes, how villains get their luck, and how
NPCs and creatures are built outside the player characters' budget."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.nugget.characters import (
    ATTRIBUTE_NAMES,
    CREATURE_ATTRIBUTE_RANGE,
    OCCUPATION_LEVEL,
    PC_ATTRIBUTE_RANGE,
    Character,
    Skill,
    check_attribute,
)
from rules.nugget.harm import Wounds
from rules.nugget.registry import REGISTRY, NuggetError
from rules.values import is_whole


@dataclass(frozen=True)
class Tier:
    """An NPC tier: how many Hurts or Injuries take it out of a conflict (``None``: never by count)."""

    name: str
    out_at_hurts: int | None
    out_at_injuries: int | None
    rolls_initiative: bool


TIERS: Mapping[str, Tier] = {
    "minion": Tier("Minion", 1, 1, False),
    "henchman": Tier("Henchman", 3, 1, True),
    "villain": Tier("Major Villain", None, None, True),
}

REGISTRY.define("Nugget.NPC.Minion", "Minion", "NPC", implementation=TIERS["minion"],
                summary="Low-level riff-raff: an occupation, little else; one Hurt takes them out.",
                values={"hurts": 1})
REGISTRY.define("Nugget.NPC.Henchman", "Henchman", "NPC", implementation=TIERS["henchman"],
                summary="Tougher followers: out after one Injury or three Hurts.",
                values={"hurts": 3, "injuries": 1})


@REGISTRY.rule("Nugget.NPC.OutOfFight", "Taken Out", "NPC")
def is_out(tier: str, wounds: Wounds) -> bool:
    """Whether an NPC of a tier is out of the conflict: minions at the first Hurt, henchmen at an
    Injury or three Hurts, major villains only like player characters (unconscious or dead)."""
    try:
        rule = TIERS[tier]
    except (KeyError, TypeError):
        raise NuggetError(f"unknown NPC tier {tier!r} (known: {', '.join(TIERS)})") from None
    if wounds.unconscious or wounds.dead:
        return True
    if rule.out_at_injuries is not None and wounds.injuries >= rule.out_at_injuries:
        return True
    return rule.out_at_hurts is not None and wounds.hurts >= rule.out_at_hurts


@REGISTRY.rule("Nugget.NPC.Villain", "Major Villain", "NPC", values={"destiny_per_pc": 1})
def villain_destiny(player_characters: int, *, per_pc: int = 1) -> int:
    """Major villains work like player characters and start with Destiny, often a point per PC."""
    for what, count in (("the number of player characters", player_characters), ("points per PC", per_pc)):
        if not is_whole(count) or count < 0:
            raise NuggetError(f"{what} must be a whole number >= 0, not {count!r}")
    return player_characters * per_pc


#: Tier -> Destiny Points an NPC of that tier starts with when the GM gives none (villains: see
#: :func:`villain_destiny`; minions and henchmen have none).
_NO_DESTINY = 0


@REGISTRY.rule("Nugget.NPC.Build", "Building NPCs and Creatures", "RU",
               values={"person_low": PC_ATTRIBUTE_RANGE[0], "person_high": PC_ATTRIBUTE_RANGE[1],
                       "creature_low": CREATURE_ATTRIBUTE_RANGE[0], "creature_high": CREATURE_ATTRIBUTE_RANGE[1]})
def create_npc(name: str, occupation: str, attributes: Mapping[str, int] | None = None,
               skills: Sequence[Skill] = (), *, creature: bool = False, core_skill: Skill | None = None,
               destiny: int = _NO_DESTINY, fighting_occupation: bool = False) -> Character:
    """A minion, henchman, villain or creature: given the numbers it ought to have, not bought with the
    player characters' points.

    Attributes stay within the human range (-1..+2) unless ``creature`` (-2..+4, mostly Brawn by
    size); there is no attribute or skill budget.  An NPC without a ``core_skill`` has only its
    occupation (a minion's usual lot) and rolls its first skill, if any, as the core.
    """
    if not isinstance(name, str) or not name.strip():
        raise NuggetError(f"an NPC needs a name, got {name!r}")
    if not isinstance(occupation, str) or not occupation.strip():
        raise NuggetError(f"an NPC needs an occupation, got {occupation!r}")
    if not is_whole(destiny) or destiny < 0:
        raise NuggetError(f"Destiny Points must be a whole number >= 0, not {destiny!r}")
    if attributes is not None and not isinstance(attributes, Mapping):
        raise NuggetError(f"attributes map names to levels, such as {{'Brawn': 2}}, not {attributes!r}")
    if isinstance(skills, (str, bytes)) or not isinstance(skills, Sequence):
        raise NuggetError(f"skills are a list of Skill objects, not {skills!r}")
    levels = {attribute: 0 for attribute in ATTRIBUTE_NAMES}
    for attribute, level in (attributes or {}).items():
        levels[attribute] = check_attribute(attribute, level, creature=creature)
    written = tuple(skills)
    if any(not isinstance(skill, Skill) for skill in written) or (
            core_skill is not None and not isinstance(core_skill, Skill)):
        raise NuggetError(f"skills must be Skill objects, got {written!r} / {core_skill!r}")
    if core_skill is None:
        core_skill, written = (written[0], written[1:]) if written else (Skill(occupation, OCCUPATION_LEVEL, True), ())
    return Character(name, levels, occupation, core_skill, written, (), destiny, (), fighting_occupation)
