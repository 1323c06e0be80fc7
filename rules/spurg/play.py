"""Rules of play: the Game Master, and the program that stands in for one in a video game.

The source asks a computer game that hides its dice to keep the 3d6 bell curve rather than draw a
flat number, because the rules were balanced on that curve.  :class:`DigitalGameMaster` therefore
sums three six-sided dice from a :class:`rules.dice.DiceSource` (a seeded one by default); nothing in
this engine offers a flat draw except the comparison table that shows why not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceSource, SeededSource
from rules.providers import Int
from rules.spurg.registry import REGISTRY, SpurgError
from rules.spurg.verdict import (
    HIGHEST_ROLL,
    LOWEST_ROLL,
    CriticalPrecedence,
    Outcome,
    Verdict,
    target_number,
    verdict_dist,
    verdict_roll,
)
from rules.tables import Table
from rules.values import is_whole

#: How many results a flat draw over the same range (3 to 18) would have.
FLAT_RESULTS = HIGHEST_ROLL - LOWEST_ROLL + 1


def game_master_seed_error(seed: object) -> SpurgError:
    """A digital GM seeded with something other than a whole number."""
    return SpurgError(f"a digital GM's seed must be a whole number, not {seed!r}")


@REGISTRY.rule("Spurg.Rule.DigitalGameMaster", "Digital Game Master", "RU")
@dataclass
class DigitalGameMaster:
    """A program in the GM's seat: it rolls real 3d6 Verdicts and may hide them from the player.

    ``source`` defaults to a :class:`~rules.dice.SeededSource` built from ``seed``, so the bell curve
    is the default and a game can replay a session exactly.
    """

    seed: int = 0
    source: DiceSource | None = None
    precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL
    log: list[Verdict] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not is_whole(self.seed):
            raise game_master_seed_error(self.seed)
        self.precedence = CriticalPrecedence.of(self.precedence)
        if self.source is None:
            self.source = SeededSource(self.seed)

    def roll(self, tn: int) -> Verdict:
        """A visible Verdict Roll: the dice, the total and the outcome."""
        if self.source is None:  # only when set back to None after construction
            self.source = SeededSource(self.seed)
        verdict = verdict_roll(tn, self.source, precedence=self.precedence)
        self.log.append(verdict)
        return verdict

    def resolve(self, tn: int) -> Outcome:
        """A hidden Verdict Roll: only the outcome is shown (the roll stays in :attr:`log`)."""
        return self.roll(tn).outcome


def flat_success_probability(tn: int) -> Fraction:
    """P(roll <= TN) for a flat draw of 3 to 18: the distribution the source warns against."""
    tn = target_number(tn)
    return Fraction(min(max(tn - LOWEST_ROLL + 1, 0), FLAT_RESULTS), FLAT_RESULTS)


@REGISTRY.table(low=Int(0, 30), high=Int(0, 30))
def bell_curve_table(low: int = 3, high: int = 18) -> Table:
    """P(roll at or under the TN) with 3d6 and with a flat 3-18 draw, TN by TN."""
    dist = verdict_dist()
    rows = [(tn, dist.p_le(tn), flat_success_probability(tn))
            for tn in range(target_number(low), target_number(high) + 1)]
    return Table.of(("TN", "3d6", "Flat 3-18"), rows, title="Why the curve matters: P(roll <= TN)",
                    probabilities=("3d6", "Flat 3-18"))


@REGISTRY.table()
def roll_shape_table() -> Table:
    """The chance of each exact total, 3d6 against a flat draw: the bell against the plateau."""
    dist = verdict_dist()
    rows = [(total, dist.p(total), Fraction(1, FLAT_RESULTS)) for total in range(LOWEST_ROLL, HIGHEST_ROLL + 1)]
    return Table.of(("Roll", "3d6", "Flat 3-18"), rows, title="Chance of each total",
                    probabilities=("3d6", "Flat 3-18"))


# --- headings the source leaves empty --------------------------------------------------------------

@dataclass(frozen=True)
class Unwritten:
    """A heading of the source with no text under it: the book page that lists it, and what a GM
    uses meanwhile (our suggestion, built only from rules the source does give)."""

    heading: str
    page: str
    stand_in: str

    @property
    def uid(self) -> str:
        return "Spurg.Unwritten." + "".join(w.capitalize() for w in self.heading.replace("-", " ").split())


_VERDICT = "a Verdict Roll against the ability score that fits, with the circumstances as TN modifiers"
#: Every empty heading of the Fundamentals page, in the source's order.
UNWRITTEN: tuple[Unwritten, ...] = (
    Unwritten("Demeanor Rolls", "verdict", "the GM decides how a character reacts, or calls for " + _VERDICT),
    Unwritten("Lifting", "encumbrance", "the table writes a Lift (a weight) on each sheet, guided by Might"),
    Unwritten("Throwing", "play", _VERDICT + " (Agility for aim); range is the GM's estimate"),
    Unwritten("Senses", "play", _VERDICT + "; the GM may roll it in secret"),
    Unwritten("Movement", "play", "Speed in yards (or metres) per second, cut by Encumbrance"),
    Unwritten("Climbing", "play", _VERDICT + " (Agility or Might), one roll per stretch of the climb"),
    Unwritten("Jumping", "play", _VERDICT + "; the distance is the GM's estimate from Speed"),
    Unwritten("Swimming", "play", _VERDICT + " (Vitality to keep going), Encumbrance as a TN penalty"),
    Unwritten("Survival", "play", "an extended contest against the wilderness, one roll per day"),
    Unwritten("Exposure", "play", _VERDICT + " (Vitality), repeated at intervals the GM sets"),
    Unwritten("Cold", "play", "as Exposure, with harm from a Damage Roll the GM names on a failure"),
    Unwritten("Heat", "play", "as Exposure, with harm from a Damage Roll the GM names on a failure"),
    Unwritten("Starvation and Dehydration", "play", "as Exposure, once a day without food or water"),
    Unwritten("Suffocation", "play", "as Exposure, once a turn without air"),
    Unwritten("Falling and Collisions", "play", "a Damage Roll the GM sizes to the height or speed"),
    Unwritten("Injury", "damage", "the GM narrates what the damage taken means for the character"),
    Unwritten("Damage Types", "damage", "damage steps (multipliers) the table agrees on, applied in order"),
    Unwritten("Healing and Recovery", "damage", "the GM restores damage over rest, at a pace the table agrees"),
    Unwritten("Serious and Mortal Wounds", "damage", "the GM's call, or this book's optional hit points"),
    Unwritten("Stunning", "damage", "a Verdict Roll against Vitality after a heavy blow; a failure loses a turn"),
    Unwritten("Unconsciousness and Death", "damage", "the GM's call, or this book's optional hit points"),
    Unwritten("Poison", "damage", "a contest of the poison's strength against the victim's Vitality"),
    Unwritten("Sickness", "damage", "as Poison, with one roll a day"),
)

for _gap in UNWRITTEN:
    REGISTRY.define(_gap.uid, _gap.heading, "RU", implementation=_gap,
                    summary=f"The source gives no rule; meanwhile: {_gap.stand_in}.")


@REGISTRY.rule("Spurg.Rule.Unwritten", "Headings Without Rules", "RU", values={"count": len(UNWRITTEN)})
def stand_in(heading: str) -> Unwritten:
    """The empty heading named ``heading`` (any case) and what a GM uses until the source fills it."""
    for gap in UNWRITTEN:
        if isinstance(heading, str) and gap.heading.lower() == heading.strip().lower():
            return gap
    raise SpurgError(f"{heading!r} is not an empty heading of the source "
                             f"(known: {', '.join(g.heading for g in UNWRITTEN)})")


def unwritten_table(page: str = "") -> Table:
    """The empty headings (of one book page, or all) and what a GM uses meanwhile."""
    rows = [(g.heading, g.stand_in) for g in UNWRITTEN if not page or g.page == page]
    if not rows:
        raise SpurgError(f"no empty heading is listed on page {page!r}")
    return Table.of(("heading", "what a GM uses meanwhile"), rows, title="The source gives no rule")
