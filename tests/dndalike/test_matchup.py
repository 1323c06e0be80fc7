"""DnDalike encounter odds (rules/dndalike/matchup.py): the exact duel, seeded fights through the stack,
and the same duel worked out a second way, from the rule text alone."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from rules.dice import SeededSource
from rules.dndalike import REGISTRY
from rules.dndalike.characters import Character, Stats
from rules.dndalike.matchup import DuelModel, Fighter, blow_threshold, dodges, orc_fighter, play, wants_blow
from rules.dndalike.statblocks import orc
from rules.matchup import MatchupError, MatchupTooLargeError, answer, simulate, solve
from tests.matchup_pricing import never_explored


@pytest.fixture(scope="module")
def orcs():
    a, b = orc_fighter(), orc_fighter("Orc 2")
    return a, b, solve(DuelModel(a, b), ("Orc", "Orc 2"), "wounds taken")


def test_a_finishing_blow_is_tried_once_average_damage_reaches_health():
    assert [blow_threshold(h) for h in (1, 3, 4, 7, 8, 9)] == [1, 1, 2, 2, 3, 3]


def test_a_failed_blow_on_a_normal_character_means_jabbing_again_but_not_on_a_lesser_one():
    assert not wants_blow(1, 7, lesser=True, failed_at=None)
    assert wants_blow(2, 7, lesser=True, failed_at=None) and wants_blow(2, 7, lesser=True, failed_at=2)
    assert not wants_blow(3, 9, lesser=False, failed_at=3) and wants_blow(4, 9, lesser=False, failed_at=3)


def test_a_defender_dodges_only_what_would_hit_and_only_while_it_has_dice_and_fatigue_to_spare():
    assert dodges(4, 4, 2, None, 1, 2, 6)
    assert not dodges(6, 6, 2, None, 1, 2, 6)  # a natural 6 hits whatever the armour class
    assert not dodges(2, 1, 1, None, 1, 2, 6)  # a natural 1 misses anyway
    assert not dodges(4, 4, 2, 5, 1, 2, 6)  # a dodge already raised armour class past it
    assert not dodges(4, 4, 2, None, 0, 2, 6) and not dodges(4, 4, 2, None, 1, 6, 6)


def test_the_exact_duel_is_a_whole_answer(orcs):
    *_, result = orcs
    assert result.exact and sum(result.wins) + result.draw == 1 and result.draw == 0
    assert sum(p for _, p in result.rounds) + result.longer == 1
    assert result.wins[1] > result.wins[0]  # the orc that was there first strikes first


def test_the_exact_duel_and_seeded_fights_through_the_stack_agree_within_the_interval(orcs):
    a, b, exact = orcs
    simulated = simulate(lambda source: play([a], [b], source), exact.sides, exact.fighters, exact.left_label,
                         fights=600, seed=11)
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert abs(float(simulated.mean_rounds - exact.mean_rounds)) < 0.4
    assert all(abs(float(s - e)) < 0.25 for s, e in zip(simulated.left, exact.left))


def test_a_fight_through_the_stack_ends_with_the_loser_dead_by_a_finishing_blow():
    for seed in range(5):
        played = play([orc_fighter()], [orc_fighter("Orc 2")], SeededSource(seed))
        assert played.outcome in (0, 1) and played.rounds >= 1
        # wounds never kill: the loser took at least the wounds after which blows are tried
        assert played.left[1 - played.outcome] >= blow_threshold(orc_fighter().character.health)


# -- the same duel, a second way: two independent clocks written from the rule text -------------------
def death_turns(health, armour_class, fatigue, maximum, attack_bonus, movement, turns):
    """P(an orc-like lesser fighter dies on the attacker's k-th turn), k = 1..turns, straight from the
    rules: attack d6 + bonus against armour class (6 hits, 1 misses), dodges raise it to the Movement
    die for 1 fatigue while below the maximum, jabs add a wound, a coup de grace from the second wound
    on rolls a d6 per wound against health.  Nothing from the engine."""
    @cache
    def kill_chance(wounds):
        sums = {0: Fraction(1)}
        for _ in range(wounds):
            nxt = {}
            for total, p in sums.items():
                for face in range(1, 7):
                    nxt[total + face] = nxt.get(total + face, 0) + p / 6
            sums = nxt
        return sum(p for total, p in sums.items() if total >= health)

    @cache
    def attack(state):  # state: (wounds, fatigue) -> {state or "dead": p}
        wounds, tired = state
        out = {}
        for face in range(1, 7):
            value = face + attack_bonus
            branches = [(Fraction(1, 6), armour_class, tired, movement)]
            final = []
            while branches:
                p, ac, f, m = branches.pop()
                if 1 < face < 6 and value >= ac and m and f < maximum:
                    branches += [(p / 6, max(ac, d), f + 1, m - 1) for d in range(1, 7)]
                else:
                    final.append((p, ac, f))
            for p, ac, f in final:
                hit = face == 6 or (face > 1 and value >= ac)
                if not hit:
                    out[(wounds, f)] = out.get((wounds, f), 0) + p
                elif wounds >= 2:
                    k = kill_chance(wounds)
                    out["dead"] = out.get("dead", 0) + p * k
                    out[(wounds, f)] = out.get((wounds, f), 0) + p * (1 - k)
                else:
                    out[(wounds + 1, f)] = out.get((wounds + 1, f), 0) + p
        return out

    alive = {(0, fatigue): Fraction(1)}
    dying = []
    for _ in range(turns):
        after, dead = {}, Fraction(0)
        for state, p in alive.items():
            for nxt, q in attack(state).items():
                if nxt == "dead":
                    dead += p * q
                else:
                    after[nxt] = after.get(nxt, 0) + p * q
        dying.append(dead)
        alive = after
    return dying, sum(alive.values())


def test_the_exact_duel_equals_two_independent_clocks_written_from_the_rule_text(orcs):
    """Nothing an orc does changes how it attacks, so the duel is a race: the orc that acts second
    wins when the first orc dies on its k-th turn and it has not died in the first k turns."""
    a, *_ , exact = orcs
    sheet = a.character
    turns = 30
    clock, untold = death_turns(sheet.health, sheet.armour_class, sheet.permanent_fatigue, sheet.maximum_fatigue,
                                sheet.stats.bonus("Str"), sheet.kit.dice.movement, turns)
    first_wins = sum(clock[k] * (1 - sum(clock[:k])) for k in range(turns))  # the other dies on turn k+1 first
    # the clocks stop after 30 turns each: the fights still going then are all the room left for doubt
    assert first_wins <= exact.wins[1] <= first_wins + untold and untold < Fraction(1, 10_000)


def test_georgia_against_the_orc_is_refused_exactly_at_once_and_simulated():
    """Priced before explored: the refusal names the fight's size and the budget, and no round is computed."""
    fight = REGISTRY.matchups.build(["georgia"], ["orc"])
    fight.model.round = never_explored
    with pytest.raises(MatchupTooLargeError, match="may reach 34,500 states, far more than the exact budget of 3,000"):
        answer(fight, exact=True)
    result = answer(fight, exact=False, fights=100, seed=3)
    assert not result.exact and result.fights == 100 and result.sides == ("Georgia", "Orc")


def test_a_side_of_two_has_no_exact_model_and_second_fighters_get_their_own_names():
    fight = REGISTRY.matchups.build(["georgia"], ["orc", "orc"])
    assert fight.fighters == ("Georgia", "Orc", "Orc 2") and fight.model is None


def test_an_unknown_fighter_is_named_with_the_known_ones():
    with pytest.raises(MatchupError, match="no fighter 'dragon' \\(it has: georgia, orc\\)"):
        REGISTRY.matchups.build(["georgia"], ["dragon"])


def test_a_dodge_holds_for_the_rest_of_the_turn_so_a_second_attack_meets_the_raised_armour_class():
    two_weapons = Fighter("Twin", Character(orc().stats, ("Fighter",), "Light Armour", ("weapon", "weapon")))
    model = DuelModel(two_weapons, orc_fighter())
    attacker, target = model.sheets
    fresh = (True, 0, 0, False, target.fatigue)
    # no Movement die left and armour class raised to 6 by an earlier dodge: only a natural 6 hits
    wounded = sum(p for p, body, _ in model._attack(attacker, target, fresh, 0, 6) if body[1] == 1)
    assert wounded == Fraction(1, 6)
    assert sum(p for p, body, _ in model._attack(attacker, target, fresh, 0, None) if body[1] == 1) == Fraction(5, 6)


def test_the_state_estimate_bounds_the_states_a_duel_reaches():
    from rules.matchup import _explore

    frail = Fighter("Frail", Character(Stats(10, 10, 3, 10, 10, 10), ("Wizard",), "Nothing"))  # health 2, normal
    for a, b in ((orc_fighter(), orc_fighter("Orc 2")), (frail, orc_fighter())):
        model = DuelModel(a, b)
        states, _, _ = _explore(model)
        assert len(states) <= model.estimate
