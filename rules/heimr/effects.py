"""Effects: short called conditions (Hit, Stumble, Daze...) and how long they last in turns.

An effect carries a number: seconds for the timed ones, points for Hit and Drain.  Without a called
number the default applies (2 seconds, 1 point); "Stumble four" calls 4 seconds.  Combat turns last
two seconds, so a duration becomes turns by halving and rounding down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from rules.heimr.registry import REGISTRY, HeimrError
from rules.values import is_whole

#: Seconds one combat turn lasts.
TURN_SECONDS = 2
DEFAULT_SECONDS = 2
DEFAULT_POINTS = 1

Unit = Literal["seconds", "points"]
Direction = Literal["left", "right", "up", "down"]
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


@dataclass(frozen=True)
class Effect:
    """An effect as the rules list it: what its number measures (if anything) and what it does."""

    name: str
    unit: Unit | None
    does: str
    kind: Literal["effect", "reaction", "larp"] = "effect"

    @property
    def default(self) -> int | None:
        """The number used when none is called."""
        return {"seconds": DEFAULT_SECONDS, "points": DEFAULT_POINTS, None: None}[self.unit]


#: Every effect the source names.  Bind has no stated duration: this book times it like the others.
EFFECTS: tuple[Effect, ...] = (
    Effect("Hit", "points", "lose hit points; called after a weapon hit, it replaces the weapon's damage"),
    Effect("Drain", "points", "lose willpower"),
    Effect("Fall", "seconds", "knocked down; stand up once it ends"),
    Effect("Drop", "seconds", "let go of what the hand holds; pick it up once it ends"),
    Effect("Stumble", "seconds", "thrown off balance; see the combat rule"),
    Effect("Daze", "seconds", "no attacks, no defence, no skills"),
    Effect("Break", None, "breaks an item"),
    Effect("Bind", "seconds", "ties one body part; what that stops depends on the part"),
    Effect("Weaken", "seconds", "skills cost one more willpower"),
    Effect("Resist", None, "reaction: the effect does not take hold", kind="reaction"),
    Effect("Miss", None, "reaction: the attack did not land", kind="reaction"),
    Effect("Charm", None, "LARP only", kind="larp"),
    Effect("Fear", None, "LARP only", kind="larp"),
)

for _effect in EFFECTS:
    REGISTRY.define(f"Heimr.Effect.{_effect.name}", _effect.name, "E", implementation=_effect,
                    summary=_effect.does,
                    values={} if _effect.default is None else {"default": _effect.default,
                                                               "unit": _effect.unit or ""})

#: What Bind stops, per body part.
BIND_PARTS: dict[str, str] = {
    "hands": "no items and no use of the hands",
    "arm": "the arm stays attached where it is bound",
    "leg": "the leg stays attached where it is bound",
    "feet": "only jumping or crawling",
    "body": "cannot leave the spot",
}


def find_effect(name: str) -> Effect:
    """An effect by name, ignoring case."""
    for effect in EFFECTS:
        if isinstance(name, str) and effect.name.lower() == name.strip().lower():
            return effect
    raise HeimrError(f"no effect named {name!r} (known: {', '.join(e.name for e in EFFECTS)})")


@dataclass(frozen=True)
class CalledEffect:
    """An effect as called: the effect and its number (``None`` for effects that carry none)."""

    effect: Effect
    number: int | None

    def __str__(self) -> str:
        return self.effect.name if self.number is None else f"{self.effect.name} {self.number}"


@REGISTRY.rule("Heimr.Rule.CalledNumber", "Called number", "RU",
               values={"seconds": DEFAULT_SECONDS, "points": DEFAULT_POINTS})
def call_effect(name: str, number: int | None = None) -> CalledEffect:
    """Call an effect: the called number replaces the default (2 seconds or 1 point)."""
    effect = find_effect(name)
    if number is None:
        return CalledEffect(effect, effect.default)
    if effect.unit is None:
        raise HeimrError(f"{effect.name} takes no number, but {number!r} was called")
    if not is_whole(number) or number < 1:
        raise HeimrError(f"a called number is a whole number of at least 1, not {number!r}")
    return CalledEffect(effect, number)


def parse_call(text: str) -> CalledEffect:
    """Read a spoken call: ``"Stumble four"``, ``"hit two"``, ``"Daze"``, ``"Drop 3"``."""
    words = text.split() if isinstance(text, str) else []
    if not 1 <= len(words) <= 2:
        raise HeimrError(f"{text!r} is not a call such as 'Stumble four'")
    if len(words) == 1:
        return call_effect(words[0])
    spoken = words[1].lower()
    number = int(spoken) if spoken.isdigit() else NUMBER_WORDS.get(spoken)
    if number is None:
        raise HeimrError(f"{words[1]!r} in {text!r} is not a number")
    return call_effect(words[0], number)


@REGISTRY.rule("Heimr.Rule.EffectTurns", "Effect duration in turns", "RU",
               formula="floor(seconds / 2)", values={"turn_seconds": TURN_SECONDS})
def effect_turns(seconds: int) -> int:
    """Turns an effect lasts: its seconds halved, rounded down (so a 1-second effect lasts no turn)."""
    if not is_whole(seconds) or seconds < 0:
        raise HeimrError(f"a duration is a whole number of seconds, not {seconds!r}")
    return seconds // TURN_SECONDS


@REGISTRY.rule("Heimr.Rule.Resist", "Resisting an effect", "RU")
def resist(called: CalledEffect, *, mode: Literal["negate", "reduce"] = "negate",
           by: int | None = None) -> CalledEffect | None:
    """What is left of an effect after a Resist: nothing (``negate``, this book), or the number reduced.

    ``mode="reduce"`` follows the LARP wording: the resist's called number ``by`` is taken off and
    the effect survives with whatever remains.
    """
    if not isinstance(called, CalledEffect):
        raise HeimrError(f"resist answers a called effect (see call_effect), not {called!r}")
    if mode == "negate":
        return None
    if mode != "reduce":
        raise HeimrError(f"resist mode is 'negate' or 'reduce', not {mode!r}")
    if called.number is None:
        return None
    if not is_whole(by) or by < 1:
        raise HeimrError(f"a reducing resist needs its called number (1 or more), not {by!r}")
    left = called.number - by
    return replace(called, number=left) if left > 0 else None


def bind_consequence(part: str) -> str:
    """What a Bind on ``part`` (hands, arm, leg, feet, body) stops."""
    if part not in BIND_PARTS:
        raise HeimrError(f"Bind works on {', '.join(BIND_PARTS)}, not {part!r}")
    return BIND_PARTS[part]


@REGISTRY.rule("Heimr.Rule.StumbleInCombat", "Stumbling in combat", "RU")
def stumble_blocked_directions(victim: str, source: str) -> tuple[Direction, ...]:
    """The direction(s) a stumbling character may not move: the way the effect came from.

    One direction when the source lies straight along a row or column; two when it is diagonal and
    four when it shares the square, and then the caller of the effect picks one of them.
    """
    from rules.heimr.grid import Square

    a, b = Square.parse(victim), Square.parse(source)
    horizontal: tuple[Direction, ...] = ("right",) if b.column > a.column else ("left",) if b.column < a.column else ()
    vertical: tuple[Direction, ...] = ("up",) if b.row > a.row else ("down",) if b.row < a.row else ()
    return (*horizontal, *vertical) or ("left", "right", "up", "down")


def stumbling_can_attack(ranged: bool, target_in_your_cluster: bool) -> bool:
    """While stumbling: no ranged attacks, and melee only against someone in a cluster with you."""
    if not isinstance(ranged, bool) or not isinstance(target_in_your_cluster, bool):
        raise HeimrError(f"ranged and target_in_your_cluster are True or False, not "
                          f"{ranged!r} and {target_in_your_cluster!r}")
    return not ranged and target_in_your_cluster


@dataclass(frozen=True)
class DazeSchedule:
    """A daze counted in your own turns.

    ``turns_lost``: your coming turns in which you cannot act.  ``defenceless_gaps``: the stretches
    between your turns (the first is the one in which the daze lands) in which you cannot defend.
    """

    turns_lost: int
    defenceless_gaps: int


@REGISTRY.rule("Heimr.Rule.DazeInCombat", "Dazed in combat", "RU")
def daze_schedule(seconds: int) -> DazeSchedule:
    """Turns lost are ``floor(s/2)``; the spare second of an odd daze still blocks defence until the
    turn it runs into begins, one gap more than its turns: ``ceil(s/2)`` gaps in all."""
    turns = effect_turns(seconds)
    return DazeSchedule(turns, turns + seconds % TURN_SECONDS)
