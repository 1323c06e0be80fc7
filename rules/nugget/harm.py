"""Harm: resisting damage, the damage table, Hurts and Injuries, healing and first aid.

Combat and threats both end here: damage points, less Resistance successes, read off one table.
Physical and mental harm are two separate :class:`Wounds` tracks of one :class:`Condition`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.dice import Dist
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import Lid, PoolRoll, outcome_distribution
from rules.providers import Choice, Int
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

#: Extra damage when the Resistance roll fumbles.
FUMBLE_DAMAGE = 1
#: Rest that clears a Hurt, and rest and care that clears an Injury.
HURT_RECOVERY = "5 minutes of rest"
INJURY_RECOVERY = "a day of rest and care"
#: First aid is Medicine + Brains at this many Base Dice.
FIRST_AID_BASE_DICE = 2


@REGISTRY.rule("Nugget.Roll.Resistance", "Resistance Roll", "RL",
               formula="max(0, damage - successes + fumble)", values={"fumble": FUMBLE_DAMAGE})
def resisted_damage(damage: int, successes: int, fumble: bool = False) -> int:
    """Damage left after a Resistance roll: each success takes one point off, a fumble adds one.

    ``damage`` may already be below 0 (armour can outweigh a weak hit); the clamp at 0 comes last,
    so a fumble only hurts when the damage before it was at least 0.
    """
    if not is_whole(damage):
        raise NuggetError(f"damage must be a whole number, not {damage!r}")
    require_whole(successes, "Resistance successes", minimum=0, error=NuggetError)
    return max(0, damage - successes + (FUMBLE_DAMAGE if fumble else 0))


def resist(damage: int, roll: PoolRoll | None) -> int:
    """:func:`resisted_damage` from an actual Resistance roll (``None``: no dice to roll)."""
    if roll is None:
        return resisted_damage(damage, 0)
    return resisted_damage(damage, roll.successes, roll.fumble)


@dataclass(frozen=True)
class Effect:
    """What a damage result does: Hurts and Injuries to note, and the two severe outcomes."""

    hurts: int = 0
    injuries: int = 0
    unconscious: bool = False
    dead: bool = False

    @property
    def label(self) -> str:
        parts = (["Hurt"] * self.hurts + ["Injured"] * self.injuries
                 + ["Unconscious"] * self.unconscious + ["Dead"] * self.dead)
        return " and ".join(parts) or "No effect"


NO_EFFECT = Effect()
HURT = Effect(hurts=1)
INJURED = Effect(injuries=1)
INJURED_UNCONSCIOUS = Effect(injuries=1, unconscious=True)
INJURED_DEAD = Effect(injuries=1, dead=True)

#: The damage table: (lowest damage, effect), in rising order. Zero damage has no effect.
DAMAGE_TABLE: tuple[tuple[int, Effect], ...] = (
    (0, NO_EFFECT),
    (1, HURT),
    (3, INJURED),
    (5, INJURED_UNCONSCIOUS),
    (7, INJURED_DEAD),
)


@REGISTRY.rule("Nugget.Rule.DamageTable", "Damage Table", "RU",
               values={"hurt": 1, "injured": 3, "unconscious": 5, "dead": 7})
def damage_effect(damage: int) -> Effect:
    """Read final damage off the table: 1-2 Hurt, 3-4 Injured, 5-6 also Unconscious, 7+ also Dead."""
    require_whole(damage, "damage", minimum=0, error=NuggetError)
    return [effect for least, effect in DAMAGE_TABLE if damage >= least][-1]


@REGISTRY.table()
def damage_table() -> Table:
    """The damage table as the book prints it."""
    bounds = [least for least, _ in DAMAGE_TABLE] + [None]
    rows = []
    for (least, effect), upper in zip(DAMAGE_TABLE, bounds[1:]):
        span = "0" if least == 0 else f"{least}+" if upper is None else f"{least}-{upper - 1}"
        rows.append((span, effect.label))
    return Table.of(("Damage", "Effect"), rows, title="Damage table")


REGISTRY.define("Nugget.Condition.Hurt", "Hurt", "Cond", implementation=HURT,
                summary="Bruises and cuts: -1 initiative each, gone after a short rest.",
                values={"initiative": -1, "recovery": HURT_RECOVERY})
REGISTRY.define("Nugget.Condition.Injured", "Injured", "Cond", implementation=INJURED,
                summary="A serious wound: -1 initiative and one Disadvantage on every roll but Resistance.",
                values={"initiative": -1, "disadvantages": 1, "recovery": INJURY_RECOVERY})
REGISTRY.define("Nugget.Condition.Unconscious", "Unconscious", "Cond", implementation=INJURED_UNCONSCIOUS,
                summary="Out of the action (and Injured as well).")
REGISTRY.define("Nugget.Condition.Dead", "Dead", "Cond", implementation=INJURED_DEAD,
                summary="Killed (and Injured as well).")


@dataclass(frozen=True)
class Wounds:
    """One track of harm (physical or mental): Hurts and Injuries build up; the severe results stick."""

    hurts: int = 0
    injuries: int = 0
    unconscious: bool = False
    dead: bool = False

    def __post_init__(self) -> None:
        for what, count in (("Hurts", self.hurts), ("Injuries", self.injuries)):
            require_whole(count, what, minimum=0, error=NuggetError)

    def take(self, effect: Effect) -> Wounds:
        return Wounds(self.hurts + effect.hurts, self.injuries + effect.injuries,
                      self.unconscious or effect.unconscious, self.dead or effect.dead)


TRACKS = ("physical", "mental")


@REGISTRY.rule("Nugget.Rule.Tracks", "Physical and Mental Harm", "RU")
@dataclass(frozen=True)
class Condition:
    """A character's harm, kept on two tracks that heal apart but whose penalties add up."""

    physical: Wounds = Wounds()
    mental: Wounds = Wounds()

    def track(self, kind: str) -> Wounds:
        if kind not in TRACKS:
            raise NuggetError(f"unknown wound track {kind!r} (known: {', '.join(TRACKS)})")
        wounds: Wounds = getattr(self, kind)
        return wounds

    def take(self, effect: Effect, kind: str = "physical") -> Condition:
        return replace(self, **{kind: self.track(kind).take(effect)})

    @property
    def hurts(self) -> int:
        return self.physical.hurts + self.mental.hurts

    @property
    def injuries(self) -> int:
        return self.physical.injuries + self.mental.injuries

    @property
    def initiative_penalty(self) -> int:
        """Every Hurt and Injury, of either kind, costs one point of initiative."""
        return self.hurts + self.injuries

    def roll_penalty(self, *, resistance: bool = False) -> int:
        """Disadvantages from Injuries: one each on every roll except Resistance rolls."""
        return 0 if resistance else self.injuries

    def rest(self, kind: str = "physical") -> Condition:
        """Five minutes' rest clears the Hurts of one track."""
        return replace(self, **{kind: replace(self.track(kind), hurts=0)})

    def recover(self, kind: str = "physical", days: int = 1, *, parallel: bool = False) -> Condition:
        """``days`` of rest and care: each day heals one Injury of the track (and every Hurt goes).

        ``parallel=True`` reads the source as every Injury healing in the same single day.
        """
        track = self.track(kind)
        if not is_whole(days) or days < 1:
            raise NuggetError(f"recovery takes a whole number of days, at least 1, not {days!r}")
        if not isinstance(parallel, bool):
            raise NuggetError(f"parallel is True or False, not {parallel!r}")
        healed = track.injuries if parallel else min(days, track.injuries)
        return replace(self, **{kind: replace(track, hurts=0, injuries=track.injuries - healed)})


REGISTRY.define("Nugget.Rule.InjuryRecovery", "Injury Recovery", "RU", implementation=Condition.recover,
                summary="Each Injury takes a day of rest and care; they heal one day at a time.",
                values={"days_per_injury": 1})


@REGISTRY.rule("Nugget.Roll.FirstAid", "First Aid", "RL", formula="Medicine + Brains + 2",
               values={"base_dice": FIRST_AID_BASE_DICE})
def first_aid(condition: Condition, successes: int, *, one_per_round: bool = False) -> Condition:
    """Heal physical Hurts with medical supplies: each success spent heals one Hurt.

    Healer and patient do nothing else that round.  With ``one_per_round`` a round of first aid
    heals at most one Hurt, however many successes it earns.
    """
    require_whole(successes, "first aid successes", minimum=0, error=NuggetError)
    healed = min(successes, 1 if one_per_round else successes, condition.physical.hurts)
    return replace(condition, physical=replace(condition.physical, hurts=condition.physical.hurts - healed))


def effect_distribution(damage: int, resistance_dice: int, *, lid: Lid | str = Lid.ON,
                        max_rerolls: int | None = None) -> dict[str, Fraction]:
    """Exact chances of each damage-table row when ``damage`` meets a Resistance of so many dice."""
    require_whole(damage, "damage", minimum=0, error=NuggetError)
    require_whole(resistance_dice, "Resistance dice", minimum=0, error=NuggetError)
    final = final_damage_distribution(damage, resistance_dice, lid=lid, max_rerolls=max_rerolls)
    chances: dict[str, Fraction] = {effect.label: Fraction(0) for _, effect in DAMAGE_TABLE}
    for points, p in final.items():
        chances[damage_effect(points).label] += p
    return chances


def final_damage_distribution(damage: int, resistance_dice: int, *, lid: Lid | str = Lid.ON,
                              max_rerolls: int | None = None) -> Dist:
    """Exact distribution of the damage left after a Resistance roll (the fumble included)."""
    if not is_whole(damage):
        raise NuggetError(f"damage must be a whole number, not {damage!r}")
    if require_whole(resistance_dice, "Resistance dice", minimum=0, error=NuggetError) == 0:
        return Dist.constant(damage)
    outcomes = outcome_distribution(resistance_dice, lid=lid, max_rerolls=max_rerolls)
    return outcomes.map(lambda pair: resisted_damage(damage, pair[0], pair[1]))


@REGISTRY.table(resistance_dice=Int(0, 12), lid=Choice("on", "off"))
def resistance_table(resistance_dice: int = 2, lid: str = "on") -> Table:
    """Chances of each damage-table row for damage 1 to 10 against a Resistance pool."""
    labels = [effect.label for _, effect in DAMAGE_TABLE]
    rows: list[tuple[Cell, ...]] = []
    for damage in range(1, 11):
        chances: Mapping[str, Fraction] = effect_distribution(damage, resistance_dice, lid=lid)
        rows.append((damage, *(chances[label] for label in labels)))
    return Table.of(("Damage", *labels), rows,
                    title=f"Damage against Resistance {resistance_dice}, lid-{lid}", probabilities=labels)
