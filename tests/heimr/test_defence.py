from fractions import Fraction

import pytest

from rules.heimr.defence import (
    HeimrError, DefenceTracker, attack_misses, attackers_to_reach, guarded_ranged_attack, hide_after_sounds,
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
    with pytest.raises(HeimrError, match="1 already"):
        tracker.use("parry")
    tracker.new_turn()
    assert tracker.penalty("dodge") == 0
    with pytest.raises(HeimrError, match="shield"):
        DefenceTracker().use("block")
    with pytest.raises(HeimrError, match="ranged"):
        DefenceTracker().use("parry", ranged=True)
    with pytest.raises(HeimrError, match="'duck'"):
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
    with pytest.raises(HeimrError, match="helpless"):
        position_modifier("Helpless", "defence")
    with pytest.raises(HeimrError, match="Flying"):
        position_modifier("Flying", "attack")


def test_waking_requirements_soft_nine_loud_five():
    assert (wake_requirement("soft"), wake_requirement("loud")) == (9, 5)
    with pytest.raises(HeimrError, match="'silent'"):
        wake_requirement("silent")


def test_luck_shot_needs_a_ten_then_takes_one_plus_concealment():
    assert luck_shot(10, concealment=2) == 3
    assert luck_shot(9, concealment=2) is None
    with pytest.raises(HeimrError, match="11"):
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
    with pytest.raises(HeimrError, match="asleep"):
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
    with pytest.raises(HeimrError, match="'9'"):
        attack_misses("9", 8)
    with pytest.raises(HeimrError, match="-1"):
        DefenceTracker(melee_weapons=-1)
    with pytest.raises(HeimrError, match="'2'"):
        DefenceTracker(melee_weapons="2")
    with pytest.raises(HeimrError, match="'yes'"):
        DefenceTracker(shield="yes")
    with pytest.raises(HeimrError, match="'sideways'"):
        position_modifier("Climbing", "defence", climbing="sideways")
    with pytest.raises(HeimrError, match="True"):
        luck_shot(True, 0)
    with pytest.raises(HeimrError, match="-1"):
        luck_shot_probability((1, 0), (0, 0), concealment=-1)
    with pytest.raises(HeimrError, match="'9'"):
        hide_after_sounds("9", 1)
    with pytest.raises(HeimrError, match="True"):
        hide_after_sounds(9, True)
    with pytest.raises(HeimrError, match="True"):
        attackers_to_reach(True)


def test_hidden_strike_adds_two_potential_to_a_charge_or_shot_only():
    from rules.heimr.defence import hidden_strike_potential
    assert hidden_strike_potential(1, "charge", hidden=True) == 3
    assert hidden_strike_potential(-1, "shoot", hidden=True) == 1
    assert hidden_strike_potential(1, "attack", hidden=True) == 1
    assert hidden_strike_potential(1, "shoot", hidden=False) == 1
    with pytest.raises(HeimrError, match="'stab'"):
        hidden_strike_potential(1, "stab", hidden=True)  # type: ignore[arg-type]
    with pytest.raises(HeimrError, match="'yes'"):
        hidden_strike_potential(1, "shoot", hidden="yes")  # type: ignore[arg-type]


def test_outmanoeuvre_dodge_loses_one_consistency():
    from rules.heimr.defence import outmanoeuvre_dodge
    assert [outmanoeuvre_dodge(c) for c in (-1, 0, 3)] == [-2, -1, 2]
    with pytest.raises(HeimrError, match="1.5"):
        outmanoeuvre_dodge(1.5)  # type: ignore[arg-type]


def test_guard_ends_after_one_interception():
    from rules.heimr.defence import GuardPost
    post = GuardPost("Ada", "Dax")
    assert post.can_respond(False)
    assert post.intercept() == "Ada"
    assert not post.active and not post.can_respond(False)
    with pytest.raises(HeimrError, match="already over"):
        post.intercept()


def test_only_the_first_guard_in_initiative_order_from_the_approacher_responds():
    from rules.heimr.defence import GuardPost, responding_guard
    posts = [GuardPost("G1", "X"), GuardPost("G2", "X")]
    order = ["G1", "A", "G2", "X"]
    assert responding_guard(posts, order, "A").guard == "G2"  # counted from A onwards, wrapping round
    posts[1].intercept()
    assert responding_guard(posts, order, "A").guard == "G1"
    posts[0].intercept()
    assert responding_guard(posts, order, "A") is None  # guards + 1 attackers reach the target
    with pytest.raises(HeimrError, match="'Z'"):
        responding_guard(posts, order, "Z")


def test_guarded_border_stops_crossing_near_side_and_charges_far_side():
    from rules.heimr.defence import GuardPost
    assert GuardPost("G", "A1|A2", border=True).crossing(guard_on_my_side=True, charging=True) == "stopped"
    assert GuardPost("G", "A1|A2", border=True).crossing(guard_on_my_side=False, charging=True) == "charge intercepted"
    far = GuardPost("G", "A1|A2", border=True)
    assert far.crossing(guard_on_my_side=False, charging=False) == "crossed" and not far.active
    assert far.crossing(guard_on_my_side=True, charging=False) == "crossed"  # the guard has ended
    with pytest.raises(HeimrError, match="not a border"):
        GuardPost("G", "Dax").crossing(guard_on_my_side=True, charging=False)


def test_hidden_characters_slip_past_guards():
    from rules.heimr.defence import GuardPost, responding_guard
    posts = [GuardPost("G1", "X"), GuardPost("G2", "X")]
    assert not posts[0].can_respond(True)
    assert responding_guard(posts, ["A", "G1", "G2"], "A", hidden_from={"G1"}).guard == "G2"
    assert responding_guard(posts, ["A", "G1", "G2"], "A", hidden_from={"G1", "G2"}) is None
    assert posts[0].active and posts[1].active  # slipping past ends no guard


def test_hold_on_roll_only_when_the_climb_had_a_requirement():
    from rules.dice import ScriptedSource
    from rules.heimr.defence import hold_on
    roll = hold_on(7, 3, 0, ScriptedSource([2, 6, 3, 1]))
    assert roll is not None and roll.result == 6 and not roll.meets(7)
    assert hold_on(None, 3, 0, ScriptedSource([])) is None
    with pytest.raises(HeimrError, match="'7'"):
        hold_on("7", 3, 0, ScriptedSource([]))  # type: ignore[arg-type]


def test_situational_modifiers_darkness_and_shield_block():
    from rules.heimr.defence import situational_modifiers
    assert situational_modifiers(1, 1, darkness=2) == (-1, 1)
    assert situational_modifiers(1, 1, shield="Tower shield", blocking=True) == (1, 6)
    assert situational_modifiers(1, 1, shield="Tower shield", blocking=False) == (1, 1)
    assert situational_modifiers(1, 1, shield="Buckler", blocking=True) == (1, 1)
    with pytest.raises(HeimrError, match="'Door'"):
        situational_modifiers(1, 1, shield="Door", blocking=True)
    with pytest.raises(HeimrError, match="-1"):
        situational_modifiers(1, 1, darkness=-1)
