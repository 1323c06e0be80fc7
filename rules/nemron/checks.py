"""Skill checks: build a pool from ranks, roll it, keep the highest die, compare with the DC.

Nemron pools are written with ``›`` between their parts: ``Agility 2 › Athletics 1`` (names with
ranks) or plain dice, ``1d6 › 1d10 › 1d8``.  Only one boon or penalty ever touches a roll, specialised
skills never face less than DC 3, and the optional drama die rides along without joining the pool.
Every probability here is exact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.dice import DiceSource, DieRoll, Dist, RollResult, keep_highest, keep_lowest
from rules.nemron.nodes import RANK_DICE, rank_die
from rules.nemron.registry import REGISTRY, NemronError
from rules.providers import Choice, Int, Text
from rules.systems import SideRoll, SystemNotation
from rules.tables import Cell, Table
from rules.values import is_whole

#: The separators a pool may use between its dice: the published ``›`` and plain ``>``.
POOL_SEPARATORS = ("\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}", ">")
_SPLIT = re.compile("|".join(re.escape(s) for s in POOL_SEPARATORS))
_DICE = re.compile(r"(?P<count>\d*)\s*[dD]\s*(?P<sides>\d+)")
_NAMED = re.compile(r"(?P<name>[A-Za-z][A-Za-z' -]*?)\s+(?P<rank>-?\d+)")
#: The highest face any rank die shows.
HIGHEST_FACE = max(RANK_DICE.values())
#: The most dice one pool part such as ``3d6`` may stand for.
MAX_DICE_PER_PART = 20


def pool_notation_error(text: object, reason: str) -> NemronError:
    """Text that is not a Nemron pool."""
    return NemronError(f"{text!r} is not a Nemron pool: {reason}")


@dataclass(frozen=True)
class PoolDie:
    """One die in a pool and what put it there (``Agility 2`` or ``d10``)."""

    label: str
    sides: int

    def __str__(self) -> str:
        return self.label


@REGISTRY.rule("Generic.Rule.DicePool", "Dice Pool", "RU")
@dataclass(frozen=True)
class Pool:
    """A Nemron dice pool: roll every die, keep the highest.

    Build one from ranks (:meth:`of`), or parse the book's notation with :func:`parse_pool`.
    """

    dice: tuple[PoolDie, ...]

    def __post_init__(self) -> None:
        dice = self.dice if type(self.dice) is tuple else tuple(self.dice)
        object.__setattr__(self, "dice", dice)
        if not (dice and all([id(die) in _PLAIN_IDS for die in dice])):
            # (the shared plain rank dice of the parser's pools are known good: nothing to check)
            if not self.dice:
                raise pool_notation_error("", "a pool needs at least one die")
            for die in self.dice:  # only rank dice, however the pool was built (a d9 has no Fixed-Medium)
                if not isinstance(die, PoolDie):
                    raise pool_notation_error(die, "a pool holds PoolDie entries")
                _check_sides(die.sides, die.label)
        # The die sizes, read once: a simulated fight rolls the same pools tens of thousands of times.
        object.__setattr__(self, "_sides", tuple([die.sides for die in dice]))

    @classmethod
    def of(cls, *parts: tuple[str, int]) -> Pool:
        """A pool from ``(name, rank)`` pairs: ``Pool.of(("Agility", 2), ("Athletics", 1))``."""
        return cls(tuple(PoolDie(f"{name} {rank}", rank_die(rank)) for name, rank in parts))

    @classmethod
    def of_dice(cls, *sides: int) -> Pool:
        """A pool of bare dice: ``Pool.of_dice(6, 10, 8)`` is ``1d6 › 1d10 › 1d8``."""
        return cls(tuple(PoolDie(f"1d{s}", _check_sides(s, f"d{s}")) for s in sides))

    @property
    def sides(self) -> tuple[int, ...]:
        sides: tuple[int, ...] = self._sides  # type: ignore[attr-defined]  # (set by __post_init__)
        return sides

    def maximum(self) -> int:
        """The highest result the pool can show (its largest die)."""
        return max(self.sides)

    def dist(self) -> Dist:
        """The exact distribution of the kept (highest) die."""
        return keep_highest([_RANK_DISTS[die.sides] for die in self.dice])

    def roll(self, source: DiceSource) -> tuple[int, ...]:
        """Roll each die in order and return the faces (the result is their maximum)."""
        return tuple(map(source.roll, self.sides))

    def __add__(self, other: Pool) -> Pool:
        return Pool(self.dice + other.dice)

    def __str__(self) -> str:
        return f" {POOL_SEPARATORS[0]} ".join(str(d) for d in self.dice)


def _check_sides(sides: int, text: str) -> int:
    if sides not in _RANK_SIDES:
        raise pool_notation_error(text, f"d{sides} is not a rank die (d4, d6, d8, d10 or d12)")
    return sides


_RANK_SIDES = frozenset(RANK_DICE.values())
#: The five rank dice as distributions, made once at import like the dice themselves (a pool holds
#: only these: ``Pool`` checks every die), so a pool's question starts from its dice, not from their faces.
_RANK_DISTS: Mapping[int, Dist] = {s: Dist.die(s) for s in sorted(_RANK_SIDES)}
#: The plain die of each rank as a pool part (``1d8``): immutable, so every pool shares them.
_PLAIN_DICE: Mapping[PoolDie, int] = {PoolDie(f"1d{s}", s): s for s in sorted(_RANK_SIDES)}
_PLAIN_BY_SIDES = {s: die for die, s in _PLAIN_DICE.items()}
_PLAIN_IDS = frozenset(id(die) for die in _PLAIN_DICE)  # they live as long as the module


def parse_pool(text: str) -> Pool:
    """Read ``Agility 2 › Athletics 1`` or ``1d6 › 1d10 › 1d8`` (``>`` also separates) as a :class:`Pool`.

    Named parts need a rank (0 to 4); dice parts may repeat a die (``2d6``) but only rank dice exist.
    """
    if not isinstance(text, str) or not text.strip():
        raise pool_notation_error(text, "it is empty")
    dice: list[PoolDie] = []
    for part in _SPLIT.split(text):
        part = part.strip()
        if not part:
            raise pool_notation_error(text, "an empty part between separators")
        if m := _DICE.fullmatch(part):
            count_text, sides_text = m.groups()
            count = int(count_text) if count_text else 1
            sides = int(sides_text)
            if not 1 <= count <= MAX_DICE_PER_PART:
                raise pool_notation_error(text, f"{part!r}: between 1 and {MAX_DICE_PER_PART} dice per part")
            dice.extend([_PLAIN_BY_SIDES[_check_sides(sides, text)]] * count)
        elif m := _NAMED.fullmatch(part):
            rank = int(m["rank"])
            if rank not in RANK_DICE:
                raise pool_notation_error(text, f"{part!r}: rank {rank} is outside 0-{max(RANK_DICE)}")
            dice.append(PoolDie(f"{m['name'].strip()} {rank}", rank_die(rank)))
        else:
            raise pool_notation_error(text, f"{part!r} is neither dice (1d8) nor a name with a rank (Agility 2)")
    return Pool(tuple(dice))


_WITH_MODIFIER = re.compile(
    r"(?P<pool>.*?)\s+with\s+(?:an?\s+)?(?P<modifier>none|(?:lesser|greater)\s+(?:boon|penalty))\s*", re.IGNORECASE)


def pool_distribution(text: str) -> Dist:
    """The registry's pool parser: the exact kept result of a pool written as text.

    A pool may end with the boon or penalty it carries, ``Agility 2 › Athletics 1 with a lesser boon``
    (``with none`` for neither, so a page's choices can include the plain roll); a penalty is applied
    the default way (``penalty_mode="cap"``).
    """
    match = _WITH_MODIFIER.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return parse_pool(text).dist()
    modifier = " ".join(match["modifier"].lower().split())
    return check_distribution(parse_pool(match["pool"]), None if modifier == "none" else modifier)


def as_pool(pool: Pool | str | Sequence[int]) -> Pool:
    """Accept a :class:`Pool`, its notation, or a sequence of die sizes."""
    if isinstance(pool, Pool):
        return pool
    if isinstance(pool, str):
        return parse_pool(pool)
    if not isinstance(pool, (list, tuple)):
        raise pool_notation_error(pool, "give a pool, its notation or a list of die sizes")
    return Pool.of_dice(*pool)


# --- difficulty ---------------------------------------------------------------------------------

#: The difficulty scale: (lowest DC, highest DC, what it means).
DC_SCALE: tuple[tuple[int, int, str], ...] = (
    (1, 1, "trivial: an everyday task such as climbing stairs"),
    (2, 3, "easy, but needs a little focus"),
    (4, 5, "hard for someone with novice training"),
    (6, 7, "hard for someone with adept training"),
    (8, 9, "hard for someone with master training"),
    (10, 11, "hard for a grand-master"),
    (12, 12, "even grand-masters fail this often"),
    (13, 20, "heroic: only with advanced power scaling"),
)
#: The usual ceiling of the scale, and the ceiling with advanced power scaling.
MAX_DC, MAX_HEROIC_DC = 12, 20


@REGISTRY.rule("Generic.Rule.Difficulty", "Difficulty", "RU",
            values={"max_dc": MAX_DC, "max_heroic_dc": MAX_HEROIC_DC, "normal_low": 1, "normal_high": 10})
def difficulty(dc: int, *, advanced_scaling: bool = False) -> str:
    """What a DC means on the scale; DCs above 12 need advanced power scaling.

    The GM names a DC before the roll; the description tells players what kind of training the task
    calls for.
    """
    ceiling = MAX_HEROIC_DC if advanced_scaling else MAX_DC
    if not is_whole(dc) or not 1 <= dc <= ceiling:
        hint = "" if advanced_scaling else " (higher DCs need advanced_scaling=True)"
        raise NemronError(f"DC {dc!r} is outside 1-{ceiling}{hint}")
    return next(text for low, high, text in DC_SCALE if low <= dc <= high)


@REGISTRY.table()
def dc_scale_table() -> Table:
    """The difficulty scale as the book prints it: each band of DCs and what it means."""
    rows = [(str(low) if low == high else f"{low}-{high}", text) for low, high, text in DC_SCALE]
    return Table.of(("DC", "meaning"), rows, title="Difficulty scale")


#: The least DC a check with a specialised skill ever faces.
SPECIALISED_MINIMUM_DC = 3


@REGISTRY.rule("Generic.Rule.MinimumDifficulty", "Minimum Difficulty", "RU",
            values={"minimum_dc": SPECIALISED_MINIMUM_DC})
def minimum_difficulty(dc: int, *, specialised: bool) -> int:
    """The DC that really applies: a specialised skill never faces less than DC 3.

    Mundane actions (walking, running) keep the DC the GM set; trained skills cannot succeed on a
    roll of 1 or 2 even against nobody.
    """
    difficulty(dc, advanced_scaling=True)
    return max(dc, SPECIALISED_MINIMUM_DC) if specialised else dc


@REGISTRY.rule("Generic.Rule.FixedMedium", "Fixed-Medium", "RU")
def fixed_medium(pool: Pool | str | Sequence[int]) -> int:
    """Half the pool's maximum: a fixed result or DC that needs no roll.

    Rank dice all have an even number of sides, so the half is always whole.
    """
    return as_pool(pool).maximum() // 2


@REGISTRY.rule("Generic.Rule.FixedMaximum", "Fixed-Maximum", "RU")
def fixed_maximum(pool: Pool | str | Sequence[int]) -> int:
    """The pool's maximum: the best the pool could ever roll."""
    return as_pool(pool).maximum()


# --- boons and penalties ------------------------------------------------------------------------


class Modifier(str, Enum):
    """The four boons and penalties a roll can carry (at most one of them)."""

    LESSER_BOON = "lesser boon"
    GREATER_BOON = "greater boon"
    LESSER_PENALTY = "lesser penalty"
    GREATER_PENALTY = "greater penalty"

    @property
    def rule(self) -> ModifierRule:
        return MODIFIER_RULES[self]


@dataclass(frozen=True)
class ModifierRule:
    """The die a boon or penalty adds, which way it keeps, and its grade (2 = greater)."""

    sides: int
    boon: bool
    grade: int


#: Boons keep the highest, penalties the lowest; greater ones outrank lesser ones.
MODIFIER_RULES: Mapping[Modifier, ModifierRule] = {
    Modifier.LESSER_BOON: ModifierRule(8, boon=True, grade=1),
    Modifier.GREATER_BOON: ModifierRule(12, boon=True, grade=2),
    Modifier.LESSER_PENALTY: ModifierRule(8, boon=False, grade=1),
    Modifier.GREATER_PENALTY: ModifierRule(4, boon=False, grade=2),
}

for _modifier, _rule in MODIFIER_RULES.items():
    _name = _modifier.value.title()
    REGISTRY.define(f"Generic.Modifier.{_name.replace(' ', '')}", _name, "E",
                 summary=f"Adds a d{_rule.sides} to the pool and keeps the "
                         f"{'highest' if _rule.boon else 'lowest'} result.",
                 dice=f"1d{_rule.sides}, keep {'highest' if _rule.boon else 'lowest'}",
                 values={"sides": _rule.sides}, implementation=_modifier)

#: How a penalty's low die is applied: ``"cap"`` (the pool's best die, then the lower of it and the
#: penalty die) or ``"lowest"`` (every die of the pool plus the penalty die, keep the lowest).
PENALTY_MODES = ("cap", "lowest")


def _as_modifier(value: Modifier | str) -> Modifier:
    try:
        return Modifier(value)
    except ValueError:
        raise NemronError(f"{value!r} is not a boon or penalty "
                            f"(known: {', '.join(m.value for m in Modifier)})") from None


@REGISTRY.rule("Generic.Rule.BoonsAndPenalties", "Boons and Penalties", "RU")
def resolve_modifiers(modifiers: Iterable[Modifier | str], *, greater_survives: bool = True) -> Modifier | None:
    """The one boon or penalty that applies to a roll, if any.

    Copies of the same kind do not stack; within boons (or penalties) the greater one wins.  The best
    boon then meets the worst penalty: equal grades cancel to nothing, and a greater one beats a lesser
    one and still applies (``greater_survives=False`` makes any boon and penalty cancel completely).
    """
    if isinstance(modifiers, (str, Modifier)):
        modifiers = [modifiers]
    elif modifiers is None or not hasattr(modifiers, "__iter__"):
        raise NemronError(f"modifiers must be a list of boons and penalties, not {modifiers!r}")
    mods = {_as_modifier(m) for m in modifiers}
    boons = [m for m in mods if m.rule.boon]
    penalties = [m for m in mods if not m.rule.boon]
    boon = max(boons, key=lambda m: m.rule.grade, default=None)
    penalty = max(penalties, key=lambda m: m.rule.grade, default=None)
    if boon is None or penalty is None:
        return boon or penalty
    if boon.rule.grade == penalty.rule.grade or not greater_survives:
        return None
    return boon if boon.rule.grade > penalty.rule.grade else penalty


def _check_penalty_mode(penalty_mode: str) -> str:
    if penalty_mode not in PENALTY_MODES:
        raise NemronError(f"penalty_mode {penalty_mode!r} is not one of {', '.join(PENALTY_MODES)}")
    return penalty_mode


_INT = {int}


def _die_faces(faces: tuple[int, ...]) -> bool:
    """Whether ``faces`` are one or more rank-die faces, a face at a time (see :func:`apply_modifier`)."""
    return bool(faces) and all([is_whole(f) and 1 <= f <= HIGHEST_FACE for f in faces])


def apply_modifier(faces: Sequence[int], modifier: Modifier | str | None, modifier_face: int | None,
                   *, penalty_mode: str = "cap") -> int:
    """The kept result of a rolled pool (its ``faces``) with an optional boon or penalty die."""
    if penalty_mode not in PENALTY_MODES:
        _check_penalty_mode(penalty_mode)
    faces = tuple(faces)
    if not ((faces and set(map(type, faces)) == _INT and min(faces) >= 1 and max(faces) <= HIGHEST_FACE)
            or _die_faces(faces)):  # (the plain ints a source rolls pass the first test, without a call)
        raise pool_notation_error(faces, "rolled faces must be one or more whole numbers from 1 to 12")
    best = max(faces)
    if modifier is None:
        return best
    rule = _as_modifier(modifier).rule
    if modifier_face is None:
        raise NemronError(f"{modifier!r} needs its d{rule.sides} face")
    if not is_whole(modifier_face) or not 1 <= modifier_face <= rule.sides:
        raise NemronError(f"{modifier_face!r} is not a face of the d{rule.sides} of a {_as_modifier(modifier).value}")
    if rule.boon:
        return max(best, modifier_face)
    return min(min(faces), modifier_face) if penalty_mode == "lowest" else min(best, modifier_face)


def check_distribution(pool: Pool | str | Sequence[int], modifier: Modifier | str | None = None,
                       *, penalty_mode: str = "cap") -> Dist:
    """The exact distribution of a pool's kept result, with an optional boon or penalty."""
    pool = as_pool(pool)
    _check_penalty_mode(penalty_mode)
    if modifier is None:
        return pool.dist()
    rule = _as_modifier(modifier).rule
    extra = Dist.die(rule.sides)
    if rule.boon:
        return keep_highest([*(Dist.die(s) for s in pool.sides), extra])
    if penalty_mode == "lowest":
        return keep_lowest([*(Dist.die(s) for s in pool.sides), extra])
    return keep_lowest([pool.dist(), extra])


# --- drama --------------------------------------------------------------------------------------


class Drama(str, Enum):
    """What the drama die says: nothing, bad drama (a 1) or good drama (a 20)."""

    NONE = "none"
    BAD = "bad"
    GOOD = "good"


#: The drama die, and the faces that trigger drama.
DRAMA_DIE, BAD_DRAMA_FACE, GOOD_DRAMA_FACE = 20, 1, 20


@REGISTRY.rule("Generic.Rule.DramaDie", "Drama Die", "RU", dice="1d20",
            values={"sides": DRAMA_DIE, "bad": BAD_DRAMA_FACE, "good": GOOD_DRAMA_FACE})
def drama(face: int) -> Drama:
    """Read the optional d20 rolled beside a pool: 1 is bad drama, 20 good drama, anything else none.

    The drama die never joins the pool; it only decides whether something memorable happens.
    """
    if not is_whole(face) or not 1 <= face <= DRAMA_DIE:
        raise NemronError(f"drama die face {face!r} is not a d20 face (1-20)")
    return {BAD_DRAMA_FACE: Drama.BAD, GOOD_DRAMA_FACE: Drama.GOOD}.get(face, Drama.NONE)


# --- the check ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One rolled check: the faces, the kept result, the DC that applied and the outcome."""

    pool: Pool
    faces: tuple[int, ...]
    modifier: Modifier | None
    modifier_face: int | None
    result: int
    dc: int
    success: bool
    drama: Drama = Drama.NONE


@REGISTRY.rule("Generic.Rule.SkillCheck", "Skill Check", "RU")
def skill_check(pool: Pool | str | Sequence[int], dc: int, source: DiceSource, *,
                modifiers: Iterable[Modifier | str] = (), specialised: bool = False,
                roll_drama: bool = False, drama_decides: bool = False, penalty_mode: str = "cap",
                advanced_scaling: bool = False, greater_survives: bool = True) -> CheckResult:
    """Roll a pool against a DC: keep the highest die; meeting the DC succeeds.

    Dice are taken from ``source`` in this order: the pool's dice as written, then the boon or penalty
    die (if one survives :func:`resolve_modifiers`), then the drama d20 (if ``roll_drama``).  With
    ``drama_decides`` bad drama fails the check and good drama passes it; otherwise the drama is only
    reported and the GM narrates it.
    """
    pool = as_pool(pool)
    difficulty(dc, advanced_scaling=advanced_scaling)
    applied_dc = minimum_difficulty(dc, specialised=specialised)
    modifier = resolve_modifiers(modifiers, greater_survives=greater_survives)
    faces = pool.roll(source)
    modifier_face = source.roll(modifier.rule.sides) if modifier else None
    result = apply_modifier(faces, modifier, modifier_face, penalty_mode=penalty_mode)
    success = result >= applied_dc
    outcome = drama(source.roll(DRAMA_DIE)) if roll_drama else Drama.NONE
    if drama_decides and outcome is not Drama.NONE:
        success = outcome is Drama.GOOD
    return CheckResult(pool, faces, modifier, modifier_face, result, applied_dc, success, outcome)


def success_chance(pool: Pool | str | Sequence[int], dc: int, *, modifier: Modifier | str | None = None,
                   specialised: bool = False, penalty_mode: str = "cap",
                   advanced_scaling: bool = True) -> Fraction:
    """The exact chance that a check succeeds (no drama)."""
    difficulty(dc, advanced_scaling=advanced_scaling)
    applied = minimum_difficulty(dc, specialised=specialised)
    return Fraction(check_distribution(pool, modifier, penalty_mode=penalty_mode).p_ge(applied))


#: The pools shown in the book's odds table: one attribute, attribute plus skill, up to a master.
TYPICAL_POOLS: tuple[str, ...] = ("1d6", "1d6 › 1d6", "1d8 › 1d6", "1d8 › 1d8 › 1d6", "1d10 › 1d8",
                                  "1d12 › 1d10 › 1d8")


@REGISTRY.table(highest_dc=Int(1, 30))
def dc_odds_table(highest_dc: int = 12) -> Table:
    """Exact chance of success per DC for the typical pools (no boon or penalty)."""
    difficulty(highest_dc, advanced_scaling=True)
    pools = [parse_pool(text) for text in TYPICAL_POOLS]
    rows: list[tuple[Cell, ...]] = [(dc, *(Fraction(p.dist().p_ge(dc)) for p in pools))
                                    for dc in range(1, highest_dc + 1)]
    columns = ("DC", *TYPICAL_POOLS)
    return Table.of(columns, rows, title="Success chance per DC", probabilities=TYPICAL_POOLS)


@REGISTRY.table(pool=Text(r"[0-9a-zA-Z ›>]+", 40), penalty_mode=Choice(*PENALTY_MODES))
def modifier_odds_table(pool: str = "1d8 › 1d6", penalty_mode: str = "cap") -> Table:
    """Exact chance of success per DC for one pool under each boon and penalty."""
    columns = ("DC", "plain", *(m.value for m in Modifier))
    rows: list[tuple[Cell, ...]] = [(dc, success_chance(pool, dc, penalty_mode=penalty_mode),
             *(success_chance(pool, dc, modifier=m, penalty_mode=penalty_mode) for m in Modifier))
            for dc in range(1, 13)]
    return Table.of(columns, rows, title=f"{pool}: boons and penalties", probabilities=columns[1:])


# --- the system's notation, for the book's odds tables and the ``rpg`` command --------------------


def roll_notation(text: str, source: DiceSource) -> RollResult:
    """Roll a pool written the Nemron way: every die shown, the first highest one kept."""
    pool = parse_pool(text)
    faces = pool.roll(source)
    kept = faces.index(max(faces))
    dice = tuple(DieRoll(sides, face, i == kept) for i, (sides, face) in enumerate(zip(pool.sides, faces)))
    return RollResult(str(pool), dice, faces[kept])


def _drama_words(face: int) -> str:
    return {Drama.BAD: "bad drama", Drama.GOOD: "good drama"}.get(drama(face), "no drama")


REGISTRY.notation = SystemNotation(
    parse=pool_distribution, example="Agility 2 \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} Athletics 1",
    roll=roll_notation,
    side_rolls=(SideRoll("drama", DRAMA_DIE, "roll Nemron's d20 drama die alongside", _drama_words),))
