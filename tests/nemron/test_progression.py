"""Progression: rank-up cost, cool-down, learning skills, domains, features, milestones."""

import pytest

from rules.nemron.progression import NemronError, Progress, award_milestone, cooldown_over, milestone_xp, rank_up_cost


def test_rank_up_cost_is_the_current_rank():
    assert [rank_up_cost(r) for r in (1, 2, 3)] == [1, 2, 3]
    assert rank_up_cost(0) == 1
    assert rank_up_cost(0, zero_rank_is_free=True) == 0
    with pytest.raises(NemronError, match="rank 4"):
        rank_up_cost(4)


def test_rank_up_spends_xp_and_refuses_traits():
    p = Progress(xp=5, nodes={"Athletics": ("S", 1), "Night Vision": ("T", 1), "Energy": ("E,R", 9)})
    assert p.rank_up("Athletics") == 2 and p.xp == 4
    with pytest.raises(NemronError, match="Trait"):
        p.rank_up("Night Vision")
    with pytest.raises(NemronError, match="Effect"):
        p.rank_up("Energy")
    with pytest.raises(NemronError, match="costs 2 XP, only 1"):
        Progress(xp=1, nodes={"Lore": ("S", 2)}).rank_up("Lore")


def test_cooldown_one_month_per_node_unless_the_gm_overrides():
    assert cooldown_over(None, 0)
    assert not cooldown_over(10, 39) and cooldown_over(10, 40)
    assert cooldown_over(10, 11, gm_override=True)
    p = Progress(xp=10, nodes={"Lore": ("S", 1)})
    p.rank_up("Lore")
    with pytest.raises(NemronError, match="day 30"):
        p.rank_up("Lore")
    p.day = 30
    assert p.rank_up("Lore") == 3
    with pytest.raises(NemronError, match="before"):
        cooldown_over(10, 5)


def test_learn_skill_after_thirty_days_of_two_hours_for_one_xp():
    p = Progress(xp=1)
    for day in range(29):
        p.day = day
        assert p.train("Cooking", 2) == day + 1
    p.day = 29
    assert p.train("Cooking", 1) == 29  # a short day does not count
    with pytest.raises(NemronError, match="29 of 30"):
        p.learn("Cooking")
    assert p.train("Cooking", 1) == 30  # a second hour the same day completes it
    assert p.learn("Cooking") == 1 and p.xp == 0 and p.nodes["Cooking"] == ("S", 1)
    with pytest.raises(NemronError, match="already has"):
        p.train("Cooking", 2)


def test_skill_domain_costs_two_xp():
    p = Progress(xp=2, nodes={"Pyromancy": ("S", 2)})
    p.make_domain("Pyromancy")
    assert p.xp == 0
    with pytest.raises(NemronError, match="already"):
        p.make_domain("Pyromancy")
    with pytest.raises(NemronError, match="no domain"):
        Progress(xp=5, nodes={"Lore": ("S", 1)}).make_domain("Lore", available=False)
    with pytest.raises(NemronError, match="not a skill"):
        Progress(xp=5).make_domain("Lore")


def test_domain_feature_two_xp_at_most_rank_one_per_month():
    p = Progress(xp=10, nodes={"Pyromancy": ("S", 2)})
    p.make_domain("Pyromancy")
    assert p.buy_feature("Pyromancy", "Wider Flames") == 1
    with pytest.raises(NemronError, match="day 30"):
        p.buy_feature("Pyromancy", "Hotter Flames")
    p.day = 30
    assert p.buy_feature("Pyromancy", "Hotter Flames") == 2 and p.xp == 4
    p.day = 60
    with pytest.raises(NemronError, match="rank 2 already has 2"):
        p.buy_feature("Pyromancy", "Blue Flames")


def test_milestone_xp_ranges():
    assert milestone_xp("minor") == (1, 2)
    assert milestone_xp("major") == (3, 5)
    assert milestone_xp("major", cumulative=False) == (2, 3)
    p = Progress(xp=0)
    assert award_milestone(p, "major", 4) == 4
    with pytest.raises(NemronError, match="not 3"):
        award_milestone(p, "minor", 3)
    with pytest.raises(NemronError, match="'epic'"):
        milestone_xp("epic")


def test_training_twice_on_one_day_counts_one_day():
    p = Progress(xp=1)
    for _ in range(30):
        p.train("Cooking", 2)
    assert p.training_days("Cooking") == 1
    with pytest.raises(NemronError, match="1 of 30"):
        p.learn("Cooking")


@pytest.mark.parametrize("last, today", [("a", 3), (1, "3"), (1.5, 40)])
def test_cooldown_rejects_days_that_are_not_whole_numbers(last, today):
    with pytest.raises(NemronError, match="not"):
        cooldown_over(last, today)


def test_progress_refuses_negative_xp():
    with pytest.raises(NemronError, match="-5"):
        Progress(xp=-5)
