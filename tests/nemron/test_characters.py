"""Characters: attributes and lines, upkeep, frames, creation, movement."""

import pytest

from rules.nemron.characters import (
    Attribute,
    NemronError,
    Frame,
    Line,
    UnknownAttributeError,
    attribute_line,
    create_character,
    dash,
    movement_speed,
    upkeep_attribute,
)

SKILLS = ["Athletics", "Marksmanship", "Stealth", "Medicine", "Lore", "Persuasion", "Survival"]
AVERAGE = {a.value: 1 for a in Attribute}


def test_attribute_lines_group_nine_attributes_in_threes():
    assert len(Attribute) == 9
    assert attribute_line("Power") is Line.BODY
    assert attribute_line(Attribute.AWARENESS) is Line.MIND
    assert attribute_line("focus") is Line.SPIRIT
    assert sum(1 for a in Attribute if a.line is Line.SPIRIT) == 3
    with pytest.raises(UnknownAttributeError, match="'Luck'"):
        attribute_line("Luck")


def test_upkeep_attribute_is_constitution_willpower_focus():
    assert [upkeep_attribute(line) for line in Line] == [Attribute.CONSTITUTION, Attribute.WILLPOWER,
                                                         Attribute.FOCUS]


def test_frame_bounds_and_one_swap():
    frame = Frame("Stoneborn", minimum={"Power": 1}, maximum={"Agility": 2})
    assert frame.bounds("Power") == (1, 4)
    swapped = frame.swap("Agility", "Power")
    assert swapped.bounds("Agility") == (0, 3) and swapped.bounds("Power") == (1, 3)
    with pytest.raises(NemronError, match="already"):
        swapped.swap("Sense", "Focus")
    with pytest.raises(NemronError, match="Power twice"):
        frame.swap("Power", "Power")
    with pytest.raises(NemronError, match="impossible"):
        Frame("Bad", minimum={"Power": 3}, maximum={"Power": 2})


def test_character_creation_seven_skills_at_rank_one_and_five_xp():
    hero = create_character("Brandon", Frame("Human"), AVERAGE, SKILLS)
    assert hero.xp == 5
    assert hero.skills == {s: 1 for s in SKILLS}
    assert hero.pool("Awareness", "Marksmanship").sides == (6, 6)


def test_character_creation_rejects_bad_sheets():
    with pytest.raises(NemronError, match="exactly 7"):
        create_character("X", Frame("Human"), AVERAGE, SKILLS[:6])
    with pytest.raises(NemronError, match="repeat"):
        create_character("X", Frame("Human"), AVERAGE, SKILLS[:6] + ["Lore"])
    with pytest.raises(NemronError, match="Agility 3"):
        create_character("X", Frame("Elf", maximum={"Agility": 2}), {**AVERAGE, "Agility": 3}, SKILLS)
    with pytest.raises(NemronError, match="missing: Focus"):
        create_character("X", Frame("Human"), {k: v for k, v in AVERAGE.items() if k != "Focus"}, SKILLS)


def test_movement_speed_is_agility_times_two():
    assert [movement_speed(a) for a in range(5)] == [0, 2, 4, 6, 8]
    with pytest.raises(NemronError):
        movement_speed(-1)


def test_dash_rolls_agility_and_power_for_double_range():
    pool, metres = dash(3, 1)
    assert str(pool) == "Agility 3 › Power 1" and metres == 12


def test_frame_swap_cannot_raise_a_maximum_past_the_rank_ladder():
    with pytest.raises(NemronError, match="Power already allows rank 4"):
        Frame("Human").swap("Power", "Agility")
    with pytest.raises(NemronError, match="0-5"):
        Frame("Giant", maximum={"Power": 5})
    with pytest.raises(NemronError, match="'2'"):
        Frame("Odd", minimum={"Power": "2"})


def test_character_creation_rejects_ranks_and_skills_of_the_wrong_kind():
    with pytest.raises(NemronError, match="1.5"):
        create_character("X", Frame("Human"), {**AVERAGE, "Power": 1.5}, SKILLS)
    with pytest.raises(NemronError, match="'abcdefg'"):
        create_character("X", Frame("Human"), AVERAGE, "abcdefg")
