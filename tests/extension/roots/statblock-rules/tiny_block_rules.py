"""A tiny registry for the node:statblock tests: a goblin built from two rules, and blocks that go wrong."""

from rules.dice import Dist
from rules.nodes import Ranks, Registry
from rules.statblocks import Attack, Stat, StatBlock

REGISTRY = Registry("tinyblock", title="Tiny", node_types={"A": "Attribute", "R": "Resource", "RL": "Roll"})
REGISTRY.define("Tiny.Attr.Grit", "Grit", "A", ranks=Ranks(0, 4))
REGISTRY.define("Tiny.Res.Vigour", "Vigour", "R", formula="Grit * 3 + 1")
REGISTRY.define("Tiny.Roll.Stab", "Stab", "RL", dice="2d6")


def vigour(grit: int) -> int:
    formula = REGISTRY["Tiny.Res.Vigour"].formula
    assert formula is not None
    return int(formula(Grit=grit))


@REGISTRY.statblock("goblin")
def goblin() -> StatBlock:
    return StatBlock("Goblin", "Minion", "Small & mean.", (Stat("Tiny.Attr.Grit", 2),),
                     (Stat("Tiny.Res.Vigour", vigour(2), "points"),),
                     Attack("Knife", "Tiny.Roll.Stab", "2d6", Dist.die(6).repeat_sum(2), (7, 10, 12)))


@REGISTRY.statblock("broken")
def broken() -> StatBlock:
    raise SystemExit("the builder tried to end the build")


@REGISTRY.statblock("stranger")
def stranger() -> StatBlock:
    return StatBlock("Stranger", "NPC", "", (Stat("Tiny.Attr.Nerve", 1),), ())
