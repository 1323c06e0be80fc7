"""NUGGET encounter odds (rules/nugget/matchup.py): the doctor and the thug through the fight tracker."""

import pytest

from rules.dice import SeededSource
from rules.matchup import MatchupError, MatchupTooLargeError, answer
from rules.nugget import REGISTRY
from rules.nugget.matchup import DuelModel, doctor_fighter, thug_fighter
from rules.nugget.npcs import is_out
from tests.matchup_pricing import never_explored


def test_a_seeded_fight_through_the_tracker_ends_with_one_side_out():
    fight = REGISTRY.matchups.build(["doctor"], ["thug"])
    played = fight.play(SeededSource(5))
    assert played.outcome in (0, 1) and played.rounds >= 1
    loser_taken = played.left[1 - played.outcome]
    assert loser_taken >= 1  # the loser took harm: the thug is out at his first Hurt


def test_the_same_seed_gives_the_same_shares():
    fight = REGISTRY.matchups.build(["doctor"], ["thug"])
    assert answer(fight, fights=150, seed=2) == answer(fight, fights=150, seed=2)


def test_the_thug_is_a_minion_out_at_his_first_hurt():
    from rules.nugget.harm import Wounds

    fight = REGISTRY.matchups.build(["thug"], ["doctor"])
    assert fight.fighters == ("Dockside thug", "Dr Ada Kell")
    assert is_out("minion", Wounds(hurts=1))


def test_the_exact_duel_and_seeded_fights_through_the_tracker_agree_within_the_interval():
    fight = REGISTRY.matchups.build(["doctor"], ["thug"])
    exact = answer(fight, exact=True)
    simulated = answer(fight, exact=False, fights=1000, seed=13)
    assert exact.exact and sum(exact.wins) + exact.draw == 1
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert abs(float(simulated.mean_rounds - exact.mean_rounds)) < 0.2
    assert abs(float(simulated.left[0] - exact.left[0])) < 0.15


def test_the_thug_is_out_at_his_first_hurt_so_what_he_took_is_the_doctors_win_chance():
    exact = answer(REGISTRY.matchups.build(["doctor"], ["thug"]), exact=True)
    assert exact.left[1] == exact.wins[0]  # one Hurt or one Injury, exactly when the doctor wins


def test_hurts_past_the_last_one_that_costs_an_action_are_no_longer_told_apart():
    model = DuelModel(doctor_fighter("Ada", "a"), thug_fighter("Thug", "b"))
    hurts, injuries = model.caps[0]
    bonus = model.pair[0].character.initiative_bonus
    assert hurts == 6 + bonus  # with that many Hurts no initiative die reaches phase 1
    assert all(phases == () for _, phases in model._phases(0, hurts))
    assert any(phases for _, phases in model._phases(0, hurts - 1))
    assert model._record(0, hurts + 3, 0) == (hurts, 0) and model._record(0, hurts, injuries + 2) == (0, injuries)


def test_two_against_one_has_no_exact_model_so_exact_is_refused():
    with pytest.raises(MatchupTooLargeError, match="no exact model"):
        answer(REGISTRY.matchups.build(["doctor"], ["thug", "thug"]), exact=True)


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'ogre'"):
        REGISTRY.matchups.build(["doctor"], ["ogre"])



def test_harm_past_what_the_states_count_still_adds_up_in_what_is_left():
    """A slow, tough doctor (initiative bonus 0) against a henchman with a bare fist: she piles up more
    Hurts than her states keep, and the exact mean of what she took still matches seeded fights."""
    from rules.matchup import simulate, solve
    from rules.nugget.characters import Character
    from rules.nugget.matchup import LEFT_LABEL, play
    from rules.nugget.tracker import Fighter

    ada = doctor_fighter("Ada", "a")
    sheet = ada.character
    slow = Character("Ada", {**sheet.attributes, "Agility": -1, "Brains": -1, "Brawn": 2}, sheet.occupation,
                     sheet.core_skill, sheet.skills, sheet.goals, sheet.destiny)
    doctor = Fighter(slow, "a", ada.attack_skill, ada.defence_skill, ada.weapon)
    thug = thug_fighter("Thug", "b")
    henchman = Fighter(thug.character, "b", thug.attack_skill, thug.defence_skill, 0, tier="henchman")
    model = DuelModel(doctor, henchman)
    exact = solve(model, ("Ada", "Thug"), LEFT_LABEL)
    assert any(model.gained(state)[0] > 0 for state in list(model._rounds))  # the states did lump her harm
    played = simulate(lambda source: play([doctor], [henchman], source), exact.sides, exact.fighters, LEFT_LABEL,
                      fights=800, seed=3)
    low, high = played.interval(played.wins[0])
    assert low <= exact.wins[0] <= high
    assert abs(float(played.left[0] - exact.left[0])) < 0.25 and exact.left[0] > model.caps[0][0] - 2


def test_the_doctor_against_the_doctor_is_refused_exactly_at_once_and_simulated():
    """Priced before explored: two player characters out only when unconscious or dead may reach
    13,068 states (6,955 in fact), past the budget; the refusal says so and no round is computed."""
    fight = REGISTRY.matchups.build(["doctor"], ["doctor"])
    fight.model.round = never_explored
    with pytest.raises(MatchupTooLargeError, match="may reach 13,068 states, far more than the exact budget of 3,000"):
        answer(fight, exact=True)
    result = answer(fight, fights=50, seed=3)
    assert not result.exact and result.fights == 50


def test_the_duels_estimate_bounds_the_states_it_reaches():
    from rules.matchup import _explore

    for a, b in (("doctor", "thug"), ("thug", "thug")):
        model = REGISTRY.matchups.build([a], [b]).model
        states, _, _ = _explore(model)
        assert len(states) <= model.estimate
