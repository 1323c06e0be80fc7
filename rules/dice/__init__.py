"""sphinx-rpg's exact dice engine: distributions, sums, keep, success counting, explosions, compare,
notation and rolling.

It knows no game: each game's mechanic (Heimr's challenge, NUGGET's lids, Nemron's pools, SPURG's
Verdict Roll) lives once, in ``rules/<system>/``, composed from these pieces.

Pure Python (no Sphinx, no ``eval``).  Probabilities are exact ``Fraction`` values; every mechanic uses
its closed form (products of CDFs, binomials, order statistics) rather than enumerating outcomes.

Explosions, the only mechanics with unbounded dice, follow two documented rules:

* success counting with ``lid="off"`` (:func:`count_successes`) is exact for *unlimited* explosions;
  the distribution stops at the first success count whose tail is at most :data:`EXPLOSION_TAIL`
  (2**-64) and that cap outcome carries the exact tail P(K >= cap).  ``max_depth=D`` instead gives the
  finite variant "at most D re-rolls per die" exactly.
* exploding sums (``d6!``, :func:`explode`) re-roll a die at most :data:`EXPLODE_DEPTH` (9) times, the
  last re-roll added as rolled; ``dist()`` and ``roll()`` both follow that rule exactly.

Every exact computation is bounded (``errors.MAX_WORK``) and raises
:class:`ComputationTooLargeError` rather than hang; a parsed expression prices all of its work first
(``DiceExpr.plan``, :mod:`rules.dice.cost`), so it answers or refuses at once.  Notation is bounded by
:data:`MAX_DICE`, :data:`MAX_SIDES` and :data:`MAX_LENGTH`.
"""

from .distribution import Dist, Outcomes, compare
from .errors import ComputationTooLargeError, DiceError, ScriptExhaustedError, ScriptFaceError
from .exploding import EXPLODE_DEPTH, explode
from .expr import Constant, Dice, DiceExpr, Explode, Fudge, Keep, Reroll, Scale, SuccessCount, Sum
from .keep import advantage, disadvantage, keep, keep_highest, keep_lowest
from .notation import MAX_CONSTANT, MAX_DICE, MAX_LENGTH, MAX_SIDES, NotationError, parse
from .rolling import DiceSource, DieRoll, RollResult, ScriptedSource, SeededSource, default_source
from .successes import EXPLOSION_TAIL, count_successes, fumble_probability, pool_outcomes


def clear_caches() -> None:
    """Empty every memo of the engine (distributions of dice, pools, success counts, ...).

    The caches only hold immutable values keyed by immutable inputs, so clearing them never changes
    a result; benchmarks use it to time cold computations.
    """
    from . import distribution, exploding, notation, successes
    from .keep import _keep, _keep_highest, _keep_lowest

    for fn in (distribution.Dist.die, distribution._repeat_sum, distribution.priced_fair_sum, _keep_highest,
               _keep_lowest, _keep, successes._count_successes, successes._lid_off_chain, exploding._explode,
               notation._parse):
        fn.cache_clear()


__all__ = [
    "clear_caches", "ComputationTooLargeError", "Constant", "Dice", "DiceError", "DiceExpr", "DiceSource",
    "DieRoll", "Dist", "EXPLODE_DEPTH", "EXPLOSION_TAIL", "Explode", "Fudge", "Keep", "MAX_CONSTANT", "MAX_DICE",
    "MAX_LENGTH", "MAX_SIDES", "NotationError", "Outcomes", "Reroll", "RollResult", "Scale", "ScriptExhaustedError",
    "ScriptFaceError", "ScriptedSource", "SeededSource", "SuccessCount", "Sum", "advantage", "compare",
    "count_successes", "default_source", "disadvantage", "explode", "fumble_probability", "keep",
    "keep_highest", "keep_lowest", "parse", "pool_outcomes",
]
