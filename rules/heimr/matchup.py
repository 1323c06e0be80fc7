"""Heimr encounter odds: the book's shieldmaiden fights through the combat log, exactly for a duel.

Sigrun attacks with her Shield and sword challenge and a medium weapon, and blocks with the same
challenge behind a small shield (this book's kit for her).  The GM's plan is the plainest: each
fighter attacks the first standing opponent on its turn, and the defender always defends.

Every matchup is a seeded simulation through :class:`~rules.heimr.tracker.Skirmish` itself.  There
is no exact model: a fighter at 0 HP fights on injured, and each injuring hit rolls a location whose
effects (a dropped weapon, a daze) cost turns, so a fight's state is more than two hit-point totals.
A fighter who may not attack this turn (dazed, or without its weapon) lets its turn pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.dice import DiceSource
from rules.heimr.abilities import find_ability
from rules.heimr.registry import REGISTRY
from rules.heimr.statblocks import TRAINED_CONSISTENCY, TRAINED_POTENTIAL, shieldmaiden
from rules.heimr.tracker import Fighter, Skirmish
from rules.matchup import DRAW, MAX_ROUNDS, Matchup, Played, fighters_named

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


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the combat log."""
    taken: set[str] = set()
    a, b = fighters(side_a, taken), fighters(side_b, taken)
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source))
