"""The few ``rules.dice`` names the Nemron engine uses, in one place."""

from __future__ import annotations

from rules.dice import DiceSource, Dist, keep_highest, keep_lowest

__all__ = ["DiceSource", "Dist", "keep_highest", "keep_lowest"]
