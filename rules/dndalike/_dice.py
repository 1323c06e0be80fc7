"""The few ``rules.dice`` names the DnDalike engine uses, in one place.

``rules.dice`` is written in parallel with this package.  While its package exports are missing,
this thin adapter takes ``Dist`` from its distribution module, builds advantage and disadvantage
from it (the higher or lower of two independent dice, exact) and declares the ``DiceSource``
protocol locally, so the engine (and the book's build) stays importable.  Once ``rules.dice``
exports them, its own versions are used.
"""

from __future__ import annotations

from typing import Protocol

try:  # the dice engine's own exports
    from rules.dice import DiceSource, Dist, advantage, disadvantage
except ImportError:  # pragma: no cover - only while rules.dice is incomplete
    from rules.dice.distribution import Dist

    class DiceSource(Protocol):  # type: ignore[no-redef]
        """Anything that rolls one die: ``roll(sides) -> face``."""

        def roll(self, sides: int) -> int: ...

    def advantage(d: Dist) -> Dist:  # type: ignore[no-redef]
        """The higher of two independent rolls of ``d``."""
        return d.combine(d, max)

    def disadvantage(d: Dist) -> Dist:  # type: ignore[no-redef]
        """The lower of two independent rolls of ``d``."""
        return d.combine(d, min)

__all__ = ["DiceSource", "Dist", "advantage", "disadvantage"]
