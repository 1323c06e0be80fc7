"""The example class powers."""

import pytest

from rules.dndalike.core import Edge
from rules.dndalike.powers import (
    POWERS,
    DndalikeError,
    exert,
    heavy_hitter,
    learn_spell,
    lucky,
    power,
    power_classes,
    powerful_die,
    quick_upgrade,
    riposte_cancels,
    skilled,
    trip_cancels,
)


def test_powers_table_has_three_powers_per_class():
    by_class = {}
    for p in POWERS.values():
        by_class.setdefault(p.character_class, []).append(p.name)
    assert by_class == {"Wizard": ["Exert", "Spell", "Powerful"], "Rogue": ["Tumble", "Skilled", "Lucky"],
                        "Fighter": ["Trip", "Heavy Hitter", "Riposte"]}
    assert power_classes(["Lucky", "Trip"]) == ("Rogue", "Fighter")
    with pytest.raises(DndalikeError, match="'Smite'"):
        power("Smite")


def test_exert_regains_a_spent_action_die():
    assert exert({"M": 0, "A": 1}, {"M": 1, "A": 1}, "M") == {"M": 1, "A": 1}
    with pytest.raises(DndalikeError, match="no A die"):
        exert({"M": 0, "A": 1}, {"M": 1, "A": 1}, "A")
    with pytest.raises(DndalikeError, match="'Q'"):
        exert({"M": 0}, {"M": 1}, "Q")


def test_spell_power_learns_one_new_spell():
    assert learn_spell(("Light",), "Sleep") == ("Light", "Sleep")
    with pytest.raises(DndalikeError, match="'Light'"):
        learn_spell(("Light",), "Light")


def test_powerful_stone_is_a_natural_six_with_a_level_one_casting_save():
    assert powerful_die() == (6, 1)


def test_tumble_two_handed_and_bow_make_slow_actions_quick():
    assert quick_upgrade("movement", {"Tumble"}) == 1
    assert quick_upgrade("movement", set()) is None
    assert quick_upgrade("attack", set(), {"quick attacks for fatigue"}) == 1
    assert quick_upgrade("attack", set(), {"quick attacks"}) == 0
    assert quick_upgrade("attack", {"Tumble"}) is None


def test_skilled_raises_one_skill_a_rank():
    assert skilled("Unskilled") == "Skilled" and skilled("Skilled") == "Expert"
    with pytest.raises(DndalikeError, match="'Expert'"):
        skilled("Expert")


def test_lucky_gives_advantage_on_every_save_cancelled_by_disadvantage():
    assert lucky({"Lucky"}) is Edge.ADVANTAGE
    assert lucky({"Lucky"}, disadvantage=True) is Edge.NORMAL
    assert lucky(set()) is Edge.NORMAL


def test_trip_cancels_only_movement_abilities():
    assert trip_cancels("movement") and not trip_cancels("attack")


def test_heavy_hitter_fatigues_the_target_of_every_attack():
    assert heavy_hitter({"Heavy Hitter"}) == 1 and heavy_hitter(set()) == 0


def test_riposte_cancels_a_melee_attack_no_stronger_than_itself():
    assert riposte_cancels(4, 4) and not riposte_cancels(3, 4)
    assert not riposte_cancels(6, 2, melee=False)


def test_riposte_refuses_values_that_are_not_numbers():
    from rules.dndalike.powers import DndalikeError, riposte_cancels

    with pytest.raises(DndalikeError, match="'high'"):
        riposte_cancels("high", 2)
