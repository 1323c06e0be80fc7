"""DnDalike encounter odds: the book's stat blocks fight through the stack, exactly for a duel.

Each fighter is its stat block's character (:mod:`rules.dndalike.statblocks`): armour class, health,
action dice, Strength on the Attack die, Dexterity on the Movement die, fatigue from its armour up to
its maximum.  The orc is a lesser character, as its block says.  The GM's plan (:func:`wants_blow`,
:func:`dodges`) is the one both ways of answering follow:

* the party that was in the area first (the second side: the fight is on its ground) takes the first
  turn (:func:`~rules.dndalike.combat.turn_order`); a round is both parties' turns;
* on its turn a fighter spends each Attack die on the first opponent standing: a JAB, or a COUP DE
  GRACE once the target has :func:`blow_threshold` wounds (the damage they carry on average reaches
  its health).  A failed finishing blow on a normal character shows its total falls short, so the
  next attack on it is a JAB again; a lesser character's wounds are rolled afresh at every blow, so
  the attacker keeps trying;
* a defender answers an attack that would hit (and is not a natural 6) with a DODGE, while it has
  Movement dice and fatigue below its maximum, until its raised armour class would stop the attack.

Nobody moves, blocks, trips or regains dice.  Simulated fights run through
:class:`~rules.dndalike.combat.Combat` itself.  The exact model of a one-against-one fight
(:class:`DuelModel`) asks the same rule functions (``hits``, ``armour_class_now``, ``raise_to``,
``gain_fatigue``, ``wounds_dealt``, ``finishing_blow``, ``death_probability``) for every outcome and
its chance.  A normal fighter's state is its wound count, its secret damage total (capped at its
health: more kills no better), whether a blow has just failed on it, and its fatigue; a lesser
fighter's is its wound count and fatigue.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.dice import DiceSource, Dist, ScriptedSource
from rules.dndalike.characters import ActionDice, Character
from rules.dndalike.combat import Combat, Combatant, StackItem, armour_class_now, hits, raise_to, turn_order
from rules.dndalike.core import gain_fatigue, natural_result
from rules.dndalike.registry import REGISTRY
from rules.dndalike.statblocks import georgia, orc
from rules.dndalike.wounds import DAMAGE_DIE, DamageTrack, death_probability, finishing_blow, wounds_dealt
from rules.matchup import DRAW, MAX_ROUNDS, Duel, Matchup, Played, fighters_named

#: What a fighter has "left" in a result: here, what it took.
LEFT_LABEL = "wounds taken"
#: The mean of a wound's damage die, which :func:`blow_threshold` weighs health against.
MEAN_WOUND = Fraction(DAMAGE_DIE + 1, 2)
FACES = range(1, 7)


@dataclass(frozen=True)
class Fighter:
    """A stat block as the matchup fights it (a fresh tracker :class:`Combatant` per fight)."""

    name: str
    character: Character
    lesser: bool = False

    def combatant(self, party: str) -> Combatant:
        return Combatant.from_character(self.name, party, self.character, lesser=self.lesser)


def georgia_fighter(name: str = "Georgia") -> Fighter:
    return Fighter(name, georgia())


def orc_fighter(name: str = "Orc") -> Fighter:
    return Fighter(name, orc(), lesser=True)


#: Stat block name -> the fighter built from it.
FIGHTERS: dict[str, Callable[..., Fighter]] = {"georgia": georgia_fighter, "orc": orc_fighter}


def fighters(names: Sequence[str], taken: set[str]) -> list[Fighter]:
    """Fighters from stat block names; a second orc is "Orc 2"."""
    makers = {name: (maker().name, maker) for name, maker in FIGHTERS.items()}
    return fighters_named("dndalike", names, makers, taken)


# -- the GM's plan ---------------------------------------------------------------------------------------
@REGISTRY.rule("Dndalike.Rule.BlowThreshold", "When to Try a Finishing Blow", "RU", formula="Health / 3.5")
def blow_threshold(health: int) -> int:
    """The wounds after which the matchups' attackers try a coup de grace: the fewest whose average
    damage (3.5 a wound) reaches the target's health."""
    return max(1, math.ceil(health / MEAN_WOUND))


def wants_blow(count: int, health: int, *, lesser: bool, failed_at: int | None) -> bool:
    """The plan's choice of COUP DE GRACE over JAB against a target with ``count`` wounds."""
    if count < blow_threshold(health):
        return False
    return lesser or failed_at != count


def dodges(value: int, natural: int, armour_class: int, raised: int | None, movement_left: int,
           fatigue: int, maximum_fatigue: int) -> bool:
    """The plan's defence: dodge an attack that would still hit (and is not a natural 6) while a
    Movement die and a fatigue below the maximum are left."""
    if movement_left < 1 or fatigue >= maximum_fatigue or natural_result(natural) is not None:
        return False
    return hits(value, natural, armour_class_now(armour_class, raised))


# -- one fight through the tracker -----------------------------------------------------------------------
def _attack(fight: Combat, me: Combatant, target: Combatant) -> None:
    action = "Coup de Grace" if wants_blow(target.damage.count, target.health, lesser=target.lesser,
                                          failed_at=target.blow_failed_at) else "Jab"
    attack = fight.announce(me, action, target)
    raised = target.raised_ac
    while dodges(attack.value or 0, attack.natural or 0, target.armour_class, raised, target.pool["M"],
                 target.fatigue, target.maximum_fatigue):
        dodge: StackItem = fight.announce(target, "Dodge")
        raised = raise_to(raised, dodge.value or 0)
    fight.resolve_all()


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """Play one fight with :class:`Combat` and the GM's plan (see the module docstring)."""
    teams = ([f.combatant("a") for f in side_a], [f.combatant("b") for f in side_b])
    everyone = (*teams[0], *teams[1])
    fight = Combat(list(everyone), source, order=turn_order({"b": 0, "a": 1}))
    for turn in range(2 * MAX_ROUNDS):
        side = 0 if fight.active_party == "a" else 1
        for me in teams[side]:
            while me.alive and me.pool["A"] > 0:
                foes = [c for c in teams[1 - side] if c.alive]
                if not foes:
                    break
                _attack(fight, me, foes[0])
        if not any(c.alive for c in teams[1 - side]):
            return Played(side, turn // 2 + 1, tuple(c.damage.count for c in everyone))
        fight.end_turn()
    return Played(DRAW, MAX_ROUNDS, tuple(c.damage.count for c in everyone))


# -- the exact model of a one-against-one fight ----------------------------------------------------------
#: A fighter's state: alive, wound count, damage total (capped at health; 0 for a lesser character),
#: whether a finishing blow failed on it at this count, fatigue.
Body = tuple[bool, int, int, bool, int]
#: A fight's state: each fighter's body, in side order.
State = tuple[Body, Body]
#: What a defender has for the rest of a turn: Movement dice left, and the armour class dodges raised.
Guard = tuple[int, int | None]


@dataclass(frozen=True)
class _Sheet:
    """The numbers of a fighter the model needs, read from its tracker combatant."""

    armour_class: int
    health: int
    dice: ActionDice
    attack_bonus: int
    movement_bonus: int
    fatigue: int
    maximum_fatigue: int
    lesser: bool
    double: bool

    @classmethod
    def of(cls, fighter: Fighter) -> _Sheet:
        c = fighter.combatant("model")
        return cls(c.armour_class, c.health, c.dice, c.attack_bonus, c.movement_bonus, c.fatigue,
                   c.maximum_fatigue, c.lesser, "double wounds" in c.features)


def _wound_totals(wounds: int) -> Dist:
    return Dist.die(DAMAGE_DIE).repeat_sum(wounds)


def _blow_kills(total: int, count: int, target: _Sheet) -> Fraction:
    """The chance a finishing blow that hits kills: the lesser roll afresh, the normal reveal the total."""
    if target.lesser:
        return death_probability(count, target.health)
    revealed = finishing_blow(DamageTrack(False, count, [total]), target.health, ScriptedSource(()))
    return Fraction(int(revealed.dead))


class DuelModel(Duel[Fighter]):
    """The exact one-against-one fight, a round at a time (:class:`rules.matchup.FightModel`)."""

    def __init__(self, a: Fighter, b: Fighter) -> None:
        self.pair = (a, b)
        self.sheets = (_Sheet.of(a), _Sheet.of(b))
        self.first = 0 if turn_order({"b": 0, "a": 1})[0] == "a" else 1
        self._turn = cache(self._turn_uncached)

    @property
    def estimate(self) -> int:
        """Fatigues times the (wounds, total) pairs, for a fighter standing (a normal one with a
        failed blow on it or not; the lesser roll afresh) or dead (no failed blow), and a fight
        stops at the first death, so never both dead: a lesser fighter's wounds stop a hit or two
        past the threshold; a normal one's total lies between one and six a wound (capped at
        health), and its wounds stop a hit or two past health."""
        def bodies(s: _Sheet) -> tuple[int, int]:
            fatigues = s.maximum_fatigue - s.fatigue + 1
            if s.lesser:
                pairs = blow_threshold(s.health) + 3
            else:
                pairs = sum(min(DAMAGE_DIE * c, s.health) - min(c, s.health) + 1 for c in range(s.health + 4))
            return (1 if s.lesser else 2) * fatigues * pairs, fatigues * pairs
        (up_a, dead_a), (up_b, dead_b) = bodies(self.sheets[0]), bodies(self.sheets[1])
        return up_a * up_b + dead_a * up_b + up_a * dead_b

    def start(self) -> list[tuple[Fraction, State]]:
        a, b = self.sheets
        return [(Fraction(1), ((True, 0, 0, False, a.fatigue), (True, 0, 0, False, b.fatigue)))]

    def _attack(self, attacker: _Sheet, target: _Sheet, body: Body, movement: int,
                raised: int | None) -> list[tuple[Fraction, Body, Guard]]:
        """One attack on ``body``: the target's body after it, and its guard (the Movement dice it has
        left and the armour class its dodges raised, both until the end of the turn)."""
        _, count, total, failed, fatigue = body
        blow = wants_blow(count, target.health, lesser=target.lesser, failed_at=count if failed else None)
        out: list[tuple[Fraction, Body, Guard]] = []
        for natural in FACES:
            value = natural + attacker.attack_bonus
            # the defender's dodges: (chance, raised armour class, fatigue, Movement dice left)
            defences: list[tuple[Fraction, int | None, int, int]] = []
            pending: list[tuple[Fraction, int | None, int, int]] = [(Fraction(1, 6), raised, fatigue, movement)]
            while pending:
                p, raised, tired, left = pending.pop()
                if not dodges(value, natural, target.armour_class, raised, left, tired, target.maximum_fatigue):
                    defences.append((p, raised, tired, left))
                    continue
                after = gain_fatigue(tired, 1, target.maximum_fatigue).fatigue
                pending += [(p / 6, raise_to(raised, face + target.movement_bonus), after, left - 1)
                            for face in FACES]
            for p, now, tired, left in defences:
                guard = (left, now)
                if not hits(value, natural, armour_class_now(target.armour_class, now)):
                    out.append((p, (True, count, total, failed, tired), guard))
                elif blow:
                    kills = _blow_kills(total, count, target)
                    if kills:
                        out.append((p * kills, (False, count, total, False, tired), guard))
                    if kills != 1:
                        out.append((p * (1 - kills), (True, count, total, not target.lesser, tired), guard))
                else:
                    wounds = wounds_dealt(1, two_handed=attacker.double)
                    if target.lesser:
                        out.append((p, (True, count + wounds, 0, False, tired), guard))
                        continue
                    for damage, q in _wound_totals(wounds).items():
                        capped = min(total + damage, target.health)
                        out.append((p * q, (True, count + wounds, capped, False, tired), guard))
        return out

    def _turn_uncached(self, attacker: int, body: Body) -> tuple[tuple[Fraction, Body], ...]:
        """The defender's body after every attack ``attacker`` makes in its turn (one an Attack die)."""
        me, target = self.sheets[attacker], self.sheets[1 - attacker]
        live: dict[tuple[Body, Guard], Fraction] = {(body, (target.dice.movement, None)): Fraction(1)}
        for _ in range(me.dice.attack):
            after: dict[tuple[Body, Guard], Fraction] = {}
            for (now, guard), p in live.items():
                moves = [(Fraction(1), now, guard)] if not now[0] else self._attack(me, target, now, *guard)
                for q, hurt, kept in moves:
                    after[hurt, kept] = after.get((hurt, kept), Fraction(0)) + p * q
            live = after
        ended: dict[Body, Fraction] = {}
        for (hurt, _), p in live.items():
            ended[hurt] = ended.get(hurt, Fraction(0)) + p
        return tuple((p, hurt) for hurt, p in ended.items())

    def round(self, state: State) -> list[tuple[Fraction, State]]:
        first, second = self.first, 1 - self.first
        out: dict[State, Fraction] = {}

        def put(p: Fraction, bodies: dict[int, Body]) -> None:
            key: State = (bodies[0], bodies[1])
            out[key] = out.get(key, Fraction(0)) + p

        for p, hurt in self._turn(first, state[second]):
            if not hurt[0]:
                put(p, {first: state[first], second: hurt})
                continue
            for q, back in self._turn(second, state[first]):
                put(p * q, {first: back, second: hurt})
        return [(p, s) for s, p in out.items()]

    def outcome(self, state: State) -> int | None:
        if not state[0][0]:
            return 1
        if not state[1][0]:
            return 0
        return None

    def left(self, state: State) -> tuple[int, ...]:
        return (state[0][1], state[1][1])


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names; one against one has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, taken), fighters(side_b, taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    names = (" and ".join(f.name for f in a), " and ".join(f.name for f in b))
    return Matchup(names, tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source), model)

