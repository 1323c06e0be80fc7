"""The core roll of NUGGET: a pool of six-sided dice, successes on 4-6, bands, fumbles and lids.

Every other topic builds its rolls from :func:`pool_size` and :func:`roll_pool`, and its odds from
:func:`success_distribution`, so the lid-on/lid-off choice is made in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.dice import (
    DiceSource,
    DieRoll,
    Dist,
    RollResult,
    compare,
    count_successes,
    fumble_probability,
    pool_outcomes,
)
from rules.dice.rolling import format_dice
from rules.nugget.registry import REGISTRY, NuggetError
from rules.providers import Choice, Int
from rules.systems import SystemNotation
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

#: NUGGET rolls nothing but ordinary six-sided dice.
DIE_SIDES = 6
#: The lowest face that counts as a success (so 4, 5 and 6 do).
SUCCESS_FACE = 4
#: The face that, shown by every die, makes a fumble.
FUMBLE_FACE = 1
#: The face that triggers the lids: all of them for lid-on, each one for lid-off.
TOP_FACE = 6
#: A safety stop for rolling: a dice source that shows 6 this many times in a row is refused.
MAX_ROLLED_REROLLS = 10_000
#: The lowest and highest Base Dice a task can have.
MIN_BASE_DICE, MAX_BASE_DICE = -4, 2
#: The most the GM's situational call may add or take away.
MAX_SITUATION = 1


@dataclass(frozen=True)
class Difficulty:
    """One grade of task difficulty and the Base Dice an average person gets for it."""

    key: str
    base_dice: int
    who: str


#: The four difficulty grades, easiest first.
DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty("anyone", 2, "anyone can have a decent try (the commonest grade)"),
    Difficulty("professional", 0, "it takes a professional: you roll only your Advantages"),
    Difficulty("best", -2, "only the best can pull it off"),
    Difficulty("near-impossible", -4, "next to impossible"),
)
_BY_KEY = {d.key: d for d in DIFFICULTIES}


@REGISTRY.rule("Nugget.Roll.BaseDice", "Base Dice", "RL",
               values={"anyone": 2, "professional": 0, "best": -2, "near_impossible": -4})
def base_dice(difficulty: str) -> int:
    """The Base Dice for a difficulty grade: difficulty is set by what an average person would roll."""
    try:
        return _BY_KEY[difficulty].base_dice
    except (KeyError, TypeError):
        raise NuggetError(f"unknown difficulty {difficulty!r} (known: {', '.join(_BY_KEY)})") from None


@REGISTRY.rule("Nugget.Roll.Pool", "Dice Pool", "RL", formula="BD + Adv - Dis",
               values={"max_situation": MAX_SITUATION})
def pool_size(base: int, advantages: int = 0, disadvantages: int = 0, situation: int = 0) -> int:
    """How many dice to roll: Base Dice plus one per Advantage, minus one per Disadvantage.

    ``situation`` is the GM's extra Advantage (+1) or Disadvantage (-1) for special circumstances.
    The result may be zero or less: see :func:`is_too_hard`.
    """
    require_whole(base, "Base Dice", error=NuggetError)
    if not MIN_BASE_DICE <= base <= MAX_BASE_DICE:
        raise NuggetError(f"Base Dice {base} is outside {MIN_BASE_DICE}..+{MAX_BASE_DICE}")
    for what, count in (("Advantages", advantages), ("Disadvantages", disadvantages)):
        if require_whole(count, what, error=NuggetError) < 0:
            raise NuggetError(f"{what} cannot be negative, got {count}")
    if abs(require_whole(situation, "situation", error=NuggetError)) > MAX_SITUATION:
        raise NuggetError(f"the GM's situational modifier is one die at most, got {situation}")
    return base + advantages - disadvantages + situation


@REGISTRY.rule("Nugget.Rule.TooHard", "Too Hard", "RU")
def is_too_hard(pool: int) -> bool:
    """True when the pool has no dice left: the task is out of reach and is not rolled at all."""
    return require_whole(pool, "pool", error=NuggetError) < 1


def _check_face(face: object) -> int:
    if not is_whole(face) or not 1 <= face <= DIE_SIDES:
        raise NuggetError(f"{face!r} is not a face of a six-sided die")
    return face


@REGISTRY.rule("Nugget.Rule.Success", "Success", "RU", values={"face": SUCCESS_FACE})
def is_success(face: int) -> bool:
    """A die showing 4, 5 or 6 is one success: an even chance per die keeps the arithmetic easy."""
    return _check_face(face) >= SUCCESS_FACE


@dataclass(frozen=True)
class ResultBand:
    """A named quality of result, from ``least`` successes upwards."""

    least: int
    name: str
    meaning: str


#: How good a result is, by successes. Two successes are not named by the source (see the book).
RESULT_BANDS: tuple[ResultBand, ...] = (
    ResultBand(0, "Failure", "the attempt fails"),
    ResultBand(1, "Barely", "done, but only just and not well"),
    ResultBand(2, "Fair", "done, better than barely but short of solid"),
    ResultBand(3, "Solid", "a good, solid result"),
    ResultBand(5, "Impressive", "a truly impressive result"),
)


@REGISTRY.rule("Nugget.Rule.ResultBand", "Result Band", "RU",
               values={"barely": 1, "solid": 3, "impressive": 5})
def result_band(successes: int) -> ResultBand:
    """How well a roll went: the number of successes reads as a quality, not just pass or fail."""
    if require_whole(successes, "successes", error=NuggetError) < 0:
        raise NuggetError(f"successes cannot be negative, got {successes}")
    return [band for band in RESULT_BANDS if successes >= band.least][-1]


@REGISTRY.rule("Nugget.Rule.Fumble", "Fumble", "RU", values={"face": FUMBLE_FACE})
def is_fumble(faces: Sequence[int]) -> bool:
    """Every die of the pool shows 1: a failure bad enough for the GM to add awkward consequences."""
    checked = [_check_face(face) for face in faces]
    if not checked:
        raise NuggetError("a pool of no dice cannot fumble: it is not rolled")
    return all(face == FUMBLE_FACE for face in checked)


class Lid(str, Enum):
    """How exceptional success works in a game; the GM picks one for the whole game."""

    ON = "on"
    OFF = "off"


def lid_style(lid: Lid | str) -> Lid:
    """``"on"``, ``"off"`` or a :class:`Lid` as a :class:`Lid`."""
    try:
        return Lid(lid)
    except ValueError:
        raise NuggetError(f"unknown lid style {lid!r}: use 'on' (gritty) or 'off' (high energy)") from None


@REGISTRY.rule("Nugget.Setting.LidOn", "Lid-On", "Setting")
def lid_on_bonus(faces: Sequence[int]) -> int:
    """One extra success when every die shows 6: rare, so a gritty game keeps its results modest."""
    checked = [_check_face(face) for face in faces]
    return int(bool(checked) and all(face == TOP_FACE for face in checked))


def _check_depth(max_rerolls: object) -> int | None:
    if max_rerolls is not None and (not is_whole(max_rerolls) or max_rerolls < 0):
        raise NuggetError(f"the lid-off re-roll depth must be None or a whole number >= 0, not {max_rerolls!r}")
    return max_rerolls


@REGISTRY.rule("Nugget.Setting.LidOff", "Lid-Off", "Setting")
def explode(face: int, source: DiceSource, max_rerolls: int | None = None) -> tuple[int, ...]:
    """The re-rolls one die earns under lid-off: a 6 is rolled again, and so is every 6 after it.

    The chain has no limit, as in the source; ``max_rerolls`` is a house rule that stops it after
    that many re-rolls (a 6 on the last one still counts as a success but is not rolled again).
    """
    _check_face(face)
    depth = _check_depth(max_rerolls)
    chain: list[int] = []
    while face == TOP_FACE and (depth is None or len(chain) < depth):
        if len(chain) >= MAX_ROLLED_REROLLS:
            raise NuggetError(f"the dice source showed {MAX_ROLLED_REROLLS} sixes in a row: stopped")
        face = _check_face(source.roll(DIE_SIDES))
        chain.append(face)
    return tuple(chain)


@dataclass(frozen=True)
class PoolRoll:
    """A rolled pool: the faces, any lid-off re-rolls, and what they add up to."""

    faces: tuple[int, ...]
    rerolls: tuple[int, ...] = ()
    lid: Lid = Lid.ON

    @property
    def successes(self) -> int:
        counted = sum(is_success(face) for face in (*self.faces, *self.rerolls))
        return counted + (lid_on_bonus(self.faces) if self.lid is Lid.ON else 0)

    @property
    def fumble(self) -> bool:
        return is_fumble(self.faces)

    @property
    def band(self) -> ResultBand:
        return result_band(self.successes)

    def __str__(self) -> str:
        extra = f" re-rolls {list(self.rerolls)}" if self.rerolls else ""
        note = ", fumble" if self.fumble else ""
        return f"{list(self.faces)}{extra}: {self.successes} successes ({self.band.name}{note})"


def read_pool(faces: Iterable[int], rerolls: Iterable[int] = (), *, lid: Lid | str = Lid.ON) -> PoolRoll:
    """Score faces already on the table (lid-off re-rolls listed separately)."""
    style = lid_style(lid)
    faces, rerolls = tuple(faces), tuple(rerolls)
    for face in (*faces, *rerolls):
        _check_face(face)
    if not faces:
        raise NuggetError("a pool needs at least one die")
    if rerolls and style is Lid.ON:
        raise NuggetError(f"lid-on games have no re-rolls, got {list(rerolls)}")
    return PoolRoll(faces, rerolls, style)


@REGISTRY.rule("Nugget.Roll.Core", "Core Roll", "RL")
def roll_pool(pool: int, source: DiceSource, *, lid: Lid | str = Lid.ON,
              max_rerolls: int | None = None) -> PoolRoll:
    """Roll a pool and count successes.

    All the pool's dice are rolled first; under lid-off each 6 is then followed up, die by die in
    the order rolled, by its chain of re-rolls (see :func:`explode`).
    """
    style = lid_style(lid)
    _check_depth(max_rerolls)
    if is_too_hard(pool):
        raise NuggetError(f"a pool of {pool} dice is just too hard: no roll")
    faces = tuple(_check_face(source.roll(DIE_SIDES)) for _ in range(pool))
    rerolls: tuple[int, ...] = ()
    if style is Lid.OFF:
        rerolls = tuple(face for first in faces for face in explode(first, source, max_rerolls))
    return PoolRoll(faces, rerolls, style)


def success_distribution(pool: int, *, lid: Lid | str = Lid.ON, max_rerolls: int | None = None) -> Dist:
    """The exact distribution of successes for a pool of ``pool`` dice.

    The shared success counter of :mod:`rules.dice` does the work: lid-on adds one success to the
    all-sixes roll; lid-off sums the unlimited chain of sixes in closed form (the last listed count
    carries the whole remaining tail, below 2**-64), or stops each chain after ``max_rerolls``.
    """
    if is_too_hard(pool):
        raise NuggetError(f"a pool of {pool} dice is just too hard: no roll")
    return count_successes(pool, DIE_SIDES, SUCCESS_FACE, lid_style(lid).value, _check_depth(max_rerolls))


def outcome_distribution(pool: int, *, lid: Lid | str = Lid.ON, max_rerolls: int | None = None) -> Dist:
    """The joint distribution of (successes, fumbled) pairs: a Resistance roll needs both."""
    if is_too_hard(pool):
        raise NuggetError(f"a pool of {pool} dice is just too hard: no roll")
    return pool_outcomes(pool, DIE_SIDES, SUCCESS_FACE, lid_style(lid).value, _check_depth(max_rerolls))


def fumble_chance(pool: int) -> Fraction:
    """The chance that every die shows 1."""
    if is_too_hard(pool):
        raise NuggetError(f"a pool of {pool} dice is just too hard: no roll")
    return fumble_probability(pool, DIE_SIDES)


@REGISTRY.table(lid=Choice("on", "off"), max_dice=Int(1, 20))
def pool_odds(lid: str = "on", max_dice: int = 10) -> Table:
    """Odds of each result band and of a fumble for pools of 1 to ``max_dice`` dice."""
    style = lid_style(lid)
    if require_whole(max_dice, "max_dice", error=NuggetError) < 1:
        raise NuggetError(f"max_dice must be at least 1, got {max_dice}")
    rows = []
    for pool in range(1, max_dice + 1):
        dist = success_distribution(pool, lid=style)
        rows.append((pool, dist.p_ge(1), dist.p_ge(2), dist.p_ge(3), dist.p_ge(5), fumble_chance(pool),
                     f"{float(dist.mean()):.2f}"))
    return Table.of(("Dice", "1+ (Barely)", "2+", "3+ (Solid)", "5+ (Impressive)", "Fumble", "Average"),
                    rows, title=f"Pool odds, lid-{style.value}",
                    probabilities=("1+ (Barely)", "2+", "3+ (Solid)", "5+ (Impressive)", "Fumble"))


@dataclass(frozen=True)
class Opposed:
    """The outcome of two opposed rolls, read from the first roller's side."""

    first: int
    second: int

    @property
    def margin(self) -> int:
        """How decisive the win was: the difference in successes."""
        return abs(self.first - self.second)

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"``, or ``None`` on a tie."""
        if self.first == self.second:
            return None
        return "first" if self.first > self.second else "second"

    @property
    def tie(self) -> bool:
        return self.first == self.second


@REGISTRY.rule("Nugget.Roll.Opposed", "Opposed Roll", "RL")
def opposed_roll(first: int, second: int) -> Opposed:
    """Two characters in conflict both roll: more successes wins, the difference says by how much.

    A tie settles nothing: it usually leads to another roll.
    """
    for successes in (first, second):
        if require_whole(successes, "successes", error=NuggetError) < 0:
            raise NuggetError(f"successes cannot be negative, got {successes}")
    return Opposed(first, second)


def opposed_odds(first_pool: int, second_pool: int, *, lid: Lid | str = Lid.ON,
                 max_rerolls: int | None = None) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (first wins, tie, second wins) for two pools."""
    result = compare(success_distribution(first_pool, lid=lid, max_rerolls=max_rerolls),
                     success_distribution(second_pool, lid=lid, max_rerolls=max_rerolls))
    return result.win, result.tie, result.lose


@REGISTRY.table(lid=Choice("on", "off"), max_dice=Int(1, 12))
def opposed_table(lid: str = "on", max_dice: int = 6) -> Table:
    """Chance that the first pool (rows) beats the second pool (columns) outright."""
    if require_whole(max_dice, "max_dice", error=NuggetError) < 1:
        raise NuggetError(f"max_dice must be at least 1, got {max_dice}")
    columns = tuple(f"vs {n}" for n in range(1, max_dice + 1))
    rows: list[tuple[Cell, ...]] = [(a, *(opposed_odds(a, b, lid=lid)[0] for b in range(1, max_dice + 1)))
            for a in range(1, max_dice + 1)]
    return Table.of(("Dice", *columns), rows, title=f"Opposed rolls, lid-{lid_style(lid).value}",
                    probabilities=columns)


_POOL_NOTATION = re.compile(r"\s*(\d+)\s*(?:d|dice|die)?\s*(?:,?\s*lid-?(on|off))?\s*", re.IGNORECASE)


def _read_pool(text: str) -> tuple[int, Lid]:
    match = _POOL_NOTATION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NuggetError(f"{text!r} is not a NUGGET pool such as '5 dice lid-off'")
    return int(match.group(1)), lid_style((match.group(2) or "on").lower())


def parse_pool(text: str) -> Dist:
    """NUGGET's pool notation for odds tables: ``5``, ``5 dice``, ``5 dice lid-off``; the successes.

    The book's ``node:odds`` directive reads it with ``:system: nugget``.
    """
    pool, lid = _read_pool(text)
    return success_distribution(pool, lid=lid)


def roll_notation(text: str, source: DiceSource) -> RollResult:
    """Roll a pool written as ``5 dice lid-off``: failures shown dropped, re-rolls after their six."""
    pool, lid = _read_pool(text)
    roll = roll_pool(pool, source, lid=lid)
    dice: list[DieRoll] = []
    rerolls = iter(roll.rerolls)
    for face in roll.faces:  # each die, then the chain of re-rolls its six earned (lid-off)
        dice.append(DieRoll(DIE_SIDES, face, is_success(face)))
        while lid is Lid.OFF and face == TOP_FACE:
            face = next(rerolls)
            dice.append(DieRoll(DIE_SIDES, face, is_success(face), exploded_from=len(dice) - 1))
    notes = [note for note, on in (("lid-on +1", lid is Lid.ON and lid_on_bonus(roll.faces)),
                                   ("fumble", roll.fumble)) if on]
    shown = format_dice(dice) + "".join(f" {note}" for note in notes)
    return RollResult(f"{pool} dice lid-{lid.value}", tuple(dice), roll.successes, shown)


REGISTRY.notation = SystemNotation(parse=parse_pool, example="5 dice lid-off", roll=roll_notation)
