"""Characters: nine attributes in three lines, frames, creation and movement.

A character sheet holds ranks: nine attributes (Body, Mind and Spirit lines of three), skills, and
derived numbers the other chapters compute (Energy, HP per limb).  A frame (the character's race or
species) bounds each attribute; creation hands out seven rank-1 skills and 5 XP.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rules.nemron.checks import Pool
from rules.nemron.nodes import MAX_RANK, rank_die
from rules.nemron.registry import REGISTRY, NemronError
from rules.nodes import Ranks
from rules.values import is_whole


class Line(str, Enum):
    """The three attribute lines."""

    BODY = "Body"
    MIND = "Mind"
    SPIRIT = "Spirit"


class Attribute(str, Enum):
    """The nine attributes, each always adding its rank die to a pool."""

    POWER = "Power"
    AGILITY = "Agility"
    CONSTITUTION = "Constitution"
    INTELLECT = "Intellect"
    AWARENESS = "Awareness"
    WILLPOWER = "Willpower"
    CONTROL = "Control"
    SENSE = "Sense"
    FOCUS = "Focus"

    @property
    def line(self) -> Line:
        return attribute_line(self)


class UnknownAttributeError(NemronError):
    """A name that is not one of the nine attributes."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"{name!r} is not a Nemron attribute (known: {', '.join(a.value for a in Attribute)})")


#: Attribute lines, each with its three attributes in the published order.
LINES: Mapping[Line, tuple[Attribute, ...]] = {
    Line.BODY: (Attribute.POWER, Attribute.AGILITY, Attribute.CONSTITUTION),
    Line.MIND: (Attribute.INTELLECT, Attribute.AWARENESS, Attribute.WILLPOWER),
    Line.SPIRIT: (Attribute.CONTROL, Attribute.SENSE, Attribute.FOCUS),
}
#: The attribute that pays for long activity in each line.
UPKEEP: Mapping[Line, Attribute] = {
    Line.BODY: Attribute.CONSTITUTION,
    Line.MIND: Attribute.WILLPOWER,
    Line.SPIRIT: Attribute.FOCUS,
}

_ATTRIBUTE_TEXT = {
    Attribute.POWER: "raw physical strength: melee, lifting, forcing",
    Attribute.AGILITY: "finesse of movement, from acrobatics to playing a guitar",
    Attribute.CONSTITUTION: "fitness and resistance to physical ailments",
    Attribute.INTELLECT: "quick thinking, learning and memory",
    Attribute.AWARENESS: "noticing surroundings, objects and people, reading a social mood",
    Attribute.WILLPOWER: "resisting distraction and temptation, staying calm",
    Attribute.CONTROL: "command over one's nerves and emotions, and over magic or implants",
    Attribute.SENSE: "reading small changes in one's nerves, senses, magic or implants",
    Attribute.FOCUS: "keeping spirit-line actions going",
}
for _attribute in Attribute:
    REGISTRY.define(f"Generic.Attribute.{_attribute.value}", _attribute.value, "A",
                    summary=_ATTRIBUTE_TEXT[_attribute], implementation=_attribute, ranks=Ranks(0, MAX_RANK),
                    values={"line": next(line.value for line, attrs in LINES.items() if _attribute in attrs)})


def as_attribute(name: Attribute | str) -> Attribute:
    """Accept an :class:`Attribute` or its name (any case)."""
    if isinstance(name, Attribute):
        return name
    for attribute in Attribute:
        if isinstance(name, str) and name.strip().lower() == attribute.value.lower():
            return attribute
    raise UnknownAttributeError(name)


@REGISTRY.rule("Generic.Rule.AttributeLines", "Attribute Lines", "RU")
def attribute_line(attribute: Attribute | str) -> Line:
    """The line (Body, Mind or Spirit) an attribute belongs to."""
    attribute = as_attribute(attribute)
    return next(line for line, members in LINES.items() if attribute in members)


@REGISTRY.rule("Generic.Rule.Upkeep", "Upkeep Attribute", "RU")
def upkeep_attribute(line: Line | str) -> Attribute:
    """The attribute that carries long-lasting activity of a line: Constitution, Willpower or Focus."""
    try:
        return UPKEEP[Line(line)]
    except ValueError:
        raise UnknownAttributeError(line) from None


def _ranks(values: Mapping[Attribute | str, int]) -> dict[Attribute, int]:
    return {as_attribute(k): v for k, v in values.items()}


@REGISTRY.rule("Generic.Rule.Frame", "Frame", "RU", values={"swap": 1})
@dataclass(frozen=True)
class Frame:
    """A character's frame (race): the lowest and highest rank allowed for each attribute.

    Attributes a frame does not list run from 0 to 4.  A player may adjust a frame once with
    :meth:`swap`: one maximum up by 1 and another down by 1.
    """

    name: str
    minimum: Mapping[Attribute | str, int] = field(default_factory=dict)
    maximum: Mapping[Attribute | str, int] = field(default_factory=dict)
    swapped: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "minimum", _ranks(self.minimum))
        object.__setattr__(self, "maximum", _ranks(self.maximum))
        for attribute in Attribute:
            low, high = self.bounds(attribute)
            for bound in (low, high):
                if not is_whole(bound):
                    raise NemronError(f"frame {self.name!r}: {attribute.value} bound {bound!r} is not a whole rank")
            if not 0 <= low <= high <= MAX_RANK:
                raise NemronError(f"frame {self.name!r}: {attribute.value} bounds {low}-{high} are impossible "
                                 f"(ranks run from 0 to {MAX_RANK})")

    def bounds(self, attribute: Attribute | str) -> tuple[int, int]:
        """(lowest, highest) rank the frame allows for ``attribute``."""
        attribute = as_attribute(attribute)
        return self.minimum.get(attribute, 0), self.maximum.get(attribute, MAX_RANK)

    def swap(self, raise_max: Attribute | str, lower_max: Attribute | str) -> Frame:
        """The frame after the one allowed swap: ``raise_max``'s maximum +1, ``lower_max``'s -1."""
        up, down = as_attribute(raise_max), as_attribute(lower_max)
        if self.swapped:
            raise NemronError(f"frame {self.name!r} has already been adjusted once")
        if up is down:
            raise NemronError(f"the swap must raise and lower two different attributes, not {up.value} twice")
        maximum: dict[Attribute | str, int] = {a: self.bounds(a)[1] for a in Attribute}
        if maximum[up] >= MAX_RANK:
            raise NemronError(f"frame {self.name!r}: {up.value} already allows rank {maximum[up]}, "
                             f"the top of the rank ladder; it cannot be raised")
        maximum[up] += 1
        maximum[down] -= 1
        return Frame(self.name, dict(self.minimum), maximum, swapped=True)

    def check(self, attributes: Mapping[Attribute | str, int]) -> dict[Attribute, int]:
        """All nine attributes, each within the frame's bounds, or :class:`CharacterCreationError`."""
        ranks = _ranks(attributes)
        missing = [a.value for a in Attribute if a not in ranks]
        if missing:
            raise NemronError(f"attributes missing: {', '.join(missing)}")
        for attribute, rank in ranks.items():
            if not is_whole(rank):
                raise NemronError(f"{attribute.value} rank {rank!r} is not a whole number")
            low, high = self.bounds(attribute)
            if not low <= rank <= high:
                raise NemronError(
                    f"{attribute.value} {rank} is outside frame {self.name!r} ({low}-{high})")
        return ranks


#: Starting skills, their rank, and starting XP.
STARTING_SKILLS, STARTING_SKILL_RANK, STARTING_XP = 7, 1, 5


@dataclass
class Character:
    """A character sheet: attributes, skills (name -> rank), unspent XP, and whether it is a PC."""

    name: str
    attributes: dict[Attribute, int]
    skills: dict[str, int] = field(default_factory=dict)
    xp: int = 0
    pc: bool = True
    frame: Frame | None = None

    def rank(self, name: Attribute | str) -> int:
        """The rank of an attribute or skill by name."""
        try:
            return self.attributes[as_attribute(name)]
        except UnknownAttributeError:
            if isinstance(name, str) and name in self.skills:
                return self.skills[name]
            raise

    def pool(self, *names: Attribute | str) -> Pool:
        """The pool of the named attributes and skills, in the order given."""
        return Pool.of(*((as_attribute(n).value if _is_attribute(n) else str(n), self.rank(n)) for n in names))


def _is_attribute(name: Attribute | str) -> bool:
    try:
        as_attribute(name)
    except UnknownAttributeError:
        return False
    return True


@REGISTRY.rule("Generic.Rule.CharacterCreation", "Character Creation", "RU",
            values={"skills": STARTING_SKILLS, "skill_rank": STARTING_SKILL_RANK, "xp": STARTING_XP})
def create_character(name: str, frame: Frame, attributes: Mapping[Attribute | str, int],
                     skills: list[str] | tuple[str, ...], *, pc: bool = True) -> Character:
    """A new character: attributes inside the frame, exactly seven different skills at rank 1, 5 XP.

    The seven skills stand for what the character learned before play begins; the XP is theirs to
    spend with the progression rules.
    """
    ranks = frame.check(attributes)
    if isinstance(skills, str) or not all(isinstance(s, str) and s.strip() for s in skills):
        raise NemronError(f"starting skills must be a list of skill names, not {skills!r}")
    if len(set(skills)) != len(skills):
        raise NemronError(f"starting skills repeat a skill: {list(skills)!r}")
    if len(skills) != STARTING_SKILLS:
        raise NemronError(f"a new character takes exactly {STARTING_SKILLS} skills, not {len(skills)}")
    return Character(name, ranks, {s: STARTING_SKILL_RANK for s in skills}, STARTING_XP, pc, frame)


@REGISTRY.rule("Generic.Rule.MovementSpeed", "Movement Speed", "RU", formula="Agility * 2")
def movement_speed(agility: int) -> int:
    """Metres a character covers with one movement action: twice the Agility rank.

    Ordinary movement implies a roll of ``Agility`` that is too easy to be worth rolling.
    """
    rank_die(agility)
    return agility * 2


@REGISTRY.rule("Generic.Rule.Dash", "Dash", "RU", values={"multiplier": 2})
def dash(agility: int, power: int) -> tuple[Pool, int]:
    """Running flat out: the implied pool ``Agility › Power`` and double the movement range."""
    return Pool.of(("Agility", agility), ("Power", power)), 2 * movement_speed(agility)
