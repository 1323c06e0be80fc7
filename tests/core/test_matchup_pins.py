"""The book fights' seeded play, pinned: making the trackers cheaper must not change a single die.

The fights below were played with the engine as it was before the hot paths were trimmed (the same
seed, one source for six fights in a row); each fight's winner, length and what was left must come out
exactly the same, so a simulated share printed in a book does not move.
"""

from __future__ import annotations

import importlib

import pytest

from rules.dice import SeededSource

PINNED = {
    "nemron": ((["brandon"], ["raider"]),
               [(0, 4, (16, 7)), (0, 8, (15, 7)), (1, 12, (8, 11)), (0, 5, (15, 7)), (1, 15, (8, 5)), (0, 4, (11, 7))]),
    "heimr": ((["shieldmaiden"], ["shieldmaiden"]),
              [(0, 14, (0, 0)), (0, 12, (4, 0)), (1, 11, (0, 2)), (0, 14, (2, 0)), (0, 14, (2, 0)), (1, 12, (0, 8))]),
    "nugget": ((["doctor"], ["thug"]),
               [(1, 1, (1, 0)), (1, 3, (1, 0)), (1, 1, (1, 0)), (1, 3, (2, 0)), (1, 2, (2, 0)), (1, 1, (1, 0))]),
    "spurg": ((["duellist"], ["duellist"]),
              [(1, 4, (0, 3)), (0, 4, (4, 0)), (0, 4, (5, 0)), (0, 4, (5, 0)), (1, 4, (0, 5)), (0, 5, (5, 0))]),
}


@pytest.mark.parametrize("system", sorted(PINNED))
def test_seeded_book_fights_play_out_as_before_the_speed_up(system):
    sides, expected = PINNED[system]
    fight = importlib.import_module(f"rules.{system}").REGISTRY.matchups.build(*sides)
    source = SeededSource(2026)
    played = [fight.play(source) for _ in expected]
    assert [(p.outcome, p.rounds, p.left) for p in played] == expected
