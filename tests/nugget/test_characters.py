"""Character creation and derived numbers, from the source's creation rules."""

import pytest

from rules.nugget import characters as c

DOCTOR_CORE = c.Skill("Medicine", 2, occupational=True)


def test_attributes_are_brawn_agility_brains_will():
    assert c.ATTRIBUTE_NAMES == ("Brawn", "Agility", "Brains", "Will")


def test_attribute_range_is_minus_one_to_two_for_people_and_minus_two_to_four_for_creatures():
    assert c.check_attribute("Brawn", -1) == -1 and c.check_attribute("Brawn", 2) == 2
    assert c.check_attribute("Brawn", 4, creature=True) == 4
    with pytest.raises(c.NuggetError, match=r"\+3"):
        c.check_attribute("Brawn", 3)
    with pytest.raises(c.NuggetError, match="-3"):
        c.check_attribute("Brawn", -3, creature=True)
    with pytest.raises(c.NuggetError, match="'Luck'"):
        c.check_attribute("Luck", 0)


def test_attribute_dice_positive_are_advantages_negative_are_disadvantages():
    assert [c.attribute_dice(x) for x in (-2, -1, 0, 1, 2)] == [(0, 2), (0, 1), (0, 0), (1, 0), (2, 0)]


def test_attribute_points_two_to_spend_and_minus_one_buys_one_more():
    assert c.attribute_budget({"Brawn": 2}) == 2
    assert c.attribute_budget({"Brawn": 1, "Will": 1}) == 2
    assert c.attribute_budget({"Brawn": 2, "Will": 1, "Brains": -1}) == 3
    with pytest.raises(c.NuggetError, match="3"):
        c.attribute_budget({"Brawn": 2, "Will": 1})
    with pytest.raises(c.NuggetError, match="2 attributes at -1"):
        c.attribute_budget({"Brawn": 2, "Will": 2, "Brains": -1, "Agility": -1})
    assert c.attribute_budget({"Brawn": 2, "Will": 2, "Brains": -1, "Agility": -1}, max_poor=2) == 4


def test_skill_levels_run_from_basic_one_to_master_four():
    assert [c.Skill("X", n).grade for n in (1, 2, 3, 4)] == ["Basic", "Professional", "Expert", "Master"]
    with pytest.raises(c.NuggetError, match="5"):
        c.Skill("Swords", 5)


def test_occupation_gives_one_advantage_unless_a_written_skill_applies():
    skills = [c.Skill("Surgery", 3, occupational=True)]
    assert c.skill_dice(skills, "Diagnosis", fits_occupation=True) == 1
    assert c.skill_dice(skills, "Surgery", fits_occupation=True) == 3
    assert c.skill_dice(skills, "Piloting") == 0


def test_core_skill_starts_at_two_and_only_raises_cost_free_levels():
    assert c.skill_cost(c.Skill("Medicine", 2), core=True) == 0
    assert c.skill_cost(c.Skill("Medicine", 4), core=True) == 2
    assert c.skill_cost(c.Skill("Surgery", 2, occupational=True)) == 1
    assert c.skill_cost(c.Skill("Stage Magic", 3)) == 3
    with pytest.raises(c.NuggetError, match="1"):
        c.skill_cost(c.Skill("Medicine", 1), core=True)


def test_free_skill_levels_are_exactly_four():
    assert c.check_skill_budget(DOCTOR_CORE, [c.Skill("Stage Magic", 2), c.Skill("Surgery", 3, occupational=True)]) == 4
    with pytest.raises(c.NuggetError, match="3"):
        c.check_skill_budget(DOCTOR_CORE, [c.Skill("Stage Magic", 3)])


def test_goals_one_to_three():
    assert c.check_goals(["Save my aunt"]) == ("Save my aunt",)
    with pytest.raises(c.NuggetError, match="0"):
        c.check_goals([])
    with pytest.raises(c.NuggetError, match="4"):
        c.check_goals(["a", "b", "c", "d"])


def test_initiative_bonus_is_agility_plus_brains_plus_best_fighting_and_may_be_negative():
    assert c.initiative_bonus(1, 1, 3) == 5
    assert c.initiative_bonus(-1, 0, 0) == -1


def test_physical_resistance_is_two_plus_brawn():
    assert [c.physical_resistance(b) for b in (-2, -1, 0, 2, 4)] == [0, 1, 2, 4, 6]


def test_mental_resistance_is_two_plus_will():
    assert [c.mental_resistance(w) for w in (-1, 0, 1)] == [1, 2, 3]


def test_character_creation_validates_and_starts_with_one_destiny_point():
    doctor = c.create_character(
        "Dr Vane", {"Brains": 1, "Will": 1}, "Doctor", DOCTOR_CORE,
        [c.Skill("Stage Magic", 2), c.Skill("Knife Fighting", 2, fighting=True, close_combat=True)],
        ["Find the cure"])
    assert doctor.destiny == 1
    assert doctor.initiative_bonus == 0 + 1 + 2
    assert doctor.physical_resistance == 2 and doctor.mental_resistance == 3
    assert doctor.skill_dice("Medicine") == 2 and doctor.skill_dice("Diagnosis", fits_occupation=True) == 1
    with pytest.raises(c.NuggetError):
        c.create_character("Nobody", {"Brawn": 2}, " ", DOCTOR_CORE, [c.Skill("X", 4)], ["g"])
    with pytest.raises(c.NuggetError):
        c.create_character("Greedy", {"Brawn": 2, "Will": 2}, "Doctor", DOCTOR_CORE, [c.Skill("X", 4)], ["g"])
    with pytest.raises(c.NuggetError):
        c.create_character("Aimless", {"Brawn": 2}, "Doctor", DOCTOR_CORE, [c.Skill("X", 4)], [])


@pytest.mark.parametrize("call, error, named", [
    (lambda: c.initiative_bonus("1", 0), c.NuggetError, "'1'"),
    (lambda: c.initiative_bonus(5, 0), c.NuggetError, r"\+5"),
    (lambda: c.initiative_bonus(0, 0, 5), c.NuggetError, "5"),
    (lambda: c.initiative_bonus(0, 0, -1), c.NuggetError, "-1"),
    (lambda: c.physical_resistance(1.5), c.NuggetError, "1.5"),
    (lambda: c.mental_resistance(-3), c.NuggetError, "-3"),
    (lambda: c.attribute_dice(7), c.NuggetError, r"\+7"),
    (lambda: c.check_goals("Get rich"), c.NuggetError, "'Get rich'"),
    (lambda: c.check_goals(["Get rich", ""]), c.NuggetError, "''"),
    (lambda: c.create_character("X", {"Brawn": 2}, 7, DOCTOR_CORE, [c.Skill("Y", 4)], ["g"]),
     c.NuggetError, "7"),
])
def test_bad_values_raise_a_named_error(call, error, named):
    with pytest.raises(error, match=named):
        call()


def test_fighting_occupation_counts_for_initiative():
    from rules.nugget.characters import NuggetError, Skill, create_character, highest_fighting_level
    soldier = create_character("Kell", {"Agility": 1, "Brains": 1}, "Soldier",
                               Skill("Tactics", 2, occupational=True), [Skill("Driving", 4)], ["Home"],
                               fighting_occupation=True)
    assert soldier.highest_fighting == 1 and soldier.initiative_bonus == 3
    clerk = create_character("Ann", {"Agility": 1, "Brains": 1}, "Clerk",
                             Skill("Filing", 2, occupational=True), [Skill("Driving", 4)], ["Home"])
    assert clerk.initiative_bonus == 2
    swords = [Skill("Sword Fighting", 3, fighting=True)]
    assert highest_fighting_level(swords, fighting_occupation=True) == 3  # a better written skill wins
    with pytest.raises(NuggetError, match="'yes'"):
        highest_fighting_level(swords, fighting_occupation="yes")  # type: ignore[arg-type]


def test_attribute_levels_are_bounded_by_the_player_range_on_the_node():
    ranks = c.REGISTRY["Nugget.Attribute.Brawn"].ranks
    assert (ranks.minimum, ranks.maximum) == c.PC_ATTRIBUTE_RANGE == (-1, 2)


@pytest.mark.parametrize("levels", [{"Brawn": 2}, {"Brains": 1, "Will": 1}, {"Brawn": 2, "Agility": 1, "Will": -1}])
def test_a_valid_spread_spends_the_whole_attribute_budget_by_the_sheets_formula(levels):
    node = c.REGISTRY["Nugget.Rule.AttributePoints"]
    full = {name: levels.get(name, 0) for name in c.ATTRIBUTE_NAMES}
    c.attribute_budget(full)
    assert node.formula.evaluate(full) == node.values["budget"] == c.ATTRIBUTE_POINTS
