"""Damage Rolls and hitting: how much harm a blow, a fall or an accident does.

A Damage Roll is ordinary dice notation (any number of dice plus constants, such as ``2d6+3``), unlike
the fixed 3d6 of a Verdict Roll.  The sources say that the type of damage and the target's protection
change the result but publish neither table, so both are hooks: steps applied to the rolled amount in
the order given.  Hitting picks a character's thrusting or swinging damage by whether the blow uses
leverage; the Might-to-damage table is unpublished, so the character supplies both notations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.dice import DiceSource, Dist, NotationError, parse
from rules.providers import Text
from rules.spurg.registry import REGISTRY, SpurgError
from rules.tables import Table
from rules.values import is_whole


def damage_notation_error(notation: object, reason: str) -> SpurgError:
    """Damage written in a way the dice notation cannot read."""
    return SpurgError(f"{notation!r} is not damage dice notation: {reason}")


def strike_kind_error(attack: object) -> SpurgError:
    """An attack name the hitting table does not know."""
    return SpurgError(f"unknown attack {attack!r} (known: {', '.join(STRIKE_EXAMPLES)}); "
                     "say whether it uses leverage instead")


def _damage_type(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise SpurgError(f"a damage type is text such as 'cut' (or None), not {value!r}")
    return value


#: A step between the rolled amount and the damage taken: ``step(amount, damage_type) -> amount``.
DamageStep = Callable[[int, "str | None"], int]


@dataclass(frozen=True)
class DamageResult:
    """A rolled Damage Roll: the dice shown, the rolled total and the damage finally taken."""

    notation: str
    damage_type: str | None
    dice: tuple[int, ...]
    rolled: int
    taken: int


@REGISTRY.rule("Spurg.Roll.Damage", "Damage Roll", "RL", dice="any, e.g. 2d6+3")
@dataclass(frozen=True)
class DamageRoll:
    """A Damage Roll: any dice plus constants, with an optional damage type for the hooks to read."""

    notation: str
    damage_type: str | None = None

    def __post_init__(self) -> None:
        _damage_type(self.damage_type)
        if not isinstance(self.notation, str):
            raise damage_notation_error(self.notation, "damage is written as text such as '2d6+3'")
        try:
            parse(self.notation)
        except NotationError as error:
            raise damage_notation_error(self.notation, str(error)) from None

    def dist(self) -> Dist:
        """The exact distribution of the rolled amount (before any step)."""
        return parse(self.notation).dist()

    def roll(self, source: DiceSource, steps: Iterable[DamageStep] = ()) -> DamageResult:
        """Roll from ``source`` and pass the total through ``steps`` (see :func:`damage_taken`)."""
        result = parse(self.notation).roll(source)
        dice = tuple(die.face for die in result.dice)
        taken = damage_taken(result.total, self.damage_type, steps)
        return DamageResult(self.notation, self.damage_type, dice, result.total, taken)

    def taken_dist(self, steps: Iterable[DamageStep] = ()) -> Dist:
        """The exact distribution of the damage taken after ``steps``."""
        steps = tuple(steps)
        return self.dist().map(lambda amount: damage_taken(amount, self.damage_type, steps))


@REGISTRY.rule("Spurg.Rule.DamageTaken", "Damage Taken", "DM")
def damage_taken(rolled: int, damage_type: str | None = None, steps: Iterable[DamageStep] = ()) -> int:
    """The harm actually done: the rolled amount after each step in order, never below 0.

    Steps stand in for the unpublished damage-type and protection rules (armor, resistances...).
    """
    if not is_whole(rolled):
        raise SpurgError(f"a rolled amount is a whole number, not {rolled!r}")
    _damage_type(damage_type)
    amount = rolled
    for step in steps:
        if not callable(step):
            raise SpurgError(f"a damage step is a function of (amount, damage_type), not {step!r}")
        amount = step(amount, damage_type)
        if not is_whole(amount):
            raise SpurgError(f"the step {step!r} returned {amount!r}, not a whole number")
    return max(amount, 0)


@REGISTRY.rule("Spurg.Damage.Protection", "Protection", "DM")
@dataclass(frozen=True)
class Protection:
    """A simple protection step (this book's example, not a published rule): stop ``points`` damage.

    ``against`` limits it to some damage types; empty means every type.
    """

    points: int
    against: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not is_whole(self.points) or self.points < 0:
            raise SpurgError(f"protection points must be a whole number of 0 or more, not {self.points!r}")
        if isinstance(self.against, str) or not all(isinstance(t, str) for t in self.against):
            raise SpurgError(f"protection is against a set of damage types such as {{'cut'}}, "
                                   f"not {self.against!r}")
        object.__setattr__(self, "against", frozenset(self.against))

    def __call__(self, amount: int, damage_type: str | None) -> int:
        if self.against and damage_type not in self.against:
            return amount
        return max(amount - self.points, 0)


@REGISTRY.rule("Spurg.Damage.TypeMultiplier", "Damage Type Multiplier", "DM")
@dataclass(frozen=True)
class TypeMultiplier:
    """A simple damage-type step (this book's example, not a published rule): scale some types.

    ``factors`` maps a damage type to a multiplier; the result is rounded down; other types pass.
    """

    factors: Mapping[str, Fraction | int]

    def __post_init__(self) -> None:
        if not isinstance(self.factors, Mapping):
            raise SpurgError(f"a multiplier maps damage types to factors, not {self.factors!r}")
        for damage_type, factor in self.factors.items():
            if (not isinstance(factor, (int, Fraction)) or isinstance(factor, bool) or factor < 0
                    or not isinstance(damage_type, str)):
                raise SpurgError(f"a multiplier is a damage type and a factor of 0 or more (a whole "
                                       f"number or Fraction), not {damage_type!r}: {factor!r}")

    def __call__(self, amount: int, damage_type: str | None) -> int:
        factor = Fraction(self.factors.get(damage_type, 1)) if damage_type is not None else Fraction(1)
        return int(amount * factor // 1)


@REGISTRY.table(notation=Text(r"\d{1,2}d\d{1,3}(?:[+-]\d{1,3})?", 12))
def damage_table(notation: str = "2d6+3") -> Table:
    """The exact distribution of a Damage Roll: each total, its chance and the chance of at least it."""
    dist = DamageRoll(notation).dist()
    rows = [(value, p, dist.p_ge(value)) for value, p in sorted(dist.items())]
    return Table.of(("Damage", "Probability", "At least"), rows, title=f"Damage {notation}",
                    probabilities=("Probability", "At least"))


@REGISTRY.rule("Spurg.Damage.StrikeKind", "Strike Kind", "DM")
class StrikeKind(Enum):
    """Thrusting (TH) damage for blows of mass and muscle alone, swinging (SW) for blows with leverage."""

    THRUST = "TH"
    SWING = "SW"

    @classmethod
    def of(cls, uses_leverage: bool) -> StrikeKind:
        if not isinstance(uses_leverage, bool):
            raise strike_kind_error(uses_leverage)
        return cls.SWING if uses_leverage else cls.THRUST

    @classmethod
    def for_attack(cls, attack: str) -> StrikeKind:
        """The kind of the source's example attacks (``"dagger stab"``, ``"truncheon blow"``...)."""
        try:
            return STRIKE_EXAMPLES[attack]
        except KeyError:
            raise strike_kind_error(attack) from None


#: The attacks the source names, by kind.
STRIKE_EXAMPLES: Mapping[str, StrikeKind] = {
    "dagger stab": StrikeKind.THRUST,
    "fist jab": StrikeKind.THRUST,
    "truncheon blow": StrikeKind.SWING,
}


@REGISTRY.rule("Spurg.Damage.Hitting", "Hitting", "DM")
@dataclass(frozen=True)
class Striker:
    """A character's two damage ratings, both from Might: thrusting (TH) and swinging (SW).

    The published rules derive them from Might by a table nobody has; the sheet states them.
    """

    thrust: str
    swing: str

    def __post_init__(self) -> None:
        DamageRoll(self.thrust)
        DamageRoll(self.swing)

    def strike(self, kind: StrikeKind, damage_type: str | None = None) -> DamageRoll:
        """The Damage Roll of a blow of this kind."""
        if not isinstance(kind, StrikeKind):
            raise strike_kind_error(kind)
        notation = self.thrust if kind is StrikeKind.THRUST else self.swing
        return DamageRoll(notation, damage_type)


# --- an optional rule of this book (not the source's): what damage does --------------------------

#: Hit points per point of Vitality under the optional rule.
HIT_POINTS_PER_VITALITY = 1


@REGISTRY.rule("Spurg.Optional.HitPoints", "Optional Rule: Hit Points", "DM",
               values={"per_vitality": HIT_POINTS_PER_VITALITY, "default": "off"})
@dataclass(frozen=True)
class HitPointsRule:
    """**This book's optional rule, not the source's**: a character has hit points equal to Vitality;
    damage taken comes off them, and at 0 or below the character is out of the fight.

    Off by default (``enabled=False``): damage is then recorded and does nothing, as in the source.
    """

    enabled: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.enabled, bool):
            raise SpurgError(f"enabled is True or False, not {self.enabled!r}")

    def hit_points(self, vitality: int) -> int:
        """Starting hit points: Vitality (requires the rule to be on)."""
        if not self.enabled:
            raise SpurgError("the optional hit-points rule is off: pass HitPointsRule(enabled=True)")
        if not is_whole(vitality) or vitality < 0:
            raise SpurgError(f"Vitality must be a whole number of 0 or more, not {vitality!r}")
        return vitality * HIT_POINTS_PER_VITALITY

    def out_of_fight(self, damage_so_far: int, vitality: int) -> bool:
        """Whether the damage taken so far puts the character out (always ``False`` with the rule off)."""
        if not is_whole(damage_so_far) or damage_so_far < 0:
            raise SpurgError(f"damage taken must be a whole number of 0 or more, not {damage_so_far!r}")
        if not self.enabled:
            return False
        return damage_so_far >= self.hit_points(vitality)
