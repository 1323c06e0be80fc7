"""Fighting: attack and defence pools, hits, weapon damage, armour, and the combat special cases.

One exchange is :func:`resolve_attack`: attack against defence, margin plus weapon (plus Brawn
hand-to-hand) less armour, then the target's Physical Resistance and the damage table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource, Dist
from rules.nugget.characters import SKILL_LEVELS, attribute_dice, attribute_level
from rules.nugget.harm import Effect, damage_effect, resisted_damage
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import Lid, PoolRoll, is_too_hard, pool_size, roll_pool, success_distribution
from rules.providers import Choice, Int
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

#: Attacks, and defences in close combat, are usually rolled at this many Base Dice.
ATTACK_BASE_DICE = 2
#: Base Dice of a defence against projectiles, by the cover the defender has.
COVER_BASE_DICE: Mapping[str, int] = {"none": 0, "partial": 1, "good": 2}
#: Base Dice when fighting an opponent you cannot see (Fighting + Brains on both sides).
UNSEEN_BASE_DICE = 0
#: Armour: up to 3 points for archaic kinds, up to 5 for modern ones.
ARCHAIC_ARMOUR_MAX, MODERN_ARMOUR_MAX = 3, 5

#: Base damage by weapon.
WEAPON_BASE: Mapping[str, int] = {
    "unarmed": 0,
    "knife": 1, "small club": 1,
    "sword": 2, "big club": 2, "axe": 2, "spear": 2, "arrow": 2,
    "big sword": 3, "polearm": 3, "handgun": 3, "SMG": 3,
    "rifle": 4, "shotgun": 4,
    "machine-gun": 6,
    "tank gun": 8,
}


def _skill(value: object, what: str = "skill level") -> int:
    """A skill level in a pool: 0 (no skill) up to the highest level, 4."""
    level = require_whole(value, what, minimum=0, error=NuggetError)
    if level > max(SKILL_LEVELS):
        raise NuggetError(f"{what} {value} is outside 0..{max(SKILL_LEVELS)}")
    return level


@REGISTRY.rule("Nugget.Roll.Attack", "Attack", "RL", formula="2 + skill + Agility",
               values={"base_dice": ATTACK_BASE_DICE})
def attack_pool(skill: int, agility: int, *, spray: bool = False, injuries: int = 0,
                base: int = ATTACK_BASE_DICE) -> int:
    """Dice for an attack: the weapon skill plus Agility, usually at Base Dice +2.

    Spray or burst fire adds an Advantage; every Injury the attacker carries takes one die away.
    """
    adv, dis = attribute_dice(agility)
    return pool_size(base, _skill(skill) + adv + int(spray), dis + require_whole(injuries, "injuries", minimum=0,
                                                                                 error=NuggetError))


@REGISTRY.rule("Nugget.Roll.Defence", "Defence", "RL", formula="BD + skill + Agility",
               values={"base_dice": ATTACK_BASE_DICE, "no_cover": 0, "partial_cover": 1, "good_cover": 2})
def defence_pool(skill: int, agility: int, *, close_combat: bool = True, projectile: bool = False,
                 cover: str = "none", shield: bool = False, injuries: int = 0,
                 use_agility: bool = True) -> int:
    """Dice to parry or dodge: a close-combat skill plus Agility.

    Base Dice are +2 against close attacks; against projectiles they depend on cover (none 0,
    partial +1, good +2).  A shield adds an Advantage.  ``use_agility=False`` drops Agility, for
    tables that read the source's "similar" as not including it.
    """
    if not close_combat:
        raise NuggetError("defence needs a close-combat skill (not, say, Gun); got close_combat=False")
    if cover not in COVER_BASE_DICE:
        raise NuggetError(f"unknown cover {cover!r} (known: {', '.join(COVER_BASE_DICE)})")
    base = COVER_BASE_DICE[cover] if projectile else ATTACK_BASE_DICE
    adv, dis = attribute_dice(agility) if use_agility else (0, 0)
    return pool_size(base, _skill(skill) + adv + int(shield), dis + require_whole(injuries, "injuries", minimum=0,
                                                                                  error=NuggetError))


REGISTRY.define("Nugget.Rule.Spray", "Spray Fire", "RU", implementation=attack_pool, values={"advantage": 1},
                summary="Firearms that spray or fire bursts get an Advantage to hit.")
REGISTRY.define("Nugget.Rule.Shield", "Shield", "RU", implementation=defence_pool, values={"advantage": 1},
                summary="A shield gives an Advantage to defend.")


@REGISTRY.rule("Nugget.Roll.Unseen", "Unseen Opponent", "RL", formula="Fighting + Brains",
               values={"base_dice": UNSEEN_BASE_DICE})
def unseen_pool(fighting: int, brains: int, *, injuries: int = 0) -> int:
    """Against an opponent nobody can see, attack and defence alike become Fighting + Brains at BD 0."""
    adv, dis = attribute_dice(brains)
    return pool_size(UNSEEN_BASE_DICE, _skill(fighting, "Fighting level") + adv, dis
                     + require_whole(injuries, "injuries", minimum=0, error=NuggetError))


@REGISTRY.rule("Nugget.Rule.Hit", "Hit", "RU")
def hits(attack_successes: int, defence_successes: int) -> bool:
    """The attack lands only with more successes than the defence: a tie is a miss."""
    return (require_whole(attack_successes, "attack successes", minimum=0, error=NuggetError)
            > require_whole(defence_successes, "defence successes", minimum=0, error=NuggetError))


@REGISTRY.rule("Nugget.Weapon.Base", "Weapon Base Damage", "Weapon",
               values={name.replace(" ", "_").replace("-", "_"): base for name, base in WEAPON_BASE.items()})
def weapon_base(weapon: str) -> int:
    """A weapon's base damage, from 0 for bare hands to 8 for a tank gun."""
    try:
        return WEAPON_BASE[weapon]
    except (KeyError, TypeError):
        raise NuggetError(f"unknown weapon {weapon!r} (known: {', '.join(WEAPON_BASE)})") from None


@REGISTRY.rule("Nugget.Weapon.Armour", "Armour", "Weapon",
               values={"archaic_max": ARCHAIC_ARMOUR_MAX, "modern_max": MODERN_ARMOUR_MAX})
def check_armour(points: int, *, modern: bool = False) -> int:
    """Armour takes its points off every hit's damage: up to 3 for archaic kinds, 5 for modern ones."""
    limit = MODERN_ARMOUR_MAX if modern else ARCHAIC_ARMOUR_MAX
    if not is_whole(points) or not 0 <= points <= limit:
        raise NuggetError(f"armour {points!r} is outside 0..{limit} for {'modern' if modern else 'archaic'} armour")
    return points


@REGISTRY.rule("Nugget.Rule.Damage", "Damage", "RU",
               formula="attack - defence + weapon + Brawn - armour")
def hit_damage(attack_successes: int, defence_successes: int, weapon: int, *, brawn: int = 0,
               hand_to_hand: bool = False, armour: int = 0) -> int:
    """Damage a hit brings to the target's Resistance roll.

    The margin of the hit plus the weapon's base, plus Brawn for hand-to-hand blows (a negative
    Brawn takes away), less armour.  Not clamped: :func:`~rules.nugget.harm.resisted_damage`
    clamps once at the very end.  A miss does no damage at all.
    """
    require_whole(weapon, "weapon base", minimum=0, error=NuggetError)
    check_armour(armour, modern=True)
    attribute_level(brawn, "Brawn")
    if not hits(attack_successes, defence_successes):
        return 0
    return attack_successes - defence_successes + weapon + (brawn if hand_to_hand else 0) - armour


@REGISTRY.rule("Nugget.Rule.Surprise", "Surprise", "RU")
def defence_allowed(*, surprised: bool = False) -> bool:
    """A surprised target (someone sneaked up successfully) gets no defence roll at all."""
    return not surprised


@dataclass(frozen=True)
class Exchange:
    """One attack worked through: the rolls and what they did."""

    attack: PoolRoll
    defence: PoolRoll | None
    resistance: PoolRoll | None
    damage: int
    final: int
    effect: Effect

    @property
    def hit(self) -> bool:
        return hits(self.attack.successes, self.defence.successes if self.defence else 0)


@REGISTRY.rule("Nugget.Roll.Exchange", "Attack Exchange", "RL")
def resolve_attack(attack: int, defence: int | None, resistance: int, source: DiceSource, *, weapon: int,
                   brawn: int = 0, hand_to_hand: bool = False, armour: int = 0,
                   lid: Lid | str = Lid.ON) -> Exchange:
    """Roll one attack through to its effect: attack, defence (``None`` when surprised), Resistance.

    Dice come from ``source`` in that order; a side with no dice rolls nothing and scores 0.
    """
    attack_roll = roll_pool(attack, source, lid=lid)
    defence_roll = None if defence is None or is_too_hard(defence) else roll_pool(defence, source, lid=lid)
    defended = defence_roll.successes if defence_roll else 0
    damage = hit_damage(attack_roll.successes, defended, weapon, brawn=brawn, hand_to_hand=hand_to_hand,
                        armour=armour)
    if not hits(attack_roll.successes, defended):
        return Exchange(attack_roll, defence_roll, None, 0, 0, damage_effect(0))
    resistance_roll = None if is_too_hard(resistance) else roll_pool(resistance, source, lid=lid)
    final = resisted_damage(damage, resistance_roll.successes if resistance_roll else 0,
                            resistance_roll.fumble if resistance_roll else False)
    return Exchange(attack_roll, defence_roll, resistance_roll, damage, final, damage_effect(final))


def _pool_dist(pool: int | None, lid: Lid | str) -> Dist:
    if pool is None or is_too_hard(pool):
        return Dist.constant(0)
    return success_distribution(pool, lid=lid)


def hit_chance(attack: int, defence: int | None, *, lid: Lid | str = Lid.ON) -> Fraction:
    """Exact chance that an attack pool beats a defence pool (``None``: no defence roll)."""
    attack_dist, defence_dist = _pool_dist(attack, lid), _pool_dist(defence, lid)
    return sum((p * defence_dist.p_lt(a) for a, p in attack_dist.items()), Fraction(0))


@REGISTRY.table(lid=Choice("on", "off"), max_attack=Int(1, 12), max_defence=Int(1, 12))
def hit_table(lid: str = "on", max_attack: int = 8, max_defence: int = 6) -> Table:
    """Chance to hit for attack pools (rows) against defence pools (columns; 0: no defence)."""
    for what, value in (("max_attack", max_attack), ("max_defence", max_defence)):
        if not isinstance(value, int) or value < 1:
            raise NuggetError(f"{what} must be at least 1, got {value!r}")
    columns = tuple(f"vs {d}" for d in range(0, max_defence + 1))
    rows: list[tuple[Cell, ...]] = [(a, *(hit_chance(a, d, lid=lid) for d in range(0, max_defence + 1)))
            for a in range(1, max_attack + 1)]
    return Table.of(("Attack dice", *columns), rows, title=f"Chance to hit, lid-{lid}", probabilities=columns)


@REGISTRY.table()
def weapon_table() -> Table:
    """Base damage by weapon, as the book prints it."""
    by_base: dict[int, list[str]] = {}
    for name, base in WEAPON_BASE.items():
        by_base.setdefault(base, []).append(name)
    return Table.of(("Base damage", "Weapons"), [(base, ", ".join(names)) for base, names in by_base.items()],
                    title="Weapon base damage")
