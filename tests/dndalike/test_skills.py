"""Skills, sneaking, rest and watch: brute-force enumeration of the dice."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.skills import (
    DndalikeError,
    RestOutcome,
    Task,
    attempt_completion,
    attempt_progress,
    completion_odds,
    completion_probability,
    completion_succeeds,
    keep_watch,
    max_attempts,
    progress_distribution,
    progress_target,
    rest,
    sneak,
    sneak_progress_distribution,
    spot,
    watch_difficulty,
    watch_requirement,
    watch_success_probability,
)


def p_save(target):
    return Fraction(sum(f == 6 or (f != 1 and f >= target) for f in range(1, 7)), 6)


def test_progress_attempts_are_one_two_three_by_skill_level():
    assert [max_attempts(s) for s in ("Unskilled", "Skilled", "Expert")] == [1, 2, 3]
    with pytest.raises(DndalikeError, match="'Master'"):
        max_attempts("Master")


def test_progress_target_uses_task_difficulty_else_fatigue():
    assert progress_target(2) == 2
    assert progress_target(2, 4) == 4
    assert progress_target(2, 4, rule="fatigue") == 2
    assert progress_target(5, 4, rule="harder") == 5
    with pytest.raises(DndalikeError, match="'easier'"):
        progress_target(1, 2, rule="easier")


def test_progress_attempt_is_a_save_that_adds_one_and_is_limited_by_skill():
    task = Task(requirement=7)
    attempt_progress(task, "Ann", "Skilled", 3, ScriptedSource([3]))
    attempt_progress(task, "Ann", "Skilled", 3, ScriptedSource([2]))
    assert task.progress == 1
    with pytest.raises(DndalikeError, match="'Ann'"):
        attempt_progress(task, "Ann", "Skilled", 3, ScriptedSource([6]))
    attempt_progress(task, "Bo", "Unskilled", 3, ScriptedSource([2]), int_bonus=1)
    assert task.progress == 2


def test_progress_distribution_is_binomial_in_the_save_chance():
    dist = progress_distribution(3, 4)
    p = p_save(4)
    assert dist.p(2) == 3 * p * p * (1 - p)


def test_completion_sums_one_die_per_progress_against_the_requirement():
    task = Task(requirement=7, progress=2)
    assert attempt_completion(task, ScriptedSource([3, 4])).success
    assert not attempt_completion(task, ScriptedSource([3, 3])).success
    assert completion_succeeds([3], 3, mode="each") and not completion_succeeds([3, 2], 3, mode="each")
    assert completion_succeeds([1, 5], 5, mode="any")
    with pytest.raises(DndalikeError, match="'max'"):
        completion_succeeds([1], 1, mode="max")


def test_completion_probability_by_enumeration_in_each_mode():
    for n, r in product(range(1, 4), range(0, 14)):
        rolls = list(product(range(1, 7), repeat=n))
        for mode in ("sum", "each", "any"):
            hits = sum(completion_succeeds(f, r, mode=mode) for f in rolls)
            assert completion_probability(n, r, mode=mode) == Fraction(hits, len(rolls))
    assert completion_probability(0, 0) == 1 and completion_probability(0, 1) == 0
    assert completion_odds(2, 2, 3).column("Need 3") == (Fraction(4, 6), Fraction(35, 36))
    with pytest.raises(DndalikeError, match="-1"):
        completion_probability(1, -1)


def test_sneaking_failed_saves_feed_the_spotters_progress():
    assert sneak([4, 4, 2], ScriptedSource([3, 5, 1])) == 2
    dist = sneak_progress_distribution([4, 2])
    assert dist.p(0) == p_save(4) * p_save(2)
    assert spot(2, 6, ScriptedSource([3, 3])).success


def test_rest_clears_fatigue_to_the_armour_floor_heals_and_returns_stones():
    assert rest(5) == RestOutcome(0, True, True)
    assert rest(5, permanent_fatigue=3) == RestOutcome(3, True, True)
    assert rest(5, permanent_fatigue=3, armour_floor=False) == RestOutcome(0, True, True)
    assert rest(5, kept=1) == RestOutcome(1, False, False)
    with pytest.raises(DndalikeError):
        rest(-1)


def test_keeping_watch_difficulty_is_one_plus_dungeon_level_and_requirement_total_fatigue():
    assert watch_difficulty(2) == 3
    assert watch_requirement([3, 2, 4]) == 9
    assert watch_requirement([3, 2, 4], kept=4) == 5
    result = keep_watch([("Skilled", 1)], [2, 3], 2, ScriptedSource([3, 5, 2, 4]))
    assert (result.progress, result.completion.total, result.ambushed) == (2, 6, False)


def test_watch_success_probability_by_enumeration():
    # one Skilled watcher, dungeon level 2 (difficulty 3), resting fatigue 4
    total = Fraction(0)
    for saves in product(range(1, 7), repeat=2):
        progress = sum(f == 6 or (f != 1 and f >= 3) for f in saves)
        for comp in product(range(1, 7), repeat=progress):
            total += Fraction(1, 36 * 6 ** progress) * (sum(comp) >= 4)
    assert watch_success_probability([("Skilled", 1)], [4], 2) == total


def test_completion_refuses_a_face_no_d6_shows():
    from rules.dndalike.skills import DndalikeError, completion_succeeds

    with pytest.raises(DndalikeError, match="7"):
        completion_succeeds([7], 3)
