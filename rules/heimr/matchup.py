"""Heimr encounter odds: the book's shieldmaiden fights through the combat log, exactly for a duel.

Sigrun attacks with her Shield and sword challenge and a medium weapon, and blocks with the same
challenge behind a small shield (this book's kit for her).  The GM's plan is the plainest: each
fighter attacks the first standing opponent on its turn, and the defender always defends.

Simulated fights run through :class:`~rules.heimr.tracker.Skirmish` itself.  The exact model of a
duel asks the same rule code for its chances: the log's own attack roll (weapon, situation) and
defence (the block or dodge and its repeat penalty, the shield's bonus), each side's challenge as an
exact distribution, a blow landing when the attack beats the defence, and the initiative order of
:func:`~rules.heimr.combat.roll_initiative` (higher result, then higher willpower, then as listed).
A fight's state is who acts first and each fighter's hit points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.abilities import find_ability
from rules.heimr.challenge import challenge_distribution
from rules.heimr.defence import DefenceTracker, situational_modifiers
from rules.heimr.registry import REGISTRY
from rules.heimr.statblocks import TRAINED_CONSISTENCY, TRAINED_POTENTIAL, shieldmaiden
from rules.heimr.tracker import Fighter, Skirmish
from rules.matchup import DRAW, MAX_ROUNDS, Matchup, MatchupError, Played

LEFT_LABEL = "hit points left"
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
    built = []
    for name in names:
        if name not in FIGHTERS:
            raise MatchupError(f"heimr has no fighter {name!r} (it has: {', '.join(sorted(FIGHTERS))})")
        base, maker = FIGHTERS[name]
        label, number = base, 1
        while label in taken:
            number += 1
            label = f"{base} {number}"
        taken.add(label)
        built.append(maker(label))
    return built


def _fresh(fighter: Fighter, hp: int | None = None) -> Fighter:
    return Fighter(fighter.name, fighter.dexterity, fighter.willpower, fighter.hp if hp is None else hp,
                   fighter.attack, fighter.dodge, fighter.weapon, fighter.shield, fighter.block)


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
        fight.attack(foes[0].name)
        if not any(f.standing for f in teams[1 - team_of[me.name]]):
            return Played(team_of[me.name], fight.round, tuple(max(0, f.hp) for f in everyone))
        fight.end_turn()
    return Played(DRAW, MAX_ROUNDS, tuple(max(0, f.hp) for f in everyone))


State = tuple[int, int, int]


class DuelModel:
    """The exact duel, a round at a time (:class:`rules.matchup.FightModel`)."""

    def __init__(self, a: Fighter, b: Fighter) -> None:
        self.pair = (a, b)
        log = Skirmish([_fresh(a), _fresh(b)], _NoDice())
        self.blows = tuple(self._blow(log, self.pair[i], self.pair[1 - i]) for i in (0, 1))
        self._standing = cache(lambda i, hp: _fresh(self.pair[i], hp).standing)

    @staticmethod
    def _blow(log: Skirmish, me: Fighter, defender: Fighter) -> tuple[Fraction, int]:
        """(chance that ``me``'s attack beats ``defender``'s defence, the Hit it deals)."""
        c, p, hit = log._attack_roll(me, defender, "attack")  # the log's own attack roll: weapon, situation
        kind: Literal["dodge", "block"] = "block" if defender.block is not None and defender.shield else "dodge"
        dc, dp = defender.block if kind == "block" and defender.block else defender.dodge
        dc -= DefenceTracker(melee_weapons=1, shield=defender.shield is not None).use(kind)  # once a turn in a duel
        dc, dp = situational_modifiers(dc, dp, darkness=log.darkness, shield=defender.shield, blocking=kind == "block")
        attack, defence = challenge_distribution(c, p), challenge_distribution(dc, dp)
        chance = sum((pa * defence.p_lt(a) for a, pa in attack.items()), Fraction(0))
        return chance, hit

    @property
    def fighters(self) -> tuple[str, ...]:
        return (self.pair[0].name, self.pair[1].name)

    @property
    def estimate(self) -> int:
        return 2 * (max(self.pair[0].hp, 0) + 1) * (max(self.pair[1].hp, 0) + 1)

    def start(self) -> list[tuple[Fraction, State]]:
        a, b = self.pair
        ra, rb = challenge_distribution(a.dexterity, a.willpower), challenge_distribution(b.dexterity, b.willpower)
        a_first = sum((p * q for x, p in ra.items() for y, q in rb.items()
                       if (-x, -a.willpower) <= (-y, -b.willpower)), Fraction(0))
        return [(p, (who, a.hp, b.hp)) for who, p in ((0, a_first), (1, 1 - a_first)) if p]

    def round(self, state: State) -> list[tuple[Fraction, State]]:
        first, hp = state[0], [state[1], state[2]]
        second = 1 - first
        out: dict[State, Fraction] = {}

        def put(p: Fraction, now: list[int]) -> None:
            key = (first, now[0], now[1])
            out[key] = out.get(key, Fraction(0)) + p

        chance, hit = self.blows[first]
        for landed, p in ((True, chance), (False, 1 - chance)):
            if not p:
                continue
            now = list(hp)
            if landed:
                now[second] -= hit
            if not self._standing(second, now[second]):
                put(p, now)
                continue
            back, back_hit = self.blows[second]
            for again, q in ((True, back), (False, 1 - back)):
                if q:
                    after = list(now)
                    if again:
                        after[first] -= back_hit
                    put(p * q, after)
        return [(p, s) for s, p in out.items()]

    def outcome(self, state: State) -> int | None:
        for i in (0, 1):
            if not self._standing(i, state[1 + i]):
                return 1 - i
        return None

    def left(self, state: State) -> tuple[int, ...]:
        return (max(0, state[1]), max(0, state[2]))


class _NoDice:
    """The exact model reads the log's rules, never its dice."""

    def roll(self, sides: int) -> int:
        raise AssertionError("the exact model rolls no dice")


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names; a duel has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, taken), fighters(side_b, taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source), model)
