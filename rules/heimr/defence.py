"""Defence: dodge, block and parry, their repeat penalties, positions, guarding and forced movement.

A defence is a challenge rolled *before* the attack; the attack misses when the defence result is at
least the attack result.  Repeating the same defence between one's turns costs consistency.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.challenge import ChallengeRoll, challenge_distribution, roll_challenge
from rules.heimr.modules import SHIELDS
from rules.heimr.registry import REGISTRY, HeimrError
from rules.providers import Choice
from rules.tables import Table
from rules.values import is_whole, require_whole

DefenceKind = Literal["dodge", "block", "parry"]
#: Consistency lost for every earlier dodge (or block) since the defender's last turn.
REPEAT_PENALTY = 2
#: Extra consistency penalty on a luck shot, on top of the concealment penalty.
LUCK_SHOT_PENALTY = 1
LUCK_SHOT_FACE = 10
HIDDEN_POTENTIAL_BONUS = 2
SOFT_SOUND_HIDE_LOSS = 2
OUTMANOEUVRE_PENALTY = 1


@dataclass(frozen=True)
class Defence:
    """A way to defend: the ability it rolls, what it needs, and what it works against."""

    kind: DefenceKind
    ability: str
    needs: str
    against_ranged: bool


DEFENCES: tuple[Defence, ...] = (
    Defence("dodge", "Agility", "nothing", True),
    Defence("block", "the shield's ability", "a shield", True),
    Defence("parry", "the weapon's ability", "a wielded melee weapon", False),
)

for _defence in DEFENCES:
    REGISTRY.define(f"Heimr.Defence.{_defence.kind.capitalize()}", _defence.kind.capitalize(), "D",
                    implementation=_defence, summary=f"Rolls {_defence.ability}; needs {_defence.needs}.")


@REGISTRY.rule("Heimr.Rule.DefenceRoll", "Defence roll", "RU")
def attack_misses(attack: int, defence: int) -> bool:
    """The attack misses when the defence result is equal to or higher than the attack result."""
    return (require_whole(defence, "the defence result", error=HeimrError)
            >= require_whole(attack, "the attack result", error=HeimrError))


def hit_probability(attack: tuple[int, int], defence: tuple[int, int], *,
                    d6_counts_as_one: bool = True) -> Fraction:
    """Exact chance that an attack (C, P) beats a defence (C, P): the defender wins ties."""
    a = challenge_distribution(*attack, d6_counts_as_one=d6_counts_as_one)
    d = challenge_distribution(*defence, d6_counts_as_one=d6_counts_as_one)
    return sum((pa * pd for x, pa in a.items() for y, pd in d.items() if x > y), Fraction(0))


@REGISTRY.rule("Heimr.Rule.RepeatedDefence", "Repeated defence", "RU",
               formula="2 * earlier_uses", values={"penalty": REPEAT_PENALTY})
@dataclass
class DefenceTracker:
    """Defences used since the defender's last turn.

    Each earlier dodge costs 2 consistency on the next dodge, each earlier block 2 on the next block;
    the two never mix.  Parries are not penalised but limited to one per wielded melee weapon.
    Everything resets at the start of the defender's turn.
    """

    melee_weapons: int = 1
    shield: bool = False
    uses: dict[str, int] = field(default_factory=lambda: {"dodge": 0, "block": 0, "parry": 0})

    def __post_init__(self) -> None:
        require_whole(self.melee_weapons, "the number of melee weapons", minimum=0, error=HeimrError)
        if not isinstance(self.shield, bool):
            raise HeimrError(f"shield is True or False, not {self.shield!r}")

    def penalty(self, kind: DefenceKind) -> int:
        """The consistency penalty the next defence of this kind takes."""
        if kind == "parry":
            return 0
        if kind not in ("dodge", "block"):
            raise HeimrError(f"a defence is dodge, block or parry, not {kind!r}")
        return REPEAT_PENALTY * self.uses[kind]

    def use(self, kind: DefenceKind, *, ranged: bool = False) -> int:
        """Record a defence; returns its consistency penalty."""
        penalty = self.penalty(kind)
        if kind == "block" and not self.shield:
            raise HeimrError("block needs a shield, and this defender has none")
        if kind == "parry":
            if ranged:
                raise HeimrError("parry works only against melee attacks, not ranged ones")
            if self.uses["parry"] >= self.melee_weapons:
                raise HeimrError(f"one parry per wielded melee weapon: {self.melee_weapons} already used")
        self.uses[kind] += 1
        return penalty

    def new_turn(self) -> None:
        """The defender's turn starts: every defence is fresh again."""
        self.uses = {kind: 0 for kind in self.uses}


@REGISTRY.rule("Heimr.Rule.PreRolledDefence", "Pre-rolled defence", "RU")
def prerolled_defence_applies(prerolled: DefenceKind, attack_is_ranged: bool) -> bool:
    """Whether the defence rolled in advance meets this attack.

    It does, except a held parry against a ranged attack: then the defender rolls a dodge or block
    after the attack is declared (before it is rolled) and keeps the parry for the first melee attack.
    """
    if prerolled not in ("dodge", "block", "parry"):
        raise HeimrError(f"a defence is dodge, block or parry, not {prerolled!r}")
    return not (prerolled == "parry" and attack_is_ranged)


ClimbingReading = Literal["specific", "general", "both"]


@dataclass(frozen=True)
class Position:
    """A position and its consistency modifiers (``None`` where it allows no such roll at all)."""

    name: str
    attack: int | None
    defence: int | None
    ranged_against: int
    note: str


#: Positions; helpless ones have no attack and no defence.  Concealment's size is the GM's.
POSITIONS: tuple[Position, ...] = (
    Position("Prone", -2, -2, -2, "crawl only"),
    Position("Helpless", None, None, 0, "no actions, no defence"),
    Position("Sleeping", None, None, -2, "prone and helpless; wakes when hit; Perception only"),
    Position("Unconscious", None, None, -2, "prone and helpless; only medical attention wakes"),
    Position("Concealed", 0, 0, 0, "attackers take a penalty the GM sets; not within a shared cluster"),
    Position("Hidden", 0, 0, 0, "only a luck shot reaches you; +2 potential to charge or shoot"),
    Position("Climbing", -1, -2, 0, "needs one hand: no shield and sword together"),
)

for _position in POSITIONS:
    REGISTRY.define(f"Heimr.Position.{_position.name}", _position.name, "P", implementation=_position,
                    summary=_position.note)


def find_position(name: str) -> Position:
    for position in POSITIONS:
        if isinstance(name, str) and position.name.lower() == name.strip().lower():
            return position
    raise HeimrError(f"no position named {name!r} (known: {', '.join(p.name for p in POSITIONS)})")


@REGISTRY.rule("Heimr.Rule.PositionModifier", "Position modifiers", "RU")
def position_modifier(position: str, roll: Literal["attack", "defence", "ranged against"], *,
                      climbing: ClimbingReading = "specific") -> int:
    """Consistency modifier a position gives a roll.

    Climbing contradicts itself (-2 on all attacks and defences, then -1 on attack rolls):
    ``climbing="specific"`` (this book) takes -1 for attacks and -2 for defences, ``"general"`` -2 for
    both, ``"both"`` adds them (-3 for attacks).
    """
    p = find_position(position)
    if climbing not in ("specific", "general", "both"):
        raise HeimrError(f"climbing is 'specific', 'general' or 'both', not {climbing!r}")
    if roll == "ranged against":
        return p.ranged_against
    if roll not in ("attack", "defence"):
        raise HeimrError(f"a roll is 'attack', 'defence' or 'ranged against', not {roll!r}")
    value = p.attack if roll == "attack" else p.defence
    if value is None:
        raise HeimrError(f"a {p.name.lower()} character makes no {roll} roll")
    if p.name == "Climbing" and roll == "attack":
        return {"specific": -1, "general": -2, "both": -3}[climbing]
    return value


#: Requirement of the Perception challenge a sleeper makes to wake at a sound.
WAKE_REQUIREMENTS = {"soft": 9, "loud": 5}


@REGISTRY.rule("Heimr.Rule.Waking", "Waking up", "RU", values={f"{k}_sound": v for k, v in WAKE_REQUIREMENTS.items()})
def wake_requirement(sound: Literal["soft", "loud"]) -> int:
    """The Perception requirement for a sleeper to wake at a sound (a hit always wakes them)."""
    if sound not in WAKE_REQUIREMENTS:
        raise HeimrError(f"a sound is 'soft' or 'loud', not {sound!r}")
    return WAKE_REQUIREMENTS[sound]


@REGISTRY.rule("Heimr.Rule.LuckShot", "Luck shot", "RU", formula="1 + concealment",
               values={"face": LUCK_SHOT_FACE, "penalty": LUCK_SHOT_PENALTY})
def luck_shot(d10: int, concealment: int) -> int | None:
    """Attacking someone known to be hidden: a d10 first; only a 10 allows the attack roll, at a
    consistency penalty of 1 plus the concealment penalty (returned); otherwise ``None``."""
    if not is_whole(d10) or not 1 <= d10 <= 10:
        raise HeimrError(f"a d10 shows 1 to 10, not {d10!r}")
    require_whole(concealment, "a concealment penalty", minimum=0, error=HeimrError)
    return LUCK_SHOT_PENALTY + concealment if d10 == LUCK_SHOT_FACE else None


def luck_shot_probability(attack: tuple[int, int], defence: tuple[int, int], concealment: int) -> Fraction:
    """Exact chance that a luck shot lands: 1 in 10, then the penalised attack must beat the defence."""
    c, p = attack
    require_whole(concealment, "a concealment penalty", minimum=0, error=HeimrError)
    return Fraction(1, 10) * hit_probability((c - LUCK_SHOT_PENALTY - concealment, p), defence)


@REGISTRY.rule("Heimr.Rule.HidingNoise", "Noise while hidden", "RU",
               values={"soft": SOFT_SOUND_HIDE_LOSS, "bonus": HIDDEN_POTENTIAL_BONUS})
def hide_after_sounds(hide: int, soft_sounds: int, loud: bool = False) -> int | None:
    """The hide challenge's result after ``soft_sounds`` soft sounds (2 off each); a loud sound
    gives the character away (``None``)."""
    require_whole(hide, "the hide result", error=HeimrError)
    require_whole(soft_sounds, "a number of sounds", minimum=0, error=HeimrError)
    if not isinstance(loud, bool):
        raise HeimrError(f"loud is True or False, not {loud!r}")
    return None if loud else hide - SOFT_SOUND_HIDE_LOSS * soft_sounds


@REGISTRY.rule("Heimr.Action.Guard", "Guard", "AC", values={"outmanoeuvre_penalty": OUTMANOEUVRE_PENALTY})
def guarded_ranged_attack(outcome: Literal["hit", "dodge", "block"]) -> str:
    """A guard takes a ranged attack meant for the guarded: a dodge lets it fly on to the original
    target, a block stops it, a hit lands on the guard."""
    result = {"hit": "guard is hit", "dodge": "continues to the original target", "block": "stopped"}
    if outcome not in result:
        raise HeimrError(f"an outcome is 'hit', 'dodge' or 'block', not {outcome!r}")
    return result[outcome]


def attackers_to_reach(guards: int) -> int:
    """Each guard stops one opponent, so reaching a guarded target takes one attacker more than guards."""
    return require_whole(guards, "a number of guards", minimum=0, error=HeimrError) + 1


#: Movers needed to shift a character, by the character's state.
FORCED_MOVEMENT: dict[str, int] = {
    "willing, leg injury": 1,
    "cannot stand, cannot resist": 2,
    "unwilling, bound": 3,
    "unwilling": 4,
}


@REGISTRY.rule("Heimr.Rule.ForcedMovement", "Forced movement", "RU",
               values={"unwilling": FORCED_MOVEMENT["unwilling"]})
def movers_needed(state: str) -> int:
    """How many characters it takes to move someone who cannot or will not move."""
    if state not in FORCED_MOVEMENT:
        raise HeimrError(f"no forced-movement case {state!r} (known: {', '.join(FORCED_MOVEMENT)})")
    return FORCED_MOVEMENT[state]


@REGISTRY.table(climbing=Choice("specific", "general", "both"))
def positions_table(climbing: ClimbingReading = "specific") -> Table:
    """Positions and their consistency modifiers."""
    def show(value: int | None) -> str:
        return "no roll" if value is None else f"{value:+d}" if value else "0"

    rows = []
    for p in POSITIONS:
        attack = position_modifier(p.name, "attack", climbing=climbing) if p.attack is not None else None
        rows.append((p.name, show(attack), show(p.defence), show(p.ranged_against), p.note))
    return Table.of(["Position", "Own attacks", "Own defences", "Ranged attacks against", "Notes"], rows,
                    title="Positions")


@REGISTRY.table()
def forced_movement_table() -> Table:
    return Table.of(["Character being moved", "Movers needed"], list(FORCED_MOVEMENT.items()),
                    title="Forced movement")


# --- hidden strikes, guards, holding on, situational modifiers -------------------------------------

HiddenAction = Literal["charge", "shoot", "attack"]


@REGISTRY.rule("Heimr.Rule.HiddenStrike", "Striking from hiding", "RU", values={"bonus": HIDDEN_POTENTIAL_BONUS})
def hidden_strike_potential(potential: int, action: HiddenAction, *, hidden: bool) -> int:
    """The attack's potential: +2 when a character hidden from the target charges it or shoots at it.

    A plain melee attack (``"attack"``) gets nothing extra, nor does anyone the target can find.
    """
    require_whole(potential, "the attack's potential", error=HeimrError)
    if action not in ("charge", "shoot", "attack"):
        raise HeimrError(f"an attack from hiding is 'charge', 'shoot' or 'attack', not {action!r}")
    if not isinstance(hidden, bool):
        raise HeimrError(f"hidden is True or False, not {hidden!r}")
    return potential + (HIDDEN_POTENTIAL_BONUS if hidden and action != "attack" else 0)


@REGISTRY.rule("Heimr.Rule.Outmanoeuvre", "Outmanoeuvring a guard", "RU",
               formula="consistency - 1", values={"penalty": OUTMANOEUVRE_PENALTY})
def outmanoeuvre_dodge(consistency: int) -> int:
    """Slipping past a guard: the guard's free attack must be dodged at 1 consistency less."""
    return require_whole(consistency, "the dodge's consistency", error=HeimrError) - OUTMANOEUVRE_PENALTY


@dataclass
class GuardPost:
    """One guard on one ward (an ally, a place, a thing, or a border between two squares).

    ``active`` is cleared by the first interception: a guard stops one opponent, then it is over.
    """

    guard: str
    ward: str
    border: bool = False
    active: bool = True
    #: Opponents who outmanoeuvred this guard: they are past it (the guard itself goes on).
    slipped: set[str] = field(default_factory=set)

    def can_respond(self, approacher_hidden: bool) -> bool:
        """Whether this guard can step in: it is still up and can see the approacher."""
        if not isinstance(approacher_hidden, bool):
            raise HeimrError(f"approacher_hidden is True or False, not {approacher_hidden!r}")
        return self.active and not approacher_hidden

    def intercept(self) -> str:
        """The guard steps in once; then the guard is over and the ward is open.  Returns the guard."""
        if not self.active:
            raise HeimrError(f"{self.guard}'s guard on {self.ward} is already over")
        self.active = False
        return self.guard

    def crossing(self, *, guard_on_my_side: bool, charging: bool) -> str:
        """Someone crosses a guarded border: ``"stopped"`` (guard on the crosser's side: the guard
        intercepts), ``"charge intercepted"`` (guard across the border, and the crosser charges), or
        ``"crossed"`` (guard across the border; moving over ends the guard)."""
        if not self.border:
            raise HeimrError(f"{self.guard} guards {self.ward}, not a border")
        for name, flag in (("guard_on_my_side", guard_on_my_side), ("charging", charging)):
            if not isinstance(flag, bool):
                raise HeimrError(f"{name} is True or False, not {flag!r}")
        if not self.active:
            return "crossed"
        self.active = False
        if guard_on_my_side:
            return "stopped"
        return "charge intercepted" if charging else "crossed"


REGISTRY.define("Heimr.Rule.GuardEnds", "A guard ends", "RU", implementation=GuardPost.intercept,
                summary="A guard stops one opponent (or one shot), then it is over.")
REGISTRY.define("Heimr.Rule.GuardedBorder", "Guarding a border", "RU", implementation=GuardPost.crossing,
                summary="A guard on the near side stops the crossing; on the far side it stops a charge.")
REGISTRY.define("Heimr.Rule.SlipPastGuard", "Hidden from a guard", "RU", implementation=GuardPost.can_respond,
                summary="A guard cannot respond to someone hidden from it.")


def responding_guard(posts: Sequence[GuardPost], order: Sequence[str], approacher: str,
                     hidden_from: frozenset[str] | set[str] = frozenset()) -> GuardPost | None:
    """The one guard that steps in: the first active guard that can see the approacher, counting the
    initiative order from the approacher onwards (wrapping round).  ``None``: the way is open."""
    names = list(order)
    if approacher not in names:
        raise HeimrError(f"{approacher!r} is not in the initiative order {names}")
    start = names.index(approacher)
    ranked = {name: (i - start) % len(names) for i, name in enumerate(names)}
    for post in posts:
        if post.guard not in ranked:
            raise HeimrError(f"guard {post.guard!r} is not in the initiative order {names}")
    for post in sorted(posts, key=lambda p: ranked[p.guard]):
        if post.can_respond(post.guard in hidden_from):
            return post
    return None


@REGISTRY.rule("Heimr.Rule.HoldOn", "Holding on", "RU")
def hold_on(requirement: int | None, consistency: int, potential: int, source: DiceSource) -> ChallengeRoll | None:
    """A climber hit by an effect rolls again to hold on, but only if the climb had a requirement.

    Returns the roll (``roll.meets(requirement)`` says whether they held) or ``None`` when no roll
    is due.  Which ability the roll uses is the climb's own (usually Climbing).
    """
    if requirement is None:
        return None
    require_whole(requirement, "the climb's requirement", error=HeimrError)
    return roll_challenge(consistency, potential, source)


@REGISTRY.rule("Heimr.Rule.SituationalModifier", "Situational modifiers", "RU")
def situational_modifiers(consistency: int, potential: int, *, darkness: int = 0, shield: str | None = None,
                          blocking: bool = False) -> tuple[int, int]:
    """(consistency, potential) of a combat roll after the situation: darkness costs consistency (its
    size is the GM's), and a shield adds its potential bonus to a block (see the armoury module)."""
    require_whole(consistency, "consistency", error=HeimrError)
    require_whole(potential, "potential", error=HeimrError)
    require_whole(darkness, "a darkness penalty", minimum=0, error=HeimrError)
    if not isinstance(blocking, bool):
        raise HeimrError(f"blocking is True or False, not {blocking!r}")
    bonus = 0
    if shield is not None:
        found = [s for s in SHIELDS if isinstance(shield, str) and s.name.lower() == shield.strip().lower()]
        if not found:
            raise HeimrError(f"no shield named {shield!r} (known: {', '.join(s.name for s in SHIELDS)})")
        bonus = (found[0].bonus or 0) if blocking else 0
    return consistency - darkness, potential + bonus
