"""Threats, weird stuff and mind attacks."""

from fractions import Fraction

import pytest

from rules.nugget import threats as t


def test_threat_ratings_one_three_five_eight_ten():
    assert [t.threat_rating(g) for g in ("Irritating", "Painful", "Damaging", "Deadly", "Extreme")] == [1, 3, 5, 8, 10]
    with pytest.raises(t.NuggetError, match="'Mild'"):
        t.threat_rating("Mild")


def test_facing_a_threat_reads_impairment_and_lasting_condition():
    fire = t.face_threat(5, 1)
    assert fire.effect.label == "Injured" and not fire.impaired
    assert t.face_threat(5, 0).impaired
    assert t.face_threat(8, 1, True, kind="mental").lasting
    with pytest.raises(t.NuggetError, match="-1"):
        t.face_threat(-1, 0)


def test_threat_table_irritating_against_two_dice():
    row = t.threat_table().rows[0]
    # rating 1 vs 2 dice: no effect on any success (3/4), otherwise a Hurt (1/4)
    assert row[1:] == (Fraction(3, 4), Fraction(1, 4), 0, 0, 0)


def test_weird_stuff_costs_a_hurt_unless_a_success_is_spent():
    assert t.use_power(3).successes == 2 and t.use_power(3).hurt.hurts == 0
    assert t.use_power(3, avoid_fatigue=False).hurt.hurts == 1
    assert t.use_power(0).hurt.hurts == 1
    with pytest.raises(t.NuggetError, match="-1"):
        t.use_power(-1)


def test_mind_attack_brains_roll_with_will_as_base_damage():
    assert t.mind_attack_damage(3, 1, 2) == 4
    assert t.mind_attack_damage(3, 1, 2, style="will") == 2
    assert t.mind_attack_damage(1, 1, 2) == 0
    with pytest.raises(t.NuggetError, match="'telekinetic'"):
        t.mind_attack_damage(1, 0, 0, style="telekinetic")


def test_mind_attack_refuses_a_will_outside_the_attribute_range():
    with pytest.raises(t.NuggetError, match="'x'"):
        t.mind_attack_damage(3, 1, "x")
    with pytest.raises(t.NuggetError, match="5"):
        t.mind_attack_damage(3, 1, 5)


def test_threat_grades_are_read_in_any_case():
    from rules.nugget.threats import threat_rating
    assert threat_rating("deadly") == threat_rating("DEADLY") == threat_rating(" Deadly ") == 8
    with pytest.raises(t.NuggetError, match="'lethal'"):
        threat_rating("lethal")
