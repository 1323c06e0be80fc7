"""Spellcasting: stones, gathering, casting saves (enumerated), end-of-turn save, schools."""

from fractions import Fraction

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.spellcasting import (
    SCHOOLS,
    DndalikeError,
    Menhir,
    Spell,
    SpellStones,
    casting_fatigue_probability,
    casting_save,
    check_stones,
    end_of_turn_save,
    gather_power,
)


def test_menhir_gives_one_stone_of_its_school():
    stones = SpellStones.from_menhirs([Menhir("Fire"), Menhir("Water", "a seaside cave")])
    assert sorted(stones.bag) == ["Fire", "Water"]
    with pytest.raises(DndalikeError, match="'Chronomancy'"):
        Menhir("Chronomancy")


def test_schools_have_colour_and_menhir_site():
    assert (SCHOOLS["Fire"].colour, SCHOOLS["Necromancy"].menhir_site) == ("red", "graveyards")


def test_gather_power_draws_a_random_stone_from_the_bag_into_the_active_pool():
    stones = SpellStones(bag=["Water", "Fire"])
    assert gather_power(stones, ScriptedSource([2])) == "Water"  # sorted: Fire, Water
    assert (stones.bag, stones.active) == (["Fire"], ["Water"])
    gather_power(stones, ScriptedSource([1]))
    with pytest.raises(DndalikeError):
        gather_power(stones, ScriptedSource([1]))


def test_spell_needs_stones_of_its_level_with_one_of_its_school():
    bolt = Spell("Fire Bolt", 2, "Fire")
    check_stones(bolt, ["Fire", "Water"])
    with pytest.raises(DndalikeError, match="needs 2"):
        check_stones(bolt, ["Fire"])
    with pytest.raises(DndalikeError, match="Fire stone"):
        check_stones(bolt, ["Water", "Water"])
    with pytest.raises(DndalikeError, match="active pool"):
        check_stones(bolt, ["Fire", "Water"], active=["Fire"])
    assert Spell("Wall", 1, "Water", stones=3).stones_needed == 3
    with pytest.raises(DndalikeError, match="0"):
        Spell("Cantrip", 0, "Fire")


def test_casting_save_penalty_is_the_spell_level_failure_and_natural_six_cost_fatigue():
    ok = casting_save(ScriptedSource([5]), 2, 2)          # 5 - 2 = 3 >= 2
    assert (ok.save.success, ok.fatigue, ok.copies) == (True, 0, 0)
    failed = casting_save(ScriptedSource([3]), 2, 2)      # 3 - 2 = 1 < 2, spell still cast
    assert (failed.save.success, failed.works, failed.fatigue, failed.copies) == (False, True, 1, 0)
    six = casting_save(ScriptedSource([6]), 6, 3)
    assert (six.save.success, six.fatigue, six.copies) == (True, 1, 1)


def test_casting_fatigue_probability_by_enumeration():
    for fatigue in range(8):
        for level in range(1, 4):
            costly = sum(f == 6 or f == 1 or f - level < fatigue for f in range(1, 7))
            assert casting_fatigue_probability(fatigue, level) == Fraction(costly, 6)


def test_end_of_turn_save_failure_costs_fatigue_or_the_spent_and_active_stones():
    stones = SpellStones(bag=["Fire"], active=["Water"], discard=["Fire"])
    save, fatigue = end_of_turn_save(stones, 3, ScriptedSource([4]))
    assert save.success and fatigue == 0
    save, fatigue = end_of_turn_save(stones, 3, ScriptedSource([2]))
    assert (save.success, fatigue) == (False, 1)
    save, fatigue = end_of_turn_save(stones, 3, ScriptedSource([2]), choice="stones")
    assert fatigue == 0 and (stones.active, stones.discard, sorted(stones.lost)) == ([], [], ["Fire", "Water"])
    stones.rest()
    assert sorted(stones.bag) == ["Fire", "Fire", "Water"]
    with pytest.raises(DndalikeError, match="'wounds'"):
        end_of_turn_save(stones, 3, ScriptedSource([2]), choice="wounds")


def test_spell_level_zero_is_refused_by_every_casting_rule():
    from rules.dndalike.spellcasting import DndalikeError

    with pytest.raises(DndalikeError, match="0"):
        casting_save(ScriptedSource([4]), 1, 0)
    with pytest.raises(DndalikeError, match="-1"):
        casting_fatigue_probability(1, -1)


def test_voluntary_fatigue_stops_at_the_maximum_so_a_failed_save_there_costs_the_stones():
    stones = SpellStones(bag=["Fire"], active=["Water"], discard=["Fire"])
    save, fatigue = end_of_turn_save(stones, 6, ScriptedSource([3]), max_fatigue=6)
    assert not save.success and fatigue == 0 and stones.lost == ["Water", "Fire"]
    below = SpellStones(active=["Water"])
    assert end_of_turn_save(below, 5, ScriptedSource([3]), max_fatigue=6)[1] == 1 and below.lost == []
    with pytest.raises(DndalikeError, match="-1"):
        end_of_turn_save(below, 5, ScriptedSource([3]), max_fatigue=-1)
