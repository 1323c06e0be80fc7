"""Non-player characters: how much punishment each tier takes, and how villains get their luck."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
