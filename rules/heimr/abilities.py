"""Abilities: what characters roll. Consistency and potential each have a base and a trained part.

Base consistency belongs to the ability (the GM fixes it, the same for everyone); base potential comes
from the character's attribute(s).  Training adds to either.  The standard and basic ability lists are
data tables below, registered as nodes one by one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.heimr.characters import Character, find_attribute
from rules.heimr.registry import REGISTRY, HeimrError
from rules.tables import Table
from rules.values import require_whole

Rounding = Literal["floor", "toward-zero"]

#: The range the source recommends for base consistency (its own table strays out of it).
RECOMMENDED_BASE_CONSISTENCY = range(-2, 4)


@REGISTRY.rule("Heimr.Rule.BasePotential", "Base potential", "RU")
def base_potential(*attribute_values: int, rounding: Rounding = "floor") -> int:
    """The potential an ability has untrained: its attribute, or the average of several rounded down.

    ``rounding="floor"`` (this book) rounds a negative average down too, so -0.5 becomes -1;
    ``"toward-zero"`` drops the fraction instead (-0.5 becomes 0).
    """
    if not attribute_values:
        raise HeimrError("base potential needs at least one attribute value, got none")
    values = [require_whole(v, "an attribute value", error=HeimrError) for v in attribute_values]
    mean = Fraction(sum(values), len(values))
    if rounding == "floor":
        return math.floor(mean)
    if rounding == "toward-zero":
        return math.trunc(mean)
    raise HeimrError(f"rounding must be 'floor' or 'toward-zero', not {rounding!r}")


def _trained(value: object, what: str) -> int:
    trained = require_whole(value, what, error=HeimrError)
    if trained < 0:
        raise HeimrError(f"{what} cannot be negative: {value}")
    return trained


@REGISTRY.rule("Heimr.Rule.AbilityConsistency", "Ability consistency", "RU",
               formula="base_consistency + trained_consistency")
def ability_consistency(base_consistency: int, trained_consistency: int = 0) -> int:
    """An ability's consistency: the ability's base plus what the character trained."""
    return (require_whole(base_consistency, "base consistency", error=HeimrError)
            + _trained(trained_consistency, "trained consistency"))


@REGISTRY.rule("Heimr.Rule.AbilityPotential", "Ability potential", "RU",
               formula="base_potential + trained_potential")
def ability_potential(base: int, trained_potential: int = 0) -> int:
    """An ability's potential: the base from the attributes plus what the character trained."""
    return require_whole(base, "base potential", error=HeimrError) + _trained(trained_potential, "trained potential")


@dataclass(frozen=True)
class Ability:
    """An ability as the GM publishes it: its attributes and its base consistency (``None``: the GM's call)."""

    name: str
    attributes: tuple[str, ...]
    base_consistency: int | None = None
    uses: str = ""
    wielding: str = ""

    @property
    def uid(self) -> str:
        return "Heimr.Ability." + "".join(part.capitalize() for part in self.name.split())

    def in_recommended_range(self) -> bool:
        """Whether the base consistency lies in the source's recommended -2..+3."""
        return self.base_consistency is None or self.base_consistency in RECOMMENDED_BASE_CONSISTENCY

    def challenge(self, character: Character, trained_consistency: int = 0, trained_potential: int = 0, *,
                  base_consistency: int | None = None, rounding: Rounding = "floor") -> tuple[int, int]:
        """The (consistency, potential) this character rolls with this ability."""
        base_c = self.base_consistency if base_consistency is None else base_consistency
        if base_c is None:
            raise HeimrError(f"{self.name} has no base consistency: the GM sets it (pass base_consistency=)")
        base_p = base_potential(*(character.attribute(a) for a in self.attributes), rounding=rounding)
        return (ability_consistency(base_c, trained_consistency),
                ability_potential(base_p, trained_potential))


#: One standard ability per attribute; their base consistency is left to the GM.
STANDARD_ABILITIES: tuple[Ability, ...] = (
    Ability("Brawl", ("Str",), uses="punching, kicking, grappling; fighting unarmed"),
    Ability("Agility", ("Dex",), uses="jumping, climbing, dodging"),
    Ability("Survival", ("Sta",), uses="hunting, tracking, enduring weather, thirst and hunger"),
    Ability("Perception", ("Int",), uses="spotting hidden enemies, objects and traps"),
    Ability("Persuasion", ("Soc",), uses="convincing others, given a sound argument"),
    Ability("Insight", ("Emp",), uses="reading emotions, lies and hidden intent"),
)

#: The source's table of basic abilities, with its base consistencies as printed.
BASIC_ABILITIES: tuple[Ability, ...] = (
    Ability("Knife fighting", ("Dex", "Emp"), -1,
            wielding="sword hand with the off-hand empty, or a weapon in each hand"),
    Ability("Duelling", ("Dex", "Str"), 0, wielding="sword hand, or a weapon in each hand"),
    Ability("Swordsmanship", ("Str",), 1, wielding="sword hand, or both hands"),
    Ability("Shield and sword", ("Str",), 1, wielding="sword in the sword hand, shield in the off-hand"),
    Ability("Pole arms", ("Dex", "Str"), 2, wielding="both hands"),
    Ability("Archery", ("Dex", "Int"), 4, wielding="both hands"),
    Ability("Blowguns", ("Dex",), 3, wielding="sword hand"),
    Ability("Throwing", ("Dex",), 2, wielding="sword hand"),
    Ability("Animal ken", ("Emp",), 1),
    Ability("Climbing", ("Dex",), 3),
    Ability("Crafting", ("Dex",), 3),
    Ability("Diplomacy", ("Emp", "Int"), -1),
    Ability("Intimidation", ("Soc", "Str"), 2),
    Ability("Investigation", ("Emp", "Soc"), 0),
    Ability("Medicine", ("Int", "Soc"), -2),
    Ability("Public performing", ("Int", "Soc"), 0),
    Ability("Rituals", ("Emp", "Soc"), -2),
    Ability("Scholarship", ("Int",), 3),
    Ability("Streetwise", ("Int", "Soc"), 2),
    Ability("Swimming", ("Str", "Dex"), 1),
    Ability("Thaumatology", ("Int",), 2),
    Ability("Thievery", ("Dex",), -1, uses="sneaking, lock picking"),
)

for _ability in (*STANDARD_ABILITIES, *BASIC_ABILITIES):
    for _abbreviation in _ability.attributes:
        find_attribute(_abbreviation)  # the tables only name known attributes
    _values: dict[str, int | str] = {"attributes": "/".join(_ability.attributes)}
    if _ability.base_consistency is not None:
        _values["base_consistency"] = _ability.base_consistency
    REGISTRY.define(_ability.uid, _ability.name, "AB", implementation=_ability, values=_values,
                    summary=f"Based on {' or '.join(_ability.attributes)}.")


def find_ability(name: str) -> Ability:
    """A standard or basic ability by name, ignoring case."""
    for ability in (*STANDARD_ABILITIES, *BASIC_ABILITIES):
        if isinstance(name, str) and ability.name.lower() == name.strip().lower():
            return ability
    raise HeimrError(f"no standard or basic ability named {name!r}")


def outside_recommended_range() -> tuple[str, ...]:
    """Names of basic abilities whose printed base consistency breaks the recommended range."""
    return tuple(a.name for a in BASIC_ABILITIES if not a.in_recommended_range())


@REGISTRY.table()
def standard_abilities_table() -> Table:
    """The six standard abilities with their attribute."""
    return Table.of(["Ability", "Attribute", "Used for"],
                    [(a.name, a.attributes[0], a.uses) for a in STANDARD_ABILITIES],
                    title="Standard abilities")


@REGISTRY.table()
def basic_abilities_table() -> Table:
    """The basic abilities: attribute(s) and base consistency, as the source prints them."""
    return Table.of(["Ability", "Attributes", "Base consistency", "Wielding"],
                    [(a.name, "/".join(a.attributes), a.base_consistency, a.wielding or "-")
                     for a in BASIC_ABILITIES], title="Basic abilities")
