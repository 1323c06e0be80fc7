"""Stat blocks of SPURG: a costed duellist built from the book's worked Speed example.

Agility 12 and Vitality 13 are the Speed example's scores; the character's points, Speed and human
range are read off the rules, and her attack is a Verdict Roll under her skill's target number.
"""

from __future__ import annotations

from rules.spurg.characters import AGILITY, CharacterSheet, describe_score
from rules.spurg.registry import REGISTRY
from rules.spurg.verdict import target_number, verdict_dist
from rules.statblocks import Attack, Stat, StatBlock

#: Her fencing skill level (this book's number) and the modifiers the attack line quotes.
FENCING = 13
MODIFIERS = (-4, -2, 0, 2)


def duellist() -> CharacterSheet:
    """Agility 12, Vitality 13 (the Speed example), Speed as bought: nothing moved."""
    return CharacterSheet(scores={"AGI": 12, "VIT": 13}, values={"VIT": 10})


@REGISTRY.statblock("duellist")
def duellist_block() -> StatBlock:
    """The duellist as a block: scores, Speed, points and her rapier's verdict odds."""
    sheet = duellist()
    agility = sheet.score("AGI")
    tns = tuple(target_number(FENCING, modifier) for modifier in MODIFIERS)
    return StatBlock(
        "Lucia Vane", "Example character (constructed)", "A quick fencer; her Vitality Value is a house price.",
        base=(Stat("Spurg.Ability.Agility", agility, describe_score(agility, "AGI")),
              Stat("Spurg.Ability.Vitality", sheet.score("VIT"))),
        derived=(Stat("Spurg.Rule.StartingSpeed", sheet.speed),
                 Stat("Spurg.Rule.AbilityCost", AGILITY.cost(agility), "CP for Agility"),
                 Stat("Spurg.Resource.CharacterPoints", sheet.cost(), "CP in all (Vitality at a house 10 CP)")),
        attack=Attack(f"Rapier (Fencing {FENCING}, modifiers {', '.join(f'{m:+d}' for m in MODIFIERS)})",
                      "Spurg.Roll.Verdict", "3d6, roll at or under the TN", verdict_dist(), tns,
                      target_label="TN", roll_under=True))
