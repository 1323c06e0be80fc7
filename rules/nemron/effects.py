"""Effects: boons and conditions that act on characters, and the intentions that apply them.

Applying a boon or condition is a roll: the ranks gained equal the kept result unless the source of
the effect says otherwise.  Boons then fade one rank per round (an effect held as a trait never drops
below rank 1; see :class:`rules.nemron.nodes.EffectRank`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.dice import DiceSource
from rules.nemron.checks import Drama, Pool, as_pool
from rules.nemron.nodes import Charges, EffectRank
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole


@dataclass(frozen=True)
class Condition:
    """A named condition or boon of the book, with what this book knows about it."""

    name: str
    kind: str
    text: str

    def start(self, rank: int = 0, *, trait: bool = False) -> EffectRank:
        """A fresh rank counter for this effect on one character."""
        return EffectRank(self.name, rank, trait)


INSPIRED = Condition("Inspired", "boon", "a boon that is also a resource: each rank is one use")
DAZED = Condition("Dazed", "condition", "a condition a hard fall may add, at the GM's choice")
STAGGER = Condition("Stagger", "condition", "a condition a hard fall may add, at the GM's choice")

REGISTRY.define("Generic.Boon.Inspired", "Inspired", "E,R", implementation=INSPIRED, summary=INSPIRED.text)
REGISTRY.define("Generic.Condition.Dazed", "Dazed", "E", implementation=DAZED, summary=DAZED.text)
REGISTRY.define("Generic.Condition.Stagger", "Stagger", "E", implementation=STAGGER, summary=STAGGER.text)


@REGISTRY.rule("Generic.Rule.ApplyEffect", "Applying an Effect", "RU")
def apply_effect(effect: EffectRank, pool: Pool | str, source: DiceSource, *, fixed: int | None = None) -> int:
    """Apply a boon or condition: roll ``pool`` and add the kept result as ranks.

    An effect whose description fixes the ranks passes ``fixed`` (no roll is made).  Returns the ranks
    gained.
    """
    if fixed is not None:
        if not is_whole(fixed) or fixed < 0:
            raise NemronError(f"{effect.name}: fixed ranks must be a whole number >= 0, not {fixed!r}")
        gained = fixed
    else:
        gained = max(as_pool(pool).roll(source))
    effect.gain(gained)
    return gained


@REGISTRY.rule("Generic.Rule.Intention", "Intentions", "RU")
class Intention(str, Enum):
    """What an action sets out to do; weapons, skills and items grant the intentions they allow."""

    USE_ABILITY = "Use Ability"
    DO_DAMAGE = "Do Damage"
    APPLY_BOONS = "Apply Boons"
    APPLY_CONDITIONS = "Apply Conditions"


#: Points of Luck that good drama grants.
LUCK_PER_GOOD_DRAMA = 1


@REGISTRY.rule("Generic.Trait.Luck", "Luck", "E,R", values={"per_good_drama": LUCK_PER_GOOD_DRAMA})
def gain_luck(luck: Charges, outcome: Drama) -> int:
    """Good drama (a 20 on the drama die) may be taken as 1 point of Luck; return the points held.

    The player picks Luck instead of an automatic success or a GM's twist.  What a point of Luck buys
    is not on the rules page: spending it (:meth:`Charges.spend`) is narrated by the GM.
    """
    if not isinstance(luck, Charges):
        raise NemronError(f"Luck is counted in Charges, not {luck!r}")
    if outcome is not Drama.GOOD:
        raise NemronError(f"only good drama grants Luck, not {outcome!r}")
    luck.rank += LUCK_PER_GOOD_DRAMA
    return luck.rank
