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


@REGISTRY.statblock("georgia")
def georgia_block() -> StatBlock:
    """Georgia as a block: six stats, level, health, fatigue, armour and her sword's odds."""
    hero = georgia()
    stats = tuple(Stat(f"Dndalike.Stat.{name}", hero.stats.score(name)) for name in
                  ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma"))
    strength = hero.stats.bonus("Str")
    return StatBlock(
        "Georgia", "Player character (fighter 2)", "The seed's fighter, in heavy armour with a sword and a free hand.",
        base=stats,
        derived=(Stat("Dndalike.Derived.Level", hero.level),
                 Stat("Dndalike.Derived.Health", hero.health),
                 Stat("Dndalike.Derived.MaximumFatigue", hero.maximum_fatigue),
                 Stat("Dndalike.Derived.ArmourClass", hero.armour_class),
                 Stat("Dndalike.Derived.PermanentFatigue", hero.permanent_fatigue),
                 Stat("Dndalike.Rule.ActionDice", str(hero.kit))),
        attack=Attack(f"Sword (Strength bonus {strength:+d})", "Dndalike.Rule.Hitting",
                      f"attack die d6{strength:+d}; 6 always hits, 1 always misses", attack_dist(strength),
                      ARMOUR_CLASSES, target_label="AC"))
