from fractions import Fraction

import pytest

from rules.heimr.defence import (
    DefenceError, DefenceTracker, attack_misses, attackers_to_reach, guarded_ranged_attack, hide_after_sounds,
    hit_probability, luck_shot, luck_shot_probability, movers_needed, position_modifier,
    prerolled_defence_applies, wake_requirement,
)


def test_defence_roll_misses_the_attack_on_equal_or_higher():
    assert attack_misses(attack=8, defence=8) and not attack_misses(9, 8)
    # plain d6 against plain d6: the attacker needs strictly more, 15 of 36
    assert hit_probability((0, 0), (0, 0)) == Fraction(15, 36)


def test_repeated_defence_costs_two_consistency_per_earlier_use():
    tracker = DefenceTracker(melee_weapons=1, shield=True)
    assert [tracker.use("dodge") for _ in range(4)] == [0, 2, 4, 6]     # fourth dodge: -6
    assert tracker.use("block") == 0                                    # separate count
    assert tracker.use("parry") == 0
    with pytest.raises(DefenceError, match="1 already"):
        tracker.use("parry")
    tracker.new_turn()
    assert tracker.penalty("dodge") == 0
    with pytest.raises(DefenceError, match="shield"):
        DefenceTracker().use("block")
    with pytest.raises(DefenceError, match="ranged"):
        DefenceTracker().use("parry", ranged=True)
    with pytest.raises(DefenceError, match="'duck'"):
        DefenceTracker().penalty("duck")


def test_prerolled_parry_does_not_meet_a_ranged_attack():
    assert not prerolled_defence_applies("parry", attack_is_ranged=True)
    assert prerolled_defence_applies("parry", attack_is_ranged=False)
    assert prerolled_defence_applies("dodge", attack_is_ranged=True)


def test_position_modifiers_and_the_climbing_reading():
    assert position_modifier("Prone", "attack") == -2
    assert position_modifier("prone", "ranged against") == -2
    assert position_modifier("Climbing", "defence") == -2
    assert position_modifier("Climbing", "attack") == -1
    assert position_modifier("Climbing", "attack", climbing="general") == -2
    assert position_modifier("Climbing", "attack", climbing="both") == -3
    with pytest.raises(DefenceError, match="helpless"):
        position_modifier("Helpless", "defence")
    with pytest.raises(DefenceError, match="Flying"):
        position_modifier("Flying", "attack")


def test_waking_requirements_soft_nine_loud_five():
    assert (wake_requirement("soft"), wake_requirement("loud")) == (9, 5)
    with pytest.raises(DefenceError, match="'silent'"):
        wake_requirement("silent")


def test_luck_shot_needs_a_ten_then_takes_one_plus_concealment():
    assert luck_shot(10, concealment=2) == 3
    assert luck_shot(9, concealment=2) is None
    with pytest.raises(DefenceError, match="11"):
        luck_shot(11, 0)
    assert luck_shot_probability((1, 0), (0, 0), concealment=0) == Fraction(1, 10) * Fraction(15, 36)


def test_noise_while_hidden_lowers_the_hide_by_two():
    assert hide_after_sounds(9, 2) == 5
    assert hide_after_sounds(9, 0, loud=True) is None


def test_guard_dodge_passes_a_shot_on_block_stops_it():
    assert guarded_ranged_attack("dodge") == "continues to the original target"
    assert guarded_ranged_attack("block") == "stopped"
    assert attackers_to_reach(2) == 3


def test_forced_movement_needs_one_to_four_movers():
    assert [movers_needed(s) for s in ("willing, leg injury", "cannot stand, cannot resist",
                                       "unwilling, bound", "unwilling")] == [1, 2, 3, 4]
    with pytest.raises(DefenceError, match="asleep"):
        movers_needed("asleep")


def test_hit_probability_matches_enumeration_of_both_rolls():
    from itertools import product

    def best(d6, d10s):
        return max(d6, *d10s) + max(0, d10s.count(10) - 1)

    attacks = [best(a, b) + 1 for a in range(1, 7) for b in product(range(1, 11), repeat=2)]
    defences = [best(a, (b,)) + 1 for a in range(1, 7) for b in range(1, 11)]
    wins = sum(1 for x in attacks for y in defences if x > y)
    assert hit_probability((2, 1), (1, 1)) == Fraction(wins, len(attacks) * len(defences)) == Fraction(21343, 36000)


def test_defence_rules_reject_bad_input():
    with pytest.raises(DefenceError, match="'9'"):
        attack_misses("9", 8)
    with pytest.raises(DefenceError, match="-1"):
        DefenceTracker(melee_weapons=-1)
    with pytest.raises(DefenceError, match="'2'"):
        DefenceTracker(melee_weapons="2")
    with pytest.raises(DefenceError, match="'yes'"):
        DefenceTracker(shield="yes")
    with pytest.raises(DefenceError, match="'sideways'"):
        position_modifier("Climbing", "defence", climbing="sideways")
    with pytest.raises(DefenceError, match="True"):
        luck_shot(True, 0)
    with pytest.raises(DefenceError, match="-1"):
        luck_shot_probability((1, 0), (0, 0), concealment=-1)
    with pytest.raises(DefenceError, match="'9'"):
        hide_after_sounds("9", 1)
    with pytest.raises(DefenceError, match="True"):
        hide_after_sounds(9, True)
    with pytest.raises(DefenceError, match="True"):
        attackers_to_reach(True)
