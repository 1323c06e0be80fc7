"""SPURG encounter odds: the book's duellist fights through the combat tracker, hit points on.

The source gives damage no effect, so a fight only ends with this book's optional hit-points rule
(:class:`~rules.spurg.damage.HitPointsRule`): a fighter whose damage reaches its Vitality is out.  The
duellist attacks with her rapier's Verdict Roll (her Fencing TN, no modifier) and thrusts for
:data:`RAPIER` (this book's number: her stat block gives no damage rating).  Every matchup is a seeded
simulation through :class:`~rules.spurg.tracker.Skirmish`; a one-against-one fight also has an exact
model (:class:`DuelModel`): its state is the damage each fighter has taken, and the turn order comes
from the tracker's own ``turn_order`` fed every pair of roll-off totals (a tied roll-off is rolled
again, so the chance of each order is that of the untied pairs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from rules.dice import DiceSource, ScriptedSource
from rules.dice.errors import ScriptExhaustedError
from rules.matchup import DRAW, MAX_ROUNDS, Duel, Matchup, MatchupError, Played, fighters_named, on_side
from rules.spurg.combat import Combatant, turn_order
from rules.spurg.damage import DamageRoll, HitPointsRule
from rules.spurg.encumbrance import encumbered_speed
from rules.spurg.registry import REGISTRY
from rules.spurg.statblocks import FENCING, duellist
from rules.spurg.tracker import Fighter, Skirmish
from rules.spurg.verdict import VERDICT_DICE, VERDICT_SIDES, success_probability, target_number, verdict_dist

#: The rapier's thrust, as this book rates it.
RAPIER = "1d6"
#: What a fighter has "left": Vitality less the damage taken (the optional rule's hit points).
LEFT_LABEL = "hit points left"
HIT_POINTS = HitPointsRule(enabled=True)


def duellist_fighter(name: str, side: str) -> Fighter:
    sheet = duellist()
    return Fighter(name, side, speed=sheet.speed, agility=sheet.score("AGI"), vitality=sheet.score("VIT"),
                   attack_tn=target_number(FENCING), damage=DamageRoll(RAPIER, "piercing"))


#: Stat block name -> (the block's own name, the builder).
FIGHTERS: dict[str, tuple[str, Callable[[str, str], Fighter]]] = {"duellist": ("Lucia Vane", duellist_fighter)}


def fighters(names: Sequence[str], side: str, taken: set[str]) -> list[Fighter]:
    """The fighters of side ``side``, from stat block names."""
    makers = {name: (base, on_side(maker, side)) for name, (base, maker) in FIGHTERS.items()}
    return fighters_named("spurg", names, makers, taken)


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """One fight through :class:`Skirmish` with the hit-points rule on and fresh fighters."""
    fresh = [Fighter(f.name, f.side, f.speed, f.agility, f.vitality, f.attack_tn, f.damage) for f in (*side_a, *side_b)]
    fight = Skirmish(fresh, source, rule=HIT_POINTS)
    ended = fight.play(MAX_ROUNDS)
    left = tuple(max(0, HIT_POINTS.hit_points(f.vitality) - f.taken) for f in fresh)
    standing = {f.side for f in fresh if not f.out}
    if not ended or not standing:
        return Played(DRAW, fight.sequence.turns, left)
    return Played(0 if standing == {"a"} else 1, fight.sequence.turns, left)


# -- the exact model of a one-against-one fight ------------------------------------------------------
#: A fight's state between turns: who acts first (0 or 1), then the damage each fighter has taken
#: (kept at its hit points once it is out: no rule reads more).
DuelState = tuple[int, int, int]


def _faces(total: int) -> tuple[int, ...]:
    """Some faces of the roll-off's dice that add up to ``total``."""
    faces = []
    for left in range(VERDICT_DICE, 0, -1):
        face = min(VERDICT_SIDES, total - (left - 1))
        faces.append(face)
        total -= face
    return tuple(faces)


def first_to_act(a: Fighter, b: Fighter) -> Fraction:
    """The chance that ``a`` acts before ``b``, from the tracker's ``turn_order``: at once when Speed or
    Agility differ, else over every pair of roll-off totals that differ (a tie is rolled again)."""
    pair = [Combatant(f.name, encumbered_speed(f.speed, f.encumbrance), f.agility) for f in (a, b)]
    try:
        return Fraction(turn_order(pair, ScriptedSource(()))[0].name == a.name)
    except ScriptExhaustedError:
        pass
    ahead = untied = Fraction(0)
    totals = verdict_dist().items()
    for x, p in totals:
        for y, q in totals:
            if x != y:
                untied += p * q
                ahead += p * q if turn_order(pair, ScriptedSource(_faces(x) + _faces(y)))[0].name == a.name else 0
    return ahead / untied


class DuelModel(Duel[Fighter]):
    """The exact one-against-one fight, a turn (both attacks) at a time (:class:`rules.matchup.FightModel`).

    Each attack succeeds with the Verdict Roll's exact chance at the attacker's TN and deals the Damage
    Roll's exact distribution after the defender's protection; a fighter is out as the hit-points rule
    says, and one knocked out before its attack makes none.
    """

    def __init__(self, a: Fighter, b: Fighter) -> None:
        self.pair = (a, b)
        self.hp = tuple(HIT_POINTS.hit_points(f.vitality) for f in self.pair)
        self.hits = tuple(self._hits(f, foe) for f, foe in ((a, b), (b, a)))  # [i]: damage i deals, miss as 0
        if any(f.taken for f in self.pair):
            raise MatchupError("the exact duel starts with fighters who have taken no damage")

    @staticmethod
    def _hits(me: Fighter, foe: Fighter) -> tuple[tuple[Fraction, int], ...]:
        hit = success_probability(me.tn)
        weights: dict[int, Fraction] = {0: 1 - hit}
        for amount, p in me.damage.taken_dist(foe.protection).items():
            weights[amount] = weights.get(amount, Fraction(0)) + hit * p
        return tuple((p, amount) for amount, p in weights.items() if p)

    @property
    def estimate(self) -> int:
        return 2 * (self.hp[0] + 1) * (self.hp[1] + 1)

    def start(self) -> list[tuple[Fraction, DuelState]]:
        p = first_to_act(*self.pair)
        return [(chance, (who, 0, 0)) for who, chance in ((0, p), (1, 1 - p)) if chance]

    def _out(self, fighter: int, taken: int) -> bool:
        return HIT_POINTS.out_of_fight(taken, self.pair[fighter].vitality)

    def round(self, state: DuelState) -> list[tuple[Fraction, DuelState]]:
        first, second = state[0], 1 - state[0]
        out: dict[DuelState, Fraction] = {}

        def put(p: Fraction, taken: dict[int, int]) -> None:
            key = (first, min(taken[0], self.hp[0]), min(taken[1], self.hp[1]))
            out[key] = out.get(key, Fraction(0)) + p

        for p, dealt in self.hits[first]:
            hurt = state[1 + second] + dealt
            if self._out(second, hurt):
                put(p, {first: state[1 + first], second: hurt})
                continue
            for q, back in self.hits[second]:
                put(p * q, {first: state[1 + first] + back, second: hurt})
        return [(p, s) for s, p in out.items()]

    def outcome(self, state: DuelState) -> int | None:
        if self._out(0, state[1]):
            return 1
        if self._out(1, state[2]):
            return 0
        return None

    def left(self, state: DuelState) -> tuple[int, ...]:
        return (max(0, self.hp[0] - state[1]), max(0, self.hp[1] - state[2]))


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the tracker; one against one
    also has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, "a", taken), fighters(side_b, "b", taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source), model)
