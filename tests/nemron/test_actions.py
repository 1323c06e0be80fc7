"""Action sequences: initiative, turn order, the turn economy, held and bonus actions, intervals."""

import pytest

from rules.nemron.actions import NemronError, InitiativeRoll, Interval, Turn, initiative_pool, turn_order


def test_initiative_pool_is_agility_awareness_sense():
    assert str(initiative_pool(2, 1, 0)) == "Agility 2 › Awareness 1 › Sense 0"
    assert initiative_pool(2, 1, 0).sides == (8, 6, 4)


def test_turn_order_highest_first_pc_before_npc_on_ties():
    order = turn_order([InitiativeRoll("Goblin", 5), InitiativeRoll("Darren", 5, pc=True),
                        InitiativeRoll("Orrian", 7, pc=True), InitiativeRoll("Wolf", 5)])
    assert [r.name for r in order] == ["Orrian", "Darren", "Goblin", "Wolf"]
    with pytest.raises(NemronError, match="Wolf"):
        turn_order([InitiativeRoll("Wolf", 1), InitiativeRoll("Wolf", 2)])


def test_turn_economy_one_action_one_reaction_one_movement():
    turn = Turn(speed=6)
    turn.act()
    with pytest.raises(NemronError, match="no action"):
        turn.act()
    turn.react(to_self=True)
    with pytest.raises(NemronError, match="no reaction"):
        turn.react(to_self=True)


def test_movement_cannot_be_split_around_an_action():
    turn = Turn(speed=6)
    assert turn.move(2) == 4
    assert turn.move(1) == 3
    turn.act()
    with pytest.raises(NemronError, match="spent"):
        turn.move(1)
    with pytest.raises(NemronError, match="2 m of movement left"):
        t = Turn(speed=2)
        t.move(3)


def test_reaction_only_to_self_or_within_melee():
    with pytest.raises(NemronError, match="melee range"):
        Turn(4).react()
    Turn(4).react(within_melee=True)


def test_held_action_is_used_later():
    turn = Turn(4)
    turn.hold()
    turn.use_held()
    with pytest.raises(NemronError, match="no held action"):
        turn.use_held()


def test_bonus_action_and_reaction_add_to_the_counts():
    turn = Turn(4)
    turn.bonus("action")
    turn.act()
    turn.act()
    turn.bonus("reaction")
    turn.react(to_self=True)
    turn.react(to_self=True)
    with pytest.raises(NemronError, match="'movement'"):
        turn.bonus("movement")


def test_interval_turn_fires_at_end_of_turn_round_at_start_initiative():
    assert Interval.TURN.fires(end_of_turn_of_owner=True, at_start_initiative=False)
    assert not Interval.TURN.fires(end_of_turn_of_owner=False, at_start_initiative=True)
    assert Interval.ROUND.fires(end_of_turn_of_owner=False, at_start_initiative=True)


@pytest.mark.parametrize("rolls, named", [
    ([5, 3], "5"),
    ([InitiativeRoll("Goblin", "high")], "'high'"),
    ([InitiativeRoll("Goblin", 0)], "0"),
])
def test_turn_order_rejects_entries_that_are_not_initiative_results(rolls, named):
    with pytest.raises(NemronError, match=named):
        turn_order(rolls)
