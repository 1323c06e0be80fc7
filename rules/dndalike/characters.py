"""Character creation: six stats rolled in order, their bonuses, class, level, health, fatigue, armour, action dice.

Every number a new character sheet needs is derived here from the stats, the powers taken, the armour
worn and what the character holds in their hands.  The tables of the source are data
(:data:`BONUS_BANDS`, :data:`CLASSES`, :data:`ARMOURS`, :data:`HAND_ITEMS`), not chains of ``if``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction

from rules.dice import DiceSource, Dist
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.nodes import Ranks
from rules.tables import Table
from rules.values import is_whole


def stat_score_error(score: object) -> DndalikeError:
    """A stat score that 3d6 cannot produce."""
    return DndalikeError(f"stat score {score!r} is impossible: 3d6 gives a whole number from 3 to 18")


def no_power_error(powers: object) -> DndalikeError:
    """A character with no class power has neither a class nor a level."""
    return DndalikeError(f"powers {powers!r}: a character needs a list of at least one class power")


# --------------------------------------------------------------------------------------------- stats

#: The six stats, in the order the 3d6 rolls are assigned.
STAT_ORDER: tuple[str, ...] = ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma")
ABBREVIATIONS: dict[str, str] = {"Str": "Strength", "Dex": "Dexterity", "Con": "Constitution",
                                 "Int": "Intelligence", "Wis": "Wisdom", "Cha": "Charisma"}
#: What each stat's bonus is added to.
MODIFIES: dict[str, str] = {
    "Strength": "attack rolls",
    "Dexterity": "movement rolls",
    "Constitution": "health per level",
    "Intelligence": "all skill rolls",
    "Wisdom": "maximum fatigue",
    "Charisma": "armour class",
}


@dataclass(frozen=True)
class BonusBand:
    """Scores ``low``..``high`` (inclusive) give ``bonus``."""

    low: int
    high: int
    bonus: int


#: The stat bonus table.
BONUS_BANDS: tuple[BonusBand, ...] = (
    BonusBand(3, 3, -2),
    BonusBand(4, 6, -1),
    BonusBand(7, 14, 0),
    BonusBand(15, 17, 1),
    BonusBand(18, 18, 2),
)


def _stat_name(name: str) -> str:
    full = ABBREVIATIONS.get(name, name)
    if full not in STAT_ORDER:
        raise DndalikeError(f"unknown stat {name!r} (known: {', '.join(STAT_ORDER)})")
    return full


@REGISTRY.rule("Dndalike.Rule.StatBonus", "Stat Bonus", "RU",
            values={"lowest": -2, "highest": 2})
def stat_bonus(score: int) -> int:
    """The bonus a stat score gives: the whole sheet uses bonuses, never raw scores.

    Raises :class:`StatScoreError` for a score outside 3..18.
    """
    if not is_whole(score):
        raise stat_score_error(score)
    for band in BONUS_BANDS:
        if band.low <= score <= band.high:
            return band.bonus
    raise stat_score_error(score)


def check_bonus(bonus: int) -> int:
    """Validate a stat bonus (-2..+2) handed to a derived-value rule."""
    if not is_whole(bonus) or not -2 <= bonus <= 2:
        raise DndalikeError(f"stat bonus {bonus!r} is impossible: bonuses run from -2 to +2")
    return bonus


@dataclass(frozen=True)
class Stats:
    """The six stat scores, in rolling order; each node ``Dndalike.Stat.<Name>`` is one field."""

    strength: int
    dexterity: int
    constitution: int
    intelligence: int
    wisdom: int
    charisma: int

    def __post_init__(self) -> None:
        for score in self.scores():
            stat_bonus(score)  # validates

    def scores(self) -> tuple[int, ...]:
        return (self.strength, self.dexterity, self.constitution,
                self.intelligence, self.wisdom, self.charisma)

    def score(self, stat: str) -> int:
        """The score of ``stat`` (full name or ``Str``-style abbreviation)."""
        score: int = getattr(self, _stat_name(stat).lower())
        return score

    def bonus(self, stat: str) -> int:
        """The bonus of ``stat``."""
        return stat_bonus(self.score(stat))

    def bonuses(self) -> dict[str, int]:
        return {name: self.bonus(name) for name in STAT_ORDER}


for _name in STAT_ORDER:
    _abbreviation = next(short for short, full in ABBREVIATIONS.items() if full == _name)
    REGISTRY.define(f"Dndalike.Stat.{_name}", _name, "stat", implementation=Stats,
                 summary=f"3d6, rolled in order; its bonus modifies {MODIFIES[_name]}.",
                 dice="3d6", values={"modifies": MODIFIES[_name], "abbreviation": _abbreviation},
                 ranks=Ranks(minimum=BONUS_BANDS[0].low, maximum=BONUS_BANDS[-1].high))


@REGISTRY.rule("Dndalike.Roll.Stats", "Rolling Stats", "RL", dice="3d6")
def roll_stats(source: DiceSource) -> Stats:
    """Roll 3d6 six times and assign the totals in order: no swapping, so every sheet is a surprise."""
    totals = [sum(source.roll(6) for _ in range(3)) for _ in STAT_ORDER]
    return Stats(*totals)


@REGISTRY.table()
def stat_bonus_odds() -> Table:
    """Exact chance of each bonus on a 3d6 stat."""
    three_d6 = Dist.die(6).repeat_sum(3)
    rows = []
    for band in BONUS_BANDS:
        scores = str(band.low) if band.low == band.high else f"{band.low}\N{EN DASH}{band.high}"
        chance = sum((three_d6.p(s) for s in range(band.low, band.high + 1)), Fraction(0))
        rows.append((scores, f"{band.bonus:+d}" if band.bonus else "0", chance))
    return Table.of(("3d6 score", "Bonus", "Chance"), rows, "Stat bonus odds", probabilities=("Chance",))


# ------------------------------------------------------------------------------------------- classes

@dataclass(frozen=True)
class CharacterClass:
    """A class: its name and the health each of its powers brings (before the Constitution bonus)."""

    name: str
    health: int


#: The three classes and their health per power.
CLASSES: dict[str, CharacterClass] = {
    "Wizard": CharacterClass("Wizard", 4),
    "Rogue": CharacterClass("Rogue", 5),
    "Fighter": CharacterClass("Fighter", 6),
}

for _class in CLASSES.values():
    REGISTRY.define(f"Dndalike.Class.{_class.name}", _class.name, "class", implementation=CharacterClass,
                 summary=f"Each {_class.name.lower()} power adds {_class.health} + Con bonus health.",
                 values={"health": _class.health})


def class_of(power_class: str) -> CharacterClass:
    try:
        return CLASSES[power_class]
    except (KeyError, TypeError):
        raise DndalikeError(f"unknown class {power_class!r} (known: {', '.join(CLASSES)})") from None


@REGISTRY.rule("Dndalike.Rule.Class", "Class", "RU")
def character_class(power_classes: Sequence[str]) -> str:
    """A character's class is the class of the first power they picked; later powers never change it."""
    if not power_classes or isinstance(power_classes, str):
        raise no_power_error(power_classes)
    return class_of(power_classes[0]).name


@REGISTRY.rule("Dndalike.Derived.Level", "Level", "derived", formula="powers")
def level(power_classes: Sequence[str]) -> int:
    """Level is simply how many class powers a character has: a new character is level 1."""
    if not power_classes or isinstance(power_classes, str):
        raise no_power_error(power_classes)
    for name in power_classes:
        class_of(name)
    return len(power_classes)


@REGISTRY.rule("Dndalike.Derived.HealthGain", "Health per Level", "derived",
            formula="ClassHealth + ConBonus", values={"least": 2, "most": 8})
def health_gain(power_class: str, con_bonus: int) -> int:
    """Health added by one new power: the health of that power's class plus the Constitution bonus.

    The smallest gain is a wizard power with Con bonus -2 (4 - 2 = 2), so a level never costs health.
    """
    return class_of(power_class).health + check_bonus(con_bonus)


@REGISTRY.rule("Dndalike.Derived.Health", "Health", "derived")
def health(power_classes: Sequence[str], con_bonus: int) -> int:
    """Health is the sum of every power's :func:`health_gain`, taken in the order the powers were bought."""
    level(power_classes)
    return sum(health_gain(name, con_bonus) for name in power_classes)


@REGISTRY.rule("Dndalike.Derived.MaximumFatigue", "Maximum Fatigue", "derived",
            formula="WisBonus + 6", values={"base": 6, "least": 4, "most": 8})
def maximum_fatigue(wis_bonus: int) -> int:
    """The most fatigue a character may take on voluntarily: Wisdom bonus + 6."""
    return check_bonus(wis_bonus) + 6


# -------------------------------------------------------------------------------------------- armour

@dataclass(frozen=True)
class Armour:
    """An armour: the armour class it gives and the fatigue it permanently imposes."""

    name: str
    armour_class: int
    permanent_fatigue: int


#: The armour table.
ARMOURS: dict[str, Armour] = {
    "Nothing": Armour("Nothing", 0, 0),
    "Leather": Armour("Leather", 1, 1),
    "Light Armour": Armour("Light Armour", 2, 2),
    "Heavy Armour": Armour("Heavy Armour", 3, 3),
    "Full Plate": Armour("Full Plate", 4, 4),
}

for _armour in ARMOURS.values():
    REGISTRY.define(f"Dndalike.Gear.{_armour.name.replace(' ', '')}", _armour.name, "G",
                 implementation=Armour,
                 summary=f"Armour class {_armour.armour_class}, permanent fatigue {_armour.permanent_fatigue}.",
                 values={"ac": _armour.armour_class, "fatigue": _armour.permanent_fatigue})


def armour(name: str) -> Armour:
    try:
        return ARMOURS[name]
    except (KeyError, TypeError):
        raise DndalikeError(f"unknown armour {name!r} (known: {', '.join(ARMOURS)})") from None


@REGISTRY.rule("Dndalike.Derived.ArmourClass", "Armour Class", "derived", formula="ArmourAC + ChaBonus")
def armour_class(armour_name: str, cha_bonus: int) -> int:
    """Armour class is the armour's own value plus the Charisma bonus: presence makes foes hesitate."""
    return armour(armour_name).armour_class + check_bonus(cha_bonus)


@REGISTRY.rule("Dndalike.Derived.PermanentFatigue", "Permanent Fatigue", "derived")
def permanent_fatigue(armour_name: str) -> int:
    """Fatigue the armour imposes for as long as it is worn; resting never takes it away."""
    return armour(armour_name).permanent_fatigue


# --------------------------------------------------------------------------------------- action dice

@dataclass(frozen=True)
class ActionDice:
    """A pool of action dice: Movement (M), Attack (A) and Shield (S) dice."""

    movement: int = 0
    attack: int = 0
    shield: int = 0

    def count(self, code: str) -> int:
        return {"M": self.movement, "A": self.attack, "S": self.shield}[code]

    def as_dict(self) -> dict[str, int]:
        return {"M": self.movement, "A": self.attack, "S": self.shield}

    def __str__(self) -> str:
        return " ".join(f"{code}{n}" for code, n in self.as_dict().items() if n) or "none"


@dataclass(frozen=True)
class HandItem:
    """What a weapon or hand contributes: extra dice and special features."""

    name: str
    hands: int
    movement: int = 0
    attack: int = 0
    shield: int = 0
    features: frozenset[str] = field(default_factory=frozenset)

    def __repr__(self) -> str:
        """The features in sorted order: a set's order follows the process's hash seed, and the engine
        reference prints ``HAND_ITEMS`` through this, so two builds of the book would differ."""
        def shown(value: object) -> str:
            if isinstance(value, frozenset):
                return f"frozenset({{{', '.join(map(repr, sorted(value)))}}})" if value else "frozenset()"
            return repr(value)
        return f"HandItem({', '.join(f'{item.name}={shown(getattr(self, item.name))}' for item in fields(self))})"


#: What may be held, and what it adds.  ``weapon`` is the first one-handed weapon (the base Attack
#: die goes with being armed); a second ``weapon`` in the off hand is the two-weapon extra die.
HAND_ITEMS: dict[str, HandItem] = {
    "free hand": HandItem("free hand", 1, movement=1),
    "weapon": HandItem("weapon", 1, attack=1),
    "shield": HandItem("shield", 1, shield=1, features=frozenset({"block"})),
    "two-handed weapon": HandItem("two-handed weapon", 2, attack=1,
                                  features=frozenset({"quick attacks for fatigue", "double wounds"})),
    "bow": HandItem("bow", 2, attack=1, features=frozenset({"quick attacks", "ranged"})),
}


@dataclass(frozen=True)
class Kit:
    """The action dice and special features a character's hands give them."""

    dice: ActionDice
    features: frozenset[str]

    def __str__(self) -> str:
        extras = f" + {', '.join(sorted(self.features))}" if self.features else ""
        return f"{self.dice}{extras}"


_GEAR_NODES = {
    "FreeHand": ("Free Hand", "free hand"),
    "TwoWeapons": ("Two Weapons", "weapon"),
    "Shield": ("Shield", "shield"),
    "TwoHandedWeapon": ("Two-Handed Weapon", "two-handed weapon"),
    "Bow": ("Bow and Arrows", "bow"),
}
for _key, (_title, _item) in _GEAR_NODES.items():
    REGISTRY.define(f"Dndalike.Gear.{_key}", _title, "G", implementation=HandItem,
                 summary=f"Adds {', '.join(sorted(HAND_ITEMS[_item].features)) or 'one die'}.")


@REGISTRY.rule("Dndalike.Rule.ActionDice", "Action Dice", "RU", values={"base_movement": 1})
def action_dice(*hands: str) -> Kit:
    """The action dice a character's hands give.

    Every character has one Movement die; being armed adds the Attack die; a free hand adds a
    Movement die, a second weapon an Attack die, a shield a Shield die and Block.  Pass what each
    hand holds (``"weapon"``, ``"free hand"``, ``"shield"``) or one two-handed item (``"bow"``,
    ``"two-handed weapon"``).  Two free hands still give only one extra Movement die.
    """
    items = []
    for name in hands:
        if not isinstance(name, str) or name not in HAND_ITEMS:
            raise DndalikeError(f"unknown hand item {name!r} (known: {', '.join(HAND_ITEMS)})")
        items.append(HAND_ITEMS[name])
    used = sum(item.hands for item in items)
    if used != 2:
        raise DndalikeError(f"hands {hands!r} fill {used} hands: say what both hands hold")
    movement, attack, shield = 1, 0, 0
    features: set[str] = set()
    free_hand_counted = False
    for item in items:
        if item.name == "free hand":
            if free_hand_counted:
                continue
            free_hand_counted = True
        movement += item.movement
        attack += item.attack
        shield += item.shield
        features |= item.features
    return Kit(ActionDice(movement, attack, shield), frozenset(features))


# ----------------------------------------------------------------------------------- the whole sheet

@dataclass(frozen=True)
class Character:
    """A finished character sheet: every derived number is computed, never stored."""

    stats: Stats
    power_classes: tuple[str, ...]
    armour_name: str = "Nothing"
    hands: tuple[str, ...] = ("weapon", "free hand")

    def __post_init__(self) -> None:
        object.__setattr__(self, "power_classes", tuple(self.power_classes))
        object.__setattr__(self, "hands", tuple(self.hands))
        level(self.power_classes)
        armour(self.armour_name)
        action_dice(*self.hands)

    @property
    def character_class(self) -> str:
        return character_class(self.power_classes)

    @property
    def level(self) -> int:
        return level(self.power_classes)

    @property
    def health(self) -> int:
        return health(self.power_classes, self.stats.bonus("Con"))

    @property
    def maximum_fatigue(self) -> int:
        return maximum_fatigue(self.stats.bonus("Wis"))

    @property
    def armour_class(self) -> int:
        return armour_class(self.armour_name, self.stats.bonus("Cha"))

    @property
    def permanent_fatigue(self) -> int:
        return permanent_fatigue(self.armour_name)

    @property
    def kit(self) -> Kit:
        return action_dice(*self.hands)

    def gain_power(self, power_class: str) -> Character:
        """The same character one level higher, with a power of ``power_class``."""
        class_of(power_class)
        return replace(self, power_classes=(*self.power_classes, power_class))
