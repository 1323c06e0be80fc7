"""Threats and weird stuff: fire, poison, falls and terrors, and powers that tire their user.

A threat is damage without an attacker: the GM rates it, the matching Resistance opposes it, and
the damage table reads the result, with its own meaning for the two severe rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.nugget.harm import TRACKS, Effect, damage_effect, effect_distribution, resisted_damage
from rules.nugget.registry import REGISTRY, NuggetError
from rules.providers import Choice, Int
from rules.tables import Cell, Table
from rules.values import is_whole


@dataclass(frozen=True)
class ThreatGrade:
    """A named damage rating for hazards, with examples."""

    rating: int
    name: str
    examples: str


THREAT_GRADES: tuple[ThreatGrade, ...] = (
    ThreatGrade(1, "Irritating", "a nuisance"),
    ThreatGrade(3, "Painful", "tiring or painful, such as a desert crossing"),
    ThreatGrade(5, "Damaging", "ordinary fire, drowning"),
    ThreatGrade(8, "Deadly", "strong electricity"),
    ThreatGrade(10, "Extreme", "open space, the deep ocean"),
)
_BY_NAME: Mapping[str, ThreatGrade] = {g.name: g for g in THREAT_GRADES}
_BY_LOWER: Mapping[str, ThreatGrade] = {g.name.lower(): g for g in THREAT_GRADES}


@REGISTRY.rule("Nugget.Threat.Rating", "Threat Rating", "Threat",
               values={g.name.lower(): g.rating for g in THREAT_GRADES})
def threat_rating(grade: str) -> int:
    """The damage rating the GM gives a hazard of a named grade (in any case: ``"deadly"`` is Deadly)."""
    try:
        return _BY_LOWER[grade.strip().lower()].rating
    except (KeyError, TypeError, AttributeError):
        raise NuggetError(f"unknown threat grade {grade!r} (known: {', '.join(_BY_NAME)})") from None


@dataclass(frozen=True)
class ThreatOutcome:
    """What a threat did: the damage-table effect, read for hazards."""

    effect: Effect
    kind: str

    @property
    def impaired(self) -> bool:
        """An Unconscious result from a threat: an impairment for about a scene (blinded, fleeing)."""
        return self.effect.unconscious

    @property
    def lasting(self) -> bool:
        """A Dead result from a threat: a permanent condition, whose cure can be a story of its own."""
        return self.effect.dead


@REGISTRY.rule("Nugget.Threat.Resolve", "Facing a Threat", "Threat")
def face_threat(rating: int, successes: int, fumble: bool = False, *, kind: str = "physical") -> ThreatOutcome:
    """Oppose a threat's rating with the matching Resistance roll and read the damage table.

    ``kind`` picks the Resistance and the wound track: ``physical`` or ``mental``.
    """
    if not is_whole(rating) or rating < 0:
        raise NuggetError(f"a threat rating must be a whole number >= 0, not {rating!r}")
    if kind not in TRACKS:
        raise NuggetError(f"unknown wound track {kind!r} (known: {', '.join(TRACKS)})")
    return ThreatOutcome(damage_effect(resisted_damage(rating, successes, fumble)), kind)


@REGISTRY.table(resistance_dice=Int(0, 12), lid=Choice("on", "off"))
def threat_table(resistance_dice: int = 2, lid: str = "on") -> Table:
    """Chance of each outcome when each threat grade meets a Resistance of so many dice."""
    labels = ("No effect", "Hurt", "Injured", "Injured and Unconscious", "Injured and Dead")
    rows: list[tuple[Cell, ...]] = []
    for grade in THREAT_GRADES:
        chances: Mapping[str, Fraction] = effect_distribution(grade.rating, resistance_dice, lid=lid)
        rows.append((f"{grade.rating} {grade.name}", *(chances[label] for label in labels)))
    columns = ("Threat", "No effect", "Hurt", "Injured", "Impaired", "Lasting")
    return Table.of(columns, rows, title=f"Threats against Resistance {resistance_dice}, lid-{lid}",
                    probabilities=columns[1:])


@dataclass(frozen=True)
class PowerUse:
    """A weird-stuff roll after its cost: the successes left and the Hurt taken (if any)."""

    successes: int
    hurt: Effect
    kind: str


@REGISTRY.rule("Nugget.Rule.WeirdStuff", "Weird Stuff", "RU", values={"cost": 1})
def use_power(successes: int, *, avoid_fatigue: bool = True, kind: str = "mental") -> PowerUse:
    """Magic and psychic powers are skills that tire: each use costs a Hurt (physical or mental)
    unless one success is given up to avoid it.  With no success to spare the Hurt is taken."""
    if not is_whole(successes) or successes < 0:
        raise NuggetError(f"successes must be a whole number >= 0, not {successes!r}")
    if kind not in TRACKS:
        raise NuggetError(f"unknown wound track {kind!r} (known: {', '.join(TRACKS)})")
    if avoid_fatigue and successes >= 1:
        return PowerUse(successes - 1, Effect(), kind)
    return PowerUse(successes, Effect(hurts=1), kind)


MIND_ATTACK_STYLES = ("brains", "will")


@REGISTRY.rule("Nugget.Rule.MindAttack", "Mind Attack", "RU")
def mind_attack_damage(attack_successes: int, defence_successes: int, will: int, *,
                       style: str = "brains") -> int:
    """Damage of a mind attack before Mental Resistance.

    ``brains``: the attack is rolled with Brains and the attacker's Will is its base damage, like a
    weapon's.  ``will``: just a Will roll, whose margin alone is the damage.  A tie or less misses.
    """
    if style not in MIND_ATTACK_STYLES:
        raise NuggetError(f"unknown mind attack style {style!r} (known: {', '.join(MIND_ATTACK_STYLES)})")
    for what, count in (("attack successes", attack_successes), ("defence successes", defence_successes)):
        if not is_whole(count) or count < 0:
            raise NuggetError(f"{what} must be a whole number >= 0, not {count!r}")
    if not is_whole(will) or not -2 <= will <= 4:
        raise NuggetError(f"the attacker's Will must be a whole number in -2..+4, not {will!r}")
    if attack_successes <= defence_successes:
        return 0
    return attack_successes - defence_successes + (will if style == "brains" else 0)
