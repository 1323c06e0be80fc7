"""Stat blocks of Nemron: Brandon, the book's example character, and the raider he fights.

Brandon is made with the character creation rule (a Human frame, seven skills, 5 XP); the raider is
an NPC with the ranks the combat walk-through gives him.  Health, Energy, movement, initiative and the
attack pool are each read off the rule that computes them.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.dice import Dist
from rules.nemron.actions import initiative_pool
from rules.nemron.characters import Attribute, Character, Frame, create_character, movement_speed
from rules.nemron.checks import Pool, parse_pool
from rules.nemron.combat import attack_hits, attack_pool
from rules.nemron.energy import Energy
from rules.nemron.health import limb_hp
from rules.nemron.registry import REGISTRY
from rules.statblocks import Attack, Stat, StatBlock

#: An attack line quotes these difficulties (the everyday part of the DC scale) up to the pool's best roll.
ATTACK_DCS = (2, 3, 4, 5, 6, 7, 8)

BRANDON_SKILLS = ("Marksmanship", "Athletics", "Stealth", "Medicine", "Lore", "Persuasion", "Survival")


def brandon() -> Character:
    """The characters chapter's Brandon: every attribute at 1 but Awareness 2, seven skills at rank 1."""
    ranks: dict[Attribute | str, int] = {a.value: 1 for a in Attribute}
    ranks["Awareness"] = 2
    return create_character("Brandon", Frame("Human"), ranks, list(BRANDON_SKILLS))


def _derived(ranks: Mapping[Attribute, int]) -> tuple[Stat, ...]:
    rank = {a.value: value for a, value in ranks.items()}
    initiative = initiative_pool(rank["Agility"], rank["Awareness"], rank["Sense"])
    return (Stat("Generic.Attribute.HP", limb_hp(rank["Power"], rank["Agility"], rank["Constitution"]), "per limb"),
            Stat("Generic.Trait.Energy", Energy.from_spirit(rank["Control"], rank["Sense"], rank["Focus"]).maximum),
            Stat("Generic.Rule.MovementSpeed", movement_speed(rank["Agility"]), "m"),
            Stat("Generic.Rule.Initiative", str(initiative)))


def _attributes(ranks: Mapping[Attribute, int]) -> tuple[Stat, ...]:
    return tuple(Stat(f"Generic.Attribute.{a.value}", ranks[a]) for a in Attribute)


def hit_floor(pool: Pool, weapon_rank: int) -> int:
    """The least roll of ``pool`` that lands, by :func:`attack_hits` (the weapon's minimum DC or DC 3)."""
    landing = [roll for roll in range(1, pool.maximum() + 1) if attack_hits(roll, weapon_rank)]
    if not landing:
        raise ValueError(f"{pool} can never land a rank-{weapon_rank} weapon attack")
    return landing[0]


def attack_dist(pool: Pool, weapon_rank: int) -> Dist:
    """The pool's kept die where :func:`attack_hits` lets it land, 0 for a miss: the damage before defence."""
    return pool.dist().map(lambda roll: roll if attack_hits(roll, weapon_rank) else 0)


def _attack(name: str, pool: Pool, weapon_rank: int) -> Attack:
    floor = hit_floor(pool, weapon_rank)
    return Attack(f"{name} (hits on {floor} or more)", "Generic.Rule.AttackPool",
                  f"{pool}, keep the highest", attack_dist(pool, weapon_rank),
                  tuple(dc for dc in ATTACK_DCS if floor <= dc <= pool.maximum()))


@REGISTRY.statblock("brandon")
def brandon_block() -> StatBlock:
    """Brandon with his rank-2 pistol (he has Marksmanship 1 from creation)."""
    hero = brandon()
    return StatBlock("Brandon", "Player character", "Fresh from character creation: seven skills, 5 XP unspent.",
                     _attributes(hero.attributes), _derived(hero.attributes), _attack("Pistol", *brandon_weapon()))


def brandon_weapon() -> tuple[Pool, int]:
    """Brandon's attack pool with his rank-2 pistol, and the pistol's rank."""
    hero = brandon()
    return attack_pool("Pistol", 2, Awareness=hero.rank("Awareness"), Marksmanship=hero.rank("Marksmanship")), 2


#: The raider of the combat walk-through; the ranks it does not give are this book's.
RAIDER: Mapping[str, int] = {"Power": 1, "Agility": 1, "Constitution": 0, "Intellect": 0, "Awareness": 1,
                             "Willpower": 1, "Control": 0, "Sense": 0, "Focus": 1}


@REGISTRY.statblock("raider")
def raider_block() -> StatBlock:
    """The raider of the tracker walk-through: a rank-1 sword swung with Power and Blades."""
    ranks = {a: RAIDER[a.value] for a in Attribute}
    return StatBlock("Raider", "Non-player character", "A road bandit with a short sword and no patience.",
                     _attributes(ranks), _derived(ranks), _attack("Sword", *raider_weapon()))


def raider_weapon() -> tuple[Pool, int]:
    """The raider's sword pool (Power, Blades, a rank-1 sword) and the sword's rank."""
    return parse_pool("Power 1 \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} Blades 1 "
                      "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} Sword 1"), 1
