"""Character creation: Character Points, Ability Scores and Speed.

There are no classes or levels.  Character Points (CP) buy everything; Ability Scores start at 10 for
free and each point above or below 10 costs or refunds that score's *Value*.  Only two Values are
published (Agility 20, Speed 10); the others can be supplied as house values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.budgets import budget_values
from rules.formula import Formula
from rules.nodes import Ranks
from rules.spurg.registry import REGISTRY, SpurgError
from rules.values import is_whole, require_whole


def ability_score_error(code: str, score: object) -> SpurgError:
    """An Ability Score that is not a whole number of 1 or more."""
    return SpurgError(f"{code} must be a whole number of 1 or more, not {score!r}")


def unknown_ability_value_error(code: str, score: int) -> SpurgError:
    """A score moved away from 10 whose CP Value the sources do not give (and no house value does)."""
    return SpurgError(f"{code} {score} has no published CP Value; pass one with values={{{code!r}: ...}}")


def speed_score_error(score: object) -> SpurgError:
    """Speed written as a score on a sheet: it is derived, so only its adjustment is bought."""
    return SpurgError(f"SPD {score!r} cannot be bought as a score: Speed starts at floor((AGI + VIT) / 2); "
                     "set speed_adjustment instead")


#: Every Ability Score starts here, for 0 CP.
STARTING_SCORE = 10


@dataclass(frozen=True)
class AbilityScore:
    """One Ability Score: its code, its name, its CP Value per point (``None`` if unpublished)."""

    code: str
    name: str
    value: int | None
    governs: str

    def cost(self, score: int, value: int | None = None) -> int:
        """CP spent on (positive) or refunded by (negative) this score; see :func:`ability_cost`."""
        return ability_cost(self.code, score, values={self.code: value} if value is not None else None)


#: Agility (AGI): reflexes, hand-eye coordination, balance; 20 CP a point.
AGILITY = AbilityScore("AGI", "Agility", 20, "reflexes, hand-eye coordination and balance")
#: Vitality (VIT): its Value is not published.
VITALITY = AbilityScore("VIT", "Vitality", None, "half of starting Speed, with Agility")
#: Might (MGT): force behind blows, Lift, thrusting and swinging damage; Value not published.
MIGHT = AbilityScore("MGT", "Might", None, "force of blows, Lift and carrying")
#: Speed (SPD): yards (or metres) per second, Dodge and turn order; 10 CP a point.
SPEED = AbilityScore("SPD", "Speed", 10, "movement per second, dodging and who acts first")

#: The Ability Scores the sources name, by code.
ABILITIES: Mapping[str, AbilityScore] = {a.code: a for a in (AGILITY, VITALITY, MIGHT, SPEED)}

for _score, _summary in ((AGILITY, "Reflexes, hand-eye coordination and balance."),
                           (VITALITY, "Toughness; with Agility it sets starting Speed."),
                           (MIGHT, "Strength: the force of blows, Lift, thrusting and swinging damage."),
                           (SPEED, "Yards per second; also Dodge and turn order.")):
    REGISTRY.define(f"Spurg.Ability.{_score.name}", _score.name, "AS", summary=_summary,
                    ranks=Ranks(minimum=1), implementation=_score,
                    values={"code": _score.code, "start": STARTING_SCORE,
                            "value": "unpublished" if _score.value is None else _score.value})


def _spent(value: object, what: str) -> int:
    """A CP amount on a sheet: a whole number of 0 or more (Drawbacks are written as the CP they refund)."""
    return require_whole(value, what, minimum=0, error=SpurgError)


def _ability(code: object) -> AbilityScore:
    if not isinstance(code, str) or code not in ABILITIES:
        raise SpurgError(f"unknown Ability Score {code!r} (known: {', '.join(ABILITIES)})")
    return ABILITIES[code]


@REGISTRY.rule("Spurg.Rule.AbilityCost", "Ability Score Cost", "RU",
               values={"start": STARTING_SCORE})
def ability_cost(code: str, score: int, *, values: Mapping[str, int] | None = None) -> int:
    """CP for one Ability Score: (score - 10) times its Value; negative is a refund.

    ``values`` supplies house Values for the scores whose Value is unpublished.
    """
    ability = _ability(code)
    if ability is SPEED:
        raise speed_score_error(score)
    if not is_whole(score) or score < 1:
        raise ability_score_error(code, score)
    if score == STARTING_SCORE:
        return 0
    value = (values or {}).get(code, ability.value)
    if value is None:
        raise unknown_ability_value_error(code, score)
    return (score - STARTING_SCORE) * require_whole(value, f"the CP Value of {code}", error=SpurgError)


#: Starting Speed, before any points bought or sold.
STARTING_SPEED = Formula("floor((AGI + VIT) / 2)")


@REGISTRY.rule("Spurg.Rule.StartingSpeed", "Starting Speed", "RU", formula=STARTING_SPEED)
def starting_speed(agi: int, vit: int) -> int:
    """Speed before adjustment: the mean of Agility and Vitality, rounded down."""
    for code, score in (("AGI", agi), ("VIT", vit)):
        if not is_whole(score) or score < 1:
            raise ability_score_error(code, score)
    return int(STARTING_SPEED(AGI=agi, VIT=vit))


#: The published starting guidelines: (at most this many CP, for these characters).
CP_GUIDELINES: tuple[tuple[int, str], ...] = (
    (50, "ordinary real-life people"),
    (100, "grounded protagonists and antagonists"),
    (300, "high-adventure heroes and villains"),
)


@REGISTRY.rule("Spurg.Rule.StartingGuideline", "Starting CP Guideline", "RU",
               values={"ordinary": 50, "grounded": 100, "high_adventure": 300})
def starting_guideline(total_cp: int) -> str | None:
    """The smallest published band a character's CP total fits; ``None`` past the known bands."""
    total_cp = require_whole(total_cp, "a CP total", error=SpurgError)
    for limit, label in CP_GUIDELINES:
        if total_cp <= limit:
            return label
    return None


#: How a human score reads: (lowest score of the band, description), in increasing order.
SCORE_BANDS: tuple[tuple[int, str], ...] = (
    (1, "extremely poor"),
    (8, "typical"),
    (13, "exceptional"),
    (15, "rarely reached by humans"),
)


@REGISTRY.rule("Spurg.Rule.HumanRange", "Human Range", "RU",
               values={"typical_low": 8, "typical_high": 12, "rare_above": 14})
def describe_score(score: int, code: str = "AGI") -> str:
    """How a score compares with ordinary humans (8 to 12 typical); Might scales differently."""
    _ability(code)
    if not is_whole(score) or score < 1:
        raise ability_score_error(code, score)
    if code == "MGT" and score >= SCORE_BANDS[-1][0]:
        return SCORE_BANDS[-2][1]
    label = SCORE_BANDS[0][1]
    for lowest, text in SCORE_BANDS:
        if score >= lowest:
            label = text
    return label


@REGISTRY.rule("Spurg.Resource.CharacterPoints", "Character Points", "R")
@dataclass(frozen=True)
class CharacterSheet:
    """A character's CP budget: Ability Scores, Speed bought or sold, Skills, Benefits and Drawbacks.

    Skill and Benefit prices are unpublished, so they come in as CP totals; Drawbacks refund CP.
    Speed's Value applies to points moved away from the starting Speed, not away from 10.
    """

    scores: Mapping[str, int] = field(default_factory=dict)
    speed_adjustment: int = 0
    skills: int = 0
    benefits: int = 0
    drawbacks: int = 0
    values: Mapping[str, int] = field(default_factory=dict)

    def score(self, code: str) -> int:
        """A score as it stands (Speed from Agility and Vitality plus the adjustment)."""
        if code == "SPD":
            return self.speed
        _ability(code)
        return self.scores.get(code, STARTING_SCORE)

    @property
    def speed(self) -> int:
        speed = (starting_speed(self.score("AGI"), self.score("VIT"))
                 + require_whole(self.speed_adjustment, "a Speed adjustment", error=SpurgError))
        if speed < 1:
            raise ability_score_error("SPD", speed)
        return speed

    def cost(self) -> int:
        """Total CP: scores, Speed points, Skills and Benefits, less Drawbacks."""
        total = 0
        for code, score in self.scores.items():
            if code == "SPD":
                raise speed_score_error(score)
            total += ability_cost(code, score, values=self.values)
        _ = self.speed  # a Speed sold below 1 is refused
        assert SPEED.value is not None  # Speed's CP Value is published
        total += require_whole(self.speed_adjustment, "a Speed adjustment", error=SpurgError) * SPEED.value
        total += _spent(self.skills, "Skills") + _spent(self.benefits, "Benefits")
        return total - _spent(self.drawbacks, "Drawbacks")


assert AGILITY.value is not None and SPEED.value is not None  # the two published Values
#: CP the published prices charge for a sheet's scores: Agility's points from 10, Speed's from its start.
ABILITY_POINTS = Formula(f"({AGILITY.code} - {STARTING_SCORE}) * {AGILITY.value}"
                         f" + ({SPEED.code} - {STARTING_SPEED}) * {SPEED.value}")


@REGISTRY.rule("Spurg.Rule.AbilityPoints", "Ability Score Points", "RU", formula=ABILITY_POINTS,
               values=budget_values(CP_GUIDELINES[1][0], choices=[limit for limit, _ in CP_GUIDELINES], unit="CP"))
def ability_points(agi: int, vit: int, spd: int) -> int:
    """CP that Agility and Speed cost at their published Values (Vitality's price is unpublished).

    The same total as :meth:`CharacterSheet.cost` of those scores alone; the sheet counts it against
    a starting guideline (``grounded``, 100 CP, unless the table picks another).
    """
    sheet = CharacterSheet(scores={"AGI": agi, "VIT": vit}, speed_adjustment=spd - starting_speed(agi, vit),
                           values={"VIT": 0})
    return sheet.cost()
