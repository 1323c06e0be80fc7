"""Stat blocks: a creature or character as the engine builds it, published for the book by name.

A rule package builds its example characters and creatures with its own rules (``rules.nugget.npcs``
makes a thug from the attribute and skill rules) and publishes each one under a name, the way it
publishes tables::

    @REGISTRY.statblock("thug")
    def thug() -> StatBlock: ...

A page names the block (``.. node:statblock:: nugget:thug``), never Python code.  Every value in the
block is labelled by the uid of the node whose rule computed it, and the main attack carries its exact
distribution: its odds line comes from :mod:`rules.odds`, the code ``node:odds`` prints with.  Nothing
here knows a game system or imports Sphinx.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from rules import odds
from rules.dice import Dist
from rules.formula import Number
from rules.tables import Table
from rules.uids import check_uid

NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: An odds line names a handful of targets: more would be a table, which ``node:odds`` prints.
MAX_TARGETS = 12


class StatBlockError(ValueError):
    """A stat block that is malformed, or a name no package publishes."""


@dataclass(frozen=True)
class Stat:
    """One value of a block: the node whose rule gives it, the value, and a short note (``per limb``)."""

    uid: str
    value: Number | str
    note: str = ""

    def __post_init__(self) -> None:
        check_uid(self.uid)
        if isinstance(self.value, bool) or not isinstance(self.value, (int, Fraction, str)):
            raise StatBlockError(f"{self.uid}: a stat value is a number or text, not {self.value!r}")


@dataclass(frozen=True)
class Attack:
    """The main attack: its roll as the system writes it, its exact distribution and the targets to quote.

    ``roll_under`` says the attack succeeds at or *below* a target (SPURG's verdict roll); otherwise it
    succeeds at or above one (a DC, an armour class, a number of successes).
    """

    name: str
    uid: str
    roll: str
    dist: Dist
    targets: tuple[int, ...]
    target_label: str = "DC"
    roll_under: bool = False

    def __post_init__(self) -> None:
        check_uid(self.uid)
        if not self.targets or len(self.targets) > MAX_TARGETS:
            raise StatBlockError(f"{self.name}: an attack quotes 1 to {MAX_TARGETS} targets, not {len(self.targets)}")
        if not isinstance(self.dist, Dist):
            raise StatBlockError(f"{self.name}: the attack's distribution is {type(self.dist).__name__}, not a Dist")

    def odds(self) -> Table:
        """P(success) for each target, by the same functions ``node:odds`` prints with."""
        if self.roll_under:
            return odds.at_most_table(self.dist, self.targets, self.name)
        return odds.at_least_table(self.dist, self.targets, self.name)

    def chances(self) -> tuple[tuple[int, Fraction], ...]:
        """(target, exact chance) pairs of :meth:`odds`."""
        pairs: list[tuple[int, Fraction]] = []
        for target, chance in self.odds().rows:
            if not isinstance(target, int) or not isinstance(chance, Fraction):
                raise StatBlockError(f"{self.name}: the odds table holds {target!r}, {chance!r}")
            pairs.append((target, chance))
        return tuple(pairs)


@dataclass(frozen=True)
class StatBlock:
    """A creature or character: what the rules take in (``base``), what they compute (``derived``), its attack."""

    name: str
    kind: str
    summary: str
    base: tuple[Stat, ...]
    derived: tuple[Stat, ...]
    attack: Attack | None = None

    def __post_init__(self) -> None:
        if not self.name.strip() or not self.kind.strip():
            raise StatBlockError("a stat block needs a name and a kind")

    def stat(self, uid: str) -> Stat:
        """The block's value for node ``uid``."""
        for item in (*self.base, *self.derived):
            if item.uid == uid:
                return item
        raise StatBlockError(f"the stat block {self.name!r} has no value for {uid!r}")

    def uids(self) -> tuple[str, ...]:
        """Every node the block names (its stats and its attack roll), for links and checks."""
        found = [item.uid for item in (*self.base, *self.derived)]
        return (*found, *([self.attack.uid] if self.attack else []))


B = TypeVar("B", bound=Callable[[], StatBlock])


class StatBlocks:
    """The stat blocks one package publishes (``name -> zero-argument builder``)."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._builders: dict[str, Callable[[], StatBlock]] = {}

    def publish(self, name: str | None = None) -> Callable[[B], B]:
        """Decorator: publish the builder under ``name`` (default: the function's name)."""

        def publish(builder: B) -> B:
            self.add(name or builder.__name__, builder)
            return builder

        return publish

    def add(self, name: str, builder: Callable[[], StatBlock]) -> None:
        if not NAME_PATTERN.fullmatch(name):
            raise ValueError(f"{name!r} is not a stat block name (letters, digits and '_')")
        if name in self._builders and self._builders[name] is not builder:
            raise ValueError(f"{self.namespace}: a stat block {name!r} is already published")
        self._builders[name] = builder

    def builder(self, name: str) -> Callable[[], StatBlock] | None:
        return self._builders.get(name)

    def build(self, name: str) -> StatBlock:
        """The named block, built now by the engine; ``StatBlockError`` names an unknown one."""
        builder = self._builders.get(name)
        if builder is None:
            known = ", ".join(sorted(self._builders)) or "none"
            raise StatBlockError(f"{self.namespace} publishes no stat block {name!r} (it has: {known})")
        block = builder()
        if not isinstance(block, StatBlock):
            raise StatBlockError(f"{self.namespace}:{name} built {type(block).__name__}, not a StatBlock")
        return block

    def names(self) -> list[str]:
        return sorted(self._builders)

    def items(self) -> Iterator[tuple[str, Callable[[], StatBlock]]]:
        return iter(list(self._builders.items()))

    def __len__(self) -> int:
        return len(self._builders)
