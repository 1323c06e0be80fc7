"""Experience: sharing encounter XP, the cost of ability training, and attribute progress.

Training costs grow like a Fibonacci sequence that starts at 5 and 10; attributes are never bought,
they creep up as the abilities built on them are trained.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.heimr.registry import REGISTRY, HeimrError
from rules.providers import Int
from rules.tables import Table
from rules.values import is_whole, require_whole

#: The costs of the first two training levels; every later level costs the previous two together.
FIRST_TRAINING_COSTS = (5, 10)
#: Progress needed to reach a new attribute value; every value from 4 up needs the last entry.
PROGRESS_REQUIRED: dict[int, int] = {-2: 8, -1: 6, 0: 4, 1: 6, 2: 8, 3: 10, 4: 12}
LOWEST_ATTRIBUTE = min(PROGRESS_REQUIRED) - 1
HIGHEST_LISTED = max(PROGRESS_REQUIRED)


@dataclass(frozen=True)
class XpShare:
    """What each character gets and what the group carries over to the next award."""

    each: int
    carried: int


@REGISTRY.rule("Heimr.Rule.XpSplit", "Sharing experience", "RU", formula="floor((xp + carried) / characters)")
def split_xp(xp: int, characters: int, carried: int = 0) -> XpShare:
    """Share an encounter's XP (plus what was carried) evenly; the remainder waits for the next award."""
    total = (require_whole(xp, "XP", minimum=0, error=HeimrError)
             + require_whole(carried, "carried XP", minimum=0, error=HeimrError))
    characters = require_whole(characters, "the number of characters", minimum=1, error=HeimrError)
    return XpShare(total // characters, total % characters)


@REGISTRY.rule("Heimr.Rule.TrainingCost", "Training cost", "RU",
               values={"first": FIRST_TRAINING_COSTS[0], "second": FIRST_TRAINING_COSTS[1]})
def training_cost(level: int) -> int:
    """XP for one point of trained consistency or potential, to reach ``level`` (1 or more)."""
    level = require_whole(level, "a training level", minimum=1, error=HeimrError)
    before, cost = 0, FIRST_TRAINING_COSTS[0]
    if level >= 2:
        before, cost = FIRST_TRAINING_COSTS
    for _ in range(level - 2):
        before, cost = cost, before + cost
    return cost


def total_training_cost(level: int) -> int:
    """XP to train from nothing up to ``level`` (0 costs nothing)."""
    return sum(training_cost(n) for n in range(1, require_whole(level, "a training level", minimum=0,
                                                                error=HeimrError) + 1))


def xp_to_train(current: int, target: int) -> int:
    """XP to raise a training from ``current`` to ``target``."""
    if (require_whole(target, "a target level", minimum=0, error=HeimrError)
        < require_whole(current, "a current level", minimum=0, error=HeimrError)):
        raise HeimrError(f"training never goes down: {current} to {target}")
    return total_training_cost(target) - total_training_cost(current)


@REGISTRY.rule("Heimr.Rule.AttributeProgress", "Attribute progress", "RU",
               values={str(k): v for k, v in PROGRESS_REQUIRED.items()})
def progress_required(new_value: int) -> int:
    """Progress an attribute needs to rise to ``new_value``; from 4 up it is always the 4 entry."""
    if not is_whole(new_value) or new_value < min(PROGRESS_REQUIRED):
        raise HeimrError(f"no progress requirement for a new attribute value of {new_value!r} "
                              f"(the table starts at {min(PROGRESS_REQUIRED)})")
    return PROGRESS_REQUIRED[min(new_value, HIGHEST_LISTED)]


@dataclass
class AttributeTrack:
    """An attribute and its progress: every training point bought on an ability based on it adds one."""

    value: int
    progress: int = 0

    def __post_init__(self) -> None:
        if not is_whole(self.value) or self.value < LOWEST_ATTRIBUTE:
            raise HeimrError(f"an attribute value is a whole number of at least {LOWEST_ATTRIBUTE}, "
                                  f"not {self.value!r}")
        require_whole(self.progress, "attribute progress", minimum=0, error=HeimrError)

    def add_training_point(self) -> bool:
        """Add one progress; on reaching the requirement of the next value, rise and reset. True if it rose."""
        self.progress += 1
        if self.progress >= progress_required(self.value + 1):
            self.value += 1
            self.progress = 0
            return True
        return False


@REGISTRY.table(levels=Int(1, 30))
def training_cost_table(levels: int = 7) -> Table:
    """Cost and running total of each training level."""
    rows, total = [], 0
    for level in range(1, levels + 1):
        total += training_cost(level)
        rows.append((level, training_cost(level), total))
    return Table.of(["New training level", "XP cost", "Total XP"], rows, title="Training costs")


@REGISTRY.table()
def progress_table() -> Table:
    """Progress required per new attribute value."""
    rows = [(f"{v} or more" if v == HIGHEST_LISTED else str(v), n) for v, n in PROGRESS_REQUIRED.items()]
    return Table.of(["New attribute value", "Progress required"], rows, title="Attribute progress")
