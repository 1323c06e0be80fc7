import pytest

from rules.heimr.grid import CombatCluster, Grid, HeimrError, Square, can_melee, distance


def test_grid_is_at_least_three_by_three():
    assert len(Grid().squares()) == 9
    assert str(Grid(4, 3).square("D3")) == "D3"
    with pytest.raises(HeimrError, match="2"):
        Grid(2, 3)
    with pytest.raises(HeimrError, match="D1"):
        Grid().square("D1")


def test_squares_are_named_like_a_chessboard():
    assert Square.parse("b3") == Square(1, 2)
    with pytest.raises(HeimrError, match="'3B'"):
        Square.parse("3B")


def test_distance_counts_orthogonal_moves_and_climbing_up():
    assert distance("B2", "C3") == 2          # diagonal neighbour
    assert distance("A1", "A3") == 2
    assert distance("A1", "B1", climb_turns=2) == 3
    with pytest.raises(HeimrError, match="-1"):
        distance("A1", "B1", climb_turns=-1)


def test_melee_only_inside_one_square():
    assert can_melee("B2", "b2") and not can_melee("B2", "B3")


def test_combat_cluster_holds_until_someone_leaves():
    cluster = CombatCluster(Square.parse("B2"), ["Ada"])
    cluster.join("Bran")
    cluster.join("Bran")
    assert len(cluster) == 2
    cluster.leave("Ada")
    with pytest.raises(HeimrError, match="Ada"):
        cluster.leave("Ada")


def test_grid_rules_reject_bad_input():
    with pytest.raises(HeimrError, match="True"):
        distance("A1", "A2", True)
    with pytest.raises(HeimrError, match="'Ada'"):
        CombatCluster(Square.parse("B2"), "Ada")
    with pytest.raises(HeimrError, match="'Z0'"):
        CombatCluster("Z0", ["Ada"])
    assert CombatCluster("b2", ["Ada"]).square == Square(1, 1)
