"""A tiny registry for the node:sheet tests: two ranked attributes, derived values, a circle."""

from rules.formula import Formula
from rules.nodes import Ranks, Registry

REGISTRY = Registry("tinysheet", title="Tiny", node_types={"A": "Attribute", "R": "Resource", "RU": "Rule"})
REGISTRY.define("Tiny.Attr.Grit", "Grit", "A", ranks=Ranks(0, 4))
REGISTRY.define("Tiny.Attr.Wit", "Wit", "A", ranks=Ranks(0, 4))
REGISTRY.define("Tiny.Res.Stamina", "Stamina", "R", formula=Formula("Grit + Wit + hero_level"))
REGISTRY.define("Tiny.Res.Focus", "Focus", "R", formula=Formula("floor((Stamina + Wit) / 2)"))
REGISTRY.define("Tiny.Res.Luck", "Luck", "R")
REGISTRY.define("Tiny.Rule.Pace", "Pace", "RU", formula=Formula("Grit * 2"))
REGISTRY.define("Tiny.Loop.Ebb", "Ebb", "RU", formula=Formula("Flow + 1"))
REGISTRY.define("Tiny.Loop.Flow", "Flow", "RU", formula=Formula("Ebb + 1"))

from rules.budgets import budget_values  # noqa: E402  (kept beside the budget it makes)

REGISTRY.define("Tiny.Rule.Build", "Build", "RU", formula=Formula("Grit + Wit * 2"),
                values=budget_values(6, choices=(4, 6, 8)))
REGISTRY.define("Tiny.Rule.Odd", "Odd", "RU", formula=Formula("Grit + Nerve"), values=budget_values(3))
