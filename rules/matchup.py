"""Encounter odds: how likely a whole fight is to go each way, exactly where the states allow it.

A game package describes a fight two ways: an exact model (:class:`FightModel`: the fight's states,
one round's transitions with their exact chances, who has won) and a play function that runs one
fight through its tracker with a dice source.  :func:`solve` treats the model as an absorbing Markov
chain and answers with :class:`fractions.Fraction`; :func:`simulate` plays seeded fights through the
tracker and answers with counts and 95% intervals.  :func:`matchup` tries the exact chain within a
work budget and falls back to simulation, saying which one answered.

The exact solver needs what fights in these games have: damage is never undone during a fight, so
every state either stays as it is or moves on to a state it can never come back from (a chain whose
only loops are a state's own).  A model with any other loop is refused with :class:`MatchupError`; a
state no round can change is a draw (nobody can hurt anybody).
Nothing here knows a game system or imports Sphinx.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from rules.dice import DiceSource, SeededSource
from rules.tables import Table

#: Fight states an exact answer may explore, and transitions it may follow: about a second of work.
MAX_STATES = 3_000
MAX_TRANSITIONS = 40_000
#: A model whose own bound on its states (:attr:`FightModel.estimate`, its price) passes this is refused
#: at once, before any exploring.  The bounds are tight (NUGGET's within 2x of what its duels reach,
#: Nemron's 1.5-2x, the DnDalike's about 5x), so a fight refused here would almost surely have passed
#: :data:`MAX_STATES` after seconds of exploring; one let through is refused, if at all, after at most
#: :data:`MAX_STATES` states (about a second: ``bench/matchup.py``).
MAX_ESTIMATE = 4 * MAX_STATES
#: Fights a simulation plays when the exact chain does not fit, and the most any request may ask for.
SIMULATED_FIGHTS = 10_000
MAX_FIGHTS = 100_000
#: Rounds after which a simulated fight is stopped and counted undecided (a draw).
MAX_ROUNDS = 200
#: Rounds the distribution of a fight's length lists one by one (the rest is one "longer" line).
SHOWN_ROUNDS = 10
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

S = TypeVar("S", bound=Hashable)


class MatchupError(ValueError):
    """A fight that cannot be answered as asked: unknown fighters, a bad count, a model with loops."""


class MatchupTooLargeError(MatchupError):
    """The exact chain would need more states or transitions than the work budget allows."""


#: What a finished state says: side 0 won, side 1 won, or neither can win (a draw).
DRAW = 2


class FightModel(Protocol[S]):
    """An exact fight between two sides, one round at a time."""

    def start(self) -> Sequence[tuple[Fraction, S]]:
        """The states the fight starts in (after initiative), with their chances."""

    def round(self, state: S) -> Sequence[tuple[Fraction, S]]:
        """The states one round leads to from ``state``, with their chances (they sum to 1)."""

    def outcome(self, state: S) -> int | None:
        """0 or 1 when that side has won, :data:`DRAW` when nobody can win, ``None`` while it goes on."""

    def left(self, state: S) -> tuple[int, ...]:
        """What each fighter has left in ``state`` (HP, wounds...), in :attr:`fighters` order."""

    @property
    def fighters(self) -> tuple[str, ...]: ...

    @property
    def estimate(self) -> int:
        """An upper bound on the states the fight can reach, checked before any exploring: the price
        of the exact answer, so it should be cheap to compute and not much above the real count."""


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


class Duel(Generic[N]):
    """What every game's one-against-one model shares: its two fighters (``pair``), named in order."""

    pair: tuple[N, N]

    @property
    def fighters(self) -> tuple[str, ...]:
        return (self.pair[0].name, self.pair[1].name)


class LumpingModel(FightModel[S], Protocol[S]):
    """A model whose states leave out counts no rule reads any more (Hurts past the point where they
    still cost an action, say), while "what is left" still counts them: :meth:`gained` says how much
    each fighter's count grows on average in one round from ``state`` beyond what the states record.
    :func:`solve` adds it like the round itself, so the means stay exact."""

    def gained(self, state: S) -> tuple[Fraction, ...]: ...


@dataclass(frozen=True)
class Played:
    """One fight played through a tracker: the side that won (or :data:`DRAW`), its rounds, what was left."""

    outcome: int
    rounds: int
    left: tuple[int, ...]


@dataclass(frozen=True)
class Result:
    """The answer for one matchup.  Exact results hold exact chances; simulated ones, observed shares."""

    sides: tuple[str, str]
    fighters: tuple[str, ...]
    left_label: str
    wins: tuple[Fraction, Fraction]
    draw: Fraction
    rounds: tuple[tuple[int, Fraction], ...]
    longer: Fraction
    mean_rounds: Fraction
    left: tuple[Fraction, ...]
    exact: bool
    states: int = 0
    fights: int = 0
    seed: int | None = None

    def interval(self, share: Fraction) -> tuple[float, float]:
        """The 95% (Wilson score) interval of a simulated share; an exact chance is its own interval.

        Wilson's interval stays inside 0-1 and is not empty for a share of 0 or 1 (a draw never seen).
        """
        if self.exact:
            return float(share), float(share)
        p, n, z2 = float(share), self.fights, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def method(self) -> str:
        """How the numbers were found, in words a table can print."""
        if self.exact:
            return f"exact (absorbing Markov chain over {self.states:,} fight states)"
        return f"simulated: {self.fights:,} seeded fights (seed {self.seed}), 95% intervals"


def _explore(model: FightModel[S]) -> tuple[list[S], dict[S, list[tuple[Fraction, S]]], dict[S, int | None]]:
    price = model.estimate
    if price > MAX_ESTIMATE:
        raise MatchupTooLargeError(f"the fight may reach {price:,} states, far more than the exact "
                                   f"budget of {MAX_STATES:,}")
    seen: dict[S, list[tuple[Fraction, S]]] = {}
    ends: dict[S, int | None] = {}
    frontier = list(dict.fromkeys(state for _, state in model.start()))
    known = set(frontier)  # explored or waiting: every one is reachable, so the budget counts it at once
    order: list[S] = []
    work = 0
    while frontier:
        state = frontier.pop()
        ends[state] = model.outcome(state)
        moves = [] if ends[state] is not None else list(model.round(state))
        seen[state] = moves
        order.append(state)
        work += len(moves)
        for _, target in moves:
            if target not in known:
                known.add(target)
                frontier.append(target)
        if len(known) > MAX_STATES or work > MAX_TRANSITIONS:
            raise MatchupTooLargeError(f"the fight reaches {len(known):,} states and {work:,} transitions "
                                       f"with more to explore, past the exact budget of {MAX_STATES:,} states "
                                       f"or {MAX_TRANSITIONS:,} transitions")
    return order, seen, ends


def _settle_order(states: list[S], moves: dict[S, list[tuple[Fraction, S]]]) -> list[S]:
    """States with every successor first (a topological order ignoring self-loops); loops are refused."""
    done: set[S] = set()
    active: set[S] = set()
    ordered: list[S] = []
    for root in states:
        if root in done:
            continue
        stack: list[tuple[S, Iterable[tuple[Fraction, S]]]] = [(root, iter(moves[root]))]
        active.add(root)
        while stack:
            state, pending = stack[-1]
            for _, target in pending:
                if target == state or target in done:
                    continue
                if target in active:
                    raise MatchupError("the fight can return to an earlier state; the exact solver needs "
                                       "fights that only move forward")
                active.add(target)
                stack.append((target, iter(moves[target])))
                break
            else:
                stack.pop()
                active.discard(state)
                done.add(state)
                ordered.append(state)
    return ordered


def _integer_moves(moves: dict[S, list[tuple[Fraction, S]]]) -> tuple[int, dict[S, list[tuple[int, S]]]]:
    """One denominator for every round's chances (their least common multiple) and whole weights over it.

    Whole numbers keep the solver off Fraction arithmetic in its inner loops: the chances of a round of
    dice share their denominators, so the common one stays small.
    """
    denominator = 1
    for listed in moves.values():
        for p, _ in listed:
            denominator = math.lcm(denominator, p.denominator)
    weighted = {state: [(int(p * denominator), target) for p, target in listed] for state, listed in moves.items()}
    return denominator, weighted


def solve(model: FightModel[S], sides: tuple[str, str], left_label: str) -> Result:
    """The exact answer: absorption chances, the rounds' distribution and mean, what is left on average.

    Raises :class:`MatchupTooLargeError` (before doing the work, or as soon as the budget is passed)
    when the fight has too many states.
    """
    states, moves, ends = _explore(model)
    order = _settle_order(states, moves)
    gained: Callable[[S], tuple[Fraction, ...]] | None = getattr(model, "gained", None)
    denominator, weighted = _integer_moves(moves)
    width = 4 + len(model.fighters)
    # value[s]: whole numerators over one denominator, for (P(side 0 wins), P(side 1 wins), P(draw),
    # E[rounds], E[what each fighter has left])
    value: dict[S, tuple[tuple[int, ...], int]] = {}
    for state in order:
        outcome = ends[state]
        if outcome is not None:
            value[state] = ((*(int(outcome == k) for k in (0, 1, DRAW)), 0, *model.left(state)), 1)
            continue
        stay = sum(w for w, target in weighted[state] if target == state)
        if stay == denominator:  # nothing any round does can change it: the fight never ends
            ends[state] = DRAW
            value[state] = ((0, 0, 1, 0, *model.left(state)), 1)
            continue
        extra = gained(state) if gained is not None else ()
        common = math.lcm(1, *(amount.denominator for amount in extra))
        for _, target in weighted[state]:
            if target != state:
                common = math.lcm(common, value[target][1])
        total = [0] * width
        for w, target in weighted[state]:
            if target != state:
                numerators, below = value[target]
                scale = w * (common // below)
                for index, amount in enumerate(numerators):
                    if amount:
                        total[index] += scale * amount
        total[3] += denominator * common  # this round
        for index, gain in enumerate(extra):  # what the round adds that the states do not record
            total[4 + index] += int(gain * denominator * common)
        below = common * (denominator - stay)
        shared = math.gcd(below, *total)
        value[state] = (tuple(n // shared for n in total), below // shared)
    start = model.start()
    answer = [sum((p * Fraction(value[state][0][index], value[state][1]) for p, state in start), Fraction(0))
              for index in range(width)]
    rounds, longer = _round_distribution(ends, denominator, weighted, start)
    return Result(sides, model.fighters, left_label, (answer[0], answer[1]), answer[2], rounds, longer,
                  answer[3], tuple(answer[4:]), exact=True, states=len(states))


def _round_distribution(ends: dict[S, int | None], denominator: int, weighted: dict[S, list[tuple[int, S]]],
                        start: Sequence[tuple[Fraction, S]]) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    """P(the fight ends in round k) for the first :data:`SHOWN_ROUNDS` rounds, and P(it lasts longer).

    The chance mass is kept in whole numbers over ``base * denominator ** rounds``.
    """
    base = math.lcm(*(p.denominator for p, _ in start))
    live: dict[S, int] = {}
    for p, state in start:
        if ends[state] is None:  # a fight over before it began ends in no round
            live[state] = live.get(state, 0) + int(p * base)
    ended: list[tuple[int, Fraction]] = []
    below = base
    for number in range(1, SHOWN_ROUNDS + 1):
        after: dict[S, int] = {}
        finished = 0
        for state, mass in live.items():
            for w, target in weighted[state]:
                if ends[target] is not None:
                    finished += mass * w
                else:
                    after[target] = after.get(target, 0) + mass * w
        below *= denominator
        ended.append((number, Fraction(finished, below)))
        live = after
    return tuple(ended), Fraction(sum(live.values()), below)


class Tally:
    """Fights counted so far: what a simulation adds to, one batch at a time, and reads as a :class:`Result`.

    Batches let a caller bound each call (a book build gives every engine call a CPU limit) while the
    fights still share one seeded source, so the answer does not depend on the batch size.
    """

    def __init__(self, play: Callable[[DiceSource], Played], fighters: int, seed: int) -> None:
        self.play, self.seed, self.source = play, seed, SeededSource(seed)
        self.counts = [0, 0, 0]
        self.lengths: dict[int, int] = {}
        self.left = [0] * fighters
        self.fights = 0

    def run(self, fights: int) -> None:
        """Play ``fights`` more fights."""
        if self.fights + fights > MAX_FIGHTS:
            raise MatchupError(f"a simulation plays at most {MAX_FIGHTS:,} fights")
        for _ in range(fights):
            played = self.play(self.source)
            self.counts[played.outcome] += 1
            self.lengths[played.rounds] = self.lengths.get(played.rounds, 0) + 1
            for index, amount in enumerate(played.left):
                self.left[index] += amount
            self.fights += 1

    def result(self, sides: tuple[str, str], fighters: tuple[str, ...], left_label: str) -> Result:
        n = self.fights
        if n == 0:
            raise MatchupError("no fight has been played")
        share = [Fraction(count, n) for count in self.counts]
        rounds = tuple((k, Fraction(self.lengths.get(k, 0), n)) for k in range(1, SHOWN_ROUNDS + 1))
        longer = Fraction(sum(count for k, count in self.lengths.items() if k > SHOWN_ROUNDS), n)
        mean = Fraction(sum(k * count for k, count in self.lengths.items()), n)
        return Result(sides, fighters, left_label, (share[0], share[1]), share[2], rounds, longer, mean,
                      tuple(Fraction(amount, n) for amount in self.left), exact=False, fights=n, seed=self.seed)


F = TypeVar("F")


def on_side(maker: Callable[[str, str], F], side: str) -> Callable[[str], F]:
    """A builder of (label, side) as the builder of one label that :func:`fighters_named` takes."""
    return lambda label: maker(label, side)


def fighters_named(system: str, names: Sequence[str], makers: Mapping[str, tuple[str, Callable[[str], F]]],
                   taken: set[str]) -> list[F]:
    """The fighters of one side from stat block names (``makers``: name -> (the block's own name, a
    builder taking the fighter's label)); a second fighter of one block is "Raider 2", and ``taken``
    holds the labels of both sides so they stay apart."""
    built = []
    for name in names:
        if name not in makers:
            raise MatchupError(f"{system} has no fighter {name!r} (it has: {', '.join(sorted(makers))})")
        base, maker = makers[name]
        label, number = base, 1
        while label in taken:
            number += 1
            label = f"{base} {number}"
        taken.add(label)
        built.append(maker(label))
    return built


def check_fights(fights: int) -> int:
    """A number of fights a simulation may play (1 to :data:`MAX_FIGHTS`), or :class:`MatchupError`."""
    if isinstance(fights, bool) or not isinstance(fights, int) or not 1 <= fights <= MAX_FIGHTS:
        raise MatchupError(f"a simulation plays 1 to {MAX_FIGHTS:,} fights, not {fights!r}")
    return fights


def simulate(play: Callable[[DiceSource], Played], sides: tuple[str, str], fighters: tuple[str, ...],
             left_label: str, *, fights: int = SIMULATED_FIGHTS, seed: int = 1) -> Result:
    """Play ``fights`` seeded fights with ``play`` (one source for them all) and count what happened."""
    tally = Tally(play, len(fighters), seed)
    tally.run(check_fights(fights))
    return tally.result(sides, fighters, left_label)


@dataclass(frozen=True)
class Matchup:
    """A fight a game package can answer: its exact model (if it has one) and its tracker play."""

    sides: tuple[str, str]
    fighters: tuple[str, ...]
    left_label: str
    play: Callable[[DiceSource], Played]
    model: FightModel[Any] | None = None


def _direct(function: Callable[..., Any], *args: Any) -> Any:
    return function(*args)


def answer(fight: Matchup, *, exact: bool | None = None, fights: int = SIMULATED_FIGHTS, seed: int = 1,
           call: Callable[..., Any] = _direct, batch: int = 500) -> Result:
    """The exact answer when it fits the budget, else a simulation; ``exact=True`` refuses to simulate,
    ``exact=False`` always simulates.

    ``call(function, *args)`` runs each piece of engine work (the exact solve, each batch of ``batch``
    fights): a book build passes its bounded engine call, so no single call runs long.  An error it
    raises for a fight too large (its ``error`` attribute, if it wraps one) falls back to simulation.
    """
    check_fights(fights)
    if exact is not False and fight.model is not None:
        try:
            result: Result = call(solve, fight.model, fight.sides, fight.left_label)
            return result
        except Exception as error:
            if exact or not isinstance(getattr(error, "error", error), MatchupTooLargeError):
                raise
    elif exact:
        raise MatchupTooLargeError("this fight has no exact model")
    tally = Tally(fight.play, len(fight.fighters), seed)
    for start in range(0, fights, batch):
        call(tally.run, min(batch, fights - start))
    return tally.result(fight.sides, fight.fighters, fight.left_label)


#: A game's fight builder: the two sides as lists of stat block names -> the fight.
Builder = Callable[[Sequence[str], Sequence[str]], Matchup]
#: Fighters a side may hold: more is a battle, for a simulation at the table, not a book's question.
MAX_SIDE = 6


class Fights:
    """The fight builder one game package publishes (``REGISTRY.matchups``), found by the CLI and pages."""

    def __init__(self, system: str) -> None:
        self.system = system
        self._builder: Builder | None = None

    def publish(self, builder: Builder) -> Builder:
        """Decorator: the function that builds a :class:`Matchup` from two lists of stat block names."""
        self._builder = builder
        return builder

    def __bool__(self) -> bool:
        return self._builder is not None

    def build(self, side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
        """The fight between the two sides; :class:`MatchupError` names what is wrong with them."""
        if self._builder is None:
            raise MatchupError(f"{self.system} publishes no fight model")
        for side in (side_a, side_b):
            if not 1 <= len(side) <= MAX_SIDE:
                raise MatchupError(f"a side holds 1 to {MAX_SIDE} fighters, not {len(side)}")
        return self._builder(list(side_a), list(side_b))


# -- the answer as tables (the CLI and node:matchup print these) -------------------------------------
def _interval_text(result: Result, share: Fraction) -> str:
    low, high = result.interval(share)

    def shown(x: float) -> str:  # a bound under 1% keeps two decimals: "0.00% to 0.04%", never "0.0% to 0.0%"
        return f"{100 * x:.2f}%" if x < 0.01 else f"{100 * x:.1f}%"

    return f"{shown(low)} to {shown(high)}"


def outcome_table(result: Result) -> Table:
    """Each side's chance to win and the draw's (with its 95% interval when simulated)."""
    labels = (f"{result.sides[0]} wins", f"{result.sides[1]} wins", "draw")
    shares = (*result.wins, result.draw)
    if result.exact:
        return Table.of(("outcome", "chance"), list(zip(labels, shares)), title="Who wins", probabilities=("chance",))
    rows = [(label, share, _interval_text(result, share)) for label, share in zip(labels, shares)]
    return Table.of(("outcome", "share of fights", "95% interval"), rows, title="Who wins",
                    probabilities=("share of fights",))


def rounds_table(result: Result) -> Table:
    """The chance that the fight ends in each round, then that it lasts longer."""
    rows: list[tuple[str, Fraction]] = [(str(k), p) for k, p in result.rounds]
    rows.append((f"more than {len(result.rounds)}", result.longer))
    share = "chance" if result.exact else "share of fights"
    return Table.of(("rounds", share), rows, title="How long it lasts", probabilities=(share,))


def left_table(result: Result) -> Table:
    """What each fighter has left at the end, on average over every way the fight goes."""
    rows = [(name, f"{float(amount):.2f}") for name, amount in zip(result.fighters, result.left)]
    return Table.of(("fighter", f"mean {result.left_label}"), rows, title="What is left")


def summary(result: Result) -> str:
    """One line: the method and the mean number of rounds."""
    return f"{result.method()}; {float(result.mean_rounds):.2f} rounds on average"


def result_json(result: Result) -> dict[str, object]:
    """The result as JSON-ready data, chances as exact fraction strings (``rpg matchup --json`` prints it)."""
    return {"sides": list(result.sides), "fighters": list(result.fighters), "left_label": result.left_label,
            "wins": [str(p) for p in result.wins], "draw": str(result.draw),
            "rounds": [[k, str(p)] for k, p in result.rounds], "longer": str(result.longer),
            "mean_rounds": str(result.mean_rounds), "left": [str(amount) for amount in result.left],
            "exact": result.exact, "states": result.states, "fights": result.fights, "seed": result.seed,
            "method": result.method()}


def result_from_json(data: dict[str, object]) -> Result:
    """A result read back from :func:`result_json` (a build's cache); ``MatchupError`` for anything else."""
    try:
        wins = [Fraction(str(p)) for p in data["wins"]]  # type: ignore[attr-defined]
        rounds = tuple((int(k), Fraction(str(p))) for k, p in data["rounds"])  # type: ignore[attr-defined]
        seed = data["seed"]
        return Result((str(data["sides"][0]), str(data["sides"][1])),  # type: ignore[index]
                      tuple(str(n) for n in data["fighters"]), str(data["left_label"]),  # type: ignore[attr-defined]
                      (wins[0], wins[1]), Fraction(str(data["draw"])), rounds, Fraction(str(data["longer"])),
                      Fraction(str(data["mean_rounds"])),
                      tuple(Fraction(str(n)) for n in data["left"]),  # type: ignore[attr-defined]
                      exact=bool(data["exact"]), states=int(str(data["states"])), fights=int(str(data["fights"])),
                      seed=None if seed is None else int(str(seed)))
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as error:
        raise MatchupError(f"not a matchup result: {error}") from None
