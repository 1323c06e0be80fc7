"""A tiny game system for the binding tests."""

from fractions import Fraction

from rules.nodes import Ranks, Registry
from rules.providers import Int
from rules.tables import Table

REGISTRY = Registry("boundgame", node_types={"E": "Effect", "R": "Resource", "A": "Attribute"})

ENERGY = REGISTRY.define("Bound.Trait.Energy", "Energy", "E,R", summary="Fuel for abilities.",
                         formula="Control + Sense + Focus + 5", values={"base": 5})


@REGISTRY.rule("Bound.Attribute.Power", "Power", "A", ranks=Ranks(0, 4))
def power_die(rank: int) -> int:
    """The die a Power rank rolls."""
    return {0: 4, 1: 6, 2: 8, 3: 10, 4: 12}[rank]


REGISTRY.define("Bound.Trait.Unwritten", "Unwritten", "E", summary="No page defines it.")


@REGISTRY.table(flips=Int(1, 10))
def coin_table(flips: int = 2) -> Table:
    """P(at least k heads) in some fair coin flips."""
    from math import comb
    rows = [(k, Fraction(sum(comb(flips, j) for j in range(k, flips + 1)), 2 ** flips)) for k in range(flips + 1)]
    return Table.of(("Heads", "P(at least)"), rows, "Coin flips", probabilities=("P(at least)",))
