"""Node types: rank dice, which types add dice, effect decay and charges."""

import pytest

from rules.nemron.nodes import NODE_TYPE_RULES, Ability, NemronError, Charges, EffectRank, pool_die, rank_die


def test_rank_die_follows_the_published_table():
    assert [rank_die(r) for r in range(5)] == [4, 6, 8, 10, 12]


@pytest.mark.parametrize("bad", [-1, 5, 2.0, True, "2"])
def test_rank_die_rejects_ranks_outside_zero_to_four(bad):
    with pytest.raises(NemronError, match="rank"):
        rank_die(bad)


def test_pool_die_attributes_always_skills_when_relevant_others_never():
    assert pool_die("A", 2) == 8
    assert pool_die("A", 2, relevant=False) == 8
    assert pool_die("S", 1) == 6
    assert pool_die("S", 1, relevant=False) is None
    for code in ("AB", "E", "T", "R"):
        assert pool_die(code, 3) is None
    assert pool_die("E,R", 1) is None
    assert pool_die(("S", "R"), 3) == 10


def test_pool_die_rejects_unknown_type_codes():
    with pytest.raises(NemronError, match="'X'"):
        pool_die("X", 1)


def test_only_attributes_skills_and_abilities_rank_with_xp():
    assert {c for c, r in NODE_TYPE_RULES.items() if r.ranks_with_xp} == {"A", "S", "AB"}
    assert NODE_TYPE_RULES["T"].floor == 1
    assert NODE_TYPE_RULES["R"].counts_charges


def test_ability_effect_depends_on_level():
    fire = Ability("Firebolt", {0: "a spark", 2: "a bolt", 4: "a blast"}, energy_cost=2)
    assert fire.effect_at(0) == "a spark"
    assert fire.effect_at(3) == "a bolt"
    assert fire.effect_at(4) == "a blast"
    with pytest.raises(NemronError, match="level 0"):
        Ability("Late", {2: "x"}).effect_at(0)
    with pytest.raises(NemronError):
        fire.effect_at(7)


def test_effect_decay_trait_never_below_one_plain_effect_to_zero():
    boon = EffectRank("Fury", 2)
    assert boon.decay() == 1 and boon.decay() == 0 and boon.decay() == 0
    assert not boon.active
    trait = EffectRank("Fury", 1, trait=True)
    assert trait.gain(3) == 4
    assert [trait.decay() for _ in range(5)] == [3, 2, 1, 1, 1]


def test_effect_decay_rejects_negative_numbers():
    with pytest.raises(NemronError, match="-1"):
        EffectRank("Fury").gain(-1)
    with pytest.raises(NemronError, match="-2"):
        EffectRank("Fury", 3).decay(-2)
    with pytest.raises(NemronError, match="floor 1"):
        EffectRank("Fury", 0, trait=True)


def test_charges_spend_and_trait_resources_recharge_to_one_after_eight_hours():
    luck = Charges("Luck", 2, trait=True)
    assert luck.spend() == 1 and luck.spend() == 0
    assert luck.rest(7) == 0
    assert luck.rest(8) == 1
    plain = Charges("Arrows", 1)
    plain.spend()
    assert plain.rest(8) == 0


def test_charges_cannot_be_overspent():
    with pytest.raises(NemronError, match="only 1 left"):
        Charges("Inspired", 1).spend(2)
    with pytest.raises(NemronError, match="-1"):
        Charges("Inspired", 1).spend(-1)


@pytest.mark.parametrize("make", [
    lambda: Charges("Arrows", -1), lambda: Charges("Arrows", "3"), lambda: Charges("Arrows", 2).spend("1"),
    lambda: Charges("Arrows", 2).spend(1.5), lambda: Charges("Arrows", 2).rest("8"),
])
def test_charges_reject_values_that_are_not_whole_numbers(make):
    with pytest.raises(NemronError, match=r"-1|'3'|'1'|1\.5|'8'"):
        make()


@pytest.mark.parametrize("make", [
    lambda: EffectRank("Fury", "2"), lambda: EffectRank("Fury", -1), lambda: EffectRank("Fury", 1).gain(1.5),
    lambda: EffectRank("Fury", 1).decay("1"),
])
def test_effect_ranks_reject_values_that_are_not_whole_numbers(make):
    with pytest.raises(NemronError, match=r"'2'|-1|1\.5|'1'"):
        make()


def test_pool_die_rejects_a_missing_type():
    with pytest.raises(NemronError, match="None"):
        pool_die(None, 1)
