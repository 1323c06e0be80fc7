"""The few ``rules.dice`` names the DnDalike engine uses, in one place."""

from __future__ import annotations

from rules.dice import DiceSource, Dist, advantage, disadvantage

__all__ = ["DiceSource", "Dist", "advantage", "disadvantage"]
