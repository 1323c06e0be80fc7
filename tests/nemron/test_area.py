"""Exact area odds (docs/nemron/damage.rst, Area Damage Spread): checked against every roll of the location dice."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules.dice.errors import ComputationTooLargeError
from rules.nemron.area import MAX_AREA_POINTS, area_pattern, area_spread, chance_limb_hit, limb_faces
from rules.nemron import NemronError
from rules.nemron.combat import area_damage
from rules.nemron.health import HUMANOID_LOCATIONS, Limb
from rules.dice import ScriptedSource

#: A beast whose torso fills half the location die (a d4): no head, no arms.
BEAST = {1: Limb.TORSO, 2: Limb.TORSO, 3: Limb.LEFT_LEG, 4: Limb.RIGHT_LEG}


def enumerated(amount, table):
    """Every sequence of location-die faces, each read by ``area_damage`` itself: limb -> Counter of points."""
    limbs = list(limb_faces(table))
    counts = Counter()
    for faces in itertools.product(sorted(table), repeat=amount):
        hits = area_damage(amount, ScriptedSource(list(faces)), table)
        counts[tuple(hits.get(limb, 0) for limb in limbs)] += 1
    return counts, len(table) ** amount


@pytest.mark.parametrize("table", [HUMANOID_LOCATIONS, BEAST], ids=["humanoid", "beast"])
@pytest.mark.parametrize("amount", [0, 1, 2, 3, 5])
def test_the_spread_of_an_area_attack_is_every_roll_of_its_location_dice(amount, table):
    counts, total = enumerated(amount, table)
    pattern = area_pattern(amount, table)
    assert pattern.probabilities() == {spread: Fraction(n, total) for spread, n in counts.items()}
    for index, (_limb, share) in enumerate(area_spread(amount, table).items()):
        for k in range(amount + 1):
            assert share.p(k) == Fraction(sum(n for s, n in counts.items() if s[index] == k), total)


def test_four_points_put_at_least_one_on_the_head_52_percent_of_the_time():
    assert chance_limb_hit(4, "head") == Fraction(671, 1296)
    assert round(float(chance_limb_hit(4, Limb.HEAD)) * 100) == 52


def test_a_limb_named_by_more_faces_takes_more_points():
    assert area_spread(2, BEAST)[Limb.TORSO].p_ge(1) == Fraction(3, 4)


@pytest.mark.parametrize("amount", [-1, 2.5, MAX_AREA_POINTS + 1])
def test_an_area_spread_names_a_bad_amount(amount):
    with pytest.raises(NemronError, match=str(amount)):
        area_spread(amount)


def test_a_limb_the_table_lacks_is_named():
    with pytest.raises(NemronError, match="'head' is not a limb of the table"):
        chance_limb_hit(2, "head", BEAST)


def test_the_joint_spread_of_a_huge_fireball_is_refused_at_once_and_its_per_limb_odds_still_answer():
    with pytest.raises(ComputationTooLargeError, match="area spread of 40 points"):
        area_pattern(MAX_AREA_POINTS)
    assert area_spread(MAX_AREA_POINTS)[Limb.HEAD].p(0) == Fraction(5, 6) ** MAX_AREA_POINTS
