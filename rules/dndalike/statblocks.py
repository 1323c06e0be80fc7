"""Stat blocks of the DnDalike: Georgia, the seed's fighter, with the book's constructed stats.

Her scores are the characters chapter's worked example (16, 9, 5, 12, 18, 15), her level the
fighter-then-rogue example; every number comes from the character rules, and her attack odds from
the hitting rule applied to each face of the attack die.
"""

from __future__ import annotations

from rules.dice import Dist
from rules.dndalike.characters import Character, Stats
from rules.dndalike.combat import hits
from rules.dndalike.registry import REGISTRY
from rules.statblocks import Attack, Stat, StatBlock

#: Armour classes an attack line quotes (armour 0-4 plus a Charisma bonus of -2 to +2, and a dodge).
ARMOUR_CLASSES = (1, 2, 3, 4, 5, 6, 7)
#: Bounds wide enough for any armour class: a natural 6 hits all of them, a natural 1 none.
_LOWEST_AC, _HIGHEST_AC = -20, 20


def attack_dist(strength_bonus: int) -> Dist:
    """For each face of the attack die, the highest armour class it hits (by :func:`hits`).

    P(result >= AC) is then the chance to hit armour class AC, natural 6 and natural 1 included.
    """
    best = {}
    for natural in range(1, 7):
        hit = [ac for ac in range(_LOWEST_AC, _HIGHEST_AC + 1) if hits(natural + strength_bonus, natural, ac)]
        best[natural] = max(hit, default=_LOWEST_AC - 1)
    return Dist.from_outcomes(best.values())


def georgia() -> Character:
    """Georgia: the constructed stats, a fighter power then a rogue power, heavy armour, a sword and a free hand."""
    return Character(Stats(16, 9, 5, 12, 18, 15), ("Fighter", "Rogue"), "Heavy Armour", ("weapon", "free hand"))


def _block(character: Character, name: str, kind: str, summary: str, weapon: str) -> StatBlock:
    """A character as a block: six stats, level, health, fatigue, armour, action dice and the weapon's odds."""
    stats = tuple(Stat(f"Dndalike.Stat.{stat}", character.stats.score(stat)) for stat in
                  ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma"))
    strength = character.stats.bonus("Str")
    return StatBlock(
        name, kind, summary, base=stats,
        derived=(Stat("Dndalike.Derived.Level", character.level),
                 Stat("Dndalike.Derived.Health", character.health),
                 Stat("Dndalike.Derived.MaximumFatigue", character.maximum_fatigue),
                 Stat("Dndalike.Derived.ArmourClass", character.armour_class),
                 Stat("Dndalike.Derived.PermanentFatigue", character.permanent_fatigue),
                 Stat("Dndalike.Rule.ActionDice", str(character.kit))),
        attack=Attack(f"{weapon} (Strength bonus {strength:+d})", "Dndalike.Rule.Hitting",
                      f"attack die d6{strength:+d}; 6 always hits, 1 always misses", attack_dist(strength),
                      ARMOUR_CLASSES, target_label="AC"))


@REGISTRY.statblock("georgia")
def georgia_block() -> StatBlock:
    """Georgia: the seed's fighter, in heavy armour with a sword and a free hand."""
    return _block(georgia(), "Georgia", "Player character (fighter 2)",
                  "The seed's fighter, in heavy armour with a sword and a free hand.", "Sword")


def orc() -> Character:
    """The seed's orc has armour class 2; this book gives it light armour, average Charisma and these stats."""
    return Character(Stats(14, 10, 15, 6, 9, 8), ("Fighter",), "Light Armour", ("weapon", "free hand"))


@REGISTRY.statblock("orc")
def orc_block() -> StatBlock:
    """The orc Georgia fights in the seed's example: a lesser character, so only its wound count is public."""
    return _block(orc(), "Orc", "Lesser character (fighter 1)",
                  "The seed's orc, with armour class 2 as the example gives it; its other numbers are this book's.",
                  "Axe")
