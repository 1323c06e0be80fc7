import pytest

from rules.heimr.health import HeimrError, Wound, injury_effects, injury_level, short_rest


def test_injury_level_bands_of_two_hit_points():
    assert injury_level(1) is None
    assert [injury_level(hp).name for hp in (0, -1, -2, -3, -4, -5)] == [
        "Bloodied", "Bloodied", "Mangled", "Mangled", "Mutilated", "Mutilated"]
    assert injury_level(-9).name == "Mutilated"
    with pytest.raises(HeimrError, match="-6"):
        injury_level(-6, deeper="dead")
    with pytest.raises(HeimrError, match="'x'"):
        injury_level("x")


def test_injury_effects_by_location_accumulate():
    assert injury_effects(["arm", "leg"]) == ("Drop", "Fall")
    assert injury_effects(["torso", "torso"]) == ("Daze",)
    with pytest.raises(HeimrError, match="head"):
        injury_effects(["head"])


def test_short_rest_needs_five_quiet_minutes_and_one_hit_point():
    assert short_rest(1, 6, 5) == 6
    assert short_rest(1, 6, 4) == 1
    assert short_rest(1, 6, 5, interrupted=True) == 1
    assert short_rest(0, 6, 30) == 0
    with pytest.raises(HeimrError, match="-5"):
        short_rest(2, 6, -5)


def test_stabilising_stops_the_clock_and_moving_restarts_it():
    wound = Wound(injury_level(-3))
    assert wound.wait(4).state == "conscious"
    assert wound.wait(1).state == "unconscious"
    assert wound.stabilise().wait(20).state == "conscious"
    wound.reopen()
    assert wound.minutes == 0 and wound.wait(10).state == "dead"
    assert Wound(injury_level(-4)).state == "unconscious"
    assert Wound(injury_level(-5)).wait(2).state == "dead"


def test_health_rules_reject_bad_input():
    with pytest.raises(HeimrError, match="'1'"):
        short_rest("1", 6, 5)
    with pytest.raises(HeimrError, match="'6'"):
        short_rest(1, "6", 5)
    with pytest.raises(HeimrError, match="True"):
        short_rest(1, 6, True)
    with pytest.raises(HeimrError, match="7"):
        short_rest(7, 6, 5)                     # more than the maximum
    with pytest.raises(HeimrError, match="'arm'"):
        injury_effects("arm")                   # a list of locations, not one text
    with pytest.raises(HeimrError, match="'Mangled'"):
        Wound("Mangled")
    with pytest.raises(HeimrError, match="True"):
        Wound(injury_level(-3)).wait(True)
