"""Exact area odds: how the points of an area attack spread over the limbs, by the location die.

:func:`rules.nemron.combat.area_damage` rolls one location die per point; these functions give the
same rule's exact answer instead of one roll.  Each point lands on a limb with the chance of that
limb's faces on the die, independently of the other points, so a limb's share is binomial and the
whole spread multinomial.  Any location table works (a creature's body has its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb

from rules.dice import Dist
from rules.dice.errors import PY_STEP, check_work
from rules.nemron.health import HUMANOID_LOCATIONS, Limb, location
from rules.nemron.registry import REGISTRY, NemronError
from rules.providers import Choice, Int
from rules.tables import Table
from rules.values import is_whole

#: Points an exact spread takes at most: a fireball of more points is rolled, not enumerated.
MAX_AREA_POINTS = 40


def _points(amount: int) -> int:
    if not is_whole(amount) or amount < 0:
        raise NemronError(f"area damage must be a whole number of at least 0, not {amount!r}")
    if amount > MAX_AREA_POINTS:
        raise NemronError(f"area damage {amount} is more points than an exact spread takes ({MAX_AREA_POINTS})")
    return amount


def limb_faces(table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> dict[Limb, int]:
    """How many faces of the location die name each limb, in the table's order (read by :func:`location`)."""
    faces: dict[Limb, int] = {}
    for face in table:
        limb = location(face, table)
        faces[limb] = faces.get(limb, 0) + 1
    return faces


@REGISTRY.rule("Generic.Rule.AreaSpread", "Area Damage Spread", "RU", values={"max_points": MAX_AREA_POINTS})
def area_spread(amount: int, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> dict[Limb, Dist]:
    """For each limb, the exact distribution of the points it takes from an area attack of ``amount``.

    A limb named by ``f`` of the die's ``n`` faces takes ``k`` points with chance
    ``C(amount, k) (f/n)^k (1 - f/n)^(amount - k)``.
    """
    amount = _points(amount)
    sides = len(table)
    spread: dict[Limb, Dist] = {}
    for limb, faces in limb_faces(table).items():
        hit = Fraction(faces, sides)
        spread[limb] = Dist.from_probabilities({k: comb(amount, k) * hit**k * (1 - hit) ** (amount - k)
                                                for k in range(amount + 1)})
    return spread


def area_pattern(amount: int, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> Dist:
    """The exact joint spread: outcomes are tuples of points per limb, in the order of :func:`limb_faces`.

    Built die by die (one location die per point), so its size is the number of ways to share
    ``amount`` points among the limbs; the work is checked against the engine's budget first.
    """
    amount = _points(amount)
    faces = limb_faces(table)
    limbs = len(faces)
    check_work(comb(amount + limbs - 1, limbs - 1) * limbs * amount * PY_STEP, f"area spread of {amount} points")
    weights: dict[tuple[int, ...], int] = {(0,) * limbs: 1}
    for _ in range(amount):
        after: dict[tuple[int, ...], int] = {}
        for spread, weight in weights.items():
            for index, count in enumerate(faces.values()):
                landed = (*spread[:index], spread[index] + 1, *spread[index + 1:])
                after[landed] = after.get(landed, 0) + weight * count
        weights = after
    return Dist.from_weights(weights)


def chance_limb_hit(amount: int, limb: Limb | str, table: Mapping[int, Limb] = HUMANOID_LOCATIONS) -> Fraction:
    """The chance that ``limb`` takes at least one point of an area attack of ``amount`` points."""
    spread = area_spread(amount, table)
    try:
        return spread[Limb(limb)].p_ge(1)
    except (ValueError, KeyError):
        raise NemronError(f"{limb!r} is not a limb of the table ({', '.join(hit.value for hit in spread)})") from None


@REGISTRY.table(points=Int(1, 12), limb=Choice(*(limb.value for limb in Limb)))
def area_spread_table(points: int = 8, limb: str = "head") -> Table:
    """For area attacks of 1 to ``points`` points on a humanoid: the chance ``limb`` takes none, 1+, 2+, 3+."""
    rows = []
    for amount in range(1, points + 1):
        share = area_spread(amount)[Limb(limb)]
        rows.append((amount, share.p(0), share.p_ge(1), share.p_ge(2), share.p_ge(3)))
    columns = ("points", "none", "at least 1", "at least 2", "at least 3")
    return Table.of(columns, rows, title=f"Points of an area attack on the {limb}", probabilities=columns[1:])
