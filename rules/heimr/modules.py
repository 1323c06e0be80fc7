"""Optional modules: the medieval armoury (weapons and shields) and blind spots.

Modules extend the setting-free core.  The armoury is a table of weapon and shield classes; blind
spots make defenders vulnerable on the side away from a ranged attacker.  Both are marked work in
progress by their authors, and gaps stay gaps here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.heimr.grid import Square
from rules.heimr.registry import REGISTRY, HeimrError
from rules.tables import Table
from rules.values import is_whole

#: Consistency a defender loses against attacks out of a blind spot.
BLIND_SPOT_PENALTY = 5


@dataclass(frozen=True)
class Weapon:
    """A weapon class: reach (``None`` for melee, else the range), the Hit it deals, its potential bonus."""

    name: str
    range: int | None
    damage: int
    bonus: int | None
    wielding: str
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class Shield:
    """A shield class for the off-hand: its potential bonus and any attribute penalty."""

    name: str
    bonus: int | None
    penalty: str = ""


WEAPONS: tuple[Weapon, ...] = (
    Weapon("Light weapon", None, 1, 2, "either hand", ("Knife fighting", "Duelling")),
    Weapon("Medium weapon", None, 2, 3, "one or two hands", ("Duelling", "Swordsmanship", "Shield and sword")),
    Weapon("Great weapon", None, 3, 5, "two hands", ("Swordsmanship",)),
    Weapon("Pole arm", None, 2, 4, "two hands", ("Pole arms",)),
    Weapon("Bow", 6, 3, 1, "two hands", ("Archery",)),
    Weapon("Crossbow", 4, 3, None, "two hands", ("Archery",)),
    Weapon("Throwing weapon", 1, 1, None, "sword hand", ("Throwing", "Knife fighting")),
    Weapon("Blowgun", 2, 0, 1, "sword hand", ("Blowguns",)),
)

SHIELDS: tuple[Shield, ...] = (
    Shield("Buckler", None),
    Shield("Small shield", 2, "not yet written"),
    Shield("Medium shield", 3, "not yet written"),
    Shield("Tower shield", 5, "Stamina -1"),
)


def _uid(name: str) -> str:
    return "Heimr.Gear." + "".join(part.capitalize() for part in name.split())


for _weapon in WEAPONS:
    REGISTRY.define(_uid(_weapon.name), _weapon.name, "G", implementation=_weapon,
                    summary=f"Hit {_weapon.damage}; {'melee' if _weapon.range is None else f'range {_weapon.range}'}.",
                    values={"damage": _weapon.damage, "bonus": _weapon.bonus or 0,
                            "range": "melee" if _weapon.range is None else _weapon.range})
for _shield in SHIELDS:
    REGISTRY.define(_uid(_shield.name), _shield.name, "G", implementation=_shield,
                    summary="Off-hand shield.", values={"bonus": _shield.bonus or 0})


def find_weapon(name: str) -> Weapon:
    for weapon in WEAPONS:
        if isinstance(name, str) and weapon.name.lower() == name.strip().lower():
            return weapon
    raise HeimrError(f"no weapon named {name!r} (known: {', '.join(w.name for w in WEAPONS)})")


@REGISTRY.rule("Heimr.Module.MedievalArmoury", "Medieval armoury", "M")
def weapon_attack(weapon: str, consistency: int, potential: int) -> tuple[int, int, int]:
    """(consistency, potential, hit) of an attack with a weapon class: the weapon's bonus adds to
    the potential of the ability used, and a hit deals the weapon's damage as Hit."""
    w = find_weapon(weapon)
    for what, value in (("consistency", consistency), ("potential", potential)):
        if not is_whole(value):
            raise HeimrError(f"the attack's {what} must be a whole number, not {value!r}")
    return consistency, potential + (w.bonus or 0), w.damage


Vector = tuple[int, int]
_STEPS: tuple[Vector, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def attack_direction(defender: str | Square, attacker: str | Square,
                     prefer: Literal["straight", "diagonal"] | None = None) -> Vector:
    """The line (one of eight) from the defender toward the attacker.

    An attacker off every line snaps to the nearer line, counted in squares; when both are equally
    near the attacker chooses (``prefer``).
    """
    d, a = Square.parse(defender), Square.parse(attacker)
    dx, dy = a.column - d.column, a.row - d.row
    if dx == dy == 0:
        raise HeimrError(f"the attacker at {a} shares the defender's square: no direction")
    major, minor = max(abs(dx), abs(dy)), min(abs(dx), abs(dy))
    if minor == 0 or minor == major:
        return _sign(dx), _sign(dy)
    to_straight, to_diagonal = minor, major - minor
    if to_straight == to_diagonal:
        if prefer not in ("straight", "diagonal"):
            raise HeimrError(f"{a} is as near a straight line as a diagonal from {d}: "
                              "the attacker must choose (prefer='straight' or 'diagonal')")
        diagonal = prefer == "diagonal"
    else:
        diagonal = to_diagonal < to_straight
    if diagonal:
        return _sign(dx), _sign(dy)
    return (_sign(dx), 0) if abs(dx) > abs(dy) else (0, _sign(dy))


@REGISTRY.rule("Heimr.Rule.BlindSpot", "Blind spot", "RU", values={"penalty": BLIND_SPOT_PENALTY})
@dataclass
class BlindSpot:
    """The side a defender cannot watch after a ranged attack from another square.

    It covers the three squares (a 90 degree spread) on the side facing away from the attacker and
    lasts until the defender's next turn.  A later ranged attack from outside it adds the side
    facing away from that attacker too.  Attacks from inside it cost the defender 5 defence
    consistency.
    """

    defender: Square
    directions: set[Vector] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.defender = Square.parse(self.defender)

    def ranged_attack(self, attacker: str | Square,
                      prefer: Literal["straight", "diagonal"] | None = None) -> int:
        """Record a ranged attack (defended); returns the defence penalty it suffered."""
        toward = attack_direction(self.defender, attacker, prefer)
        penalty = BLIND_SPOT_PENALTY if toward in self.directions else 0
        if not penalty:
            away = _STEPS.index((-toward[0], -toward[1]))
            self.directions |= {_STEPS[(away + k) % 8] for k in (-1, 0, 1)}
        return penalty

    def melee_penalty(self, entered_from: str | Square) -> int:
        """Defence penalty against a melee attacker who entered the square this turn from ``entered_from``."""
        return BLIND_SPOT_PENALTY if attack_direction(self.defender, entered_from) in self.directions else 0

    def squares(self) -> list[str]:
        """The neighbouring squares the blind spot faces (those past the A column or row 1 left out)."""
        return sorted(f"{chr(ord('A') + self.defender.column + dx)}{self.defender.row + 1 + dy}"
                      for dx, dy in self.directions
                      if self.defender.column + dx >= 0 and self.defender.row + dy >= 0)

    def new_turn(self) -> None:
        """The defender's turn: the blind spot is gone."""
        self.directions.clear()


@REGISTRY.rule("Heimr.Rule.DeclineDefence", "Declining to defend", "RU")
def decline_defence() -> dict[str, bool]:
    """Not defending at all: the attack lands for sure, but it opens no blind spot and uses up no
    defence (no repeat penalty follows)."""
    return {"hit": True, "blind_spot": False, "defence_used": False}


@REGISTRY.table()
def armoury_table() -> Table:
    """Weapon classes of the medieval armoury."""
    rows = [(w.name, "melee" if w.range is None else w.range, w.damage,
             "-" if w.bonus is None else f"P+{w.bonus}", w.wielding, " / ".join(w.abilities)) for w in WEAPONS]
    return Table.of(["Weapon", "Range", "Hit", "Bonus", "Wielding", "Abilities"], rows, title="Weapons")


@REGISTRY.table()
def shield_table() -> Table:
    """Shield classes of the medieval armoury."""
    rows = [(s.name, "-" if s.bonus is None else f"P+{s.bonus}", s.penalty or "-") for s in SHIELDS]
    return Table.of(["Shield", "Bonus", "Penalty"], rows, title="Shields")
