import pytest

from rules.dice import ScriptedSource
from rules.heimr.combat import (
    Combatant, HeimrError, TurnBudget, brawl_attack, delay, range_penalty, reads_intent, roll_initiative,
    shoot_into_cluster, trigger_readied, turns_to_seconds, upcoming_survives, weapon_attack_rolls,
)


def test_a_turn_is_two_seconds():
    assert turns_to_seconds(3) == 6
    with pytest.raises(HeimrError, match="-1"):
        turns_to_seconds(-1)


def test_initiative_is_dexterity_and_willpower_ties_to_higher_willpower():
    ada = Combatant("Ada", dexterity=2, willpower=3)
    (roll,) = roll_initiative([ada], ScriptedSource([5, 4, 9]))
    assert roll.result == 12                                   # constructed example
    bran, cai = Combatant("Bran", 0, 1), Combatant("Cai", 0, 4)
    order = roll_initiative([bran, cai], ScriptedSource([6, 3]))   # 7 and 7
    assert [r.name for r in order] == ["Cai", "Bran"]


def test_initiative_full_tie_options():
    a, b = Combatant("A", 0, 2), Combatant("B", 1, 2)
    faces = [5, 5, 3]                                          # A: 5+2 = 7, B: max(5,3)+2 = 7
    assert [r.name for r in roll_initiative([a, b], ScriptedSource(faces))] == ["A", "B"]
    assert [r.name for r in roll_initiative([a, b], ScriptedSource(faces), tie="dexterity")] == ["B", "A"]
    # roll-off: B rolls 6 + d10 2 = 8, A rolls 1 -> B first
    rolled = roll_initiative([a, b], ScriptedSource([*faces, 1, 6, 2]), tie="roll-off")
    assert [r.name for r in rolled] == ["B", "A"]
    with pytest.raises(HeimrError, match="'coin'"):
        roll_initiative([a], ScriptedSource([1]), tie="coin")


def test_delay_moves_just_before_or_after_another():
    order = ["A", "B", "C", "D"]
    assert delay(order, "A", "C") == ["B", "C", "A", "D"]
    assert delay(order, "A", "C", before=True) == ["B", "A", "C", "D"]
    with pytest.raises(HeimrError, match="'E'"):
        delay(order, "A", "E")


def test_readied_action_moves_the_readier_before_the_trigger():
    assert trigger_readied(["A", "B", "C"], "A", "C") == ["B", "A", "C"]
    assert reads_intent(insight=8, persuasion=8) and not reads_intent(7, 8)


def test_range_penalty_is_half_the_distance_rounded_down():
    assert [range_penalty(d) for d in (0, 1, 2, 3, 5)] == [0, 0, 1, 1, 2]
    with pytest.raises(HeimrError, match="7"):
        range_penalty(7, max_range=6)


def test_shooting_into_a_cluster_rerolls_on_dodges_with_one_less_penalty():
    outcomes = {"B": "dodge", "C": "dodge", "A": "hit"}
    chain = shoot_into_cluster(["A", "B", "C"], "B", lambda name, penalty: outcomes[name])
    assert [(s.target, s.penalty) for s in chain] == [("B", 3), ("C", 2), ("A", 1)]
    blocked = shoot_into_cluster(["A", "B"], "A", lambda name, penalty: "block")
    assert len(blocked) == 1
    everyone = shoot_into_cluster(["A", "B"], "A", lambda name, penalty: "dodge")
    assert [s.penalty for s in everyone] == [2, 1]


def test_turn_budget_one_standard_each_free_once():
    turn = TurnBudget()
    turn.standard("attack")
    turn.free("shout")
    with pytest.raises(HeimrError, match="'charge'"):
        turn.standard("charge")
    with pytest.raises(HeimrError, match="'shout'"):
        turn.free("shout")
    assert TurnBudget().ongoing("bandage") == 2
    upcoming = TurnBudget()
    upcoming.prepare_upcoming("aimed shot")
    with pytest.raises(HeimrError, match="ended"):
        upcoming.free("look")


def test_upcoming_action_is_cancelled_by_attack_effect_or_skill():
    assert upcoming_survives()
    assert not upcoming_survives(attacked=True)
    assert not upcoming_survives(skill_used=True)


def test_weapon_attack_rolls_once_per_weapon():
    assert weapon_attack_rolls(2) == 2
    with pytest.raises(HeimrError, match="3"):
        weapon_attack_rolls(3)


def test_brawl_attack_deals_hit_one_or_bind():
    assert str(brawl_attack("Hit")) == "Hit 1"
    assert brawl_attack("Bind").effect.name == "Bind"
    with pytest.raises(HeimrError, match="'Kick'"):
        brawl_attack("Kick")


def test_combat_rules_reject_bad_input():
    with pytest.raises(HeimrError, match="'8'"):
        reads_intent("8", 7)
    with pytest.raises(HeimrError, match="'6'"):
        range_penalty(3, max_range="6")
    with pytest.raises(HeimrError, match="True"):
        weapon_attack_rolls(True)
    with pytest.raises(HeimrError, match="'no'"):
        upcoming_survives(attacked="no")


def test_readied_action_lost_when_the_readiers_next_turn_comes_first():
    from rules.heimr.combat import ReadiedAction
    readied = ReadiedAction("A", "an enemy enters")
    assert not readied.turn_starts("B")
    assert readied.turn_starts("A") and readied.state == "lost"
    with pytest.raises(HeimrError, match="lost"):
        readied.fire(["A", "B"], "B")
    fired = ReadiedAction("A", "B moves")
    assert fired.fire(["A", "B", "C"], "C") == ["B", "A", "C"]
    assert not fired.turn_starts("A") and fired.state == "fired"
