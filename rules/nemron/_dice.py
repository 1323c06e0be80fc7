"""The few ``rules.dice`` names the Nemron engine uses, in one place.

``rules.dice`` is written in parallel with this package.  When its package exports are not there yet,
this thin adapter builds keep-highest and keep-lowest from its ``Dist`` (pairwise ``max``/``min``,
exact) and declares the ``DiceSource`` protocol locally, so the Nemron engine stays importable.  Once
``rules.dice`` exports them, its own versions are used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

try:  # the dice engine's own exports
    from rules.dice import DiceSource, Dist, keep_highest, keep_lowest
except ImportError:  # pragma: no cover - only while rules.dice is incomplete
    from rules.dice.distribution import Dist

    class DiceSource(Protocol):  # type: ignore[no-redef]
        """Anything that rolls one die: ``roll(sides) -> face``."""

        def roll(self, sides: int) -> int: ...

    def _fold(dists: Iterable[Dist], pick: object) -> Dist:
        dists = list(dists)
        if not dists:
            raise ValueError("keeping a die needs at least one distribution")
        result = dists[0]
        for dist in dists[1:]:
            result = result.combine(dist, pick)  # type: ignore[arg-type]
        return result

    def keep_highest(dists: Iterable[Dist]) -> Dist:  # type: ignore[no-redef]
        """The highest of independent dice."""
        return _fold(dists, max)

    def keep_lowest(dists: Iterable[Dist]) -> Dist:  # type: ignore[no-redef]
        """The lowest of independent dice."""
        return _fold(dists, min)

__all__ = ["DiceSource", "Dist", "keep_highest", "keep_lowest"]
