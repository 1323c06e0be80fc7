"""Core rules: saving throws, advantage and disadvantage, success, and fatigue.

Everything here is one d6 at a time.  The saving throw is the game's universal test (d6 against
current fatigue), so its exact odds are computed once, from the dice engine, for every fatigue level.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.dice import DiceSource, Dist, advantage, disadvantage
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.providers import Choice, Int
from rules.tables import Table
from rules.values import is_whole, require_whole

#: The faces of the game's only die.
SIDES = 6
NATURAL_SUCCESS = 6
NATURAL_FAILURE = 1


def fatigue_limit_error(current: int, amount: int, maximum: int) -> DndalikeError:
    """Voluntary fatigue past the maximum."""
    return DndalikeError(f"cannot voluntarily gain {amount} fatigue at {current}: the maximum is {maximum}")


def edge_error(value: object) -> DndalikeError:
    return DndalikeError(f"{value!r} is not an edge (normal, advantage or disadvantage)")


def face_error(face: object) -> DndalikeError:
    return DndalikeError(f"face {face!r} is not a face of a d6 (1 to 6)")


# ----------------------------------------------------------------------- advantage and disadvantage

class Edge(Enum):
    """How a single die is rolled: once, or twice keeping the higher or the lower."""

    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


@REGISTRY.rule("Dndalike.Rule.Advantage", "Advantage and Disadvantage", "RU", values={"dice": 2})
def edge(advantages: int | bool = 0, disadvantages: int | bool = 0, *, cancel: str = "any") -> Edge:
    """The edge a roll ends up with once advantage and disadvantage have cancelled.

    ``cancel="any"`` (the default) reads "they cancel each other out" literally: any advantage and
    any disadvantage together give a normal roll, however many of each.  ``cancel="count"`` lets
    them cancel one for one, so the side with more sources keeps its edge.
    """
    for value in (advantages, disadvantages):
        if not isinstance(value, int):
            raise edge_error((advantages, disadvantages))
    a, d = int(advantages), int(disadvantages)
    if a < 0 or d < 0:
        raise edge_error((advantages, disadvantages))
    if cancel == "any":
        a, d = int(a > 0), int(d > 0)
    elif cancel != "count":
        raise DndalikeError(f"unknown cancellation rule {cancel!r} (use 'any' or 'count')")
    if a > d:
        return Edge.ADVANTAGE
    if d > a:
        return Edge.DISADVANTAGE
    return Edge.NORMAL


def die(how: Edge = Edge.NORMAL) -> Dist:
    """The distribution of the kept face of one d6 rolled with ``how``."""
    if not isinstance(how, Edge):
        raise edge_error(how)
    d6 = Dist.die(SIDES)
    if how is Edge.ADVANTAGE:
        return advantage(d6)
    if how is Edge.DISADVANTAGE:
        return disadvantage(d6)
    return d6


@dataclass(frozen=True)
class DieRoll:
    """The faces rolled for one game die and the face kept."""

    faces: tuple[int, ...]
    kept: int


def roll_die(source: DiceSource, how: Edge = Edge.NORMAL) -> DieRoll:
    """Roll one game die through ``source``: two faces with an edge, one without."""
    if not isinstance(how, Edge):
        raise edge_error(how)
    if how is Edge.NORMAL:
        face = source.roll(SIDES)
        return DieRoll((face,), face)
    faces = (source.roll(SIDES), source.roll(SIDES))
    kept = max(faces) if how is Edge.ADVANTAGE else min(faces)
    return DieRoll(faces, kept)


# ---------------------------------------------------------------------------------------- success

@REGISTRY.rule("Dndalike.Rule.Success", "Success", "RU")
def succeeds(value: int, opposing: int) -> bool:
    """An action succeeds when its die value meets or beats the opposing value *at resolution time*."""
    return (require_whole(value, "die value", error=DndalikeError)
            >= require_whole(opposing, "opposing value", error=DndalikeError))


# ------------------------------------------------------------------------------------ saving throw

@REGISTRY.rule("Dndalike.Rule.NaturalResults", "Natural 6 and Natural 1", "RU",
            values={"success": NATURAL_SUCCESS, "failure": NATURAL_FAILURE})
def natural_result(face: int) -> bool | None:
    """A natural 6 always succeeds and a natural 1 always fails, whatever the numbers say.

    Returns ``True``, ``False`` or ``None`` (the face decides nothing by itself).  "Natural" means the
    face on the die, before any bonus or penalty.
    """
    if not is_whole(face) or not 1 <= face <= SIDES:
        raise face_error(face)
    if face == NATURAL_SUCCESS:
        return True
    if face == NATURAL_FAILURE:
        return False
    return None


def save_succeeds(face: int, fatigue: int, *, modifier: int = 0) -> bool:
    """Whether a kept ``face`` saves against ``fatigue``; ``modifier`` is added to the face
    (a spell's level is a negative modifier, the Intelligence bonus on skill rolls a positive one)."""
    require_whole(fatigue, "fatigue", minimum=0, error=DndalikeError)
    require_whole(modifier, "modifier", error=DndalikeError)
    natural = natural_result(face)
    if natural is not None:
        return natural
    return succeeds(face + modifier, fatigue)


@REGISTRY.rule("Dndalike.Roll.SavingThrow", "Saving Throw", "RL", dice="1d6")
def save_probability(fatigue: int, *, how: Edge = Edge.NORMAL, modifier: int = 0) -> Fraction:
    """The exact chance that a saving throw (d6 against current fatigue) succeeds.

    Low fatigue cannot push the chance above 5/6 (a natural 1 fails) and high fatigue cannot push it
    below 1/6 (a natural 6 saves): the game never offers certainty.
    """
    require_whole(fatigue, "fatigue", minimum=0, error=DndalikeError)
    require_whole(modifier, "modifier", error=DndalikeError)
    return sum((p for face, p in die(how).items() if save_succeeds(face, fatigue, modifier=modifier)),
               Fraction(0))


@dataclass(frozen=True)
class SaveResult:
    """A rolled saving throw."""

    roll: DieRoll
    fatigue: int
    modifier: int
    success: bool

    @property
    def natural(self) -> int:
        return self.roll.kept


def saving_throw(source: DiceSource, fatigue: int, *, how: Edge = Edge.NORMAL, modifier: int = 0) -> SaveResult:
    """Roll a saving throw through ``source``."""
    require_whole(fatigue, "fatigue", minimum=0, error=DndalikeError)
    require_whole(modifier, "modifier", error=DndalikeError)
    rolled = roll_die(source, how)
    return SaveResult(rolled, fatigue, modifier, save_succeeds(rolled.kept, fatigue, modifier=modifier))


@REGISTRY.table(highest=Int(0, 20))
def save_odds(highest: int = 7) -> Table:
    """Exact saving-throw odds for every fatigue from 0 to ``highest``, plain and with each edge."""
    require_whole(highest, "highest fatigue", minimum=0, error=DndalikeError)
    rows = [(f, save_probability(f), save_probability(f, how=Edge.ADVANTAGE),
             save_probability(f, how=Edge.DISADVANTAGE)) for f in range(highest + 1)]
    return Table.of(("Fatigue", "Save", "With advantage", "With disadvantage"), rows,
                    "Saving throw odds", probabilities=("Save", "With advantage", "With disadvantage"))


@REGISTRY.table(edge=Choice(*(e.value for e in Edge)), modifier=Int(-10, 10), highest=Int(0, 20))
def save_chances(edge: str = "normal", modifier: int = 0, highest: int = 7) -> Table:
    """One way of rolling (an edge and a modifier on the face): the chance to save at each fatigue.

    The page's odds controls vary ``edge`` and ``modifier``; the natural 6 and natural 1 still decide.
    """
    require_whole(highest, "highest fatigue", minimum=0, error=DndalikeError)
    how = Edge(edge)
    rows = [(f, save_probability(f, how=how, modifier=modifier)) for f in range(highest + 1)]
    title = f"Saving throw, {how.value}, modifier {modifier:+d}"
    return Table.of(("Fatigue", "Save"), rows, title, probabilities=("Save",))


# ------------------------------------------------------------------------------------------ fatigue

@dataclass(frozen=True)
class FatigueGain:
    """The fatigue after a gain, and the wounds that gain caused by going past the maximum."""

    fatigue: int
    wounds: int


@REGISTRY.rule("Dndalike.Resource.Fatigue", "Fatigue", "R", values={"wounds_per_excess": 1})
def gain_fatigue(current: int, amount: int, maximum: int, *, voluntary: bool = True) -> FatigueGain:
    """Add fatigue.  A character may only choose to go up to the maximum; the world can push them past
    it, and every point past the maximum is also a wound.

    Voluntary fatigue beyond the maximum raises :class:`FatigueLimitError`.
    """
    require_whole(current, "current fatigue", minimum=0, error=DndalikeError)
    require_whole(amount, "fatigue gained", minimum=0, error=DndalikeError)
    require_whole(maximum, "maximum fatigue", minimum=0, error=DndalikeError)
    new = current + amount
    if voluntary and new > maximum:
        raise fatigue_limit_error(current, amount, maximum)
    wounds = new - max(current, maximum) if new > maximum else 0
    return FatigueGain(new, wounds)


def fatigue_headroom(current: int, maximum: int) -> int:
    """How much more fatigue a character may still take on voluntarily."""
    return max(0, require_whole(maximum, "maximum fatigue", minimum=0, error=DndalikeError)
               - require_whole(current, "current fatigue", minimum=0, error=DndalikeError))
