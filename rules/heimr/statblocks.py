"""Stat blocks of Heimr: a constructed shieldmaiden, every roll read off the ability rules.

The source publishes no example character, so this book builds one (the initiative worked example's
Dexterity 2 and willpower 3 are hers).  Her consistency and potential for each ability come from
:meth:`rules.heimr.abilities.Ability.challenge`; her attack odds from the challenge's exact
distribution.
"""

from __future__ import annotations

from rules.heimr.abilities import find_ability
from rules.heimr.challenge import challenge_distribution
from rules.heimr.characters import STANDARD_ATTRIBUTES, Character, HitPoints, Willpower
from rules.heimr.fatigue import base_fatigue
from rules.heimr.registry import REGISTRY
from rules.statblocks import Attack, Stat, StatBlock

#: Requirements an attack line quotes (a defender's roll is usually in this range).
REQUIREMENTS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#: Her training in Shield and sword: one step of consistency, none of potential.
TRAINED_CONSISTENCY, TRAINED_POTENTIAL = 1, 0


def shieldmaiden() -> Character:
    """Sigrun: strong and steady, Dexterity 2; 12 hit points and 3 willpower (this book's numbers)."""
    return Character("Sigrun", {"Str": 2, "Dex": 2, "Sta": 1, "Int": 0, "Soc": 0, "Emp": 1},
                     HitPoints(12), Willpower(3))


def _signed(consistency: int, potential: int) -> str:
    return f"C{consistency:+d} P{potential:+d}"


@REGISTRY.statblock("shieldmaiden")
def shieldmaiden_block() -> StatBlock:
    """Sigrun as a block: attributes, resources, fatigue, initiative and her Shield and sword attack."""
    sigrun = shieldmaiden()
    assert sigrun.hp.current is not None and sigrun.wp.current is not None
    attributes = tuple(Stat(f"Heimr.Attribute.{a.name}", sigrun.attribute(a.name)) for a in STANDARD_ATTRIBUTES)
    ability = find_ability("Shield and sword")
    consistency, potential = ability.challenge(sigrun, TRAINED_CONSISTENCY, TRAINED_POTENTIAL)
    dexterity = sigrun.attribute("Dex")
    return StatBlock(
        sigrun.name, "Example character (constructed)", "A shield-wall veteran: hard to move, slow to tire.",
        base=(*attributes, Stat("Heimr.Resource.HitPoints", sigrun.hp.maximum),
              Stat("Heimr.Resource.Willpower", sigrun.wp.maximum)),
        derived=(Stat("Heimr.Rule.BaseFatigue", base_fatigue(sigrun.attribute("Sta"))),
                 Stat("Heimr.Action.Initiative", _signed(dexterity, sigrun.wp.current)),
                 Stat(ability.uid, _signed(consistency, potential))),
        attack=Attack("Shield and sword", "Heimr.Action.WeaponAttack",
                      f"{_signed(consistency, potential)} (trained C{TRAINED_CONSISTENCY:+d})",
                      challenge_distribution(consistency, potential), REQUIREMENTS, target_label="Requirement"))
