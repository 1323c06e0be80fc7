"""Limbs and health: HP per limb, the location die, disabled limbs, the downed condition and healing.

A humanoid has four minor limbs (arms, legs) and two major ones (torso, head), numbered on a d6, the
location die.  Each limb has its own HP.  A minor limb at 0 stops working (no attack without an arm,
no movement without the legs); a lost limb never heals; a major limb at 0 downs the character.  Rest
heals every damaged limb by a Constitution roll; first aid heals one limb.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rules.dice import DiceSource
from rules.formula import Formula
from rules.nemron.nodes import MAX_RANK, rank_die
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole

#: HP of every limb.
LIMB_HP = Formula("5 + Power + Agility + Constitution")
#: Hours of rest per natural-healing roll.
REST_HEALING_HOURS = 8


class Limb(str, Enum):
    """A humanoid's six limbs."""

    RIGHT_ARM = "right arm"
    LEFT_ARM = "left arm"
    RIGHT_LEG = "right leg"
    LEFT_LEG = "left leg"
    TORSO = "torso"
    HEAD = "head"

    @property
    def major(self) -> bool:
        """Torso and head are major limbs: at 0 HP they down the character."""
        return self in MAJOR_LIMBS


MAJOR_LIMBS = frozenset({Limb.TORSO, Limb.HEAD})
ARMS = (Limb.RIGHT_ARM, Limb.LEFT_ARM)
LEGS = (Limb.RIGHT_LEG, Limb.LEFT_LEG)
#: Usable arms an attack needs (a two-handed weapon needs 2), and usable legs the movement action needs.
ARMS_TO_ATTACK, LEGS_TO_MOVE = 1, 2
# The limbs as plain module names: an enum member read off its class costs a lookup per use, and the
# body's questions are asked a few times per attack in a simulated fight.
_TORSO, _HEAD = Limb.TORSO, Limb.HEAD
_RIGHT_ARM, _LEFT_ARM = ARMS
_N_ARMS = len(ARMS)
_LIMBS = tuple(Limb)  # iterating an enum class steps through its member map: a fight builds a body per fighter

#: The published location die for humanoids: d6 face -> limb.
HUMANOID_LOCATIONS: Mapping[int, Limb] = {
    1: Limb.RIGHT_ARM, 2: Limb.LEFT_ARM, 3: Limb.RIGHT_LEG, 4: Limb.LEFT_LEG, 5: Limb.TORSO, 6: Limb.HEAD,
}


@REGISTRY.rule("Generic.Rule.LocationDie", "Location Die", "RU", dice="1d6",
            values={f"face{face}": limb.value for face, limb in HUMANOID_LOCATIONS.items()})
def location(face: int, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> Limb:
    """The limb a location-die face names (1 right arm, 2 left arm, 3 right leg, 4 left leg, 5 torso, 6 head).

    Creatures with other bodies pass their own ``table``.
    """
    try:
        return table[face]
    except (KeyError, TypeError):
        raise NemronError(f"location die face {face!r} is not in the table ({sorted(table)})") from None


def roll_location(source: DiceSource, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> Limb:
    """Roll the location die (as many sides as the table has faces) and read it."""
    return location(source.roll(len(table)), table)


@REGISTRY.rule("Generic.Attribute.HP", "Health", "E,R", formula=str(LIMB_HP), values={"base": 5})
def limb_hp(power: int, agility: int, constitution: int) -> int:
    """HP of each limb: 5 + Power + Agility + Constitution (every limb gets the full amount)."""
    for name, rank in (("Power", power), ("Agility", agility), ("Constitution", constitution)):
        if not is_whole(rank) or not 0 <= rank <= MAX_RANK:
            raise NemronError(f"{name} rank {rank!r} must be a whole number from 0 to {MAX_RANK}")
    return LIMB_HP.whole(Power=power, Agility=agility, Constitution=constitution)


@dataclass(frozen=True)
class LimbDamage:
    """What one hit did to a limb: HP lost and left, and whether it disabled or downed."""

    limb: Limb
    lost: int
    hp: int
    disabled: bool
    downed: bool


def _amount(value: int, what: str) -> int:
    if not is_whole(value) or value < 0:
        raise NemronError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


@dataclass
class Body:
    """HP per limb.  HP never drops below 0: damage beyond a limb's last point is lost."""

    max_hp: int
    hp: dict[Limb, int] = field(default_factory=dict)
    lost: set[Limb] = field(default_factory=set)

    def __post_init__(self) -> None:
        _amount(self.max_hp, "maximum HP")
        given = self.hp
        self.hp = {limb: given.get(limb, self.max_hp) for limb in _LIMBS}
        lost, self.lost = self.lost, set()
        for limb in lost:
            self.sever(limb)

    @classmethod
    def for_ranks(cls, power: int, agility: int, constitution: int) -> Body:
        return cls(limb_hp(power, agility, constitution))

    def _limb(self, limb: Limb | str) -> Limb:
        if isinstance(limb, Limb):
            return limb
        try:
            return Limb(limb)
        except ValueError:
            raise NemronError(f"{limb!r} is not a limb ({', '.join(known.value for known in Limb)})") from None

    def damage(self, limb: Limb | str, amount: int) -> LimbDamage:
        """Take ``amount`` damage on one limb."""
        limb = self._limb(limb)
        if amount.__class__ is not int or amount < 0:
            _amount(amount, "damage")
        hp = self.hp
        before = hp[limb]
        left = hp[limb] = before - amount if amount < before else 0
        return LimbDamage(limb, before - left, left, left == 0 and limb not in MAJOR_LIMBS, self.is_downed())

    def is_disabled(self, limb: Limb | str) -> bool:
        """A minor limb at 0 HP (or lost) can no longer be used."""
        limb = self._limb(limb)
        return self.hp[limb] == 0 and limb not in MAJOR_LIMBS

    def usable(self, limbs: tuple[Limb, ...]) -> int:
        """How many of ``limbs`` still work."""
        return sum([not self.is_disabled(limb) for limb in limbs])

    def can_attack(self, arms_needed: int = ARMS_TO_ATTACK) -> bool:
        """An attack needs a working arm to hold and swing the weapon (``arms_needed=2`` for two hands)."""
        if (arms_needed.__class__ is not int and not is_whole(arms_needed)) or not 0 <= arms_needed <= _N_ARMS:
            raise NemronError(f"arms needed must be a whole number from 0 to {_N_ARMS}, not {arms_needed!r}")
        hp = self.hp  # two arms: the sum of usable() written out, asked once per turn of a simulated fight
        return (hp[_RIGHT_ARM] != 0) + (hp[_LEFT_ARM] != 0) >= arms_needed

    def can_move(self, legs_needed: int = LEGS_TO_MOVE) -> bool:
        """The movement action needs both legs (``legs_needed=1`` lets a one-legged character hobble)."""
        if not is_whole(legs_needed) or not 0 <= legs_needed <= len(LEGS):
            raise NemronError(f"legs needed must be a whole number from 0 to {len(LEGS)}, not {legs_needed!r}")
        return self.usable(LEGS) >= legs_needed

    def sever(self, limb: Limb | str) -> Limb:
        """Mark a minor limb as broken beyond repair or cut off: 0 HP, and no healing brings it back.

        When a wound is that severe is the GM's call; a major limb cannot be lost and live.
        """
        limb = self._limb(limb)
        if limb.major:
            raise NemronError(f"the {limb.value} is a major limb: losing it is death, not a lost limb")
        self.lost.add(limb)
        self.hp[limb] = 0
        return limb

    def is_downed(self) -> bool:
        """A major limb (torso or head) at 0 HP downs the character, who starts dying."""
        hp = self.hp
        return hp[_TORSO] == 0 or hp[_HEAD] == 0

    def damaged(self) -> list[Limb]:
        """The limbs below their maximum that can still heal (a lost limb cannot)."""
        return [limb for limb in Limb if self.hp[limb] < self.max_hp and limb not in self.lost]

    def heal_limb(self, limb: Limb | str, points: int) -> int:
        """Targeted healing (first aid, a healing skill): all points go to this one limb."""
        limb = self._limb(limb)
        if limb in self.lost:
            raise NemronError(f"the {limb.value} is lost: healing cannot restore it")
        self.hp[limb] = min(self.max_hp, self.hp[limb] + _amount(points, "healing"))
        return self.hp[limb]

    def rest(self, constitution: int, source: DiceSource) -> int:
        """Eight hours of rest: roll the Constitution die; every damaged limb heals that much."""
        roll = source.roll(rank_die(constitution))
        for limb in self.damaged():
            self.heal_limb(limb, roll)
        return roll


REGISTRY.define("Generic.Condition.Disabled", "Disabled Limb", "E", implementation=Body.is_disabled,
             summary="A minor limb at 0 HP is unusable.")
REGISTRY.define("Generic.Condition.Downed", "Downed", "E", implementation=Body.is_downed,
             summary="A major limb at 0 HP: the character is down and dying.")
REGISTRY.define("Generic.Rule.LimbUse", "What a Disabled Limb Stops", "RU", implementation=Body.can_attack,
                summary="No attack without a working arm; no movement action without both legs.",
                values={"arms_to_attack": ARMS_TO_ATTACK, "legs_to_move": LEGS_TO_MOVE})
REGISTRY.define("Generic.Condition.LostLimb", "Lost Limb", "E", implementation=Body.sever,
                summary="A minor limb broken beyond repair or severed: 0 HP for good.")
REGISTRY.define("Generic.Rule.RestHealing", "Rest Healing", "RU", implementation=Body.rest,
             summary="Every 8 hours of rest, a Constitution roll heals every damaged limb.",
             values={"hours": REST_HEALING_HOURS})
REGISTRY.define("Generic.Rule.TargetedHealing", "Targeted Healing", "RU", implementation=Body.heal_limb,
             summary="Healing aimed at one limb stays on that limb.")
REGISTRY.define("Generic.Rule.Limbs", "Limbs", "RU", implementation=Limb,
             summary="Two major limbs (torso, head) and four minor ones (arms, legs).",
             values={"major": len(MAJOR_LIMBS), "minor": len(Limb) - len(MAJOR_LIMBS)})
