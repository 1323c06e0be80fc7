"""The Verdict Roll: SPURG's single resolution mechanic.

Three six-sided dice are summed and compared with a Target Number (TN); low is good.  Modifiers move
the TN and never the roll, margins measure how far the roll landed from the TN, and a few rolls are
critical.  The sources leave two edges open (a TN of 3 or less, a TN of 18 or more), so the order in
which criticals and the TN decide is a :class:`CriticalPrecedence` option.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from rules.dice import DiceSource, Dist
from rules.providers import Choice, Int
from rules.spurg.registry import REGISTRY, SpurgError
from rules.tables import Table
from rules.values import is_whole, require_whole

#: How many dice a Verdict Roll sums.
VERDICT_DICE = 3
#: The sides of each of those dice.
VERDICT_SIDES = 6
#: The lowest and highest possible Verdict Roll.
LOWEST_ROLL, HIGHEST_ROLL = VERDICT_DICE, VERDICT_DICE * VERDICT_SIDES
#: A roll more than this far above the TN is a critical failure whatever the roll is.
CRITICAL_FAILURE_MARGIN = 10


def critical_precedence_error(value: object) -> SpurgError:
    """A critical precedence that is neither ``"critical"`` nor ``"target"``."""
    known = ", ".join(repr(p.value) for p in CriticalPrecedence)
    return SpurgError(f"unknown critical precedence {value!r} (known: {known})")


def _roll(value: object) -> int:
    if not is_whole(value) or not LOWEST_ROLL <= value <= HIGHEST_ROLL:
        raise SpurgError(f"a Verdict Roll is a whole number from {LOWEST_ROLL} to {HIGHEST_ROLL}, not {value!r}")
    return value


@REGISTRY.rule("Spurg.Rule.CriticalPrecedence", "Critical Precedence", "RU")
class CriticalPrecedence(str, Enum):
    """Which decides first when a critical and the TN disagree (the sources do not say).

    ``CRITICAL`` (the book's default): a critical roll fixes the outcome whatever the TN, so a 3 or 4
    succeeds even against TN 1 and an 18 fails even against TN 20; a roll that is both (a 3 more than
    10 over a very low TN) counts as a critical success.  ``TARGET``: the TN alone decides success and
    failure; a critical only sharpens an outcome of its own kind.
    """

    CRITICAL = "critical"
    TARGET = "target"

    @classmethod
    def of(cls, value: CriticalPrecedence | str) -> CriticalPrecedence:
        """Accept the member or its text (``"critical"``, ``"target"``)."""
        try:
            return cls(value)
        except ValueError:
            raise critical_precedence_error(value) from None


class Outcome(Enum):
    """The four results of a Verdict Roll."""

    CRITICAL_SUCCESS = "critical success"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical failure"

    @property
    def is_success(self) -> bool:
        return self in (Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS)

    @property
    def is_critical(self) -> bool:
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class CriticalBand:
    """One roll that is critical, at every TN or only from ``min_tn`` up / up to ``max_tn``."""

    roll: int
    min_tn: int | None = None
    max_tn: int | None = None

    def applies(self, roll: int, tn: int) -> bool:
        return (roll == self.roll
                and (self.min_tn is None or tn >= self.min_tn)
                and (self.max_tn is None or tn <= self.max_tn))


#: The critical-success rolls: 3 and 4 always, 5 from TN 15, 6 from TN 16.
CRITICAL_SUCCESS_BANDS: tuple[CriticalBand, ...] = (
    CriticalBand(3), CriticalBand(4), CriticalBand(5, min_tn=15), CriticalBand(6, min_tn=16),
)
#: The critical-failure rolls: 18 always, 17 up to TN 15 (plus any roll more than 10 over the TN).
CRITICAL_FAILURE_BANDS: tuple[CriticalBand, ...] = (CriticalBand(18), CriticalBand(17, max_tn=15))


@REGISTRY.rule("Spurg.Rule.TargetNumber", "Target Number", "RU",
               values={"start": "an Ability Score or Skill Level"})
def target_number(base: int, *modifiers: int) -> int:
    """The TN a Verdict Roll must not exceed: a score or skill plus every circumstance modifier.

    Modifiers always land here and never on the dice, so the roll keeps its 3d6 shape.
    """
    total = require_whole(base, "Target Number", error=SpurgError)
    for modifier in modifiers:
        total += require_whole(modifier, "TN modifier", error=SpurgError)
    return total


@REGISTRY.rule("Spurg.Outcome.CriticalSuccess", "Critical Success", "OC",
               values={"always": "3 or 4", "five_from": 15, "six_from": 16})
def is_critical_success(roll: int, tn: int) -> bool:
    """Whether a roll is a critical success at this TN (the raw condition, before precedence)."""
    roll, tn = _roll(roll), target_number(tn)
    return any(band.applies(roll, tn) for band in CRITICAL_SUCCESS_BANDS)


@REGISTRY.rule("Spurg.Outcome.CriticalFailure", "Critical Failure", "OC",
               values={"always": 18, "seventeen_up_to": 15, "margin": CRITICAL_FAILURE_MARGIN})
def is_critical_failure(roll: int, tn: int) -> bool:
    """Whether a roll is a critical failure at this TN (the raw condition, before precedence).

    Besides the fixed rolls, anything more than 10 above the TN is one, so very low TNs fail badly.
    """
    roll, tn = _roll(roll), target_number(tn)
    return (any(band.applies(roll, tn) for band in CRITICAL_FAILURE_BANDS)
            or roll > tn + CRITICAL_FAILURE_MARGIN)


def outcome(roll: int, tn: int, *,
            precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> Outcome:
    """The outcome of a rolled total against a TN under the chosen precedence."""
    roll, tn, rule = _roll(roll), target_number(tn), CriticalPrecedence.of(precedence)
    critical_success, critical_failure = is_critical_success(roll, tn), is_critical_failure(roll, tn)
    if rule is CriticalPrecedence.CRITICAL:
        if critical_success:
            return Outcome.CRITICAL_SUCCESS
        if critical_failure:
            return Outcome.CRITICAL_FAILURE
        return Outcome.SUCCESS if roll <= tn else Outcome.FAILURE
    if roll <= tn:
        return Outcome.CRITICAL_SUCCESS if critical_success else Outcome.SUCCESS
    return Outcome.CRITICAL_FAILURE if critical_failure else Outcome.FAILURE


@REGISTRY.rule("Spurg.Outcome.Success", "Success", "OC")
def is_success(roll: int, tn: int, *,
               precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> bool:
    """Whether the attempt succeeds: a roll at or under the TN (criticals may override)."""
    return outcome(roll, tn, precedence=precedence).is_success


@REGISTRY.rule("Spurg.Outcome.Failure", "Failure", "OC")
def is_failure(roll: int, tn: int, *,
               precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> bool:
    """Whether the attempt fails: a roll over the TN (criticals may override)."""
    return not outcome(roll, tn, precedence=precedence).is_success


@REGISTRY.rule("Spurg.Outcome.MarginOfSuccess", "Margin of Success", "OC")
def margin_of_success(roll: int, tn: int) -> int:
    """How far the roll fell under the TN; never negative, so a roll over the TN has margin 0."""
    return max(target_number(tn) - _roll(roll), 0)


@REGISTRY.rule("Spurg.Outcome.MarginOfFailure", "Margin of Failure", "OC")
def margin_of_failure(roll: int, tn: int) -> int:
    """How far the roll rose over the TN; never negative, so a roll at or under the TN has margin 0."""
    return max(_roll(roll) - target_number(tn), 0)


@dataclass(frozen=True)
class Verdict:
    """A judged Verdict Roll: the total, the TN, the outcome and (if rolled here) the three dice."""

    roll: int
    tn: int
    outcome: Outcome
    dice: tuple[int, ...] = ()

    @property
    def success(self) -> bool:
        return self.outcome.is_success

    @property
    def critical(self) -> bool:
        return self.outcome.is_critical

    @property
    def margin(self) -> int:
        """The margin of success of a success, the margin of failure of a failure."""
        if self.success:
            return margin_of_success(self.roll, self.tn)
        return margin_of_failure(self.roll, self.tn)

    def __str__(self) -> str:
        return f"{self.roll} vs TN {self.tn}: {self.outcome} by {self.margin}"


def judge(roll: int, tn: int, *, precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL,
          dice: Iterable[int] = ()) -> Verdict:
    """Judge a total that was rolled at the table (or anywhere else)."""
    roll, dice = _roll(roll), tuple(dice)
    if dice and (len(dice) != VERDICT_DICE or sum(dice) != roll
                 or not all(is_whole(d) and 1 <= d <= VERDICT_SIDES
                            for d in dice)):
        raise SpurgError(f"the dice {dice!r} are not three six-sided faces adding up to {roll}")
    return Verdict(_roll(roll), target_number(tn), outcome(roll, tn, precedence=precedence), dice)


@REGISTRY.rule("Spurg.Roll.Verdict", "Verdict Roll", "RL", dice="3d6",
               values={"dice": VERDICT_DICE, "sides": VERDICT_SIDES, "lowest": LOWEST_ROLL,
                       "highest": HIGHEST_ROLL})
def verdict_roll(tn: int, source: DiceSource, *,
                 precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> Verdict:
    """Roll three six-sided dice from ``source`` and judge their sum against the TN; low is good."""
    tn = target_number(tn)
    rule = CriticalPrecedence.of(precedence)
    dice = tuple(source.roll(VERDICT_SIDES) for _ in range(VERDICT_DICE))
    return judge(sum(dice), tn, precedence=rule, dice=dice)


def verdict_dist() -> Dist:
    """The exact distribution of a Verdict Roll (the 3d6 bell curve)."""
    return Dist.die(VERDICT_SIDES).repeat_sum(VERDICT_DICE)


def outcome_odds(tn: int, *, precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL
                 ) -> dict[Outcome, Fraction]:
    """The exact probability of each outcome at one TN."""
    tn, rule = target_number(tn), CriticalPrecedence.of(precedence)
    odds = {result: Fraction(0) for result in Outcome}
    for roll, p in verdict_dist().items():
        odds[outcome(roll, tn, precedence=rule)] += p
    return odds


def success_probability(tn: int, *,
                        precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> Fraction:
    """P(success) at a TN, critical successes included."""
    odds = outcome_odds(tn, precedence=precedence)
    return odds[Outcome.SUCCESS] + odds[Outcome.CRITICAL_SUCCESS]


@REGISTRY.table(precedence=Choice("critical", "target"), low=Int(0, 30), high=Int(0, 30))
def verdict_odds_table(precedence: str = "critical", low: int = 1, high: int = 20) -> Table:
    """P(success), P(critical success) and P(critical failure) for every TN from ``low`` to ``high``."""
    rows = []
    for tn in range(target_number(low), target_number(high) + 1):
        odds = outcome_odds(tn, precedence=precedence)
        rows.append((tn, odds[Outcome.SUCCESS] + odds[Outcome.CRITICAL_SUCCESS],
                     odds[Outcome.CRITICAL_SUCCESS], odds[Outcome.CRITICAL_FAILURE]))
    return Table.of(("TN", "Success", "Critical success", "Critical failure"), rows,
                    title=f"Verdict Roll odds per TN ({CriticalPrecedence.of(precedence).value} precedence)",
                    probabilities=("Success", "Critical success", "Critical failure"))


@REGISTRY.table(tn=Int(0, 30), precedence=Choice("critical", "target"))
def margin_table(tn: int = 10, precedence: str = "critical") -> Table:
    """Every Verdict Roll at one TN: its outcome, its margin and its exact probability."""
    tn, rule = target_number(tn), CriticalPrecedence.of(precedence)
    rows = []
    at_most = Fraction(0)
    for roll, p in sorted(verdict_dist().items()):
        verdict = judge(roll, tn, precedence=rule)
        at_most += p
        rows.append((roll, str(verdict.outcome), verdict.margin, p, at_most))
    return Table.of(("Roll", "Outcome", "Margin", "Probability", "This roll or lower"), rows,
                    title=f"Margins at TN {tn}", probabilities=("Probability", "This roll or lower"))
