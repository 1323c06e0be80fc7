"""Contested actions and extended contests: several Verdict Rolls, each against its own TN.

A quick contest is settled at once by who succeeded and by how much; an extended contest (a race, a
tug of war) ignores margins and goes on round after round until exactly one side succeeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from rules.dice import DiceSource
from rules.providers import Choice, Int
from rules.spurg.registry import REGISTRY, SpurgError
from rules.spurg.verdict import CriticalPrecedence, Verdict, judge, outcome, target_number, verdict_dist, verdict_roll
from rules.tables import Table
from rules.values import require_whole


def contestant_count_error(count: int) -> SpurgError:
    """A contest needs at least two sides."""
    return SpurgError(f"a contest needs at least two contestants, not {count}")


def not_a_verdict_error(value: object) -> SpurgError:
    """Something other than a judged Verdict Roll handed to a contest."""
    return SpurgError(f"a contest compares judged Verdict Rolls (see judge), not {value!r}")


def contest_over_error(winner: str | None) -> SpurgError:
    """Another round of an extended contest that already has a winner or no one left."""
    state = f"{winner!r} has already won" if winner else "everyone has dropped out"
    return SpurgError(f"the contest is over: {state}")


class Decision(Enum):
    """Why a contest ended the way it did."""

    ONLY_SUCCESS = "the only success"
    BEST_MARGIN_OF_SUCCESS = "the best margin of success"
    SMALLEST_MARGIN_OF_FAILURE = "the smallest margin of failure"
    DRAW = "a draw"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ContestResult:
    """Who won a contest (an index into ``verdicts``, ``None`` on a draw), and why."""

    verdicts: tuple[Verdict, ...]
    winner: int | None
    decision: Decision
    #: On a draw, the contestants who shared the best margin.
    tied: tuple[int, ...] = ()

    @property
    def draw(self) -> bool:
        return self.winner is None


@REGISTRY.rule("Spurg.Rule.Contest", "Contested Action", "RU")
def contest(verdicts: Sequence[Verdict]) -> ContestResult:
    """Settle a contest: a lone success wins; otherwise the best margin among the group that matters.

    Several successes compare margins of success (larger wins); if nobody succeeded, the smallest
    margin of failure wins.  A shared best margin is a draw.  When some but not all succeed, only
    the successes take part in the comparison.
    """
    if isinstance(verdicts, (str, bytes)) or not isinstance(verdicts, Sequence):
        raise not_a_verdict_error(verdicts)
    verdicts = tuple(verdicts)
    for verdict in verdicts:
        if not isinstance(verdict, Verdict):
            raise not_a_verdict_error(verdict)
    if len(verdicts) < 2:
        raise contestant_count_error(len(verdicts))
    successes = [i for i, v in enumerate(verdicts) if v.success]
    if len(successes) == 1:
        return ContestResult(verdicts, successes[0], Decision.ONLY_SUCCESS)
    if successes:
        group, decision = successes, Decision.BEST_MARGIN_OF_SUCCESS
        best = max(verdicts[i].margin for i in group)
    else:
        group, decision = list(range(len(verdicts))), Decision.SMALLEST_MARGIN_OF_FAILURE
        best = min(verdicts[i].margin for i in group)
    leaders = tuple(i for i in group if verdicts[i].margin == best)
    if len(leaders) > 1:
        return ContestResult(verdicts, None, Decision.DRAW, leaders)
    return ContestResult(verdicts, leaders[0], decision)


def contested_roll(tns: Sequence[int], source: DiceSource, *,
                   precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> ContestResult:
    """Roll a Verdict for each side in turn (dice drawn from ``source`` in that order) and settle it."""
    return contest([verdict_roll(tn, source, precedence=precedence) for tn in tns])


@dataclass(frozen=True)
class ContestOdds:
    """Exact chances for the first side of a two-sided contest."""

    win: Fraction
    draw: Fraction
    lose: Fraction


def _success_chance(tn: int, rule: CriticalPrecedence) -> Fraction:
    return sum((p for roll, p in verdict_dist().items() if outcome(roll, tn, precedence=rule).is_success),
               Fraction(0))


def contest_odds(tn: int, opponent_tn: int, *,
                 precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL) -> ContestOdds:
    """P(win), P(draw), P(lose) of a quick contest at ``tn`` against ``opponent_tn`` (all 216² pairs)."""
    tn, opponent_tn, rule = target_number(tn), target_number(opponent_tn), CriticalPrecedence.of(precedence)
    mine = [(judge(r, tn, precedence=rule), p) for r, p in verdict_dist().items()]
    theirs = [(judge(r, opponent_tn, precedence=rule), p) for r, p in verdict_dist().items()]
    win = draw = Fraction(0)
    for a, pa in mine:
        for b, pb in theirs:
            result = contest((a, b))
            if result.winner == 0:
                win += pa * pb
            elif result.draw:
                draw += pa * pb
    return ContestOdds(win, draw, 1 - win - draw)


@REGISTRY.table(opponent=Int(0, 30), low=Int(0, 30), high=Int(0, 30), precedence=Choice("critical", "target"))
def contest_table(opponent: int = 10, low: int = 6, high: int = 16, precedence: str = "critical") -> Table:
    """Quick-contest odds for each of your TNs from ``low`` to ``high`` against one opponent TN."""
    rows = []
    for tn in range(target_number(low), target_number(high) + 1):
        odds = contest_odds(tn, opponent, precedence=precedence)
        rows.append((tn, odds.win, odds.draw, odds.lose))
    return Table.of(("Your TN", "Win", "Draw", "Lose"), rows,
                    title=f"Quick contest against TN {opponent}", probabilities=("Win", "Draw", "Lose"))


@dataclass(frozen=True)
class ExtendedRound:
    """One round of an extended contest: every active side's verdict and the round's winner, if any."""

    number: int
    verdicts: Mapping[str, Verdict]
    winner: str | None


@REGISTRY.rule("Spurg.Rule.ExtendedContest", "Extended Contest", "RU")
@dataclass
class ExtendedContest:
    """A contest over time: rounds repeat until exactly one active side succeeds; margins do not count.

    Sides may drop out between rounds and their TNs may move (tiredness, a changing course).  When a
    single side is left it still has to succeed on a roll of its own, unless ``walkover`` is set.
    """

    tns: dict[str, int]
    precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL
    walkover: bool = False
    rounds: list[ExtendedRound] = field(default_factory=list)
    winner: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tns, Mapping):
            raise SpurgError(f"an extended contest takes a mapping of names to TNs, not {self.tns!r}")
        for name in self.tns:
            if not isinstance(name, str):
                raise SpurgError(f"contestants are named by text, not {name!r}")
        if not isinstance(self.walkover, bool):
            raise SpurgError(f"walkover is True or False, not {self.walkover!r}")
        self.tns = {name: target_number(tn) for name, tn in dict(self.tns).items()}
        if len(self.tns) < 2:
            raise contestant_count_error(len(self.tns))
        self.precedence = CriticalPrecedence.of(self.precedence)

    @property
    def finished(self) -> bool:
        return self.winner is not None or not self.tns

    def _check(self, name: str) -> None:
        if name not in self.tns:
            raise SpurgError(f"no active contestant {name!r} (active: {', '.join(list(self.tns)) or 'none'})")

    def adjust(self, name: str, modifier: int) -> int:
        """Move one side's TN for the coming rounds; returns the new TN."""
        self._check(name)
        self.tns[name] += require_whole(modifier, "TN modifier", error=SpurgError)
        return self.tns[name]

    def drop_out(self, name: str) -> None:
        """A side leaves the contest; with ``walkover`` the last one left wins at once."""
        self._check(name)
        del self.tns[name]
        if self.walkover and len(self.tns) == 1:
            self.winner = next(iter(self.tns))

    def roll_round(self, source: DiceSource) -> ExtendedRound:
        """Every active side rolls (in order) against its current TN."""
        if self.finished:
            raise contest_over_error(self.winner)
        verdicts = {name: verdict_roll(tn, source, precedence=self.precedence)
                    for name, tn in self.tns.items()}
        successes = [name for name, verdict in verdicts.items() if verdict.success]
        winner = successes[0] if len(successes) == 1 else None
        played = ExtendedRound(len(self.rounds) + 1, verdicts, winner)
        self.rounds.append(played)
        self.winner = winner
        return played

    def run(self, source: DiceSource, max_rounds: int = 100) -> str | None:
        """Roll rounds until someone wins (or ``max_rounds`` pass); returns the winner or ``None``."""
        limit = require_whole(max_rounds, "round limit", minimum=0, error=SpurgError)
        while not self.finished and len(self.rounds) < limit:
            self.roll_round(source)
        return self.winner


def _round_wins(tns: Sequence[int], precedence: CriticalPrecedence | str) -> list[Fraction]:
    """For each side, P(it is the only success of one round)."""
    if len(tns) < 2:
        raise contestant_count_error(len(tns))
    rule = CriticalPrecedence.of(precedence)
    p = [_success_chance(target_number(tn), rule) for tn in tns]
    wins = []
    for i, pi in enumerate(p):
        chance = pi
        for j, pj in enumerate(p):
            if j != i:
                chance *= 1 - pj
        wins.append(chance)
    return wins


def extended_contest_odds(*tns: int, precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL
                          ) -> tuple[Fraction, ...]:
    """Each side's exact chance of eventually winning an extended contest at fixed TNs.

    A round is won by side *i* with probability p_i times the product of (1 - p_j) for the others;
    undecided rounds repeat, so the chances are those round-win chances rescaled to sum to 1.  If no
    round can ever be decided (everyone always succeeds, or always fails) every chance is 0.
    """
    round_wins = _round_wins(tns, precedence)
    decided = sum(round_wins, Fraction(0))
    if decided == 0:
        return tuple(Fraction(0) for _ in tns)
    return tuple(chance / decided for chance in round_wins)


def expected_rounds(*tns: int, precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL
                    ) -> Fraction | None:
    """The mean number of rounds an extended contest at fixed TNs lasts (``None`` if it never ends)."""
    decided = sum(_round_wins(tns, precedence), Fraction(0))
    return None if decided == 0 else 1 / decided


@REGISTRY.table(opponent=Int(0, 30), low=Int(0, 30), high=Int(0, 30), precedence=Choice("critical", "target"))
def extended_contest_table(opponent: int = 10, low: int = 6, high: int = 16,
                           precedence: str = "critical") -> Table:
    """Extended-contest odds and mean length for each of your TNs against one opponent TN."""
    rows = []
    for tn in range(target_number(low), target_number(high) + 1):
        win, lose = extended_contest_odds(tn, opponent, precedence=precedence)
        rounds = expected_rounds(tn, opponent, precedence=precedence)
        rows.append((tn, win, lose, "never ends" if rounds is None else f"{float(rounds):.2f}"))
    return Table.of(("Your TN", "Win", "Lose", "Mean rounds"), rows,
                    title=f"Extended contest against TN {opponent}", probabilities=("Win", "Lose"))
