"""Energy by line: the engine of this supplement's optional rule (ours, not the published game's).

The Nemron book mentions a campaign that kept one Energy pool per attribute line before going back to
one pool.  It gives no numbers for that variant; this supplement supplies them: each line's pool has
the core's Energy formula with that line's three attributes, each pool pays for the kind of work its
line does, and each comes back at the core's rate of 1 point per hour of rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.formula import Formula
from rules.nemron import REGISTRY as CORE
from rules.nodes import Registry
from rules.values import is_whole

#: Nemron's three attribute lines and their attributes, as the core book lists them.
LINES: dict[str, tuple[str, str, str]] = {
    "Body": ("Power", "Agility", "Constitution"),
    "Mind": ("Intellect", "Awareness", "Willpower"),
    "Spirit": ("Control", "Sense", "Focus"),
}
#: Each line's pool follows the core formula (three attributes + 5) with that line's attributes.
POOL_FORMULAS = {line: Formula(" + ".join(attributes) + " + 5") for line, attributes in LINES.items()}
#: What each pool pays for in this variant.
PAYS_FOR = {"Body": "hard physical effort", "Mind": "sustained mental work",
            "Spirit": "bonus reactions and abilities"}
_RECOVERY = CORE["Generic.Trait.Energy"].values["recovery"]
if not isinstance(_RECOVERY, int):  # the core engine's own number; a change there must not go unnoticed
    raise TypeError(f"the core's Energy recovery is {_RECOVERY!r}, not a whole number per hour")
RECOVERY_PER_HOUR: int = _RECOVERY

REGISTRY = Registry("nemron-lines", title="Nemron: Energy by line", node_types=dict(CORE.node_types))


class LineEnergyError(ValueError):
    """An unknown line, a missing attribute, or spending Energy a pool does not have."""


def _whole(value: object, what: str) -> int:
    if not is_whole(value) or value < 0:
        raise LineEnergyError(f"{what} must be a whole number of at least 0, not {value!r}")
    return value


def _line(line: str) -> str:
    if line not in LINES:
        raise LineEnergyError(f"{line!r} is not an attribute line (use {', '.join(LINES)})")
    return line


for _name, _formula in POOL_FORMULAS.items():
    REGISTRY.define(f"NemronLines.Trait.{_name}Energy", f"{_name} Energy", "E,R", formula=_formula,
                    summary=f"The {_name} line's Energy pool; it pays for {PAYS_FOR[_name]}.")


@REGISTRY.rule("Generic.Trait.Energy", "Energy", "E,R", values={"recovery": RECOVERY_PER_HOUR},
               summary="Energy by line: three pools, one per attribute line, instead of the core's one.")
@dataclass
class LineEnergy:
    """Three Energy pools, each starting full; spending checks the pool, resting refills all three."""

    maximum: dict[str, int]
    current: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if set(self.maximum) != set(LINES):
            raise LineEnergyError(f"give a maximum for each line ({', '.join(LINES)}), not {sorted(self.maximum)}")
        for line, value in self.maximum.items():
            _whole(value, f"the {line} maximum")
        self.current = {line: self.current.get(line, top) for line, top in self.maximum.items()}
        for line, value in self.current.items():
            if _whole(value, f"current {line} Energy") > self.maximum[line]:
                raise LineEnergyError(f"current {line} Energy {value!r} is above its maximum {self.maximum[line]}")

    @classmethod
    def from_attributes(cls, **attributes: int) -> LineEnergy:
        """The three pools of a character, from all nine attributes by name."""
        missing = [name for names in LINES.values() for name in names if name not in attributes]
        if missing:
            raise LineEnergyError(f"missing attribute(s): {', '.join(missing)}")
        values = {name: _whole(value, name) for name, value in attributes.items()}
        return cls({line: int(formula.evaluate(values)) for line, formula in POOL_FORMULAS.items()})

    def spend(self, line: str, amount: int) -> int:
        """Pay ``amount`` from one line's pool; returns what is left in it."""
        _line(line)
        if _whole(amount, "an Energy cost") > self.current[line]:
            raise LineEnergyError(f"the {line} pool has {self.current[line]} Energy, not {amount}")
        self.current[line] -= amount
        return self.current[line]

    def rest(self, hours: int) -> dict[str, int]:
        """Every pool comes back by the core's rate per hour of rest, up to its maximum."""
        gained = _whole(hours, "hours of rest") * RECOVERY_PER_HOUR
        self.current = {line: min(self.maximum[line], now + gained) for line, now in self.current.items()}
        return dict(self.current)
