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
from rules.spurg._registry import REGISTRY
from rules.spurg.verdict import (
    HIGHEST_ROLL,
    LOWEST_ROLL,
    CriticalPrecedence,
    Outcome,
    Verdict,
    VerdictError,
    _whole,
    verdict_dist,
    verdict_roll,
)
from rules.tables import Table
from rules.values import is_whole

#: How many results a flat draw over the same range (3 to 18) would have.
FLAT_RESULTS = HIGHEST_ROLL - LOWEST_ROLL + 1


class GameMasterSeedError(VerdictError):
    """A digital GM seeded with something other than a whole number."""

    def __init__(self, seed: object) -> None:
        self.seed = seed
        super().__init__(f"a digital GM's seed must be a whole number, not {seed!r}")


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
            raise GameMasterSeedError(self.seed)
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
    tn = _whole(tn)
    return Fraction(min(max(tn - LOWEST_ROLL + 1, 0), FLAT_RESULTS), FLAT_RESULTS)


@REGISTRY.table(low=Int(0, 30), high=Int(0, 30))
def bell_curve_table(low: int = 3, high: int = 18) -> Table:
    """P(roll at or under the TN) with 3d6 and with a flat 3-18 draw, TN by TN."""
    dist = verdict_dist()
    rows = [(tn, dist.p_le(tn), flat_success_probability(tn))
            for tn in range(_whole(low), _whole(high) + 1)]
    return Table.of(("TN", "3d6", "Flat 3-18"), rows, title="Why the curve matters: P(roll <= TN)",
                    probabilities=("3d6", "Flat 3-18"))


@REGISTRY.table()
def roll_shape_table() -> Table:
    """The chance of each exact total, 3d6 against a flat draw: the bell against the plateau."""
    dist = verdict_dist()
    rows = [(total, dist.p(total), Fraction(1, FLAT_RESULTS)) for total in range(LOWEST_ROLL, HIGHEST_ROLL + 1)]
    return Table.of(("Roll", "3d6", "Flat 3-18"), rows, title="Chance of each total",
                    probabilities=("3d6", "Flat 3-18"))
