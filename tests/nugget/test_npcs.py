"""NPC tiers."""

import pytest

from rules.nugget import npcs as n
from rules.nugget.harm import Wounds


def test_minion_is_out_after_one_hurt():
    assert n.is_out("minion", Wounds(hurts=1)) and not n.is_out("minion", Wounds())


def test_henchman_is_out_after_one_injury_or_three_hurts():
    assert not n.is_out("henchman", Wounds(hurts=2))
    assert n.is_out("henchman", Wounds(hurts=3)) and n.is_out("henchman", Wounds(injuries=1))


def test_taken_out_villain_only_by_unconscious_or_dead():
    assert not n.is_out("villain", Wounds(hurts=5, injuries=3))
    assert n.is_out("villain", Wounds(unconscious=True))
    with pytest.raises(n.NuggetError, match="'boss'"):
        n.is_out("boss", Wounds())


def test_villain_destiny_often_one_per_pc():
    assert n.villain_destiny(4) == 4
    with pytest.raises(n.NuggetError, match="-1"):
        n.villain_destiny(-1)


def test_villain_destiny_refuses_bad_counts_by_name():
    with pytest.raises(n.NuggetError, match="-1"):
        n.villain_destiny(3, per_pc=-1)
