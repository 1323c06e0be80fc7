"""Node types: what each kind of Nemron node does with its rank.

Everything a Nemron character has is a *node* with a rank.  The node's type decides whether the rank
turns into a die in a pool (attributes always, skills when they apply, the other types never), whether
XP can raise it, whether it counts charges, and how low it may decay.  The six published type codes
(``A``, ``S``, ``AB``, ``E``, ``T``, ``R``) are kept as they are; this book adds one code, ``RU``
(rule), for the mechanics it registers that are not game objects a character holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from rules.nemron.registry import NODE_TYPES, REGISTRY, NemronError
from rules.values import is_whole, require_whole

#: Rank (or level) -> sides of the die it adds to a pool.
RANK_DICE: Mapping[int, int] = {0: 4, 1: 6, 2: 8, 3: 10, 4: 12}
#: The highest rank the rank table covers.
MAX_RANK = max(RANK_DICE)


def rank_die_error(rank: object) -> NemronError:
    """A rank the rank table does not cover."""
    return NemronError(f"rank {rank!r} has no die: Nemron ranks run from 0 (d4) to {MAX_RANK} (d12)")


def node_type_error(code: object) -> NemronError:
    """A node type code Nemron does not know."""
    return NemronError(f"{code!r} is not a Nemron node type (known: {', '.join(NODE_TYPE_RULES)})")


@REGISTRY.rule("Generic.Rule.RankDie", "Rank Die", "RU",
            values={"d4": 0, "d6": 1, "d8": 2, "d10": 3, "d12": 4, "max_rank": MAX_RANK})
def rank_die(rank: int) -> int:
    """The die a node of this rank rolls: d4 at rank 0, two sides more per rank, d12 at rank 4.

    Ranks are the only numbers a character sheet holds; turning them into dice in one place keeps
    every pool (checks, attacks, initiative, healing) consistent.
    """
    if (rank.__class__ is not int and not is_whole(rank)) or rank not in RANK_DICE:  # (a plain int: no call)
        raise rank_die_error(rank)
    return RANK_DICE[rank]


class DieContribution(str, Enum):
    """When a node of some type puts its die into a pool."""

    ALWAYS = "always"
    WHEN_RELEVANT = "when relevant"
    NEVER = "never"


@dataclass(frozen=True)
class NodeTypeRule:
    """What one node type means for the rules: dice, XP, charges and the rank it never drops below."""

    code: str
    name: str
    adds_die: DieContribution
    ranks_with_xp: bool
    floor: int = 0
    counts_charges: bool = False


#: The semantics of the six published node types, as data.
NODE_TYPE_RULES: Mapping[str, NodeTypeRule] = {
    rule.code: rule
    for rule in (
        NodeTypeRule("A", "Attribute", DieContribution.ALWAYS, ranks_with_xp=True),
        NodeTypeRule("S", "Skill", DieContribution.WHEN_RELEVANT, ranks_with_xp=True),
        NodeTypeRule("AB", "Ability", DieContribution.NEVER, ranks_with_xp=True),
        NodeTypeRule("E", "Effect", DieContribution.NEVER, ranks_with_xp=False),
        NodeTypeRule("T", "Trait", DieContribution.NEVER, ranks_with_xp=False, floor=1),
        NodeTypeRule("R", "Resource", DieContribution.NEVER, ranks_with_xp=False, counts_charges=True),
    )
}

for _rule in NODE_TYPE_RULES.values():
    REGISTRY.define(f"Generic.NodeType.{_rule.name}", _rule.name, _rule.code,
                 summary=f"Node type {_rule.code}: adds a die {_rule.adds_die.value}.",
                 values={"adds_die": _rule.adds_die.value, "floor": _rule.floor,
                         "ranks_with_xp": "yes" if _rule.ranks_with_xp else "no"},
                 implementation=_rule)


def node_type_rule(code: str) -> NodeTypeRule:
    """The rule entry of a type code; unknown codes raise :class:`NodeTypeError`."""
    try:
        return NODE_TYPE_RULES[code]
    except (KeyError, TypeError):
        raise node_type_error(code) from None


@REGISTRY.rule("Generic.Rule.PoolDie", "Pool Die", "RU")
def pool_die(types: str | Iterable[str], rank: int, *, relevant: bool = True) -> int | None:
    """The die a node adds to a pool, or ``None`` if its type adds none.

    Attributes always add their die, skills only when the GM agrees they are relevant, and abilities,
    effects, traits and resources never do (an ability's level changes what it does instead).  A node
    with several types (``E,R``) adds a die if any of its types would.
    """
    if isinstance(types, str):
        codes = [c.strip() for c in types.split(",")]
    elif isinstance(types, (list, tuple, set, frozenset)):
        codes = list(types)
    else:
        raise node_type_error(types)
    rules = [node_type_rule(code) for code in codes]
    contributions = {rule.adds_die for rule in rules}
    if DieContribution.ALWAYS in contributions or (relevant and DieContribution.WHEN_RELEVANT in contributions):
        return rank_die(rank)
    return None


@REGISTRY.rule("Generic.Rule.AbilityLevels", "Ability Levels", "RU")
@dataclass(frozen=True)
class Ability:
    """An ability node: no die, but what it does depends on its level.

    ``effects`` maps the level at which a description starts to apply; the ability uses the entry of
    the highest level it has reached.  ``energy_cost`` is what one use spends (see
    :class:`rules.nemron.energy.Energy`).
    """

    name: str
    effects: Mapping[int, str]
    energy_cost: int = 0

    def effect_at(self, level: int) -> str:
        """The description that applies at ``level`` (a level below every entry has no effect)."""
        rank_die(level)  # validates the level range
        reached = [start for start in self.effects if start <= level]
        if not reached:
            raise NemronError(f"{self.name}: level {level} is below every listed level "
                                  f"({', '.join(map(str, sorted(self.effects)))})")
        return self.effects[max(reached)]


@REGISTRY.rule("Generic.Rule.EffectDecay", "Effect Decay", "RU", values={"trait_floor": 1})
@dataclass
class EffectRank:
    """The rank of a boon or condition: gained stacks add ranks, decay removes them.

    An effect held as a trait (``trait=True``) never decays below rank 1: extra stacks raise it for a
    while, then it settles back at 1.  Any other effect decays to 0 and ends.
    """

    name: str
    rank: int = 0
    trait: bool = False

    def __post_init__(self) -> None:
        require_whole(self.rank, f"{self.name}: the rank", minimum=0, error=NemronError)
        if self.rank < self.floor:
            raise NemronError(f"{self.name}: rank {self.rank} is below its floor {self.floor}")

    @property
    def floor(self) -> int:
        """1 for a trait, 0 otherwise."""
        return NODE_TYPE_RULES["T"].floor if self.trait else 0

    @property
    def active(self) -> bool:
        return self.rank > 0

    def gain(self, ranks: int) -> int:
        """Add ``ranks`` (more of the same boon or condition) and return the new rank."""
        require_whole(ranks, f"{self.name}: ranks gained", minimum=0, error=NemronError)
        self.rank += ranks
        return self.rank

    def decay(self, steps: int = 1) -> int:
        """Lose ``steps`` ranks, never going below the floor; return the new rank."""
        require_whole(steps, f"{self.name}: decay steps", minimum=0, error=NemronError)
        self.rank = max(self.floor, self.rank - steps)
        return self.rank


@REGISTRY.rule("Generic.Rule.Charges", "Charges", "RU", values={"recharge_hours": 8})
@dataclass
class Charges:
    """A resource node: each rank is one charge.

    Spending removes charges (never more than there are).  A resource held as a trait may be spent
    below rank 1, and 8 hours of rest recharge it back to 1.
    """

    name: str
    rank: int = 0
    trait: bool = False

    #: Hours of rest after which a trait resource is back to at least one charge.
    RECHARGE_HOURS = 8

    def __post_init__(self) -> None:
        require_whole(self.rank, f"{self.name}: the number of charges", minimum=0, error=NemronError)

    def spend(self, charges: int = 1) -> int:
        """Use ``charges`` charges and return what is left."""
        require_whole(charges, f"{self.name}: charges spent", minimum=0, error=NemronError)
        if charges > self.rank:
            raise NemronError(f"{self.name}: cannot spend {charges} charge(s), only {self.rank} left")
        self.rank -= charges
        return self.rank

    def rest(self, hours: int) -> int:
        """Rest for ``hours``; a trait resource below 1 is recharged to 1 after 8 hours."""
        require_whole(hours, f"{self.name}: hours of rest", minimum=0, error=NemronError)
        if self.trait and hours >= self.RECHARGE_HOURS and self.rank < 1:
            self.rank = 1
        return self.rank


__all__ = [
    "NODE_TYPES", "RANK_DICE", "MAX_RANK", "rank_die",
    "DieContribution", "NodeTypeRule", "NODE_TYPE_RULES", "node_type_rule",
    "pool_die", "Ability", "EffectRank", "Charges",
]
