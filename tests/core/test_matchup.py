"""Encounter odds machinery (rules/matchup.py): an absorbing chain solved exactly, a seeded simulation, the budget."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.matchup import (
    DRAW,
    MAX_STATES,
    Matchup,
    MatchupError,
    MatchupTooLargeError,
    Played,
    answer,
    simulate,
    solve,
)


class Duel:
    """Two fighters with ``hp`` each; every round side 0 hits with chance a, then side 1 (if standing) with b."""

    fighters = ("Ann", "Bob")

    def __init__(self, hp=1, a=Fraction(1, 2), b=Fraction(1, 3), estimate=None):
        self.hp, self.a, self.b = hp, a, b
        self.estimate = estimate if estimate is not None else (hp + 1) ** 2

    def start(self):
        return [(Fraction(1), (self.hp, self.hp))]

    def round(self, state):
        ann, bob = state
        out = {}
        for hit_a, p in ((1, self.a), (0, 1 - self.a)):
            bob_after = bob - hit_a
            if bob_after == 0:
                out[(ann, 0)] = out.get((ann, 0), 0) + p
                continue
            for hit_b, q in ((1, self.b), (0, 1 - self.b)):
                key = (ann - hit_b, bob_after)
                out[key] = out.get(key, 0) + p * q
        return [(p, s) for s, p in out.items() if p]

    def outcome(self, state):
        return 1 if state[0] == 0 else 0 if state[1] == 0 else None

    def left(self, state):
        return state


def test_a_one_hit_duel_is_won_by_the_first_to_land_a_blow():
    result = solve(Duel(), ("Ann", "Bob"), "HP left")
    # Ann wins in a round with 1/2; otherwise Bob with 1/3; else they go again: Ann = (1/2) / (1 - 1/2 * 2/3)
    assert result.wins == (Fraction(3, 4), Fraction(1, 4)) and result.draw == 0
    assert result.mean_rounds == 1 / (1 - Fraction(1, 2) * Fraction(2, 3)) == Fraction(3, 2)
    assert result.rounds[0] == (1, Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 3))
    assert sum(p for _, p in result.rounds) + result.longer == 1
    assert result.left == (Fraction(3, 4), Fraction(1, 4))  # the winner keeps its 1 HP


def test_the_seeded_simulation_lands_within_its_interval_of_the_exact_chance():
    model = Duel(hp=2)
    exact = solve(model, ("Ann", "Bob"), "HP left")

    def play(source):
        state, rounds = model.start()[0][1], 0
        while model.outcome(state) is None:
            rounds += 1
            ann, bob = state
            bob -= source.roll(2) == 1  # a: 1/2
            if bob and source.roll(3) == 1:  # b: 1/3
                ann -= 1
            state = (ann, bob)
        return Played(model.outcome(state), rounds, state)

    simulated = simulate(play, ("Ann", "Bob"), Duel.fighters, "HP left", fights=4000, seed=7)
    low, high = simulated.interval(simulated.wins[0])
    assert low <= exact.wins[0] <= high
    assert simulated.fights == 4000 and not simulated.exact and "4,000 seeded fights" in simulated.method()


class Healing(Duel):
    """Bob heals: from 1 HP he can go back to 2, so the fight can return to a state it left."""

    def round(self, state):
        ann, bob = state
        if bob == 1:
            return [(Fraction(1, 2), (ann, 2)), (Fraction(1, 2), (ann, 0))]
        return [(Fraction(1), (ann, 1))]


def test_a_fight_that_can_go_back_is_refused_by_the_exact_solver():
    with pytest.raises(MatchupError, match="return to an earlier state"):
        solve(Healing(hp=2), ("Ann", "Bob"), "HP left")


def test_a_fight_nobody_can_change_is_a_draw():
    result = solve(Duel(a=Fraction(0), b=Fraction(0)), ("Ann", "Bob"), "HP left")
    assert result.draw == 1 and result.wins == (0, 0)


def test_a_fight_past_the_budget_is_refused_before_any_work_and_falls_back_to_simulation():
    model = Duel(estimate=10**9)
    with pytest.raises(MatchupTooLargeError, match="states"):
        solve(model, ("Ann", "Bob"), "HP left")
    fight = Matchup(("Ann", "Bob"), Duel.fighters, "HP left", lambda source: Played(DRAW, 1, (1, 1)), model)
    assert not answer(fight, fights=10).exact
    with pytest.raises(MatchupTooLargeError):
        answer(fight, exact=True)


def test_exploring_stops_at_the_state_budget():
    with pytest.raises(MatchupTooLargeError, match=f"{MAX_STATES:,}"):
        solve(Duel(hp=MAX_STATES, estimate=0), ("Ann", "Bob"), "HP left")


@pytest.mark.parametrize("fights", [0, -3, 10**9, 2.5, True])
def test_a_simulation_names_a_bad_number_of_fights(fights):
    with pytest.raises(MatchupError, match="fights"):
        simulate(lambda source: Played(0, 1, ()), ("Ann", "Bob"), (), "HP left", fights=fights)


class ScratchedDuel(Duel):
    """:class:`Duel` where Ann also picks up a scratch every round with chance 1/2, which the states do not
    record (no rule reads it) but "what is left" counts: the model says so in ``gained``."""

    def gained(self, state):
        return (Fraction(1, 2), Fraction(0))


def test_a_count_the_states_leave_out_is_added_each_round_so_its_mean_stays_exact():
    plain = solve(Duel(hp=2), ("Ann", "Bob"), "HP left")
    scratched = solve(ScratchedDuel(hp=2), ("Ann", "Bob"), "HP left and scratches")
    assert scratched.wins == plain.wins and scratched.mean_rounds == plain.mean_rounds
    assert scratched.left[0] == plain.left[0] + Fraction(1, 2) * plain.mean_rounds
    assert scratched.left[1] == plain.left[1]
