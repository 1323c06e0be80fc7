"""Energy: the one pool every character spends on effort, bonus reactions and abilities.

Its maximum comes from the Spirit line; it drains by the hour under hard effort, by 2 for a bonus
reaction (once a round), by an ability's cost, or by Neural damage, and comes back 1 point per hour
of rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.formula import Formula
from rules.nemron.actions import Turn
from rules.nemron.nodes import MAX_RANK
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole, require_whole

#: The Energy maximum as the book prints it.
MAX_ENERGY = Formula("Control + Sense + Focus + 5")
#: Energy per hour of hard physical effort, per bonus reaction, and regained per hour of rest.
EFFORT_COST_PER_HOUR, BONUS_REACTION_COST, RECOVERY_PER_HOUR = 1, 2, 1


@REGISTRY.rule("Generic.Trait.Energy", "Energy", "E,R", formula=str(MAX_ENERGY),
            values={"base": 5, "effort_cost": EFFORT_COST_PER_HOUR, "bonus_reaction_cost": BONUS_REACTION_COST,
                    "recovery": RECOVERY_PER_HOUR})
@dataclass
class Energy:
    """A character's Energy: a resource trait whose maximum is Control + Sense + Focus + 5.

    ``current`` starts full.  Every way of spending checks that enough is left, so a sheet can never go
    negative.
    """

    maximum: int
    current: int = -1
    bonus_reaction_rounds: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        require_whole(self.maximum, "maximum Energy", minimum=0, error=NemronError)
        if self.current == -1:
            self.current = self.maximum
        require_whole(self.current, "current Energy", minimum=0, error=NemronError)
        if not 0 <= self.current <= self.maximum:
            raise NemronError(f"current Energy {self.current!r} is outside 0-{self.maximum}")

    @classmethod
    def from_spirit(cls, control: int, sense: int, focus: int) -> Energy:
        """A full pool for a character with these Spirit-line ranks."""
        for name, rank in (("Control", control), ("Sense", sense), ("Focus", focus)):
            if not is_whole(rank) or not 0 <= rank <= MAX_RANK:
                raise NemronError(f"{name} rank {rank!r} must be a whole number from 0 to {MAX_RANK}")
        return cls(MAX_ENERGY.whole(Control=control, Sense=sense, Focus=focus))

    def spend(self, amount: int) -> int:
        """Pay ``amount`` (an ability's cost, say) and return what is left."""
        require_whole(amount, "an Energy cost", minimum=0, error=NemronError)
        if amount > self.current:
            raise NemronError(f"cannot spend {amount} Energy: only {self.current} left")
        self.current -= amount
        return self.current

    def effort(self, hours: int) -> int:
        """Hard physical effort (jogging, climbing a mountain): 1 Energy per hour."""
        return self.spend(require_whole(hours, "hours of effort", minimum=0, error=NemronError) * EFFORT_COST_PER_HOUR)

    def bonus_reaction(self, round_number: int, turn: Turn) -> int:
        """Buy one bonus reaction for 2 Energy, only once in any round: ``turn`` gains the reaction.

        Payment and reaction go together, so no caller can pay and forget to grant it.
        """
        if not isinstance(turn, Turn):
            raise NemronError(f"the bonus reaction goes to a Turn, not {turn!r}")
        if not is_whole(round_number) or round_number < 1:
            raise NemronError(f"the round must be a whole number of at least 1, not {round_number!r}")
        if round_number in self.bonus_reaction_rounds:
            raise NemronError(f"round {round_number}: a bonus reaction was already bought this round")
        left = self.spend(BONUS_REACTION_COST)
        self.bonus_reaction_rounds.add(round_number)
        turn.bonus("reaction")
        return left

    def rest(self, hours: int) -> int:
        """Rest: 1 Energy back per hour, up to the maximum."""
        self.current = min(self.maximum, self.current + require_whole(hours, "hours of rest", minimum=0,
                                                                      error=NemronError) * RECOVERY_PER_HOUR)
        return self.current

    def drain(self, amount: int) -> int:
        """Lose Energy to damage (Neural): unlike spending, this stops at 0 instead of failing."""
        self.current = max(0, self.current - require_whole(amount, "Energy drained", minimum=0, error=NemronError))
        return self.current


REGISTRY.define("Generic.Rule.EffortEnergy", "Effort", "RU", implementation=Energy.effort,
             summary="Hard physical effort costs 1 Energy per hour.", values={"cost": EFFORT_COST_PER_HOUR})
REGISTRY.define("Generic.Rule.BonusReaction", "Bonus Reaction for Energy", "RU", implementation=Energy.bonus_reaction,
             summary="2 Energy buys one bonus reaction, once per round.", values={"cost": BONUS_REACTION_COST})
REGISTRY.define("Generic.Rule.AbilityEnergy", "Ability Cost", "RU", implementation=Energy.spend,
             summary="Abilities and skills with an Energy requirement spend it from the same pool.")
REGISTRY.define("Generic.Rule.EnergyRecovery", "Energy Recovery", "RU", implementation=Energy.rest,
             summary="Rest returns 1 Energy per hour.", values={"per_hour": RECOVERY_PER_HOUR})
