"""Combat: two-second turns, initiative and changes to the order, ranged penalties, combat actions.

The initiative order is a plain list of names, first to act first; delaying and readied actions
move one name within it.  Ranged attacks take consistency penalties for distance and for shooting
into a combat cluster, where a dodge sends the shot on to the next member.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.challenge import roll_challenge
from rules.heimr.effects import TURN_SECONDS, CalledEffect, call_effect
from rules.heimr.registry import REGISTRY, HeimrError
from rules.tables import Table
from rules.values import is_whole


@REGISTRY.rule("Heimr.Rule.Turn", "Turn", "RU", formula="turns * 2", values={"seconds": TURN_SECONDS})
def turns_to_seconds(turns: int) -> int:
    """Story time that ``turns`` turns take: characters act one after another, but each turn is two
    seconds that everyone spends at once."""
    if not is_whole(turns) or turns < 0:
        raise HeimrError(f"a number of turns is a whole number of at least 0, not {turns!r}")
    return turns * TURN_SECONDS

Outcome = Literal["hit", "dodge", "block"]
Tie = Literal["listed", "dexterity", "roll-off"]


@dataclass(frozen=True)
class Combatant:
    """What initiative reads: Dexterity (its consistency) and current willpower (its potential)."""

    name: str
    dexterity: int
    willpower: int


@dataclass(frozen=True)
class InitiativeRoll:
    name: str
    result: int
    willpower: int


@REGISTRY.rule("Heimr.Action.Initiative", "Initiative", "AC", dice="1d6 + |Dexterity|d10 + willpower")
def roll_initiative(combatants: Sequence[Combatant], source: DiceSource, *,
                    tie: Tie = "listed", d6_counts_as_one: bool = True) -> list[InitiativeRoll]:
    """Everyone rolls a challenge with C = Dexterity and P = current willpower; highest acts first,
    and on equal results the higher willpower goes first.

    Equal results *and* willpower: ``tie="listed"`` (this book) keeps the order the GM listed them;
    ``"dexterity"`` prefers the higher Dexterity, then the listing; ``"roll-off"`` rolls initiative
    again among the tied, as often as needed.
    """
    if tie not in ("listed", "dexterity", "roll-off"):
        raise HeimrError(f"tie is 'listed', 'dexterity' or 'roll-off', not {tie!r}")
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise HeimrError(f"every combatant needs a distinct name: {names}")
    rolls = [InitiativeRoll(c.name, roll_challenge(c.dexterity, c.willpower, source,
                                                   d6_counts_as_one=d6_counts_as_one).result, c.willpower)
             for c in combatants]
    by_name = {c.name: c for c in combatants}
    ordered = initiative_order(rolls, combatants, tie)
    if tie != "roll-off":
        return ordered
    result: list[InitiativeRoll] = []
    i = 0
    while i < len(ordered):
        j = i
        tied = (ordered[i].result, ordered[i].willpower)
        while j < len(ordered) and (ordered[j].result, ordered[j].willpower) == tied:
            j += 1
        group = ordered[i:j]
        if len(group) > 1:
            again = roll_initiative([by_name[r.name] for r in group], source, tie="roll-off",
                                    d6_counts_as_one=d6_counts_as_one)
            group = [next(r for r in group if r.name == g.name) for g in again]
        result.extend(group)
        i = j
    return result


def initiative_order(rolls: Sequence[InitiativeRoll], combatants: Sequence[Combatant],
                     tie: Tie = "listed") -> list[InitiativeRoll]:
    """The rolls from first to act to last: higher result, then higher willpower, then (``tie="dexterity"``)
    higher Dexterity; still equal, the order listed.  An exact fight model orders rolled results here too."""
    dexterity = {c.name: c.dexterity for c in combatants}
    return sorted(rolls, key=lambda r: (-r.result, -r.willpower, -dexterity[r.name] if tie == "dexterity" else 0))


def _index(order: Sequence[str], name: str) -> int:
    try:
        return list(order).index(name)
    except ValueError:
        raise HeimrError(f"{name!r} is not in the initiative order {list(order)}") from None


@REGISTRY.rule("Heimr.Action.Delay", "Delay", "AC")
def delay(order: Sequence[str], who: str, other: str, *, before: bool = False) -> list[str]:
    """Declared at the start of one's turn: move ``who`` to just after (or ``before``) ``other``."""
    if who == other:
        raise HeimrError(f"{who!r} cannot delay relative to themself")
    _index(order, who)
    rest = [name for name in order if name != who]
    at = _index(rest, other)
    rest.insert(at if before else at + 1, who)
    return rest


@REGISTRY.rule("Heimr.Action.ReadiedAction", "Readied action", "AC")
def trigger_readied(order: Sequence[str], readier: str, trigger: str) -> list[str]:
    """A readied action fires after its trigger; the readier then takes the place just before
    whoever triggered it.  (Untriggered by the readier's next turn, the action is lost.)"""
    return delay(order, readier, trigger, before=True)


@REGISTRY.rule("Heimr.Rule.ReadiedActionLost", "Readied action lost", "RU")
@dataclass
class ReadiedAction:
    """A readied action waiting for its trigger.  It fires at most once; if the readier's next turn
    comes round first, it is lost (the readier takes that turn as usual)."""

    readier: str
    trigger: str
    state: Literal["waiting", "fired", "lost"] = "waiting"

    def fire(self, order: Sequence[str], triggered_by: str) -> list[str]:
        """The trigger happened: the action goes off and the readier moves to just before ``triggered_by``."""
        if self.state != "waiting":
            raise HeimrError(f"{self.readier}'s readied action is {self.state}, it cannot fire")
        new_order = trigger_readied(order, self.readier, triggered_by)
        self.state = "fired"
        return new_order

    def turn_starts(self, name: str) -> bool:
        """Someone's turn starts; if it is the readier's and the action still waits, it is lost.
        Returns whether it was lost just now."""
        if self.state == "waiting" and name == self.readier:
            self.state = "lost"
            return True
        return False


def reads_intent(insight: int, persuasion: int) -> bool:
    """Readying against an *intent*: the readier's Insight must reach the attacker's Persuasion."""
    for what, value in (("insight", insight), ("persuasion", persuasion)):
        if not is_whole(value):
            raise HeimrError(f"the {what} result must be a whole number, not {value!r}")
    return insight >= persuasion


@REGISTRY.rule("Heimr.Rule.RangePenalty", "Range penalty", "RU", formula="floor(distance / 2)")
def range_penalty(distance: int, max_range: int | None = None) -> int:
    """Consistency penalty of a ranged attack into another square: half the distance, rounded down.

    Beyond the weapon's ``max_range`` there is no shot at all.
    """
    if not is_whole(distance) or distance < 0:
        raise HeimrError(f"a distance is a whole number of at least 0, not {distance!r}")
    if max_range is not None and (not is_whole(max_range)
                                  or max_range < 1):
        raise HeimrError(f"a weapon's range is a whole number of at least 1, not {max_range!r}")
    if max_range is not None and distance > max_range:
        raise HeimrError(f"distance {distance} is beyond the weapon's range of {max_range}")
    return distance // 2


@dataclass(frozen=True)
class ClusterShot:
    """One attack roll of a shot into a cluster: the character it is rolled against and the penalty."""

    target: str
    penalty: int
    outcome: Outcome


@REGISTRY.rule("Heimr.Rule.ShootingIntoCluster", "Shooting into a cluster", "RU",
               formula="cluster_size - earlier_dodges")
def shoot_into_cluster(cluster: Sequence[str], target: str,
                       defend: Callable[[str, int], Outcome]) -> list[ClusterShot]:
    """Roll a ranged attack into a combat cluster, following the re-roll chain.

    ``cluster`` is in initiative order.  The first roll is at a consistency penalty equal to the
    cluster's size; each dodge passes the shot to the next member (initiative order, from the
    original target, wrapping round) at one less penalty.  A hit or a block ends it, as does everyone
    having dodged.  ``defend(name, penalty)`` says how each roll went.
    """
    members = list(cluster)
    start = _index(members, target)
    chain: list[ClusterShot] = []
    for step in range(len(members)):
        name = members[(start + step) % len(members)]
        penalty = len(members) - step
        outcome = defend(name, penalty)
        if outcome not in ("hit", "dodge", "block"):
            raise HeimrError(f"an outcome is 'hit', 'dodge' or 'block', not {outcome!r}")
        chain.append(ClusterShot(name, penalty, outcome))
        if outcome != "dodge":
            break
    return chain


@dataclass(frozen=True)
class ActionKind:
    """A kind of combat action and what it costs of a turn."""

    name: str
    per_turn: str
    note: str


ACTION_KINDS: tuple[ActionKind, ...] = (
    ActionKind("Standard", "one", "the turn's main action"),
    ActionKind("Free", "any number, each different one once", "minor things alongside"),
    ActionKind("Ongoing", "one, instead of the standard action",
               "ends the turn; -2 consistency on defence until your next turn"),
    ActionKind("Upcoming", "one free action", "ends the turn; becomes next turn's standard action unless interrupted"),
    ActionKind("Simultaneous", "at most one", "done together with another action"),
)
ONGOING_DEFENCE_PENALTY = 2

for _kind in ACTION_KINDS:
    REGISTRY.define(f"Heimr.Action.{_kind.name}", f"{_kind.name} action", "AC", implementation=_kind,
                    summary=f"{_kind.per_turn}: {_kind.note}.")


@REGISTRY.rule("Heimr.Rule.TurnBudget", "Turn budget", "RU", values={"ongoing_penalty": ONGOING_DEFENCE_PENALTY})
@dataclass
class TurnBudget:
    """Book-keeping for one turn: one standard action, each free action once, one simultaneous
    action; an ongoing or upcoming action ends the turn."""

    standard_used: bool = False
    simultaneous_used: bool = False
    free_used: set[str] = field(default_factory=set)
    ended: bool = False
    upcoming: str | None = None

    def _open(self, what: str) -> None:
        if self.ended:
            raise HeimrError(f"the turn has ended; no {what}")

    def standard(self, action: str = "standard action") -> None:
        self._open(action)
        if self.standard_used:
            raise HeimrError(f"only one standard action per turn; {action!r} is a second")
        self.standard_used = True

    def free(self, action: str) -> None:
        self._open(action)
        if action in self.free_used:
            raise HeimrError(f"each free action once per turn; {action!r} again")
        self.free_used.add(action)

    def simultaneous(self, action: str) -> None:
        self._open(action)
        if self.simultaneous_used:
            raise HeimrError(f"one simultaneous action per turn; {action!r} is a second")
        self.simultaneous_used = True

    def ongoing(self, action: str) -> int:
        """Spend the standard action on an ongoing one and end the turn; returns the defence penalty."""
        self.standard(action)
        self.ended = True
        return ONGOING_DEFENCE_PENALTY

    def prepare_upcoming(self, action: str) -> None:
        """A free action that ends the turn; ``action`` becomes next turn's standard action."""
        self.free(f"upcoming {action}")
        self.upcoming = action
        self.ended = True


@REGISTRY.rule("Heimr.Rule.UpcomingCancelled", "Upcoming action cancelled", "RU")
def upcoming_survives(*, attacked: bool = False, effect_received: bool = False, skill_used: bool = False,
                      cancelled_by_player: bool = False) -> bool:
    """An upcoming action goes ahead unless its character was attacked, received an effect or used
    a skill in between, or the player calls it off; either way the next standard action remains."""
    flags = {"attacked": attacked, "effect_received": effect_received, "skill_used": skill_used,
             "cancelled_by_player": cancelled_by_player}
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise HeimrError(f"{name} is True or False, not {flag!r}")
    return not any(flags.values())


HANDS = ("sword hand", "off-hand")


@REGISTRY.rule("Heimr.Action.WeaponAttack", "Weapon attack", "AC")
def weapon_attack_rolls(weapons_wielded: int) -> int:
    """A weapon attack is a standard action: one attack roll per weapon wielded, all at one target."""
    if (not is_whole(weapons_wielded)
            or not 1 <= weapons_wielded <= len(HANDS)):
        raise HeimrError(f"a character wields 1 or 2 weapons, not {weapons_wielded!r}")
    return weapons_wielded


@REGISTRY.rule("Heimr.Action.BrawlAttack", "Brawl attack", "AC")
def brawl_attack(choice: Literal["Hit", "Bind"]) -> CalledEffect:
    """A punch, kick or grab rolled with Brawl: chosen before the roll, a hit deals Hit 1 or a Bind."""
    if choice in ("Hit", "Bind"):
        return call_effect(choice)
    raise HeimrError(f"a brawl attack does 'Hit' or 'Bind', not {choice!r}")


@REGISTRY.table()
def action_kinds_table() -> Table:
    """The kinds of combat action."""
    return Table.of(["Kind", "Per turn", "Notes"], [(k.name, k.per_turn, k.note) for k in ACTION_KINDS],
                    title="Combat actions")
