"""The core roll, checked against the source's numbers and brute-force enumeration of faces."""

from fractions import Fraction
from itertools import product

import pytest

from rules.nugget import rolls as r


class Faces:
    """A scripted dice source written for these tests (independent of rules.dice)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, sides):
        assert sides == 6
        return self.faces.pop(0)


def brute_lid_on(n):
    """Enumerate every face combination of n dice and score it by the source's wording."""
    counts = {}
    for faces in product(range(1, 7), repeat=n):
        s = sum(f >= 4 for f in faces) + (1 if all(f == 6 for f in faces) else 0)
        counts[s] = counts.get(s, 0) + Fraction(1, 6 ** n)
    return counts


def brute_lid_off_die(depth):
    """One die under lid-off, enumerating each re-roll chain down to ``depth`` re-rolls."""
    out = {}
    for face in range(1, 7):
        if face == 6 and depth > 0:
            for s, p in brute_lid_off_die(depth - 1).items():
                out[1 + s] = out.get(1 + s, 0) + p / 6
        else:
            out[int(face >= 4)] = out.get(int(face >= 4), 0) + Fraction(1, 6)
    return out


def test_base_dice_are_plus_two_zero_minus_two_minus_four():
    assert [r.base_dice(k) for k in ("anyone", "professional", "best", "near-impossible")] == [2, 0, -2, -4]
    with pytest.raises(r.NuggetError, match="'trivial'"):
        r.base_dice("trivial")


def test_pool_is_base_dice_plus_advantages_minus_disadvantages():
    assert r.pool_size(2, 3, 1) == 4          # Research 2 + Brains 1 at BD +2, one Dis
    assert r.pool_size(-2, 1) == -1
    assert r.pool_size(0, 2, 0, situation=1) == 3
    with pytest.raises(r.NuggetError, match="3"):
        r.pool_size(3)
    with pytest.raises(r.NuggetError, match="-1"):
        r.pool_size(2, -1)
    with pytest.raises(r.NuggetError, match="2"):
        r.pool_size(2, situation=2)


def test_no_dice_is_too_hard_and_is_not_rolled():
    assert r.is_too_hard(0) and r.is_too_hard(-3) and not r.is_too_hard(1)
    with pytest.raises(r.NuggetError, match="0"):
        r.roll_pool(0, Faces([]))


def test_success_is_a_four_five_or_six():
    assert [r.is_success(f) for f in range(1, 7)] == [False] * 3 + [True] * 3
    with pytest.raises(r.NuggetError, match="7"):
        r.is_success(7)


def test_result_bands_barely_at_one_solid_at_three_impressive_at_five():
    names = [r.result_band(s).name for s in range(8)]
    assert names == ["Failure", "Barely", "Fair", "Solid", "Solid", "Impressive", "Impressive", "Impressive"]
    with pytest.raises(r.NuggetError, match="-1"):
        r.result_band(-1)


def test_fumble_is_every_die_showing_one():
    assert r.is_fumble([1, 1, 1]) and not r.is_fumble([1, 1, 2])
    assert [r.fumble_chance(n) for n in (1, 2, 3)] == [Fraction(1, 6), Fraction(1, 36), Fraction(1, 216)]
    with pytest.raises(r.NuggetError):
        r.is_fumble([])


def test_lid_on_gives_one_extra_success_when_all_dice_show_six():
    assert r.lid_on_bonus([6, 6]) == 1 and r.lid_on_bonus([6, 5]) == 0
    assert r.read_pool([6]).successes == 2               # notes: a lone 6 is two successes
    assert r.read_pool([6, 6, 6]).successes == 4
    assert r.read_pool([6, 6, 6], lid="off").successes == 3
    with pytest.raises(r.NuggetError, match="'sideways'"):
        r.lid_style("sideways")


def test_lid_off_rerolls_each_six_without_limit_unless_a_depth_is_chosen():
    assert r.explode(6, Faces([6, 6, 2])) == (6, 6, 2)
    assert r.explode(6, Faces([6] * 12 + [3])) == (6,) * 12 + (3,)
    assert r.explode(5, Faces([])) == ()
    assert r.explode(6, Faces([6, 6, 6]), max_rerolls=2) == (6, 6)
    roll = r.roll_pool(3, Faces([6, 2, 6, 4, 6, 1]), lid="off")
    assert roll.faces == (6, 2, 6) and roll.rerolls == (4, 6, 1)
    assert roll.successes == 2 + 2
    with pytest.raises(r.NuggetError, match="-1"):
        r.explode(6, Faces([]), max_rerolls=-1)


def test_core_roll_counts_successes_and_reads_the_band():
    roll = r.roll_pool(5, Faces([1, 4, 5, 6, 2]))
    assert roll.successes == 3 and roll.band.name == "Solid" and not roll.fumble
    assert r.roll_pool(2, Faces([1, 1])).fumble


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_lid_on_distribution_matches_enumeration(n):
    assert dict(r.success_distribution(n).items()) == {k: v for k, v in brute_lid_on(n).items() if v}


def test_lid_on_notes_one_and_two_dice():
    assert dict(r.success_distribution(1).items()) == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    assert dict(r.success_distribution(2).items()) == {0: Fraction(1, 4), 1: Fraction(1, 2),
                                                      2: Fraction(2, 9), 3: Fraction(1, 36)}


def test_at_least_odds_from_the_notes():
    ge = lambda n, k: r.success_distribution(n).p_ge(k)  # noqa: E731
    assert [ge(n, 1) for n in (1, 2, 3, 4)] == [Fraction(1, 2), Fraction(3, 4), Fraction(7, 8), Fraction(15, 16)]
    assert [ge(n, 2) for n in (3, 4, 5)] == [Fraction(1, 2), Fraction(11, 16), Fraction(13, 16)]
    assert [ge(5, 3), ge(6, 3)] == [Fraction(1, 2), Fraction(21, 32)]


@pytest.mark.parametrize("depth", [0, 1, 3, 5])
def test_lid_off_single_die_matches_enumerated_reroll_chains(depth):
    assert dict(r.success_distribution(1, lid="off", max_rerolls=depth).items()) == brute_lid_off_die(depth)


def test_lid_off_expects_three_fifths_of_a_success_per_die_in_the_limit():
    for depth in (0, 2, 5):
        expected = Fraction(3, 5) - Fraction(1, 10) * Fraction(1, 6) ** depth
        assert r.success_distribution(4, lid="off", max_rerolls=depth).mean() == 4 * expected
    unlimited = r.success_distribution(4, lid="off").mean()
    assert 0 <= 4 * Fraction(3, 5) - unlimited < Fraction(1, 2 ** 58)


def test_unlimited_lid_off_tail_is_exact_where_a_depth_limit_is_not():
    """P(at least k) for one die is (1/2)(1/6)**(k-1) when sixes chain forever; a cap of 5 undercounts."""
    one = r.success_distribution(1, lid="off")
    for k in range(1, 12):
        assert one.p_ge(k) == Fraction(1, 2) * Fraction(1, 6) ** (k - 1)
    assert r.success_distribution(1, lid="off", max_rerolls=5).p_ge(7) == 0


def test_pool_odds_table_covers_one_to_ten_dice_both_lids():
    for lid in ("on", "off"):
        table = r.pool_odds(lid)
        assert table.column("Dice") == tuple(range(1, 11))
        assert table.column("1+ (Barely)") == tuple(1 - Fraction(1, 2 ** n) for n in range(1, 11))
    with pytest.raises(r.NuggetError):
        r.pool_odds("on", 0)


def test_opposed_roll_more_successes_wins_by_the_difference_and_ties_reroll():
    result = r.opposed_roll(4, 1)
    assert result.winner == "first" and result.margin == 3
    assert r.opposed_roll(2, 2).winner is None and r.opposed_roll(2, 2).tie
    with pytest.raises(r.NuggetError, match="-2"):
        r.opposed_roll(-2, 0)


def test_opposed_odds_one_die_each_by_enumeration():
    one = brute_lid_on(1)
    win = sum(p * q for a, p in one.items() for b, q in one.items() if a > b)
    tie = sum(p * q for a, p in one.items() for b, q in one.items() if a == b)
    assert r.opposed_odds(1, 1) == (win, tie, win)


def test_pool_notation_reads_dice_and_lid():
    assert r.parse_pool("5 dice lid-off") == r.success_distribution(5, lid="off")
    assert r.parse_pool("3") == r.success_distribution(3)
    with pytest.raises(r.NuggetError, match="'3d6'"):
        r.parse_pool("3d6")


def test_a_resistance_roll_knows_its_fumble_inside_the_zero_successes():
    joint = r.outcome_distribution(2)
    assert joint.p((0, True)) == Fraction(1, 36)
    assert joint.p((0, False)) == Fraction(1, 4) - Fraction(1, 36)


def test_pool_notation_rolls_each_die_and_its_chain_of_sixes():
    rolled = r.roll_notation("3 dice lid-off", Faces([6, 2, 5, 6, 4]))
    assert rolled.total == 4
    assert str(rolled) == "3 dice lid-off: [6!, 6!, 4, (2), 5] = 4"
    assert str(r.roll_notation("2", Faces([6, 6]))) == "2 dice lid-on: [6, 6] lid-on +1 = 3"


@pytest.mark.parametrize("n, lid", [(1, "on"), (2, "on"), (3, "on"), (2, "off")])
def test_rolling_every_script_reproduces_the_success_distribution(n, lid):
    """Every face of every die (and, lid-off with one re-roll allowed, of every re-roll), weighted."""
    depth = 1 if lid == "off" else None
    weights: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=n):
        sixes = faces.count(6) if lid == "off" else 0
        for rerolls in product(range(1, 7), repeat=sixes):
            roll = r.roll_pool(n, Faces(faces + rerolls), lid=lid, max_rerolls=depth)
            weights[roll.successes] = weights.get(roll.successes, 0) + Fraction(1, 6) ** (n + sixes)
    assert weights == dict(r.success_distribution(n, lid=lid, max_rerolls=depth).items())
