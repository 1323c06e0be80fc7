"""Heimr encounter odds: the book's shieldmaiden fights through the combat log, exactly for a duel.

Sigrun attacks with her Shield and sword challenge and a medium weapon, and blocks with the same
challenge behind a small shield (this book's kit for her).  The GM's plan is the plainest: each
fighter attacks the first standing opponent on its turn, and the defender always defends.

Simulated fights run through :class:`~rules.heimr.tracker.Skirmish` itself.  A one-against-one fight
also has an exact model (:class:`DuelModel`) built from the rule functions the log calls: its state is
each fighter's hit points and the injury effects it carries into its next turn (a fighter at 0 HP or
below fights on injured, and each injuring hit rolls a location whose effects cost turns).  A fighter
who may not attack this turn (dazed, or without its weapon) lets its turn pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.abilities import find_ability
from rules.heimr.challenge import challenge_distribution, opposed_probability
from rules.heimr.combat import Combatant, InitiativeRoll, initiative_order
from rules.heimr.defence import DefenceTracker, position_modifier, situational_modifiers
from rules.heimr.health import injury_effects
from rules.heimr.modules import find_weapon, weapon_attack
from rules.heimr.registry import REGISTRY
from rules.heimr.statblocks import TRAINED_CONSISTENCY, TRAINED_POTENTIAL, shieldmaiden
from rules.heimr.tracker import HIT_LOCATIONS, OUT_AT_HP, Fighter, Skirmish, hit_location
from rules.matchup import DRAW, MAX_ROUNDS, Duel, Matchup, MatchupError, Played, fighters_named

LEFT_LABEL = "hit points left"
#: Injury effects after which the log allows no attack until the end of the fighter's next turn.
PASSING = frozenset({"Daze", "Drop"})
#: Sigrun's kit in these fights (this book's choice: her stat block names the ability, not the gear).
WEAPON, SHIELD = "Medium weapon", "Small shield"


def shieldmaiden_fighter(name: str) -> Fighter:
    sigrun = shieldmaiden()
    assert sigrun.hp.maximum is not None and sigrun.wp.current is not None
    challenge = find_ability("Shield and sword").challenge(sigrun, TRAINED_CONSISTENCY, TRAINED_POTENTIAL)
    return Fighter(name, dexterity=sigrun.attribute("Dex"), willpower=sigrun.wp.current, hp=sigrun.hp.maximum,
                   attack=challenge, dodge=(sigrun.attribute("Dex"), 0), weapon=WEAPON, shield=SHIELD, block=challenge)


#: Stat block name -> (the block's own name, the builder).
FIGHTERS: dict[str, tuple[str, Callable[[str], Fighter]]] = {"shieldmaiden": ("Sigrun", shieldmaiden_fighter)}


def fighters(names: Sequence[str], taken: set[str]) -> list[Fighter]:
    """The fighters of one side, from stat block names."""
    return fighters_named("heimr", names, FIGHTERS, taken)


def _fresh(fighter: Fighter) -> Fighter:
    return Fighter(fighter.name, dexterity=fighter.dexterity, willpower=fighter.willpower, hp=fighter.hp,
                   attack=fighter.attack, dodge=fighter.dodge, weapon=fighter.weapon, shield=fighter.shield,
                   block=fighter.block)


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """One fight through :class:`Skirmish` with fresh fighters and the GM's plain plan."""
    teams = ([_fresh(f) for f in side_a], [_fresh(f) for f in side_b])
    everyone = (*teams[0], *teams[1])
    team_of = {f.name: side for side in (0, 1) for f in teams[side]}
    fight = Skirmish(list(everyone), source)
    fight.start()
    while fight.round <= MAX_ROUNDS:
        me = fight.current
        foes = [f for f in teams[1 - team_of[me.name]] if f.standing]
        if PASSING & me.effects:  # dazed, or the weapon dropped: no attack this turn
            fight.end_turn()
            continue
        fight.attack(foes[0].name)
        if not any(f.standing for f in teams[1 - team_of[me.name]]):
            return Played(team_of[me.name], fight.round, tuple(max(0, f.hp) for f in everyone))
        fight.end_turn()
    return Played(DRAW, MAX_ROUNDS, tuple(max(0, f.hp) for f in everyone))


# -- the exact model of a one-against-one fight ------------------------------------------------------
#: One fighter in the exact model: hit points, and the injury effects it carries into its next turn.
Status = tuple[int, frozenset[str]]
#: A fight's state between rounds: who acts first each round (0 or 1), then each fighter's status.
DuelState = tuple[int, Status, Status]
#: (chance, the mover's status, the other's status) after one turn.
TurnOutcome = tuple[Fraction, Status, Status]
NOTHING: frozenset[str] = frozenset()


class DuelModel(Duel[Fighter]):
    """The exact one-against-one fight, a round (both turns) at a time (:class:`rules.matchup.FightModel`).

    It asks the rules the log follows for every chance: initiative's order, the attack and block
    challenges (weapon bonus, the shield's bonus, prone modifiers, no defence while dazed), the Hit, the
    hit-location die and its injury effects.  In a duel each fighter defends once between its own turns,
    so every defence is the turn's first (no repeat penalty), and the effects a fighter carries are the
    ones the other's last turn gave it; they are over at the end of its own turn.  A fighter out of the
    fight is kept at the lowest hit points that count (its effects dropped): no rule reads them any more.
    """

    def __init__(self, a: Fighter, b: Fighter) -> None:
        for fighter in (a, b):
            if (fighter.off_hand or fighter.stamina is not None or fighter.climbing is not None or fighter.hidden_from
                    or fighter.effects or find_weapon(fighter.weapon).range is not None):
                raise MatchupError(f"{fighter.name}: the exact duel knows one melee weapon, no fatigue, climbing, "
                                   "hiding or effects at the start")
        self.pair = (a, b)
        self._landing = cache(self._landing_uncached)
        self._turn = cache(self._turn_uncached)

    @property
    def estimate(self) -> int:
        def statuses(index: int) -> int:
            """Hit point values fighter ``index`` passes under the other's equal Hits: above 0 with no
            effects, 0 or below with any set of effects, and out."""
            hit = max(1, find_weapon(self.pair[1 - index].weapon).damage)
            healthy = max(0, self.pair[index].hp) // hit + 1
            injured = -OUT_AT_HP // hit + 1
            return healthy + (injured << len(set(HIT_LOCATIONS.values()))) + 1
        return 2 * statuses(0) * statuses(1)

    def start(self) -> list[tuple[Fraction, DuelState]]:
        a, b = self.pair
        combatants = [Combatant(f.name, f.dexterity, f.willpower) for f in self.pair]
        dists = [challenge_distribution(f.dexterity, f.willpower) for f in self.pair]
        first = [Fraction(0), Fraction(0)]
        for ra, pa in dists[0].items():
            for rb, pb in dists[1].items():
                order = initiative_order([InitiativeRoll(a.name, ra, a.willpower),
                                          InitiativeRoll(b.name, rb, b.willpower)], combatants)
                first[0 if order[0].name == a.name else 1] += pa * pb
        return [(p, (who, (a.hp, NOTHING), (b.hp, NOTHING))) for who, p in enumerate(first) if p]

    def _landing_uncached(self, attacker: int, attacking: frozenset[str], defending: frozenset[str]) -> Fraction:
        """The chance that ``attacker``'s attack gets through the other's defence (as the log rolls them)."""
        me, foe = self.pair[attacker], self.pair[1 - attacker]
        c, p, _ = weapon_attack(me.weapon, *me.attack)
        if "Fall" in attacking:
            c += position_modifier("Prone", "attack")
        c, p = situational_modifiers(c, p)
        if "Daze" in defending:
            return Fraction(1)
        kind: Literal["block", "dodge"] = "block" if foe.block is not None and foe.shield else "dodge"
        dc, dp = foe.block if kind == "block" and foe.block is not None else foe.dodge
        dc -= DefenceTracker(shield=foe.shield is not None).penalty(kind)  # the first defence since its turn
        if "Fall" in defending:
            dc += position_modifier("Prone", "defence")
        dc, dp = situational_modifiers(dc, dp, shield=foe.shield, blocking=kind == "block")
        return opposed_probability((c, p), (dc, dp))

    def _hurt(self, attacker: int, status: Status) -> list[tuple[Fraction, Status]]:
        """The defender's status after a landed blow: the Hit off, and at 0 HP or below a hit location."""
        hp = status[0] - find_weapon(self.pair[attacker].weapon).damage
        if hp <= OUT_AT_HP:
            return [(Fraction(1), (OUT_AT_HP, NOTHING))]
        if hp > 0:
            return [(Fraction(1), (hp, status[1]))]
        landed: dict[Status, Fraction] = {}
        for face in HIT_LOCATIONS:
            after = (hp, status[1] | set(injury_effects([hit_location(face)])))
            landed[after] = landed.get(after, Fraction(0)) + Fraction(1, len(HIT_LOCATIONS))
        return [(p, after) for after, p in landed.items()]

    def _turn_uncached(self, mover: int, me: Status, foe: Status) -> tuple[TurnOutcome, ...]:
        """One turn of ``mover``: attack (or let the turn pass), then its effects are over."""
        after: Status = (me[0], NOTHING)
        if PASSING & me[1]:
            return ((Fraction(1), after, foe),)
        p = self._landing(mover, me[1], foe[1])
        return ((1 - p, after, foe), *((p * q, after, hurt) for q, hurt in self._hurt(mover, foe)))

    def round(self, state: DuelState) -> list[tuple[Fraction, DuelState]]:
        first, second = state[0], 1 - state[0]
        out: dict[DuelState, Fraction] = {}

        def put(p: Fraction, statuses: dict[int, Status]) -> None:
            key: DuelState = (first, statuses[0], statuses[1])
            out[key] = out.get(key, Fraction(0)) + p

        for p, mine, theirs in self._turn(first, state[1 + first], state[1 + second]):
            if theirs[0] <= OUT_AT_HP:
                put(p, {first: mine, second: theirs})
                continue
            for q, back, hurt in self._turn(second, theirs, mine):
                put(p * q, {first: hurt, second: back})
        return [(p, s) for s, p in out.items()]

    def outcome(self, state: DuelState) -> int | None:
        if state[1][0] <= OUT_AT_HP:
            return 1
        if state[2][0] <= OUT_AT_HP:
            return 0
        return None

    def left(self, state: DuelState) -> tuple[int, ...]:
        return (max(0, state[1][0]), max(0, state[2][0]))


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the combat log; one against one
    also has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, taken), fighters(side_b, taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source), model)
