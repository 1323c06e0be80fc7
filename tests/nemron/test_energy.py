"""Energy: maximum, effort, bonus reactions, ability costs, recovery, drain."""

import pytest

from rules.nemron.actions import Turn
from rules.nemron.energy import NemronError, Energy


def test_max_energy_is_control_plus_sense_plus_focus_plus_five():
    assert Energy.from_spirit(2, 1, 3).maximum == 11
    assert Energy.from_spirit(0, 0, 0).maximum == 5


def test_effort_energy_costs_one_per_hour():
    energy = Energy(8)
    assert energy.effort(3) == 5
    with pytest.raises(NemronError, match="only 5 left"):
        energy.effort(6)


def test_bonus_reaction_costs_two_once_per_round():
    energy = Energy(8)
    assert energy.bonus_reaction(1, Turn(4)) == 6
    with pytest.raises(NemronError, match="round 1"):
        energy.bonus_reaction(1, Turn(4))
    assert energy.bonus_reaction(2, Turn(4)) == 4


def test_bonus_reaction_gives_the_turn_a_reaction():
    turn = Turn(4)
    turn.react(to_self=True)
    Energy(8).bonus_reaction(1, turn)
    assert turn.reactions == 1
    turn.react(to_self=True)  # the bought reaction is usable


def test_bonus_reaction_refused_grants_nothing():
    turn = Turn(4)
    with pytest.raises(NemronError, match="only 1 left"):
        Energy(1).bonus_reaction(1, turn)
    assert turn.reactions == 1


def test_bonus_reaction_needs_a_turn():
    with pytest.raises(NemronError, match="None"):
        Energy(5).bonus_reaction(1, None)  # type: ignore[arg-type]


def test_ability_energy_is_spent_from_the_same_pool():
    energy = Energy(6)
    assert energy.spend(4) == 2
    with pytest.raises(NemronError, match="cannot spend 3"):
        energy.spend(3)
    with pytest.raises(NemronError, match="-1"):
        energy.spend(-1)


def test_energy_recovery_is_one_per_hour_up_to_the_maximum():
    energy = Energy(9, current=2)
    assert energy.rest(3) == 5
    assert energy.rest(10) == 9


def test_energy_rejects_impossible_pools():
    with pytest.raises(NemronError, match="outside 0-5"):
        Energy(5, current=7)


@pytest.mark.parametrize("make, named", [
    (lambda: Energy(5, current="2"), "'2'"),
    (lambda: Energy.from_spirit(-3, 0, 0), "Control rank -3"),
    (lambda: Energy.from_spirit(1, 9, 0), "Sense rank 9"),
])
def test_energy_rejects_impossible_values(make, named):
    with pytest.raises(NemronError, match=named):
        make()


@pytest.mark.parametrize("round_number", [0, -1, "1", None])
def test_bonus_reaction_needs_a_real_round(round_number):
    with pytest.raises(NemronError, match="not"):
        Energy(5).bonus_reaction(round_number, Turn(4))
