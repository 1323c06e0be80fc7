import pytest

from rules.heimr.effects import (
    EFFECTS, HeimrError, bind_consequence, call_effect, daze_schedule, effect_turns, parse_call, resist,
    stumble_blocked_directions, stumbling_can_attack,
)


def test_every_named_effect_is_listed():
    assert [e.name for e in EFFECTS] == ["Hit", "Drain", "Fall", "Drop", "Stumble", "Daze", "Break", "Bind",
                                         "Weaken", "Resist", "Miss", "Charm", "Fear"]


def test_called_number_replaces_the_default_of_two_seconds_or_one_point():
    assert call_effect("Stumble").number == 2 and call_effect("Hit").number == 1
    assert str(parse_call("Stumble four")) == "Stumble 4"
    assert str(parse_call("hit two")) == "Hit 2"
    with pytest.raises(HeimrError, match="0"):
        call_effect("Daze", 0)
    with pytest.raises(HeimrError, match="Break"):
        call_effect("Break", 2)
    with pytest.raises(HeimrError, match="'lots'"):
        parse_call("Hit lots")


def test_effect_lasts_half_its_seconds_in_turns_rounded_down():
    assert effect_turns(5) == 2 and effect_turns(2) == 1 and effect_turns(1) == 0
    with pytest.raises(HeimrError, match="-2"):
        effect_turns(-2)


def test_resist_negates_or_reduces():
    assert resist(call_effect("Stumble", 4)) is None
    assert resist(call_effect("Stumble", 4), mode="reduce", by=1).number == 3
    assert resist(call_effect("Hit", 2), mode="reduce", by=2) is None
    with pytest.raises(HeimrError, match="'ignore'"):
        resist(call_effect("Hit"), mode="ignore")


def test_bind_depends_on_the_body_part():
    assert bind_consequence("feet") == "only jumping or crawling"
    with pytest.raises(HeimrError, match="tail"):
        bind_consequence("tail")


def test_stumble_blocks_the_direction_the_effect_came_from():
    assert stumble_blocked_directions("B2", "B3") == ("up",)
    assert stumble_blocked_directions("B2", "A2") == ("left",)
    assert stumble_blocked_directions("B2", "C1") == ("right", "down")     # caller picks one
    assert len(stumble_blocked_directions("B2", "B2")) == 4
    assert not stumbling_can_attack(ranged=True, target_in_your_cluster=True)
    assert stumbling_can_attack(ranged=False, target_in_your_cluster=True)


def test_daze_odd_duration_costs_one_more_defenceless_gap():
    assert daze_schedule(2) == type(daze_schedule(2))(1, 1)
    assert (daze_schedule(3).turns_lost, daze_schedule(3).defenceless_gaps) == (1, 2)
    assert (daze_schedule(1).turns_lost, daze_schedule(1).defenceless_gaps) == (0, 1)
    assert (daze_schedule(4).turns_lost, daze_schedule(4).defenceless_gaps) == (2, 2)


def test_effect_rules_reject_bad_input():
    with pytest.raises(HeimrError, match="'Hit'"):
        resist("Hit")
    with pytest.raises(HeimrError, match="'no'"):
        stumbling_can_attack("no", True)
    with pytest.raises(HeimrError, match="True"):
        call_effect("Hit", True)
