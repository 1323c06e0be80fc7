"""Characters: the six attributes, hit points and willpower.

A Heimr character carries two resources shared with the LARP rules (hit points and willpower) and,
at the table, six attributes from which abilities derive their potential.  The attribute list is
data: a GM who uses another set builds another tuple of :class:`Attribute`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.heimr.experience import LOWEST_ATTRIBUTE
from rules.heimr.registry import REGISTRY, HeimrError
from rules.nodes import Ranks
from rules.values import is_whole


@dataclass(frozen=True)
class Attribute:
    """One attribute: its name, the abbreviation tables use, and whether it is physical.

    Physical matters because fatigue gates only rolls on physical attributes.
    """

    name: str
    abbreviation: str
    physical: bool = False


#: The six standard attributes; the first three are the physical ones.
STANDARD_ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute("Strength", "Str", physical=True),
    Attribute("Dexterity", "Dex", physical=True),
    Attribute("Stamina", "Sta", physical=True),
    Attribute("Intelligence", "Int"),
    Attribute("Social", "Soc"),
    Attribute("Empathy", "Emp"),
)

for _attribute in STANDARD_ATTRIBUTES:
    REGISTRY.define(f"Heimr.Attribute.{_attribute.name}", _attribute.name, "A",
                    summary=f"{'Physical' if _attribute.physical else 'Non-physical'} attribute, "
                            f"abbreviated {_attribute.abbreviation}.",
                    values={"abbreviation": _attribute.abbreviation}, implementation=_attribute,
                    ranks=Ranks(minimum=LOWEST_ATTRIBUTE))


def find_attribute(name: str, attributes: Iterable[Attribute] = STANDARD_ATTRIBUTES) -> Attribute:
    """Look an attribute up by name or abbreviation, ignoring case (``"dex"`` is Dexterity)."""
    wanted = name.strip().lower() if isinstance(name, str) else None
    for attribute in attributes:
        if wanted in (attribute.name.lower(), attribute.abbreviation.lower()):
            return attribute
    known = ", ".join(a.abbreviation for a in attributes)
    raise HeimrError(f"no attribute {name!r} (known: {known})")


def _check_amount(value: object, what: str) -> int:
    if not is_whole(value):
        raise HeimrError(f"{what} must be a whole number, not {value!r}")
    return value


@dataclass
class Resource:
    """A pool with a maximum that damage lowers and rest restores."""

    maximum: int
    current: int | None = None

    def __post_init__(self) -> None:
        _check_amount(self.maximum, "a maximum")
        if self.maximum < 0:
            raise HeimrError(f"a maximum cannot be negative: {self.maximum}")
        self.current = self.maximum if self.current is None else _check_amount(self.current, "a current value")

    def lose(self, amount: int) -> int:
        """Lower the pool (it may go below zero: negative hit points are injury levels)."""
        if _check_amount(amount, "an amount lost") < 0:
            raise HeimrError(f"cannot lose a negative amount: {amount}")
        self.current = (self.maximum if self.current is None else self.current) - amount
        return self.current

    def restore(self) -> int:
        """Back to the maximum."""
        self.current = self.maximum
        return self.current


@REGISTRY.rule("Heimr.Resource.HitPoints", "Hit points", "R", values={"abbreviation": "HP"})
class HitPoints(Resource):
    """Hit points: a hit removes them; at zero or below the character is injured."""

    @property
    def injured(self) -> bool:
        """Zero or fewer hit points means injured (see the health rules)."""
        return self.current is not None and self.current <= 0


@REGISTRY.rule("Heimr.Resource.Willpower", "Willpower", "R", values={"abbreviation": "WP"})
class Willpower(Resource):
    """Willpower: spent on skills, drained by the Drain effect, and the potential of initiative."""


@dataclass
class Character:
    """A character sheet reduced to what the rules read: attribute values and the two resources."""

    name: str
    attributes: Mapping[str, int] = field(default_factory=dict)
    hp: HitPoints = field(default_factory=lambda: HitPoints(0))
    wp: Willpower = field(default_factory=lambda: Willpower(0))

    def attribute(self, name: str) -> int:
        """The value of an attribute, by name or abbreviation."""
        attribute = find_attribute(name)
        for key, value in self.attributes.items():
            if find_attribute(key) == attribute:
                if not is_whole(value) or value < LOWEST_ATTRIBUTE:
                    raise HeimrError(f"{self.name}'s {attribute.name} must be a whole number of at "
                                                f"least {LOWEST_ATTRIBUTE}, not {value!r}")
                return value
        raise HeimrError(f"{self.name} has no value for {attribute.name} ({name!r})")
