"""Roll-under checks (SPURG's 3d6 against a target number), margins, criticals and contests.

The margin is ``target - roll``: >= 0 is a success by that margin, < 0 a failure by ``-margin``.  One
number ordered that way also settles contests: an exact success beats any failure, a bigger margin of
success wins, and a smaller margin of failure wins, which is just "the larger margin wins", so a
contest is :func:`~rules.dice.distribution.compare` of two margin distributions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction

from .distribution import Dist, Outcomes, compare

CritRule = Callable[[int, int], bool]  # (roll, target) -> is it a critical?


class Verdict(IntEnum):
    """The four results of a check, ordered from worst to best so a Dist of them sorts sensibly."""

    CRITICAL_FAILURE = -2
    FAILURE = -1
    SUCCESS = 1
    CRITICAL_SUCCESS = 2

    def __str__(self) -> str:
        return self.name.replace("_", " ").lower()


def roll_under(dist: Dist, target: int) -> Dist:
    """The distribution of the margin ``target - roll`` (success iff the margin is >= 0)."""
    return target - dist


@dataclass(frozen=True)
class RollUnder:
    """A roll-under check of ``dist`` against ``target`` with optional critical rules.

    ``crit_success`` and ``crit_failure`` take ``(roll, target)``; they are predicates, so a system
    states its own rule (SPURG: 3-4 always, 5 at TN >= 15, ...).  In :meth:`verdicts` a critical
    overrides the plain result (GURPS-style: a 4 at TN 3 is a critical success); if both predicates
    hold for a roll, the plain result breaks the tie (a success becomes critical success, a failure
    critical failure).  The ``p_*`` queries do not apply any override: each predicate alone.
    """

    dist: Dist
    target: int
    crit_success: CritRule | None = None
    crit_failure: CritRule | None = None

    def p_success(self) -> Fraction:
        """P(roll <= target), before any critical override."""
        return self.dist.p_le(self.target)

    def p_failure(self) -> Fraction:
        return self.dist.p_gt(self.target)

    def margin(self) -> Dist:
        """The distribution of ``target - roll``."""
        return roll_under(self.dist, self.target)

    def p_crit_success(self) -> Fraction:
        rule = self.crit_success
        return self.dist.p_where(lambda r: rule(r, self.target)) if rule else Fraction(0)

    def p_crit_failure(self) -> Fraction:
        rule = self.crit_failure
        return self.dist.p_where(lambda r: rule(r, self.target)) if rule else Fraction(0)

    def verdict(self, roll: int) -> Verdict:
        """The verdict for one rolled total (criticals override, see the class docstring)."""
        success = roll <= self.target
        cs = bool(self.crit_success and self.crit_success(roll, self.target))
        cf = bool(self.crit_failure and self.crit_failure(roll, self.target))
        if cs and cf:
            return Verdict.CRITICAL_SUCCESS if success else Verdict.CRITICAL_FAILURE
        if cs:
            return Verdict.CRITICAL_SUCCESS
        if cf:
            return Verdict.CRITICAL_FAILURE
        return Verdict.SUCCESS if success else Verdict.FAILURE

    def verdicts(self) -> Dist:
        """The distribution of :class:`Verdict` values."""
        return self.dist.map(self.verdict)


def contest(a: Dist, target_a: int, b: Dist, target_b: int) -> Outcomes:
    """A roll-under contest: each side rolls against its own target and the larger margin wins.

    Returns P(a wins), P(draw), P(b wins).  Exactly one success wins; two successes or two failures go
    to the larger margin (smaller margin of failure); equal margins draw.
    """
    return compare(roll_under(a, target_a), roll_under(b, target_b))
