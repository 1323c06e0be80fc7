"""Combat as a stack: turns by party, actions paid with action dice, responses, resolution top first.

:class:`Combat` is a small deterministic engine.  Every die it needs (cost dice, saves, damage,
random targets) comes from one :class:`~rules.dice.DiceSource`, so a fight played with a
``ScriptedSource`` replays exactly.  The actions are data (:data:`ACTIONS`); what each one does when
it resolves is a small function in :data:`RESOLVERS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import DiceSource
from rules.dndalike.characters import ActionDice, Character
from rules.dndalike.core import gain_fatigue, natural_result, saving_throw, succeeds
from rules.dndalike.powers import (
    exert,
    heavy_hitter,
    lucky,
    power,
    powerful_die,
    quick_upgrade,
    riposte_cancels,
    trip_cancels,
)
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.dndalike.skills import RestOutcome, Task, attempt_completion, attempt_progress
from rules.dndalike.skills import rest as rest_rule
from rules.dndalike.spellcasting import Spell, SpellStones, casting_save, check_stones, end_of_turn_save, gather_power
from rules.dndalike.wounds import DamageTrack, finishing_blow, heal_wound, suffer_wounds, wounds_dealt
from rules.values import is_whole

SLOW, QUICK = "slow", "quick"
#: How MOVE and DODGE change armour class (see :class:`CombatSettings`).
RAISE_MODES = ("max", "set")


# ----------------------------------------------------------------------------------------- settings

@dataclass(frozen=True)
class CombatSettings:
    """The table's choices where the rules can be read more than one way.

    ``raise_ac``: ``"max"`` (default) -- MOVE and DODGE *raise* armour class to the die, so a low
    roll never lowers it; ``"set"`` -- armour class becomes the die, even if lower.
    ``merge_needs_quick``: whether an attack merged into someone's move must be one the attacker
    could take as a quick action (default ``False``: any attack action may interrupt a move).
    ``ranged_aim_fatigue``: fatigue paid to aim a ranged attack into a melee (1, as written).
    ``basic_trip`` / ``basic_regain``: whether everyone may trip with an Attack die and regain a
    spent die with fatigue as slow actions (default ``True``, from the action-dice list; ``False``
    leaves both to the Trip and Exert powers).
    """

    raise_ac: str = "max"
    merge_needs_quick: bool = False
    ranged_aim_fatigue: int = 1
    basic_trip: bool = True
    basic_regain: bool = True

    def __post_init__(self) -> None:
        if self.raise_ac not in RAISE_MODES:
            raise DndalikeError(f"raise_ac {self.raise_ac!r} is not one of {', '.join(RAISE_MODES)}")
        if not is_whole(self.ranged_aim_fatigue) or self.ranged_aim_fatigue < 0:
            raise DndalikeError(f"ranged_aim_fatigue {self.ranged_aim_fatigue!r} must be a whole number >= 0")
        for name in ("basic_trip", "basic_regain"):
            if not isinstance(getattr(self, name), bool):
                raise DndalikeError(f"{name} {getattr(self, name)!r} must be True or False")


# ---------------------------------------------------------------------------------------- combatants

@dataclass(eq=False)
class Combatant:
    """One character in a fight: the numbers from its sheet plus its state during combat.

    ``place`` is where it stands; characters in the same place are in melee range of each other.
    ``features`` are what its hands give (``block``, ``ranged``, ``double wounds``...).
    ``permanent_fatigue`` is its armour's, which a rest leaves; ``blow_failed_at`` is its wound count
    when a finishing blow last revealed a total short of its health (``None`` until one does).
    """

    name: str
    party: str
    armour_class: int
    health: int
    dice: ActionDice = field(default_factory=lambda: ActionDice(1, 1, 0))
    features: frozenset[str] = frozenset()
    powers: frozenset[str] = frozenset()
    fatigue: int = 0
    maximum_fatigue: int = 6
    attack_bonus: int = 0
    movement_bonus: int = 0
    place: str = "here"
    lesser: bool = False
    stones: SpellStones | None = None
    permanent_fatigue: int = 0
    pool: dict[str, int] = field(init=False)
    raised_ac: int | None = field(init=False, default=None)
    tripped: bool = field(init=False, default=False)
    damage: DamageTrack = field(init=False)
    alive: bool = field(init=False, default=True)
    blow_failed_at: int | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        for what, value, least in (("armour class", self.armour_class, -2), ("health", self.health, 1),
                                   ("fatigue", self.fatigue, 0), ("maximum fatigue", self.maximum_fatigue, 0)):
            if not is_whole(value) or value < least:
                raise DndalikeError(f"{self.name}: {what} {value!r} is invalid: it must be a whole number, "
                                     f"{least} or more")
        self.features = frozenset(self.features)
        self.powers = frozenset(self.powers)
        for name in self.powers:
            power(name)
        self.pool = self.dice.as_dict()
        self.damage = DamageTrack(lesser=self.lesser)

    @classmethod
    def from_character(cls, name: str, party: str, character: Character, *,
                       powers: Sequence[str] = (), **details: Any) -> Combatant:
        """A combatant built from a character sheet (armour class, health, dice, fatigue, bonuses)."""
        kit = character.kit
        return cls(name, party, character.armour_class, character.health, kit.dice, kit.features,
                   frozenset(powers), fatigue=character.permanent_fatigue,
                   maximum_fatigue=character.maximum_fatigue, attack_bonus=character.stats.bonus("Str"),
                   movement_bonus=character.stats.bonus("Dex"), permanent_fatigue=character.permanent_fatigue,
                   **details)

    def __repr__(self) -> str:
        return f"<Combatant {self.name}>"


@REGISTRY.rule("Dndalike.Rule.CurrentArmourClass", "Armour Class at Resolution", "RU")
def current_ac(combatant: Combatant, settings: CombatSettings = CombatSettings()) -> int:
    """A combatant's armour class right now: its sheet value, unless MOVE or DODGE raised it this turn."""
    return armour_class_now(combatant.armour_class, combatant.raised_ac, settings)


def armour_class_now(armour_class: int, raised: int | None, settings: CombatSettings = CombatSettings()) -> int:
    """The armour class an attack meets: the sheet's, or what this turn's MOVE or DODGE raised it to
    (the higher of the two, or the die alone with ``raise_ac="set"``).  The fight models call it too."""
    if raised is None:
        return armour_class
    if settings.raise_ac == "set":
        return raised
    return max(armour_class, raised)


def raise_to(raised: int | None, die: int, settings: CombatSettings = CombatSettings()) -> int:
    """What a MOVE or DODGE die leaves as this turn's raised armour class, after any earlier one: the
    higher of the two (``raise_ac="max"``) or the latest die (``"set"``)."""
    if raised is None or settings.raise_ac == "set":
        return die
    return max(raised, die)


# ------------------------------------------------------------------------------------------ actions

@dataclass(frozen=True)
class ActionSpec:
    """An action: speed, cost (dice codes M, A, S; F for a fatigue; O for a spell stone), kind, and
    what the actor needs to have (a hand feature such as ``block``, a power, or ``stones``)."""

    name: str
    speed: str
    cost: tuple[str, ...]
    kind: str
    targets: str = "none"
    needs: str | None = None


#: Every action the engine knows.
ACTIONS: dict[str, ActionSpec] = {
    "Move": ActionSpec("Move", SLOW, ("M",), "movement"),
    "Dodge": ActionSpec("Dodge", QUICK, ("F", "M"), "movement"),
    "Jab": ActionSpec("Jab", SLOW, ("A",), "attack", targets="character"),
    "Coup de Grace": ActionSpec("Coup de Grace", SLOW, ("A",), "attack", targets="character"),
    "Block": ActionSpec("Block", QUICK, ("S",), "shield", targets="ability", needs="block"),
    "Exert": ActionSpec("Exert", QUICK, ("F",), "other", needs="Exert"),
    "Trip": ActionSpec("Trip", QUICK, ("A",), "attack", targets="ability", needs="Trip"),
    "Basic Trip": ActionSpec("Basic Trip", SLOW, ("A",), "attack", targets="character", needs="basic_trip"),
    "Regain a Die": ActionSpec("Regain a Die", SLOW, ("F",), "other", needs="basic_regain"),
    "Riposte": ActionSpec("Riposte", QUICK, ("A",), "attack", targets="ability", needs="Riposte"),
    "Gather Power": ActionSpec("Gather Power", SLOW, ("M", "M"), "spell", needs="stones"),
    "Cast a Spell": ActionSpec("Cast a Spell", SLOW, ("O", "M"), "spell", needs="stones"),
    "Skill Attempt": ActionSpec("Skill Attempt", SLOW, ("M",), "skill"),
}


@dataclass(eq=False)
class StackItem:
    """An announced ability: who, what, the dice rolled to pay for it, and what it aims at."""

    number: int
    actor: Combatant
    spec: ActionSpec
    faces: tuple[int, ...]
    value: int | None
    natural: int | None
    target: Combatant | StackItem | None = None
    path: tuple[str, ...] = ()
    spell: Spell | None = None
    die_type: str | None = None
    task: Task | None = None
    skill_level: str = "Unskilled"
    completion: bool = False
    ranged: bool = False
    status: str = "stacked"
    interrupts: list[tuple[str, StackItem]] = field(default_factory=list)

    @property
    def melee(self) -> bool:
        return self.spec.kind == "attack" and not self.ranged

    def __str__(self) -> str:
        code = {"attack": "A", "movement": "M", "shield": "S"}.get(self.spec.kind)
        die = f" ({code} {self.value})" if code and self.value is not None else ""
        aim = ""
        if isinstance(self.target, Combatant):
            aim = f" on {self.target.name}"
        elif isinstance(self.target, StackItem):
            aim = f" on {self.target.actor.name}'s {self.target.spec.name}"
        return f"{self.actor.name}: {self.spec.name}{aim}{die}"

    def __repr__(self) -> str:
        return f"<StackItem #{self.number} {self}>"


@REGISTRY.rule("Dndalike.Rule.TurnOrder", "Turn Order", "RU")
def turn_order(arrivals: Mapping[str, int]) -> tuple[str, ...]:
    """Parties act one whole party at a time, the one that has been in the area longest first.

    ``arrivals`` maps each party to when it arrived (smaller is earlier); in a dungeon the monsters
    usually arrived first.  Ties keep the order given.
    """
    if not arrivals:
        raise DndalikeError("no parties given")
    for name, when in arrivals.items():
        if not is_whole(when):
            raise DndalikeError(f"party {name!r}: arrival {when!r} is not a whole number")
    return tuple(sorted(arrivals, key=lambda name: arrivals[name]))


@REGISTRY.rule("Dndalike.Rule.Speed", "Slow and Quick", "RU")
def fatigue_to_act(spec: ActionSpec, combatant: Combatant, *, own_turn: bool, stack_empty: bool) -> int:
    """Whether an action may be taken now, and the extra fatigue that costs.

    A slow action needs the actor's own turn and an empty stack (responses are quick actions).  A
    quick action may be taken any time outside the end of turn.  A slow action can be taken as quick
    through :func:`~rules.dndalike.powers.quick_upgrade` (Tumble, two-handed weapons, bows).
    Raises :class:`TimingError`.
    """
    if spec.speed == QUICK or (own_turn and stack_empty):
        return 0
    extra = quick_upgrade(spec.kind, combatant.powers, combatant.features)
    if extra is None:
        when = "on someone else's turn" if not own_turn else "in response"
        raise DndalikeError(f"{combatant.name} cannot take the slow action {spec.name} {when}")
    return extra


# ----------------------------------------------------------------------------------------- the engine

class Combat:
    """A fight between parties, run as a stack.

    Announce actions with :meth:`announce` (cost paid and dice rolled at once), let others respond
    with more announcements, then :meth:`resolve` the top of the stack; :meth:`end_turn` when the
    stack is empty.  Every event is appended to :attr:`log`.
    """

    def __init__(self, combatants: Sequence[Combatant], source: DiceSource, *,
                 order: Sequence[str] | None = None, settings: CombatSettings = CombatSettings()) -> None:
        self.combatants = list(combatants)
        self.source = source
        self.settings = settings
        parties = list(dict.fromkeys(c.party for c in self.combatants))
        self.order = tuple(order) if order is not None else tuple(parties)
        missing = set(parties) - set(self.order)
        if missing:
            raise DndalikeError(f"parties {sorted(missing)} have no place in the turn order {self.order}")
        self.turn = 0
        self.stack: list[StackItem] = []
        self.log: list[str] = []
        self.resolving: StackItem | None = None
        self._numbers = 0
        self._lines: list[str] = []
        self._current_spell: Spell | None = None

    # ------------------------------------------------------------------ helpers
    @property
    def active_party(self) -> str:
        return self.order[self.turn % len(self.order)]

    def _say(self, line: str) -> None:
        self.log.append(line)
        self._lines.append(line)

    def _take_lines(self) -> list[str]:
        lines, self._lines = self._lines, []
        return lines

    def in_melee(self, a: Combatant, b: Combatant) -> bool:
        """Melee range: standing in the same place."""
        return a.alive and b.alive and a.place == b.place

    def _stacked_abilities(self, who: Combatant) -> list[StackItem]:
        items = [i for i in self.stack if i.actor is who and i.status == "stacked"]
        for move in self.stack:
            items += [i for _, i in move.interrupts if i.actor is who and i.status == "stacked"]
        return items

    def _save(self, who: Combatant, *, advantage: bool = False, modifier: int = 0) -> bool:
        result = saving_throw(self.source, who.fatigue, how=lucky(who.powers, advantage=advantage),
                              modifier=modifier)
        faces = "/".join(str(f) for f in result.roll.faces)
        self._say(f"{who.name} saves against fatigue {who.fatigue}: {faces} -> "
                  f"{'success' if result.success else 'failure'}")
        return result.success

    # ------------------------------------------------------------------ effects other rules call
    def cancel(self, item: StackItem, why: str) -> None:
        """Take an ability off the stack (or out of the move it was merged into) without resolving it."""
        if item.status != "stacked":
            return
        item.status = "cancelled"
        if item in self.stack:
            self.stack.remove(item)
        for move in self.stack + ([self.resolving] if self.resolving else []):
            move.interrupts = [(at, i) for at, i in move.interrupts if i is not item]
        self._say(f"{item} is cancelled ({why})")

    def shaken(self, who: Combatant, *, wounded: bool) -> None:
        """A wound (or a hit that dealt none) may cost a character every ability they have stacked."""
        stacked = self._stacked_abilities(who)
        if not stacked or not who.alive:
            return
        if not self._save(who, advantage=not wounded):
            for item in stacked:
                self.cancel(item, f"{who.name} lost concentration")

    def wound(self, who: Combatant, wounds: int) -> None:
        """Inflict wounds: secret damage dice, then the stack save."""
        if wounds <= 0 or not who.alive:
            return
        suffer_wounds(who.damage, wounds, self.source)
        self._say(f"{who.name} takes {wounds} wound{'s' if wounds > 1 else ''} ({who.damage.count} in all)")
        self.shaken(who, wounded=True)

    def add_fatigue(self, who: Combatant, amount: int, *, voluntary: bool = False) -> None:
        """Give fatigue; forced fatigue past the maximum wounds."""
        if amount <= 0:
            return
        gained = gain_fatigue(who.fatigue, amount, who.maximum_fatigue, voluntary=voluntary)
        who.fatigue = gained.fatigue
        self._say(f"{who.name} gains {amount} fatigue (now {who.fatigue})")
        self.wound(who, gained.wounds)

    def kill(self, who: Combatant) -> None:
        """Death: the character is out of the fight, and every ability they had waiting is cancelled."""
        who.alive = False
        self._say(f"{who.name} dies")
        for item in self._stacked_abilities(who):
            self.cancel(item, f"{who.name} is dead")

    # ------------------------------------------------------------------ announcing
    def _spec(self, action: str) -> ActionSpec:
        try:
            return ACTIONS[action]
        except KeyError:
            raise DndalikeError(f"unknown action {action!r} (known: {', '.join(ACTIONS)})") from None

    def _check_needs(self, spec: ActionSpec, actor: Combatant) -> None:
        need = spec.needs
        if need is None or need in actor.features or need in actor.powers:
            return
        if need in ("basic_trip", "basic_regain"):
            if not getattr(self.settings, need):
                raise DndalikeError(f"{spec.name} is switched off at this table (CombatSettings({need}=False))")
            return
        if need == "stones":
            if actor.stones is None:
                raise DndalikeError(f"{actor.name} is no sorcerer: {spec.name} needs spell stones")
            return
        raise DndalikeError(f"{actor.name} cannot {spec.name}: it needs {need!r}")

    def _pay(self, actor: Combatant, spec: ActionSpec, extra_fatigue: int, stones: Sequence[str],
             stone_as: str | None) -> tuple[tuple[int, ...], int | None, int | None]:
        """Pay every cost at once (or nothing) and roll the cost dice; return faces, value, natural."""
        dice_needed: dict[str, int] = {}
        for code in spec.cost:
            if code in "MAS":
                dice_needed[code] = dice_needed.get(code, 0) + 1
        if stone_as is not None:
            if stone_as not in dice_needed:
                raise DndalikeError(f"{spec.name} costs no {stone_as} die to replace with a stone")
            if actor.stones is None or not actor.stones.active or "Powerful" not in actor.powers:
                raise DndalikeError(f"{actor.name} has no active stone to spend as a die (needs Powerful)")
            dice_needed[stone_as] -= 1
        for code, n in dice_needed.items():
            if actor.pool.get(code, 0) < n:
                raise DndalikeError(f"{actor.name} has {actor.pool.get(code, 0)} {code} dice left; "
                                    f"{spec.name} needs {n}")
        fatigue = extra_fatigue + spec.cost.count("F")
        if actor.fatigue + fatigue > actor.maximum_fatigue:
            raise DndalikeError(f"{actor.name} cannot take {fatigue} more fatigue "
                            f"({actor.fatigue} of {actor.maximum_fatigue})")
        if "O" in spec.cost:
            if not stones:
                raise DndalikeError(f"{spec.name} needs at least one spell stone")
            if self._current_spell is None:  # only "Cast a Spell" costs stones, and it names its spell
                raise DndalikeError(f"{spec.name} needs a spell")
            check_stones(self._current_spell, stones, actor.stones.active if actor.stones else [])
        # everything is payable: pay
        for code, n in dice_needed.items():
            actor.pool[code] -= n
        if fatigue:
            self.add_fatigue(actor, fatigue, voluntary=True)
        if "O" in spec.cost and actor.stones is not None:
            for name in stones:
                actor.stones.active.remove(name)
                actor.stones.discard.append(name)
        faces: list[int] = []
        main: int | None = None
        natural: int | None = None
        for code in spec.cost:
            if code not in "MAS":
                continue
            if stone_as == code and natural is None and actor.stones is not None:
                actor.stones.discard.append(actor.stones.active.pop(0))
                face, penalty = powerful_die()
                self._say(f"{actor.name} spends a spell stone as a natural {face}")
                if not self._save(actor, modifier=-penalty):
                    self.add_fatigue(actor, 1)
                stone_as = None
            else:
                face = self.source.roll(6)
            faces.append(face)
            if natural is None:
                bonus = {"A": actor.attack_bonus, "M": actor.movement_bonus}.get(code, 0)
                natural, main = face, face + bonus
        return tuple(faces), main, natural

    def announce(self, actor: Combatant, action: str, target: Combatant | StackItem | None = None, *,
                 path: Sequence[str] = (), spell: Spell | None = None, stones: Sequence[str] = (),
                 die_type: str | None = None, aim: bool = True, stone_as: str | None = None,
                 task: Task | None = None, skill_level: str = "Unskilled",
                 completion: bool = False) -> StackItem:
        """Announce an action: check timing, pay its cost, roll its dice, and put it on the stack."""
        spec = self._spec(action)
        item = self._prepare(actor, spec, target, path=path, spell=spell, stones=stones, die_type=die_type,
                             aim=aim, stone_as=stone_as, task=task, skill_level=skill_level,
                             completion=completion, merged=False)
        self.stack.append(item)
        self._say(f"stack {len(self.stack)}: {item}")
        self._take_lines()
        return item

    def merge(self, actor: Combatant, action: str, move: StackItem, at: str,
              target: Combatant | None = None) -> StackItem:
        """Interrupt someone's stacked MOVE with an attack that resolves when the mover reaches ``at``."""
        spec = self._spec(action)
        if spec.kind != "attack" or spec.targets != "character":
            raise DndalikeError(f"only an attack on a character can interrupt a move, not {spec.name}")
        if move.spec.name != "Move" or move.status != "stacked":
            raise DndalikeError(f"{move} is not a stacked move")
        if at not in move.path:
            raise DndalikeError(f"{at!r} is not on the move's path {move.path}")
        item = self._prepare(actor, spec, target or move.actor, merged=True)
        move.interrupts.append((at, item))
        self._say(f"{item} is merged into {move} at {at!r}")
        self._take_lines()
        return item

    def _prepare(self, actor: Combatant, spec: ActionSpec, target: Combatant | StackItem | None, *,
                 path: Sequence[str] = (), spell: Spell | None = None, stones: Sequence[str] = (),
                 die_type: str | None = None, aim: bool = True, stone_as: str | None = None,
                 task: Task | None = None, skill_level: str = "Unskilled", completion: bool = False,
                 merged: bool) -> StackItem:
        if not actor.alive:
            raise DndalikeError(f"{actor.name} is dead")
        self._check_needs(spec, actor)
        if spec.targets == "character" and not isinstance(target, Combatant):
            raise DndalikeError(f"{spec.name} needs a character as its target, not {target!r}")
        if spec.targets == "ability" and not (isinstance(target, StackItem) and target.status == "stacked"):
            raise DndalikeError(f"{spec.name} needs a stacked ability as its target, not {target!r}")
        if spec.name == "Move" and not path:
            raise DndalikeError("a move needs a path: the places it passes, in order")
        if spec.name == "Cast a Spell" and spell is None:
            raise DndalikeError("Cast a Spell needs a spell")
        if spec.name == "Skill Attempt" and task is None:
            raise DndalikeError("a skill attempt needs a task")
        if spec.kind == "movement" and actor.tripped:
            raise DndalikeError(f"{actor.name} is tripped: no movement ability until the end of the turn")
        if spec.name == "Regain a Die":
            type_ = die_type or "A"
            exert(dict(actor.pool), actor.dice.as_dict(), type_)  # names a full or unknown die type before paying
        if merged and not self.settings.merge_needs_quick:
            extra = 0
        else:
            extra = fatigue_to_act(spec, actor, own_turn=actor.party == self.active_party,
                                   stack_empty=not self.stack)
        self._current_spell = spell
        faces, value, natural = self._pay(actor, spec, extra, stones, stone_as)
        self._numbers += 1
        item = StackItem(self._numbers, actor, spec, faces, value, natural, target, tuple(path), spell,
                         die_type, task, skill_level, completion,
                         ranged=spec.kind == "attack" and "ranged" in actor.features)
        if item.ranged and isinstance(target, Combatant):
            item.target = self.ranged_into_melee(actor, target, aim)
        return item

    @REGISTRY.rule("Dndalike.Rule.RangedIntoMelee", "Shooting into a Melee", "RU", values={"fatigue": 1})
    def ranged_into_melee(self, actor: Combatant, target: Combatant, aim: bool) -> Combatant:
        """Shooting at someone with others in melee range: aim (1 fatigue and a save; on a failure a
        random other character in that melee is hit instead), or don't and take a random one of all."""
        crowd = sorted((c for c in self.combatants
                        if c is not target and c is not actor and c.alive and self.in_melee(c, target)),
                       key=lambda c: c.name)
        if not crowd:
            return target
        if aim:
            if actor.fatigue + self.settings.ranged_aim_fatigue > actor.maximum_fatigue:
                raise DndalikeError(f"{actor.name} has no fatigue left to aim into the melee: pass aim=False")
            self.add_fatigue(actor, self.settings.ranged_aim_fatigue, voluntary=True)
            if self._save(actor):
                return target
            candidates = crowd
        else:
            candidates = sorted([target, *crowd], key=lambda c: c.name)
        chosen = candidates[self.source.roll(len(candidates)) - 1]
        if chosen is target:
            self._say(f"the DM's pick lands on the intended target, {chosen.name}")
        else:
            self._say(f"the shot goes astray: it targets {chosen.name}")
        return chosen

    # ------------------------------------------------------------------ resolving
    def resolve(self) -> list[str]:
        """Resolve the top of the stack; return what happened."""
        if not self.stack:
            raise DndalikeError("the stack is empty: nothing to resolve")
        item = self.stack.pop()
        self._run(item)
        return self._take_lines()

    def resolve_all(self) -> list[str]:
        """Resolve the stack down to the bottom, as when everyone declines to respond."""
        lines: list[str] = []
        while self.stack:
            lines += self.resolve()
        return lines

    def _run(self, item: StackItem) -> None:
        previous, self.resolving = self.resolving, item
        item.status = "resolving"
        self._say(f"resolve {item}")
        if item.actor.alive:
            RESOLVERS[item.spec.name](self, item)
        item.status = "resolved"
        self.resolving = previous

    def attack_hits(self, item: StackItem) -> bool:
        """Reach, then natural 6 and 1, then the die against armour class at this moment; Heavy
        Hitter fatigues the target either way."""
        target = item.target.actor if isinstance(item.target, StackItem) else item.target
        assert isinstance(target, Combatant)
        if not target.alive:
            self._say(f"{target.name} is already dead: the attack fails")
            return False
        if not item.ranged and not self.in_melee(item.actor, target):
            self._say(f"{target.name} is out of reach: the attack fails")
            return False
        ac = current_ac(target, self.settings)
        hit = hits(item.value or 0, item.natural or 0, ac)
        self._say(f"{item.actor.name}'s {item.value} against armour class {ac}: {'hit' if hit else 'miss'}")
        self.add_fatigue(target, heavy_hitter(item.actor.powers))
        return hit

    # ------------------------------------------------------------------ after the fight
    def rest(self, who: Combatant, *, kept: int = 0, which: str = "latest") -> RestOutcome:
        """A rest once the fighting is over (:func:`~rules.dndalike.skills.rest`): fatigue falls to the
        armour's permanent fatigue (plus any ``kept`` for an easier watch); unless some was kept, one
        wound heals (``which``, as :func:`~rules.dndalike.wounds.heal_wound`) and the stones come back."""
        if self.stack:
            raise DndalikeError(f"{len(self.stack)} abilities still wait on the stack: nobody rests mid-fight")
        if not who.alive:
            raise DndalikeError(f"{who.name} is dead and cannot rest")
        outcome = rest_rule(who.fatigue, permanent_fatigue=who.permanent_fatigue, kept=kept)
        who.fatigue = outcome.fatigue
        healed = heal_wound(who.damage, which=which) if outcome.wound_removed else 0
        if outcome.stones_regained and who.stones is not None:
            who.stones.rest()
        who.blow_failed_at = None
        self._say(f"{who.name} rests: fatigue {who.fatigue}, {who.damage.count} wounds"
                  f"{f' (one healed, {healed} damage)' if outcome.wound_removed else ''}")
        return outcome

    # ------------------------------------------------------------------ end of turn
    def end_turn(self, choices: Mapping[str, str] | None = None) -> list[str]:
        """The end of turn: end-of-turn effects (sorcerers' saves), raised armour classes lapse, the
        active party's dice come back, and the next party's turn begins."""
        return end_of_turn(self, choices or {})


@REGISTRY.rule("Dndalike.Rule.Hitting", "Hitting", "RU", values={"always_hits": 6, "always_misses": 1})
def hits(value: int, natural: int, armour_class: int) -> bool:
    """An attack hits when its die (with Strength bonus) meets the target's armour class at
    resolution; a natural 6 always hits and a natural 1 always misses."""
    verdict = natural_result(natural)
    if verdict is not None:
        return verdict
    return succeeds(value, armour_class)


@REGISTRY.rule("Dndalike.Step.EndOfTurn", "End of Turn", "step")
def end_of_turn(combat: Combat, choices: Mapping[str, str]) -> list[str]:
    """No actions: end-of-turn effects resolve, the active party refreshes its action dice, and the
    next party's turn starts.  ``choices`` names, per sorcerer, how a failed end-of-turn save is paid."""
    if combat.stack:
        raise DndalikeError(f"{len(combat.stack)} abilities still wait on the stack")
    party = combat.active_party
    combat._say(f"end of turn: {party}")
    for who in combat.combatants:
        if who.party == party and who.alive and who.stones is not None:
            save, fatigue = end_of_turn_save(who.stones, who.fatigue, combat.source,
                                             choice=choices.get(who.name, "fatigue"), how=lucky(who.powers),
                                             max_fatigue=who.maximum_fatigue)
            outcome = "success" if save.success else "failure"
            combat._say(f"{who.name}'s sorcery save: {'/'.join(map(str, save.roll.faces))} -> {outcome}")
            if not save.success and not fatigue:
                capped = " (already at maximum fatigue)" if choices.get(who.name, "fatigue") == "fatigue" else ""
                combat._say(f"{who.name} loses the active and spent stones until a serious rest{capped}")
            combat.add_fatigue(who, fatigue)
    for who in combat.combatants:
        who.raised_ac = None
        who.tripped = False
        if who.party == party:
            who.pool = who.dice.as_dict()
    combat.turn += 1
    combat._say(f"turn: {combat.active_party}")
    return combat._take_lines()


# ----------------------------------------------------------------------------------------- resolvers

def _raise_ac(combat: Combat, item: StackItem) -> None:
    item.actor.raised_ac = raise_to(item.actor.raised_ac, item.value or 0, combat.settings)
    armour_class = current_ac(item.actor, combat.settings)
    combat._say(f"{item.actor.name}'s armour class is {armour_class} until the end of the turn")


@REGISTRY.rule("Dndalike.Action.Move", "Move", "AC", values={"cost": "M", "speed": SLOW})
def resolve_move(combat: Combat, item: StackItem) -> None:
    """MOVE (slow, one Movement die): armour class rises to the die until the end of the turn, then
    the mover walks their path; attacks merged into the move resolve at the places they named."""
    _raise_ac(combat, item)
    for place in item.path:
        item.actor.place = place
        combat._say(f"{item.actor.name} reaches {place}")
        for at, attack in list(item.interrupts):
            if at == place and attack.status == "stacked":
                combat._run(attack)
        if not item.actor.alive:
            return


@REGISTRY.rule("Dndalike.Action.Dodge", "Dodge", "AC", values={"cost": "F, M", "speed": QUICK})
def resolve_dodge(combat: Combat, item: StackItem) -> None:
    """DODGE (quick, 1 fatigue and one Movement die): armour class rises to the die until the end of the turn."""
    _raise_ac(combat, item)


@REGISTRY.rule("Dndalike.Action.Jab", "Jab", "AC", values={"cost": "A", "speed": SLOW, "wounds": 1})
def resolve_jab(combat: Combat, item: StackItem) -> None:
    """JAB (slow, one Attack die): a hit deals a wound (two with a two-handed weapon)."""
    if combat.attack_hits(item):
        assert isinstance(item.target, Combatant)
        combat.wound(item.target, wounds_dealt(1, two_handed="double wounds" in item.actor.features))


@REGISTRY.rule("Dndalike.Action.CoupDeGrace", "Coup de Grace", "AC", values={"cost": "A", "speed": SLOW})
def resolve_coup_de_grace(combat: Combat, item: StackItem) -> None:
    """COUP DE GRACE (slow, one Attack die): a hit is a finishing blow.  Surviving it still counts as
    a hit without a wound (a save with advantage to keep stacked abilities)."""
    if not combat.attack_hits(item):
        return
    target = item.target
    assert isinstance(target, Combatant)
    result = finishing_blow(target.damage, target.health, combat.source)
    rolled = f" (rolled {'+'.join(map(str, result.rolled))})" if target.lesser and result.rolled else ""
    combat._say(f"finishing blow: damage {result.damage}{rolled} against health {result.health}")
    if result.dead:
        combat.kill(target)
    else:
        if not target.lesser:  # the total is out: it falls short of health until a new wound
            target.blow_failed_at = target.damage.count
        combat.shaken(target, wounded=False)


@REGISTRY.rule("Dndalike.Action.Block", "Block", "AC", values={"cost": "S", "speed": QUICK})
def resolve_block(combat: Combat, item: StackItem) -> None:
    """BLOCK (quick, one Shield die; shield bearers only).  Against a melee attack on someone in the
    blocker's melee range, cancel it if its Attack value is at most the Shield die.  Against a ranged
    attack on someone in the blocker's melee range, cancel it and get the Shield die back."""
    attack = item.target
    assert isinstance(attack, StackItem)
    if attack.status != "stacked" or attack.spec.kind != "attack":
        combat._say("nothing to block")
        return
    victim = attack.target.actor if isinstance(attack.target, StackItem) else attack.target
    if not isinstance(victim, Combatant) or not combat.in_melee(item.actor, victim):
        combat._say(f"{item.actor.name} is too far away to block")
        return
    if attack.ranged:
        combat.cancel(attack, "blocked")
        item.actor.pool["S"] = min(item.actor.pool["S"] + 1, item.actor.dice.shield)
        combat._say(f"{item.actor.name} gets the Shield die back")
    elif succeeds(item.value or 0, attack.value or 0):
        combat.cancel(attack, f"blocked: A {attack.value} against S {item.value}")
    else:
        combat._say(f"the block fails: A {attack.value} beats S {item.value}")


def resolve_exert(combat: Combat, item: StackItem) -> None:
    """EXERT: the actor gets back a spent action die of the chosen type."""
    type_ = item.die_type or "A"
    item.actor.pool = exert(item.actor.pool, item.actor.dice.as_dict(), type_)
    combat._say(f"{item.actor.name} regains an {type_} die")


def resolve_trip(combat: Combat, item: StackItem) -> None:
    """TRIP: on a hit against the ability's owner, a movement ability is cancelled."""
    ability = item.target
    assert isinstance(ability, StackItem)
    if combat.attack_hits(item):
        if trip_cancels(ability.spec.kind):
            combat.cancel(ability, "tripped")
        combat.shaken(ability.actor, wounded=False)


@REGISTRY.rule("Dndalike.Action.BasicTrip", "Basic Trip", "AC", values={"cost": "A", "speed": SLOW})
def resolve_basic_trip(combat: Combat, item: StackItem) -> None:
    """BASIC TRIP (slow, one Attack die; anyone): on a hit the target is tripped: any movement ability
    it has stacked is cancelled and it can announce none until the end of the turn."""
    target = item.target
    assert isinstance(target, Combatant)
    if combat.attack_hits(item):
        target.tripped = True
        combat._say(f"{target.name} is tripped until the end of the turn")
        for ability in combat._stacked_abilities(target):
            if trip_cancels(ability.spec.kind):
                combat.cancel(ability, "tripped")
        combat.shaken(target, wounded=False)


@REGISTRY.rule("Dndalike.Action.RegainDie", "Regain a Die", "AC", values={"cost": "F", "speed": SLOW})
def resolve_regain(combat: Combat, item: StackItem) -> None:
    """REGAIN A DIE (slow, one fatigue; anyone): a spent action die of the chosen type comes back."""
    resolve_exert(combat, item)


def resolve_riposte(combat: Combat, item: StackItem) -> None:
    """RIPOSTE: on a hit, a melee attack whose Attack value is at most the riposte's is cancelled."""
    ability = item.target
    assert isinstance(ability, StackItem)
    if combat.attack_hits(item):
        if ability.status == "stacked" and riposte_cancels(item.value or 0, ability.value or 0,
                                                           melee=ability.melee):
            combat.cancel(ability, "riposted")
        combat.shaken(ability.actor, wounded=False)


def resolve_gather_power(combat: Combat, item: StackItem) -> None:
    """GATHER POWER: a random stone from the bag goes to the active pool."""
    assert item.actor.stones is not None
    drawn = gather_power(item.actor.stones, combat.source)
    combat._say(f"{item.actor.name} gathers a {drawn} stone")


@REGISTRY.rule("Dndalike.Action.CastASpell", "Cast a Spell", "AC", values={"cost": "O, M", "speed": SLOW})
def resolve_cast(combat: Combat, item: StackItem) -> None:
    """CAST A SPELL: the spell works; the caster saves at minus the spell's level: failure or a
    natural 6 costs 1 fatigue, and a natural 6 puts a free copy of the spell on the stack."""
    assert item.spell is not None
    outcome = casting_save(combat.source, item.actor.fatigue, item.spell.level, how=lucky(item.actor.powers))
    faces = "/".join(map(str, outcome.save.roll.faces))
    combat._say(f"{item.actor.name}'s casting save at -{item.spell.level}: {faces} -> "
                f"{'success' if outcome.save.success else 'failure'}")
    combat._say(f"{item.spell.name} takes effect")
    combat.add_fatigue(item.actor, outcome.fatigue)
    if outcome.copies:
        combat._numbers += 1
        copy = StackItem(combat._numbers, item.actor, ACTIONS["Cast a Spell"], (), None, None, item.target,
                         spell=Spell(item.spell.name, item.spell.level, item.spell.school, item.spell.stones))
        combat.stack.append(copy)
        combat._say(f"a free copy goes on the stack: {copy}")


def resolve_skill_attempt(combat: Combat, item: StackItem) -> None:
    """A progress or completion attempt taken in combat, paid with a Movement die."""
    assert item.task is not None
    if item.completion:
        result = attempt_completion(item.task, combat.source)
        combat._say(f"completion {'+'.join(map(str, result.dice)) or '0'} against {result.requirement}: "
                    f"{'success' if result.success else 'failure'}")
    else:
        save = attempt_progress(item.task, item.actor.name, item.skill_level, item.actor.fatigue, combat.source)
        combat._say(f"progress save: {save.roll.kept} -> {'progress' if save.success else 'no progress'}"
                    f" ({item.task.progress} in all)")


#: What each action does when it resolves.
RESOLVERS: dict[str, Callable[[Combat, StackItem], None]] = {
    "Move": resolve_move,
    "Dodge": resolve_dodge,
    "Jab": resolve_jab,
    "Coup de Grace": resolve_coup_de_grace,
    "Block": resolve_block,
    "Exert": resolve_exert,
    "Trip": resolve_trip,
    "Basic Trip": resolve_basic_trip,
    "Regain a Die": resolve_regain,
    "Riposte": resolve_riposte,
    "Gather Power": resolve_gather_power,
    "Cast a Spell": resolve_cast,
    "Skill Attempt": resolve_skill_attempt,
}


REGISTRY.define("Dndalike.Rule.Stack", "The Stack", "RU", implementation=Combat,
             summary="Announce, pay and roll; stack; respond with quick actions; resolve the top when "
                     "all decline; judge success at resolution; end the turn when the stack is empty.")
REGISTRY.define("Dndalike.Rule.Reach", "Reach", "RU", implementation=Combat.attack_hits,
             summary="Melee attacks need the target in the same place, ranged ones need sight; "
                     "out of reach at resolution is an automatic failure.")
REGISTRY.define("Dndalike.Rule.InterruptingMovement", "Interrupting Movement", "RU", implementation=Combat.merge,
             summary="An attack merged into someone's move resolves when the mover reaches the named place.")
REGISTRY.define("Dndalike.Rule.WoundsAndTheStack", "Wounds and the Stack", "RU", implementation=Combat.shaken,
             summary="A wound means a save or losing every stacked ability; a hit without a wound, a save "
                     "with advantage.")
REGISTRY.define("Dndalike.Rule.Death", "Death", "RU", implementation=Combat.kill,
             summary="Death cancels all of a character's stacked abilities.")
REGISTRY.define("Dndalike.Action.SkillAttempt", "Skill Attempt in Combat", "AC",
             implementation=resolve_skill_attempt, values={"cost": "M", "speed": SLOW},
             summary="Progress and completion attempts in combat cost a Movement die each.")
