"""Levels bought with money, and multiclassing.

Money spent on luxuries (feasts, castles, exotic pets; never gear) earns class powers, and a
character's level is the number of powers they have.  The price table is data
(:data:`MONEY_SPENT`); how to read it is a setting, because the source's table can be read two ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from rules.dndalike.characters import class_of
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.providers import Choice
from rules.tables import Table
from rules.values import is_whole

#: Money spent for the 1st to 6th power, as printed.  A 7th power means retirement.
MONEY_SPENT: tuple[int, ...] = (0, 300, 600, 2100, 4400, 9600)
HIGHEST_LEVEL = len(MONEY_SPENT)
#: The surcharge on powers from classes that are not dominant.
MULTICLASS_FACTOR = Fraction(3, 2)
#: How :data:`MONEY_SPENT` is read.
READINGS = ("total", "per-power")


def _power_number(number: object) -> int:
    if not is_whole(number) or number < 1:
        raise DndalikeError(f"power number {number!r} is invalid: powers are counted from 1")
    if number > HIGHEST_LEVEL:
        raise DndalikeError(f"power number {number} cannot be bought: after the {HIGHEST_LEVEL}th power "
                            "comes retirement")
    return number


@REGISTRY.rule("Dndalike.Rule.LevelCost", "Buying a Level", "RU",
            values={"second": MONEY_SPENT[1], "sixth": MONEY_SPENT[5], "highest_level": HIGHEST_LEVEL})
def power_price(number: int, *, reading: str = "total") -> int:
    """The money a character's ``number``-th power costs at the dominant-class rate.

    ``reading="total"`` (default): the table gives the total spent so far, so each power costs the
    difference from the previous row (300, 300, 1,500, 2,300, 5,200).  ``reading="per-power"``: each
    row is the price of that power alone.
    """
    _power_number(number)
    if reading == "total":
        return MONEY_SPENT[number - 1] - (MONEY_SPENT[number - 2] if number > 1 else 0)
    if reading == "per-power":
        return MONEY_SPENT[number - 1]
    raise DndalikeError(f"unknown reading {reading!r} of the level table (use one of {', '.join(READINGS)})")


def money_to_reach(level: int, *, reading: str = "total") -> int:
    """Total money spent (at the dominant rate throughout) to reach ``level``."""
    _power_number(level)
    return sum(power_price(n, reading=reading) for n in range(1, level + 1))


@REGISTRY.rule("Dndalike.Rule.DominantClass", "Dominant Class", "RU")
def dominant_classes(power_classes: Sequence[str]) -> frozenset[str]:
    """The class or classes in which a character has the most powers (ties make several dominant)."""
    for name in power_classes:
        class_of(name)
    if not power_classes:
        return frozenset()
    counts = Counter(power_classes)
    most = max(counts.values())
    return frozenset(name for name, n in counts.items() if n == most)


@REGISTRY.rule("Dndalike.Rule.Multiclassing", "Multiclassing", "RU", values={"factor": "1.5"})
def next_power_cost(power_classes: Sequence[str], new_class: str, *, reading: str = "total") -> int:
    """What the next power costs: the table price for a dominant class, 1.5 times it for any other.

    A character with no power yet pays nothing for the first one, whatever its class.
    """
    class_of(new_class)
    number = len(power_classes) + 1
    price: int | Fraction = power_price(number, reading=reading)
    if power_classes and new_class not in dominant_classes(power_classes):
        price = MULTICLASS_FACTOR * price
    assert Fraction(price).denominator == 1  # every printed price is even
    return int(price)


@REGISTRY.table(reading=Choice(*READINGS))
def level_costs(reading: str = "total") -> Table:
    """The price of each power, at the dominant rate and for another class, under ``reading``."""
    rows = [(n, MONEY_SPENT[n - 1], power_price(n, reading=reading),
             int(MULTICLASS_FACTOR * power_price(n, reading=reading)) if n > 1 else 0,
             money_to_reach(n, reading=reading)) for n in range(1, HIGHEST_LEVEL + 1)]
    return Table.of(("Power", "Table entry", "Price (dominant)", "Price (other class)", "Total spent"),
                    rows, f"Level prices ({reading})")
