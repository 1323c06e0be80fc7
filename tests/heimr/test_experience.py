import pytest

from rules.heimr.experience import (
    AttributeTrack, HeimrError, progress_required, split_xp, total_training_cost, training_cost, xp_to_train,
)


def test_encounter_xp_is_split_evenly_and_the_remainder_carried():
    share = split_xp(10, 4)
    assert (share.each, share.carried) == (2, 2)
    assert split_xp(9, 4, carried=share.carried) == split_xp(11, 4)
    with pytest.raises(HeimrError, match="0"):
        split_xp(10, 0)


def test_training_cost_is_the_sum_of_the_previous_two():
    assert [training_cost(n) for n in range(1, 8)] == [5, 10, 15, 25, 40, 65, 105]
    with pytest.raises(HeimrError, match="0"):
        training_cost(0)


def test_total_training_cost_from_the_table():
    assert [total_training_cost(n) for n in range(1, 8)] == [5, 15, 30, 55, 95, 160, 265]
    assert training_cost(4) == 25 and total_training_cost(4) == 55
    assert xp_to_train(2, 4) == 40
    with pytest.raises(HeimrError, match="3 to 1"):
        xp_to_train(3, 1)


def test_attribute_progress_required_for_the_new_value():
    assert [progress_required(v) for v in range(-2, 6)] == [8, 6, 4, 6, 8, 10, 12, 12]
    with pytest.raises(HeimrError, match="-3"):
        progress_required(-3)


def test_attribute_rises_when_progress_reaches_the_requirement_then_resets():
    track = AttributeTrack(0)
    rises = [track.add_training_point() for _ in range(6)]   # new value 1 needs 6
    assert rises == [False] * 5 + [True]
    assert (track.value, track.progress) == (1, 0)


def test_attribute_track_rejects_impossible_starting_points():
    with pytest.raises(HeimrError, match="'x'"):
        AttributeTrack("x")
    with pytest.raises(HeimrError, match="-4"):
        AttributeTrack(-4)                      # the progress table starts at a new value of -2
    with pytest.raises(HeimrError, match="-3"):
        AttributeTrack(0, progress=-3)
    low = AttributeTrack(-3)
    assert [low.add_training_point() for _ in range(8)][-1] and low.value == -2
