"""Spellcasting: menhirs, spell stones, gathering power, casting, the end-of-turn save, schools of magic.

Each menhir a sorcerer has placed puts one coloured spell stone in their bag.  This book reads the
stones' journey as bag -> active pool (by gathering power) -> discard pile (spent on a spell); a rest
puts every stone, spent or lost, back in the bag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceSource
from rules.dndalike.core import NATURAL_SUCCESS, Edge, SaveResult, die, save_succeeds, saving_throw
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.values import is_whole

#: The two ways of paying for a failed end-of-turn save.
END_OF_TURN_CHOICES = ("fatigue", "stones")


def spell_level_error(value: object) -> DndalikeError:
    return DndalikeError(f"spell level {value!r} is invalid: it must be a whole number, 1 or more")


def _spell_level(value: object) -> int:
    if not is_whole(value) or value < 1:
        raise spell_level_error(value)
    return value


# ----------------------------------------------------------------------------------- schools, menhirs

@dataclass(frozen=True)
class School:
    """A school of magic: the colour of its stones and where its menhirs must stand."""

    name: str
    colour: str
    menhir_site: str


#: The example schools of the source (two elemental, two after the fifth-edition schools).
SCHOOLS: dict[str, School] = {
    "Fire": School("Fire", "red", "mountain ley lines"),
    "Water": School("Water", "blue", "ley lines of seaside caves"),
    "Necromancy": School("Necromancy", "black", "graveyards"),
    "Transmutation": School("Transmutation", "sickly green", "the lips of chaos pits"),
}

for _school in SCHOOLS.values():
    REGISTRY.define(f"Dndalike.School.{_school.name}", _school.name, "school", implementation=School,
                 summary=f"{_school.colour.capitalize()} stones; menhirs on {_school.menhir_site}.",
                 values={"colour": _school.colour, "site": _school.menhir_site})


def school(name: str) -> School:
    try:
        return SCHOOLS[name]
    except KeyError:
        raise DndalikeError(f"unknown school of magic {name!r} (known: {', '.join(SCHOOLS)})") from None


@REGISTRY.rule("Dndalike.Rule.Menhir", "Menhir", "RU", values={"stones": 1, "starting_menhirs": 1})
@dataclass(frozen=True)
class Menhir:
    """A standing stone placed where its school demands; it gives its sorcerer one spell stone.

    A level-1 sorcerer starts with one menhir of a school of their choice, at a site their
    benefactor controls (and may destroy).
    """

    school: str
    site: str = "the sorcerer's college"

    def __post_init__(self) -> None:
        school(self.school)


# --------------------------------------------------------------------------------------- spell stones

@REGISTRY.rule("Dndalike.Resource.SpellStone", "Spell Stone", "R", values={"code": "O"})
@dataclass
class SpellStones:
    """Where a sorcerer's stones (O) are: the bag, the active pool, the discard pile, or lost.

    Stones are named by school.  Lost stones come back only with a serious rest.
    """

    bag: list[str] = field(default_factory=list)
    active: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)

    @classmethod
    def from_menhirs(cls, menhirs: Sequence[Menhir]) -> SpellStones:
        """One stone per menhir, all in the bag."""
        return cls(bag=[m.school for m in menhirs])

    def rest(self) -> None:
        """A serious rest: every stone goes back into the bag."""
        self.bag = sorted(self.bag + self.active + self.discard + self.lost)
        self.active, self.discard, self.lost = [], [], []


@REGISTRY.rule("Dndalike.Action.GatherPower", "Gather Power", "AC", values={"cost": "M, M", "speed": "slow"})
def gather_power(stones: SpellStones, source: DiceSource) -> str:
    """Draw one stone at random from the bag into the active pool, ready to be spent.

    (A spell action, although it costs two Movement dice.)  The draw rolls a die with as many sides
    as there are stones in the bag, so scripted dice decide it too.
    """
    if not stones.bag:
        raise DndalikeError("no spell stone left in the bag to gather")
    ordered = sorted(stones.bag)
    drawn = ordered[source.roll(len(ordered)) - 1]
    stones.bag.remove(drawn)
    stones.active.append(drawn)
    return drawn


@dataclass(frozen=True)
class Spell:
    """A spell: its name, level and school.  ``stones`` is the least number of stones it needs
    (the spell's level, unless the DM demands more)."""

    name: str
    level: int
    school: str
    stones: int | None = None

    def __post_init__(self) -> None:
        if not is_whole(self.level) or self.level < 1:
            raise spell_level_error(self.level)
        school(self.school)

    @property
    def stones_needed(self) -> int:
        return max(self.level, self.stones or 0)


@REGISTRY.rule("Dndalike.Rule.StonePayment", "Paying Stones for a Spell", "RU", values={"matching": 1})
def check_stones(spell: Spell, paid: Sequence[str], active: Sequence[str] | None = None) -> None:
    """A spell of level L takes at least L stones; any schools may be mixed, but at least one stone
    must be of the spell's own school.  With ``active`` given, the stones must be in the active pool.
    Raises :class:`StonePaymentError`."""
    if len(paid) < spell.stones_needed:
        raise DndalikeError(f"{spell.name!r} needs {spell.stones_needed} stone(s), paid {list(paid)}")
    for name in paid:
        school(name)
    if spell.school not in paid:
        raise DndalikeError(f"{spell.name!r} needs at least one {spell.school} stone, paid {list(paid)}")
    if active is not None:
        pool = list(active)
        for name in paid:
            if name not in pool:
                raise DndalikeError(f"stone {name!r} is not in the active pool {list(active)}")
            pool.remove(name)


@dataclass(frozen=True)
class CastOutcome:
    """A cast spell: it always works; the save decides the fatigue and whether it doubles."""

    save: SaveResult
    fatigue: int
    copies: int

    @property
    def works(self) -> bool:
        return True


@REGISTRY.rule("Dndalike.Roll.CastingSave", "Casting Save", "RL", dice="1d6",
            values={"fatigue_on_failure": 1, "fatigue_on_six": 1})
def casting_save(source: DiceSource, fatigue: int, spell_level: int, *, how: Edge = Edge.NORMAL) -> CastOutcome:
    """The save that goes with every spell, at a penalty equal to the spell's level.

    The spell is cast either way.  Failure costs 1 fatigue.  A natural 6 succeeds but also costs 1
    fatigue, and puts a free copy of the spell on the stack.
    """
    _spell_level(spell_level)
    save = saving_throw(source, fatigue, how=how, modifier=-spell_level)
    if save.natural == NATURAL_SUCCESS:
        return CastOutcome(save, 1, 1)
    return CastOutcome(save, 0 if save.success else 1, 0)


def casting_fatigue_probability(fatigue: int, spell_level: int, *, how: Edge = Edge.NORMAL) -> Fraction:
    """Exact chance a cast costs the caster 1 fatigue: a failed save or a natural 6."""
    _spell_level(spell_level)
    return sum((p for face, p in die(how).items()
                if face == NATURAL_SUCCESS or not save_succeeds(face, fatigue, modifier=-spell_level)),
               Fraction(0))


@REGISTRY.rule("Dndalike.Step.SorcererSave", "Sorcerer's End-of-Turn Save", "step",
            values={"minutes_out_of_combat": 10})
def end_of_turn_save(stones: SpellStones, fatigue: int, source: DiceSource, *, choice: str = "fatigue",
                     how: Edge = Edge.NORMAL, max_fatigue: int | None = None) -> tuple[SaveResult, int]:
    """At the end of each of their turns (every ten minutes out of combat) a sorcerer saves.

    On a failure they choose: gain 1 fatigue (``choice="fatigue"``), or lose every stone in the
    active pool and the discard pile until a serious rest (``choice="stones"``).  Fatigue is taken
    by choice, and chosen fatigue stops at the maximum: a sorcerer already at ``max_fatigue`` loses
    the stones instead.  Returns the save and the fatigue gained.
    """
    if choice not in END_OF_TURN_CHOICES:
        raise DndalikeError(f"unknown end-of-turn choice {choice!r} (use one of {', '.join(END_OF_TURN_CHOICES)})")
    if max_fatigue is not None and (not is_whole(max_fatigue) or max_fatigue < 0):
        raise DndalikeError(f"maximum fatigue must be a whole number >= 0, not {max_fatigue!r}")
    save = saving_throw(source, fatigue, how=how)
    if save.success:
        return save, 0
    if choice == "fatigue" and (max_fatigue is None or fatigue < max_fatigue):
        return save, 1
    stones.lost.extend(stones.active + stones.discard)
    stones.active, stones.discard = [], []
    return save, 0
