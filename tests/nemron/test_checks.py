"""Skill checks: pools, notation, DCs, boons and penalties, fixed rolls, drama; odds by enumeration."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.nemron import REGISTRY
from rules.nemron.checks import (
    NemronError,
    Drama,
    Modifier,
    Pool,
    check_distribution,
    dc_odds_table,
    difficulty,
    drama,
    fixed_maximum,
    fixed_medium,
    minimum_difficulty,
    modifier_odds_table,
    parse_pool,
    resolve_modifiers,
    skill_check,
    success_chance,
)

LB, GB, LP, GP = Modifier.LESSER_BOON, Modifier.GREATER_BOON, Modifier.LESSER_PENALTY, Modifier.GREATER_PENALTY


def brute(sides, kept):
    """P(kept(faces) = x) by enumerating every face combination."""
    counts = {}
    rolls = list(product(*(range(1, s + 1) for s in sides)))
    for faces in rolls:
        counts[kept(faces)] = counts.get(kept(faces), 0) + 1
    return {x: Fraction(c, len(rolls)) for x, c in counts.items()}


def p_ge(table, dc):
    return sum((p for x, p in table.items() if x >= dc), Fraction(0))


def test_dice_pool_parses_names_with_ranks_and_plain_dice():
    assert parse_pool("Agility 2 › Athletics 1").sides == (8, 6)
    assert parse_pool("1d6 › 1d10 › 1d8").sides == (6, 10, 8)
    assert parse_pool("1d6 > 2d8 > d4").sides == (6, 8, 8, 4)
    assert str(parse_pool("Agility 2 > Athletics 1")) == "Agility 2 › Athletics 1"


@pytest.mark.parametrize("bad", ["", "Agility", "1d7", "Agility 5", "1d6 ›› 1d8", "3d20", 7])
def test_dice_pool_rejects_bad_notation(bad):
    with pytest.raises(NemronError):
        parse_pool(bad)


@pytest.mark.parametrize("sides", [9, 7, 20, 2])
def test_dice_pool_built_directly_holds_only_rank_dice(sides):
    from rules.nemron.checks import PoolDie
    with pytest.raises(NemronError, match=f"d{sides} is not a rank die"):
        Pool((PoolDie("Agility 1", 6), PoolDie(f"1d{sides}", sides)))
    with pytest.raises(NemronError, match=f"d{sides}"):
        Pool.of_dice(6, sides)
    with pytest.raises(NemronError, match=f"d{sides}"):
        Pool((PoolDie("Agility 2", 8),)) + Pool((PoolDie(f"1d{sides}", sides),))


def test_dice_pool_keeps_the_highest_die_exactly():
    table = brute((8, 6), max)
    dist = parse_pool("Agility 2 › Athletics 1").dist()
    assert {x: dist.p(x) for x in dist.support()} == table
    assert dist.p_ge(5) == Fraction(2, 3)  # 1 - (4/8)(4/6)


def test_registered_notation_reads_and_rolls_nemron_pools():
    dist = REGISTRY.notation.parse("1d6 › 1d10 › 1d8")
    assert dist.max() == 10
    assert dist.p(10) == Fraction(1, 10)
    rolled = REGISTRY.notation.roll("Agility 2 > Athletics 1", ScriptedSource([5, 5]))
    assert str(rolled) == "Agility 2 › Athletics 1: [5, (5)] = 5"


def test_registered_drama_die_reads_one_and_twenty():
    (drama_die,) = REGISTRY.notation.side_rolls
    assert (drama_die.name, drama_die.sides) == ("drama", 20)
    assert [drama_die.read(face) for face in (1, 7, 20)] == ["bad drama", "no drama", "good drama"]


def test_difficulty_scale_and_its_bounds():
    assert "novice" in difficulty(4)
    assert "grand-master" in difficulty(12)
    assert "heroic" in difficulty(15, advanced_scaling=True)
    with pytest.raises(NemronError, match="13"):
        difficulty(13)
    with pytest.raises(NemronError, match="0"):
        difficulty(0)
    with pytest.raises(NemronError, match="21"):
        difficulty(21, advanced_scaling=True)


def test_minimum_difficulty_is_three_for_specialised_skills():
    assert minimum_difficulty(1, specialised=True) == 3
    assert minimum_difficulty(6, specialised=True) == 6
    assert minimum_difficulty(1, specialised=False) == 1


def test_marksmanship_roll_of_two_misses_the_minimum_dc():
    result = skill_check("Awareness 1 › Marksmanship 1", 1, ScriptedSource([2, 1]), specialised=True)
    assert (result.result, result.dc, result.success) == (2, 3, False)


def test_fixed_medium_and_fixed_maximum_of_the_published_pool():
    assert fixed_medium("1d6 › 1d10 › 1d8") == 5
    assert fixed_maximum("1d6 › 1d10 › 1d8") == 10
    assert fixed_medium([4]) == 2 and fixed_maximum(Pool.of_dice(12, 4)) == 12


def test_boons_and_penalties_do_not_stack_and_cancel():
    assert resolve_modifiers([]) is None
    assert resolve_modifiers([LB, LB]) is LB
    assert resolve_modifiers([LB, GB]) is GB
    assert resolve_modifiers([LB, LP]) is None
    assert resolve_modifiers([GB, GP]) is None
    assert resolve_modifiers([GB, LP]) is GB
    assert resolve_modifiers([LB, GP]) is GP
    assert resolve_modifiers(["lesser boon", "lesser boon", "lesser penalty"]) is None
    assert resolve_modifiers([GB, LP], greater_survives=False) is None


def test_boons_and_penalties_reject_unknown_modifiers():
    with pytest.raises(NemronError, match="'huge boon'"):
        resolve_modifiers(["huge boon"])
    with pytest.raises(NemronError, match="'sideways'"):
        check_distribution("1d6", LP, penalty_mode="sideways")


@pytest.mark.parametrize("modifier, sides, kept", [
    (LB, 8, lambda f: max(f)),
    (GB, 12, lambda f: max(f)),
    (LP, 8, lambda f: min(max(f[:-1]), f[-1])),
    (GP, 4, lambda f: min(max(f[:-1]), f[-1])),
])
def test_boon_or_penalty_die_changes_the_odds_exactly(modifier, sides, kept):
    table = brute((8, 6, sides), kept)
    for dc in range(1, 13):
        assert success_chance("1d8 › 1d6", dc, modifier=modifier) == p_ge(table, dc)


def test_penalty_lowest_mode_keeps_the_lowest_of_every_die():
    table = brute((8, 6, 8), min)
    dist = check_distribution("1d8 › 1d6", LP, penalty_mode="lowest")
    assert {x: dist.p(x) for x in dist.support()} == table


def test_skill_check_success_when_result_meets_dc():
    assert skill_check("1d6 › 1d8", 5, ScriptedSource([5, 2])).success
    assert not skill_check("1d6 › 1d8", 5, ScriptedSource([4, 2])).success


def test_skill_check_rolls_the_modifier_die_after_the_pool():
    result = skill_check("1d6 › 1d8", 5, ScriptedSource([2, 3, 7]), modifiers=[LB])
    assert (result.faces, result.modifier_face, result.result, result.success) == ((2, 3), 7, 7, True)
    result = skill_check("1d6 › 1d8", 5, ScriptedSource([6, 3, 2]), modifiers=[GP, LB])
    assert (result.modifier, result.result) == (GP, 2)


def test_drama_die_one_is_bad_twenty_is_good():
    assert drama(1) is Drama.BAD and drama(20) is Drama.GOOD
    assert all(drama(f) is Drama.NONE for f in range(2, 20))
    with pytest.raises(NemronError, match="21"):
        drama(21)


def test_drama_decides_only_when_asked():
    r = skill_check("1d6", 2, ScriptedSource([6, 1]), roll_drama=True)
    assert r.success and r.drama is Drama.BAD
    r = skill_check("1d6", 2, ScriptedSource([6, 1]), roll_drama=True, drama_decides=True)
    assert not r.success
    r = skill_check("1d6", 12, ScriptedSource([1, 20]), roll_drama=True, drama_decides=True)
    assert r.success


@pytest.mark.parametrize("pool, sides", [
    ("1d6", (6,)), ("1d6 › 1d6", (6, 6)), ("1d8 › 1d6", (8, 6)), ("1d8 › 1d8 › 1d6", (8, 8, 6)),
    ("1d10 › 1d8", (10, 8)), ("1d12 › 1d10 › 1d8", (12, 10, 8)),
])
def test_dc_odds_table_matches_enumeration(pool, sides):
    brute_table = brute(sides, max)
    assert list(dc_odds_table().column(pool)) == [p_ge(brute_table, dc) for dc in range(1, 13)]


def test_dc_odds_table_spot_values():
    table = dc_odds_table()
    assert table.column("1d6")[11] == 0
    assert table.column("1d8 › 1d6")[4] == Fraction(2, 3)  # DC 5: 1 - (4/8)(4/6)
    assert table.column("1d12 › 1d10 › 1d8")[9] == Fraction(13, 40)  # DC 10: 1 - (9/12)(9/10)(8/8)
    assert table.column("1d12 › 1d10 › 1d8")[10] == Fraction(1, 6)  # DC 11: only the d12, 2 faces


def test_modifier_odds_table_has_each_modifier():
    table = modifier_odds_table()
    assert table.columns == ("DC", "plain", "lesser boon", "greater boon", "lesser penalty", "greater penalty")
    assert table.column("greater penalty")[4] == 0  # a d4 caps the result at 4
    assert table.column("greater boon")[11] == Fraction(1, 12)
    kept = {"plain": ((8, 6), max), "lesser boon": ((8, 6, 8), max), "greater boon": ((8, 6, 12), max),
            "lesser penalty": ((8, 6, 8), lambda f: min(max(f[:2]), f[2])),
            "greater penalty": ((8, 6, 4), lambda f: min(max(f[:2]), f[2]))}
    for column, (sides, rule) in kept.items():
        assert list(table.column(column)) == [p_ge(brute(sides, rule), dc) for dc in range(1, 13)], column


def test_a_single_modifier_need_not_be_wrapped_in_a_list():
    assert resolve_modifiers("lesser boon") is LB
    assert resolve_modifiers(GP) is GP
    with pytest.raises(NemronError, match="None"):
        resolve_modifiers(None)


@pytest.mark.parametrize("faces, modifier, face, error, named", [
    ((), None, None, NemronError, r"\(\)"),
    ((3, 13), None, None, NemronError, "13"),
    ((3,), LB, 9, NemronError, "9"),
    ((3,), GP, 0, NemronError, "0"),
    ((3,), GB, "12", NemronError, "'12'"),
])
def test_apply_modifier_rejects_faces_the_dice_cannot_show(faces, modifier, face, error, named):
    from rules.nemron.checks import apply_modifier
    with pytest.raises(error, match=named):
        apply_modifier(faces, modifier, face)


def test_pools_and_tables_reject_impossible_arguments():
    with pytest.raises(NemronError, match="None"):
        fixed_medium(None)
    with pytest.raises(NemronError, match="DC 0"):
        dc_odds_table(0)
    with pytest.raises(NemronError, match="DC 21"):
        dc_odds_table(21)


def test_difficulty_scale_bands_follow_the_published_lines():
    from rules.nemron.checks import dc_scale_table
    bands = {dc: difficulty(dc) for dc in range(1, 13)}
    assert bands[2] == bands[3] != bands[1]  # the blank DC 2 joins the description of DC 3
    assert bands[4] == bands[5] and bands[6] == bands[7] and bands[8] == bands[9] and bands[10] == bands[11]
    assert len(set(bands.values())) == 7
    assert dc_scale_table().column("DC") == ("1", "2-3", "4-5", "6-7", "8-9", "10-11", "12", "13-20")
