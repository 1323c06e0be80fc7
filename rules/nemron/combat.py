"""Combat: attack pools, active defence, limbs, area damage, minimum weapon DC, flanking and range.

The attack roll is the damage.  A defender who spends an action or reaction on a defence roll takes
only the difference.  Damage lands on one limb (named in advance at a lesser penalty, or picked by the
location die); area damage rolls one location die per point.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from rules.dice import DiceSource
from rules.nemron.checks import Modifier, Pool
from rules.nemron.health import HUMANOID_LOCATIONS, Limb, location
from rules.nemron.nodes import rank_die
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole


def _roll_value(value: int, what: str) -> int:
    if value.__class__ is int and value >= 0:  # the rolled case, without the call: asked per attack
        return value
    if not is_whole(value) or value < 0:
        raise NemronError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


@REGISTRY.rule("Generic.Rule.AttackPool", "Attack Pool", "RU")
def attack_pool(weapon: str, weapon_rank: int, **ranks: int) -> Pool:
    """The attack pool: the relevant attribute(s) and skill(s), then the weapon's rank die.

    ``attack_pool("Pistol", 2, Awareness=1, Marksmanship=2)`` is ``Awareness 1 › Marksmanship 2 › Pistol 2``.
    """
    if not ranks:
        raise NemronError(f"an attack with {weapon!r} needs at least one attribute in its pool")
    return Pool.of(*ranks.items(), (weapon, weapon_rank))


@REGISTRY.rule("Generic.Rule.ActiveDefence", "Active Defence", "RU")
def attack_damage(attack: int, defence: int | None = None) -> int:
    """Damage dealt: the attack roll, less the defence roll if the target actively defended.

    A defence roll at least as high as the attack leaves no damage (never negative damage).
    """
    attack = _roll_value(attack, "the attack roll")
    if defence is None:
        return attack
    return max(0, attack - _roll_value(defence, "the defence roll"))


@REGISTRY.rule("Generic.Rule.MinimumWeaponDC", "Minimum Weapon DC", "RU", formula="rank + 1")
def minimum_weapon_dc(weapon_rank: int) -> int:
    """The least roll a weapon attack needs: weapon rank + 1 (a rank-2 pistol needs 3)."""
    rank_die(weapon_rank)
    return weapon_rank + 1


def attack_hits(roll: int, weapon_rank: int, *, specialised: bool = True) -> bool:
    """Whether an attack roll lands: it must reach the weapon's minimum DC and, for a specialised skill
    (the default for weapon skills), DC 3 too; the higher of the two applies."""
    floor = minimum_weapon_dc(weapon_rank)
    if specialised:
        floor = max(floor, 3)
    return _roll_value(roll, "the attack roll") >= floor


@REGISTRY.rule("Generic.Rule.LimbTargeting", "Limb Targeting", "RU", values={"modifier": Modifier.LESSER_PENALTY.value})
def aimed_modifier(target: Limb | str | None) -> Modifier | None:
    """Naming a limb before the attack gives the attack a lesser penalty; no named limb, no penalty.

    An aimed hit goes to the named limb; an unaimed one rolls the location die.
    """
    if target is None:
        return None
    try:
        Limb(target)
    except ValueError:
        raise NemronError(f"{target!r} is not a limb ({', '.join(limb.value for limb in Limb)})") from None
    return Modifier.LESSER_PENALTY


@REGISTRY.rule("Generic.Rule.AreaDamage", "Area of Effect Damage", "RU")
def area_damage(amount: int, source: DiceSource, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> dict[Limb, int]:
    """Spread area damage: one location die per point, each die one damage to its limb.

    Returns limb -> damage, in the order limbs were first hit.
    """
    _roll_value(amount, "area damage")
    hits: Counter[Limb] = Counter()
    for _ in range(amount):
        hits[location(source.roll(len(table)), table)] += 1
    return dict(hits)


#: How many hostile characters within melee range flank a character.
FLANKING_OPPONENTS = 2


@REGISTRY.rule("Generic.Condition.Flanked", "Flanked", "E",
            values={"opponents": FLANKING_OPPONENTS, "defence_modifier": Modifier.LESSER_PENALTY.value})
def flanked_defence(melee_opponents: int, *, modifier: Modifier | None = Modifier.LESSER_PENALTY) -> Modifier | None:
    """The flanked condition: with two or more opponents in melee range a character is flanked, and
    its defence rolls against them carry ``modifier`` (a lesser penalty unless the table says otherwise).

    Returns the modifier for the defence roll, or ``None`` when not flanked.
    """
    _roll_value(melee_opponents, "the number of opponents")
    return modifier if melee_opponents >= FLANKING_OPPONENTS else None


@dataclass(frozen=True)
class RangeBand:
    """A named distance band, from ``low`` metres up to ``high``."""

    name: str
    low: int
    high: int
    description: str


#: The four range bands of the book.
RANGE_BANDS: tuple[RangeBand, ...] = (
    RangeBand("Melee", 0, 3, "one lunge or swing of a weapon"),
    RangeBand("Near", 3, 8, "within movement range"),
    RangeBand("Far", 8, 30, "beyond movement range"),
    RangeBand("Distant", 30, 100, "as far as the eye can act"),
)


@REGISTRY.rule("Generic.Rule.RangeBands", "Range Bands", "RU",
            values={"melee": 3, "near": 8, "far": 30, "distant": 100})
def range_band(metres: float, *, upper_inclusive: bool = False) -> RangeBand:
    """The range band of a distance.  A shared boundary (3, 8 or 30 m) belongs to the farther band;
    ``upper_inclusive=True`` gives it to the nearer one.  Melee is always below 3 m; 100 m is the last
    distant metre.
    """
    if isinstance(metres, bool) or not isinstance(metres, (int, float)) or math.isnan(metres) or metres < 0:
        raise NemronError(f"distance {metres!r} must be a number of metres, at least 0")
    for band in RANGE_BANDS:
        below_high = metres <= band.high if (upper_inclusive and band.name != "Melee") else metres < band.high
        if below_high or (band is RANGE_BANDS[-1] and metres == band.high):
            return band
    raise NemronError(f"{metres} m is beyond the distant band (100 m)")
