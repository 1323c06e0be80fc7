"""Nemron encounter odds (rules/nemron/matchup.py): the exact duel, the tracker's simulation, an independent model."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import icepool
import pytest

from rules.matchup import MatchupError, MatchupTooLargeError, answer, simulate, solve
from rules.nemron import REGISTRY
from rules.nemron.checks import Pool
from rules.nemron.matchup import DuelModel, brandon_fighter, play, raider_fighter
from tests.matchup_pricing import never_explored


def small(fighter, hp):
    return dataclasses.replace(fighter, hp=hp)


@pytest.fixture(scope="module")
def tiny_duel():
    """Brandon and the raider with 2 HP a limb: the largest duel the exact chain answers."""
    a, b = small(brandon_fighter(), 2), small(raider_fighter(), 2)
    return a, b, solve(DuelModel(a, b), (a.name, b.name), "torso + head HP left")


def test_an_exact_duel_is_a_whole_answer(tiny_duel):
    *_, result = tiny_duel
    assert result.exact and sum(result.wins) + result.draw == 1
    assert sum(p for _, p in result.rounds) + result.longer == 1
    assert all(0 <= left <= 4 for left in result.left)


def test_the_exact_duel_and_seeded_fights_through_the_tracker_agree_within_the_interval(tiny_duel):
    a, b, exact = tiny_duel
    simulated = simulate(lambda source: play([a], [b], source), exact.sides, exact.fighters, exact.left_label,
                         fights=2000, seed=11)
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert abs(float(simulated.mean_rounds - exact.mean_rounds)) < 0.25


# -- the same fight, modelled a second way with icepool ----------------------------------------------
def independent_win_chance(a, b, hp):
    """P(a wins) written from the rule text, not the engine: icepool dice, limbs by location face, and
    icepool's own absorbing chain (``map(..., repeat="inf")``)."""

    def keep_highest(dice):
        return dice[0] if len(dice) == 1 else icepool.highest(*dice)  # highest(one die) is its top face

    def pool(p: Pool):
        return keep_highest([icepool.d(s) for s in p.sides])

    def damage(attacker, defender):
        floor = max(attacker.weapon_rank + 1, 3)  # the weapon's minimum DC, never below 3 for a weapon skill
        return icepool.map(lambda hit, block: max(0, hit - block) if hit >= floor else 0,
                           pool(attacker.attack), pool(defender.defence))

    hurt = (damage(b, a), damage(a, b))  # hurt[i]: what fighter i takes from the other

    def struck(body, amount, face):
        limbs = list(body)  # [right arm, left arm, torso, head]; faces 3 and 4 are legs
        index = {1: 0, 2: 1, 5: 2, 6: 3}.get(face)
        if amount and index is not None:
            limbs[index] = max(0, limbs[index] - amount)
        return tuple(limbs)

    def down(body):
        return body[2] == 0 or body[3] == 0

    def armed(body):
        return body[0] > 0 or body[1] > 0

    def step(state):
        first, bodies = state[0], list(state[1:])
        if any(down(body) for body in bodies) or not any(armed(body) for body in bodies):
            return state
        second = 1 - first

        def after_first(amount, face):
            hit = list(bodies)
            if armed(bodies[first]):
                hit[second] = struck(bodies[second], amount, face)
            if down(hit[second]) or not armed(hit[second]):
                return (first, *hit)
            return icepool.map(lambda back, where: (first, *[struck(hit[first], back, where) if i == first
                                                              else hit[i] for i in (0, 1)]),
                               hurt[first], icepool.d6)

        return icepool.map(after_first, hurt[second], icepool.d6)

    full = (hp,) * 4
    rank_die = {0: 4, 1: 6, 2: 8, 3: 10, 4: 12}  # the book's rank dice
    initiative = [keep_highest([icepool.d(rank_die[r]) for r in (f.agility, f.awareness, f.sense)])
                  for f in (a, b)]
    assert a.pc and not b.pc  # highest first; on a tie the PC (Brandon) goes first
    first = icepool.map(lambda ra, rb: 0 if ra >= rb else 1, *initiative)
    start = first.map(lambda who: (who, full, full))
    end = icepool.map(step, start, repeat="inf")
    won = sum(q for outcome, q in end.items() if down(outcome[2]))
    return Fraction(won, end.denominator())


def test_the_exact_duel_equals_an_independent_icepool_model_of_the_same_rules():
    hp = 1
    a, b = small(brandon_fighter(), hp), small(raider_fighter(), hp)
    exact = solve(DuelModel(a, b), ("Brandon", "Raider"), "torso + head HP left")
    assert exact.wins[0] == independent_win_chance(a, b, hp)


def test_brandon_against_the_raider_is_refused_exactly_at_once_and_simulated():
    """Priced before explored: the refusal names the fight's size and the budget, and no round is computed."""
    fight = REGISTRY.matchups.build(["brandon"], ["raider"])
    fight.model.round = never_explored
    with pytest.raises(MatchupTooLargeError, match="may reach 5,248,800 states, far more than the exact budget of 3,000"):
        answer(fight, exact=True)
    result = answer(fight, fights=200, seed=3)
    assert not result.exact and result.fights == 200 and result.sides == ("Brandon", "Raider")


def test_two_raiders_get_their_own_names():
    fight = REGISTRY.matchups.build(["brandon"], ["raider", "raider"])
    assert fight.fighters == ("Brandon", "Raider", "Raider 2") and fight.model is None


def test_an_unknown_fighter_is_named_with_the_known_ones():
    with pytest.raises(MatchupError, match="no fighter 'dragon' \\(it has: brandon, raider\\)"):
        REGISTRY.matchups.build(["brandon"], ["dragon"])


@pytest.mark.parametrize("side", [[], ["raider"] * 7])
def test_a_side_holds_one_to_six_fighters(side):
    with pytest.raises(MatchupError, match="1 to 6 fighters"):
        REGISTRY.matchups.build(["brandon"], side)


def test_seeded_fights_against_two_raiders_replay_the_table_the_tracker_gave_before_it_was_made_faster():
    """A seed names one stream of dice and so one table: these figures came from the tracker as it was
    before its hot path was trimmed.  (tests/core/test_matchup_pins.py pins the one-against-one book
    fight; this is the side of two, whose turns pick the first standing foe.)"""
    result = answer(REGISTRY.matchups.build(["brandon"], ["raider", "raider"]), exact=False, fights=200, seed=7)
    assert result.wins == (Fraction(3, 40), Fraction(37, 40)) and result.draw == 0
    assert result.mean_rounds == Fraction(1387, 200)
    assert result.left == (Fraction(549, 100), Fraction(1003, 100), Fraction(2597, 200))
