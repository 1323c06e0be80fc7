"""Stat blocks of NUGGET: the book's example doctor and a street thug, built with the creation rules.

Each builder makes its character with the engine (``create_character`` checks the doctor's points;
the thug is a minion with a creature's attribute range), then reads every number off the rules that
compute it.  The book shows them with ``.. node:statblock:: nugget:doctor``.
"""

from __future__ import annotations

from rules.nugget.characters import (
    Character,
    Skill,
    check_attribute,
    create_character,
    initiative_bonus,
    mental_resistance,
    physical_resistance,
)
from rules.nugget.combat import attack_pool, weapon_base
from rules.nugget.initiative import minion_initiative
from rules.nugget.registry import REGISTRY
from rules.nugget.rolls import success_distribution
from rules.statblocks import Attack, Stat, StatBlock

#: An attack line quotes the chance of at least this many successes.
SUCCESS_TARGETS = (1, 2, 3, 4, 5)


def _attributes(levels: dict[str, int]) -> tuple[Stat, ...]:
    return tuple(Stat(f"Nugget.Attribute.{name}", level) for name, level in levels.items())


def _attack(name: str, skill: str, skill_level: int, agility: int, weapon: str) -> Attack:
    dice = attack_pool(skill_level, agility)
    return Attack(f"{name} ({weapon}, base damage {weapon_base(weapon)})", "Nugget.Roll.Attack",
                  f"{skill} {skill_level} + Agility {agility:+d} at Base Dice +2: {dice} dice",
                  success_distribution(dice), SUCCESS_TARGETS, target_label="At least N successes, N =")


def doctor() -> Character:
    """The book's constructed doctor: Brains and Agility +1, core skill Medicine 2, four free levels."""
    return create_character(
        "Dr Ada Kell", {"Agility": 1, "Brains": 1}, "Doctor", Skill("Medicine", 2, occupational=True),
        [Skill("Research", 2, occupational=True), Skill("Brawling", 2, fighting=True, close_combat=True),
         Skill("Driving", 1)],
        ["Find who poisoned the river"])


@REGISTRY.statblock("doctor")
def doctor_block() -> StatBlock:
    """The doctor as a block: her attributes, the three statistics and her fists."""
    ada = doctor()
    return StatBlock(
        ada.name, "Player character (doctor)", "A country doctor with a brawler's past and one Destiny Point.",
        base=_attributes(dict(ada.attributes)),
        derived=(Stat("Nugget.Stat.Initiative", ada.initiative_bonus),
                 Stat("Nugget.Stat.PhysicalResistance", ada.physical_resistance, "dice"),
                 Stat("Nugget.Stat.MentalResistance", ada.mental_resistance, "dice"),
                 Stat("Nugget.Destiny.Points", ada.destiny)),
        attack=_attack("Punch", "Brawling", ada.skill_dice("Brawling"), ada.attribute("Agility"), "unarmed"))


#: The thug's attributes: a creature may leave the player range (Brawn +3 here).
THUG = {"Brawn": 3, "Agility": 1, "Brains": -1, "Will": 0}
THUG_FIGHTING = 2


@REGISTRY.statblock("thug")
def thug_block() -> StatBlock:
    """A minion: creature-range Brawn, Fighting 2, a big club; out at the first Hurt."""
    levels = {name: check_attribute(name, level, creature=True) for name, level in THUG.items()}
    bonus = initiative_bonus(levels["Agility"], levels["Brains"], THUG_FIGHTING)
    return StatBlock(
        "Dockside thug", "Minion", "Hired muscle: hits hard, thinks slowly, drops at the first Hurt.",
        base=_attributes(levels),
        derived=(Stat("Nugget.Stat.Initiative", bonus),
                 Stat("Nugget.NPC.MinionInitiative", minion_initiative(bonus), "phase (never rolls)"),
                 Stat("Nugget.Stat.PhysicalResistance", physical_resistance(levels["Brawn"]), "dice"),
                 Stat("Nugget.Stat.MentalResistance", mental_resistance(levels["Will"]), "dice"),
                 Stat("Nugget.NPC.Minion", 1, "Hurt takes it out")),
        attack=_attack("Club", "Fighting", THUG_FIGHTING, levels["Agility"], "big club"))
