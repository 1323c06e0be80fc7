"""Characters: the four attributes, skills, occupation, goals and the numbers derived from them.

:func:`create_character` checks a new player character against every creation rule and builds a
:class:`Character`; the derived numbers (initiative bonus, resistances) are its properties.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.budgets import budget_values, cap_values
from rules.formula import Formula
from rules.nodes import Ranks
from rules.nugget.registry import REGISTRY, NuggetError
from rules.values import require_whole

#: Attribute ranges: player characters and ordinary people, and creatures beyond the human range.
PC_ATTRIBUTE_RANGE = (-1, 2)
CREATURE_ATTRIBUTE_RANGE = (-2, 4)
#: Points a player character spends on attributes; each attribute taken at -1 adds one more.
ATTRIBUTE_POINTS = 2
#: Skill levels and their names.
SKILL_LEVELS: Mapping[int, str] = {1: "Basic", 2: "Professional", 3: "Expert", 4: "Master"}
#: The level the occupation gives its whole cluster of skills, and the core skill's level.
OCCUPATION_LEVEL = 1
CORE_SKILL_LEVEL = 2
#: Skill levels a new character allocates freely.
FREE_SKILL_LEVELS = 4
#: How many goals a character writes down.
MIN_GOALS, MAX_GOALS = 1, 3
#: Resistances are this many dice plus the attribute.
RESISTANCE_BASE = 2
#: Destiny Points a new character starts with.
STARTING_DESTINY = 1


@dataclass(frozen=True)
class Attribute:
    """One of the four natural talents every character is rated in."""

    name: str
    covers: str


ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute("Brawn", "strength, toughness, stamina"),
    Attribute("Agility", "speed, coordination, flexibility"),
    Attribute("Brains", "noticing, remembering, working things out"),
    Attribute("Will", "determination, self-control, charisma"),
)
ATTRIBUTE_NAMES = tuple(a.name for a in ATTRIBUTES)
#: What an attribute level means.
ATTRIBUTE_LEVELS: Mapping[int, str] = {-1: "poor", 0: "average", 1: "talented", 2: "exceptional"}

for _attribute in ATTRIBUTES:
    REGISTRY.define(f"Nugget.Attribute.{_attribute.name}", _attribute.name, "A",
                    summary=f"Natural talent for {_attribute.covers}.", implementation=_attribute,
                    ranks=Ranks(*PC_ATTRIBUTE_RANGE), values={"covers": _attribute.covers})


def attribute_level(level: object, what: str = "attribute level") -> int:
    """Check an attribute level used in a sum: a whole number in the widest (creature) range, -2..+4."""
    low, high = CREATURE_ATTRIBUTE_RANGE
    checked = require_whole(level, what, error=NuggetError)
    if not low <= checked <= high:
        raise NuggetError(f"{what} {checked:+d} is outside {low:+d}..{high:+d}")
    return checked


@REGISTRY.rule("Nugget.Rule.AttributeRange", "Attribute Range", "RU",
               values={"pc_low": PC_ATTRIBUTE_RANGE[0], "pc_high": PC_ATTRIBUTE_RANGE[1],
                       "creature_low": CREATURE_ATTRIBUTE_RANGE[0],
                       "creature_high": CREATURE_ATTRIBUTE_RANGE[1]})
def check_attribute(name: str, level: int, *, creature: bool = False) -> int:
    """Validate one attribute: people stay within -1..+2, creatures may reach -2..+4."""
    if name not in ATTRIBUTE_NAMES:
        raise NuggetError(f"unknown attribute {name!r} (known: {', '.join(ATTRIBUTE_NAMES)})")
    low, high = CREATURE_ATTRIBUTE_RANGE if creature else PC_ATTRIBUTE_RANGE
    if not low <= require_whole(level, f"{name} level", error=NuggetError) <= high:
        raise NuggetError(f"{name} {level:+d} is outside {low:+d}..{high:+d}")
    return level


@REGISTRY.rule("Nugget.Rule.AttributeDice", "Attribute Dice", "RU")
def attribute_dice(level: int) -> tuple[int, int]:
    """(Advantages, Disadvantages) an attribute brings to a pool: each point above 0 is an Advantage,
    each point below 0 a Disadvantage."""
    attribute_level(level)
    return max(level, 0), max(-level, 0)


#: Points the attributes spend, net: each level above 0 costs a point, an attribute at -1 gives one back.
ATTRIBUTE_POINTS_SPENT = Formula(" + ".join(a.name for a in ATTRIBUTES))
#: How many attributes are below 0 (each such term is 1 below 0 and 0 from 0 up).
POOR_ATTRIBUTES_COUNT = Formula(" + ".join(f"min(1, max(0, -{a.name}))" for a in ATTRIBUTES))
#: How many attributes a new character may take at -1.
MAX_POOR_ATTRIBUTES = 1


@REGISTRY.rule("Nugget.Rule.AttributePoints", "Attribute Points", "RU", formula=ATTRIBUTE_POINTS_SPENT,
               values={"points": ATTRIBUTE_POINTS, **budget_values(ATTRIBUTE_POINTS)})
def attribute_budget(levels: Mapping[str, int], *, max_poor: int = MAX_POOR_ATTRIBUTES) -> int:
    """Check a player character's attributes spend exactly their points; return the points spent.

    Every level above 0 costs one point; each attribute at -1 (at most ``max_poor`` of them) gives
    one more point to spend.  The net sum of the levels (:data:`ATTRIBUTE_POINTS_SPENT`, what the
    sheet counts) must come to the budget.
    """
    for name, level in levels.items():
        check_attribute(name, level)
    every = {name: levels.get(name, 0) for name in ATTRIBUTE_NAMES}
    poor = int(POOR_ATTRIBUTES_COUNT.evaluate(every))
    if poor > max_poor:
        raise NuggetError(f"{poor} attributes at -1, but at most {max_poor} may be")
    spent = sum(level for level in levels.values() if level > 0)
    budget = ATTRIBUTE_POINTS + poor
    if ATTRIBUTE_POINTS_SPENT.evaluate(every) != ATTRIBUTE_POINTS:
        raise NuggetError(f"attributes spend {spent} points; a new character spends exactly {budget}")
    return spent


REGISTRY.define("Nugget.Rule.PoorAttributes", "Attributes at -1", "RU", formula=POOR_ATTRIBUTES_COUNT,
                summary="A new character may take one attribute at -1, for one more point to spend.",
                values=cap_values(MAX_POOR_ATTRIBUTES, choices=range(1, len(ATTRIBUTES) + 1)))


@dataclass(frozen=True)
class Skill:
    """A written-down skill. ``occupational`` skills sit in the occupation's cluster (which gives
    them level 1 for free); ``fighting`` and ``close_combat`` mark the skills combat cares about."""

    name: str
    level: int
    occupational: bool = False
    fighting: bool = False
    close_combat: bool = False

    def __post_init__(self) -> None:
        check_skill_level(self.level, self.name)

    @property
    def grade(self) -> str:
        return SKILL_LEVELS[self.level]


@REGISTRY.rule("Nugget.Skill.Level", "Skill Level", "S",
               values={"min": min(SKILL_LEVELS), "max": max(SKILL_LEVELS)})
def check_skill_level(level: int, name: str = "skill") -> int:
    """Skills run from 1 (Basic) through Professional and Expert to 4 (Master); each level is a die."""
    if require_whole(level, f"{name} level", error=NuggetError) not in SKILL_LEVELS:
        raise NuggetError(f"{name} level {level} is outside 1..4")
    return level


@REGISTRY.rule("Nugget.Char.Occupation", "Occupation", "Char", values={"level": OCCUPATION_LEVEL})
def skill_dice(skills: Sequence[Skill], skill: str | None, *, fits_occupation: bool = False) -> int:
    """Advantages a character's skills give an action.

    A written-down skill that applies gives its level.  Otherwise, an action that fits the
    occupation gets one Advantage from the occupation's cluster of skills.
    """
    for written in skills:
        if written.name == skill:
            return written.level
    return OCCUPATION_LEVEL if fits_occupation else 0


@REGISTRY.rule("Nugget.Char.CoreSkill", "Core Skill", "Char", values={"level": CORE_SKILL_LEVEL})
def skill_cost(skill: Skill, *, core: bool = False) -> int:
    """Free skill levels a written skill uses at creation.

    The core skill starts at level 2 and occupational skills at 1 for nothing; only raising them
    costs free levels.  Any other (hobby) skill pays for every level.
    """
    start = CORE_SKILL_LEVEL if core else OCCUPATION_LEVEL if skill.occupational else 0
    if skill.level < start:
        raise NuggetError(f"{skill.name} level {skill.level} is below its starting level {start}")
    return skill.level - start


@REGISTRY.rule("Nugget.Char.FreeSkillLevels", "Free Skill Levels", "Char",
               values={"levels": FREE_SKILL_LEVELS})
def check_skill_budget(core: Skill, skills: Sequence[Skill]) -> int:
    """A new character spends exactly four free skill levels on hobbies or on raising work skills."""
    spent = skill_cost(core, core=True) + sum(skill_cost(skill) for skill in skills)
    if spent != FREE_SKILL_LEVELS:
        raise NuggetError(f"skills use {spent} free levels; a new character uses exactly {FREE_SKILL_LEVELS}")
    return spent


@REGISTRY.rule("Nugget.Char.Goals", "Goals", "Char", values={"min": MIN_GOALS, "max": MAX_GOALS})
def check_goals(goals: Sequence[str]) -> tuple[str, ...]:
    """One to three things the character cares about; they steer Destiny Points."""
    if isinstance(goals, str):
        raise NuggetError(f"goals must be a list of goals, not the single text {goals!r}")
    goals = tuple(goals)
    for goal in goals:
        if not isinstance(goal, str) or not goal.strip():
            raise NuggetError(f"a goal must be a non-empty piece of text, not {goal!r}")
    if not MIN_GOALS <= len(goals) <= MAX_GOALS:
        raise NuggetError(f"{len(goals)} goals given; write down {MIN_GOALS} to {MAX_GOALS}")
    return goals


@REGISTRY.rule("Nugget.Stat.Initiative", "Initiative Bonus", "Stat",
               formula="Agility + Brains + highest_fighting")
def initiative_bonus(agility: int, brains: int, highest_fighting: int = 0) -> int:
    """Agility and Brains plus the best Fighting skill level; negative attributes lower it, even below 0."""
    attribute_level(agility, "Agility")
    attribute_level(brains, "Brains")
    if highest_fighting != 0:
        check_skill_level(highest_fighting, "highest Fighting skill")
    return agility + brains + highest_fighting


@REGISTRY.rule("Nugget.Rule.OccupationFighting", "Fighting Occupation", "RU", values={"level": OCCUPATION_LEVEL})
def highest_fighting_level(skills: Sequence[Skill], *, fighting_occupation: bool = False) -> int:
    """The Fighting level initiative counts: the best written Fighting skill, and at least the
    occupation's level 1 when the occupation's cluster covers fighting (a soldier, a barbarian)."""
    if not isinstance(fighting_occupation, bool):
        raise NuggetError(f"fighting_occupation is True or False, not {fighting_occupation!r}")
    written = max((s.level for s in skills if s.fighting), default=0)
    return max(written, OCCUPATION_LEVEL if fighting_occupation else 0)


@REGISTRY.rule("Nugget.Stat.PhysicalResistance", "Physical Resistance", "Stat", formula="2 + Brawn")
def physical_resistance(brawn: int) -> int:
    """Dice rolled to shrug off physical harm: two plus Brawn (never fewer than none)."""
    return max(0, RESISTANCE_BASE + attribute_level(brawn, "Brawn"))


@REGISTRY.rule("Nugget.Stat.MentalResistance", "Mental Resistance", "Stat", formula="2 + Will")
def mental_resistance(will: int) -> int:
    """Dice rolled to withstand fear, strain and mind attacks: two plus Will (never fewer than none)."""
    return max(0, RESISTANCE_BASE + attribute_level(will, "Will"))


@dataclass(frozen=True)
class Character:
    """A checked character sheet; build player characters with :func:`create_character`."""

    name: str
    attributes: Mapping[str, int]
    occupation: str
    core_skill: Skill
    skills: tuple[Skill, ...] = ()
    goals: tuple[str, ...] = ()
    destiny: int = STARTING_DESTINY
    equipment: tuple[str, ...] = field(default=())
    #: Whether the occupation's cluster of skills covers fighting (it then counts for initiative).
    fighting_occupation: bool = False

    def attribute(self, name: str) -> int:
        if name not in ATTRIBUTE_NAMES:
            raise NuggetError(f"unknown attribute {name!r} (known: {', '.join(ATTRIBUTE_NAMES)})")
        return self.attributes.get(name, 0)

    @property
    def all_skills(self) -> tuple[Skill, ...]:
        return (self.core_skill, *self.skills)

    def skill_dice(self, skill: str | None, *, fits_occupation: bool = False) -> int:
        return skill_dice(self.all_skills, skill, fits_occupation=fits_occupation)

    @property
    def highest_fighting(self) -> int:
        return highest_fighting_level(self.all_skills, fighting_occupation=self.fighting_occupation)

    @property
    def initiative_bonus(self) -> int:
        return initiative_bonus(self.attribute("Agility"), self.attribute("Brains"), self.highest_fighting)

    @property
    def physical_resistance(self) -> int:
        return physical_resistance(self.attribute("Brawn"))

    @property
    def mental_resistance(self) -> int:
        return mental_resistance(self.attribute("Will"))


@REGISTRY.rule("Nugget.Rule.CharacterCreation", "Character Creation", "RU",
               values={"destiny": STARTING_DESTINY})
def create_character(name: str, attributes: Mapping[str, int], occupation: str, core_skill: Skill,
                     skills: Sequence[Skill] = (), goals: Sequence[str] = (), *,
                     max_poor: int = 1, equipment: Sequence[str] = (),
                     fighting_occupation: bool = False) -> Character:
    """Build a new player character, checking every creation rule; it starts with one Destiny Point."""
    if not isinstance(occupation, str) or not occupation.strip():
        raise NuggetError(f"a character needs an occupation, got {occupation!r}")
    if not isinstance(core_skill, Skill):
        raise NuggetError(f"the core skill must be a Skill, got {core_skill!r}")
    levels = {name_: 0 for name_ in ATTRIBUTE_NAMES}
    for attr, level in attributes.items():
        levels[attr] = check_attribute(attr, level)
    attribute_budget(levels, max_poor=max_poor)
    check_skill_budget(core_skill, skills)
    highest_fighting_level(skills, fighting_occupation=fighting_occupation)  # checks the flag
    return Character(name, levels, occupation, core_skill, tuple(skills), check_goals(goals),
                     STARTING_DESTINY, tuple(equipment), fighting_occupation)
