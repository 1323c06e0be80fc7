"""Damage: the fourteen damage types, where each kind of damage goes, Stress, and falling damage.

Most damage takes HP from a limb.  Neural damage drains Energy instead and Psychic damage becomes
Stress.  A fall deals 1 damage per 3 metres as area damage, kinetic or crushing by the surface, and
ignores armour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from rules.nemron.energy import Energy
from rules.nemron.health import Body, Limb
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole


class DamageType(str, Enum):
    """The fourteen damage types of the published book."""

    ACOUSTIC = "Acoustic"
    BALLISTIC = "Ballistic"
    COLD = "Cold"
    CORROSIVE = "Corrosive"
    CRUSHING = "Crushing"
    HOLY = "Holy"
    KINETIC = "Kinetic"
    NEURAL = "Neural"
    PIERCING = "Piercing"
    PSYCHIC = "Psychic"
    TOXIC = "Toxic"
    SLASHING = "Slashing"
    HEAT = "Heat"
    ELECTRIC = "Electric"


class Track(str, Enum):
    """What a point of damage reduces."""

    HP = "HP"
    ENERGY = "Energy"
    STRESS = "Stress"


#: Damage types that do not take HP, and what they take instead.
DAMAGE_TARGETS: Mapping[DamageType, Track] = {DamageType.NEURAL: Track.ENERGY, DamageType.PSYCHIC: Track.STRESS}

_DAMAGE_TEXT = {
    DamageType.NEURAL: "drains the target's Energy instead of HP",
    DamageType.PSYCHIC: "becomes Stress instead of HP loss",
}
for _type in DamageType:
    REGISTRY.define(f"Generic.Damage.{_type.value}", _type.value, "E", implementation=_type,
                 summary=f"{_type.value} damage " + _DAMAGE_TEXT.get(_type, "takes HP from a limb"),
                 values={"reduces": DAMAGE_TARGETS.get(_type, Track.HP).value})


def as_damage_type(value: DamageType | str) -> DamageType:
    """Accept a :class:`DamageType` or its name (any case)."""
    if isinstance(value, DamageType):
        return value
    for damage_type in DamageType:
        if isinstance(value, str) and value.strip().lower() == damage_type.value.lower():
            return damage_type
    raise NemronError(f"{value!r} is not a damage type ({', '.join(t.value for t in DamageType)})")


def damage_target(damage_type: DamageType | str) -> Track:
    """What damage of a type reduces: Energy for Neural, Stress for Psychic, limb HP for the rest."""
    return DAMAGE_TARGETS.get(as_damage_type(damage_type), Track.HP)


@REGISTRY.rule("Generic.Rule.DamageRouting", "Damage Routing", "RU")
def deal_damage(amount: int, damage_type: DamageType | str, *, body: Body, limb: Limb | str,
                energy: Energy | None = None, stress: Stress | None = None) -> Track:
    """Deal ``amount`` damage of a type where it belongs and say where that was.

    Neural damage drains ``energy`` and Psychic damage adds to ``stress``, *instead of* taking HP;
    every other type takes HP from ``limb`` of ``body``.
    """
    if (amount.__class__ is not int and not is_whole(amount)) or amount < 0:  # (a plain int: no call)
        raise NemronError(f"damage must be a whole number of at least 0, not {amount!r}")
    track = (DAMAGE_TARGETS.get(damage_type, Track.HP) if damage_type.__class__ is DamageType
             else damage_target(damage_type))
    if track is Track.ENERGY:
        if energy is None:
            raise NemronError("Neural damage needs the target's Energy")
        energy.drain(amount)
    elif track is Track.STRESS:
        if stress is None:
            raise NemronError("Psychic damage needs the target's Stress")
        stress.add(amount)
    else:
        body.damage(limb, amount)
    return track


@REGISTRY.rule("Generic.Trait.Stress", "Stress", "E,R")
@dataclass
class Stress:
    """Accumulated mental strain: Psychic damage adds to it, rank by rank.

    The rules page this book follows names Stress only as the place Psychic damage goes; it has no
    maximum here and nothing removes it.
    """

    rank: int = 0

    def add(self, amount: int) -> int:
        """Take ``amount`` Psychic damage as Stress and return the new rank."""
        if not is_whole(amount) or amount < 0:
            raise NemronError(f"Stress gained must be a whole number of at least 0, not {amount!r}")
        self.rank += amount
        return self.rank


#: Metres of fall per point of damage.
METRES_PER_FALL_DAMAGE = 3
#: Surface -> damage type, as the book's guideline lists them.
FALL_SURFACES: Mapping[str, DamageType] = {
    "water": DamageType.KINETIC,
    "sand": DamageType.KINETIC,
    "grass": DamageType.KINETIC,
    "flat ground": DamageType.KINETIC,
    "concrete": DamageType.CRUSHING,
    "smooth rock": DamageType.CRUSHING,
}


@dataclass(frozen=True)
class Fall:
    """The damage of a fall: an amount of area damage of one type that armour does not stop."""

    amount: int
    damage_type: DamageType
    area: bool = True
    ignores_armour: bool = True


@REGISTRY.rule("Generic.Rule.FallingDamage", "Falling Damage", "RU", formula="floor(metres / 3)",
            values={"metres_per_point": METRES_PER_FALL_DAMAGE})
def falling_damage(metres: float, surface: str = "flat ground", *, armour_protects: bool = False) -> Fall:
    """A fall: 1 damage per full 3 metres, dealt as area damage, typed by the surface hit.

    Soft or flat ground (water, sand, grass, flat ground) deals Kinetic damage; concrete or smooth rock
    Crushing.  Armour is ignored unless it is made to protect against falls (``armour_protects``).  The
    GM may add Dazed or Stagger.
    """
    if isinstance(metres, bool) or not isinstance(metres, (int, float)) or not 0 <= metres < math.inf:
        raise NemronError(f"a fall of {metres!r} m: the height must be a number of metres, at least 0")
    key = surface.strip().lower() if isinstance(surface, str) else surface
    if key not in FALL_SURFACES:
        raise NemronError(f"no falling-damage guideline for surface {surface!r} "
                                  f"(known: {', '.join(FALL_SURFACES)})")
    return Fall(int(metres // METRES_PER_FALL_DAMAGE), FALL_SURFACES[key], ignores_armour=not armour_protects)
