"""sphinx-rpg's exact dice engine: distributions, mechanics, notation and rolling.

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
:class:`ComputationTooLargeError` rather than hang; notation is bounded by :data:`MAX_DICE` and
:data:`MAX_SIDES`.
"""

from .distribution import Dist, Outcomes, compare
from .errors import ComputationTooLargeError, DiceError, ScriptExhaustedError, ScriptFaceError
from .expr import Constant, Dice, DiceExpr, Explode, Keep, Pool, SuccessCount, Sum
from .mechanics import (
    EXPLODE_DEPTH,
    EXPLOSION_TAIL,
    NaturalsCheck,
    RollUnder,
    Verdict,
    advantage,
    contest,
    count_successes,
    disadvantage,
    explode,
    face_counts,
    fumble_probability,
    heimr_challenge,
    keep,
    keep_highest,
    keep_lowest,
    location_tally,
    nat_override,
    opposed,
    p_success_with_naturals,
    pool_outcomes,
    roll_under,
)
from .notation import MAX_CONSTANT, MAX_DICE, MAX_LENGTH, MAX_SIDES, NotationError, parse
from .rollers import roll_heimr, roll_keep, roll_locations, roll_successes
from .rolling import DiceSource, DieRoll, RollResult, ScriptedSource, SeededSource, default_source


def clear_caches() -> None:
    """Empty every memo of the engine (distributions of dice, pools, success counts, ...).

    The caches only hold immutable values keyed by immutable inputs, so clearing them never changes
    a result; benchmarks use it to time cold computations.
    """
    from . import distribution, heimr, mechanics, successes
    from .keep import _keep, _keep_highest, _keep_lowest

    for fn in (distribution.Dist.die, distribution._repeat_sum, _keep_highest, _keep_lowest, _keep,
               successes._count_successes,
               successes._lid_off_chain, heimr._raw, mechanics._face_counts, mechanics._explode):
        fn.cache_clear()


__all__ = [
    "clear_caches", "ComputationTooLargeError", "Constant", "Dice", "DiceError", "DiceExpr", "DiceSource", "DieRoll",
    "Dist", "EXPLODE_DEPTH", "EXPLOSION_TAIL", "Explode", "Keep", "MAX_CONSTANT", "MAX_DICE",
    "MAX_LENGTH", "MAX_SIDES", "NaturalsCheck", "NotationError", "Outcomes", "Pool", "RollResult",
    "RollUnder", "ScriptExhaustedError", "ScriptFaceError", "ScriptedSource", "SeededSource",
    "SuccessCount", "Sum", "Verdict", "advantage", "compare", "contest", "count_successes",
    "default_source", "disadvantage", "explode", "face_counts", "fumble_probability",
    "heimr_challenge", "keep", "keep_highest", "keep_lowest", "location_tally", "nat_override",
    "opposed", "p_success_with_naturals", "parse", "pool_outcomes", "roll_heimr", "roll_keep",
    "roll_locations", "roll_successes", "roll_under",
]
