"""The exceptions of the dice engine, in one place so every module can raise them without cycles."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")


class DiceError(Exception):
    """Base class of every error the dice engine raises on purpose."""


class ComputationTooLargeError(DiceError, ValueError):
    """An exact computation would need more work or memory than the engine allows.

    The engine refuses instead of hanging: a rulebook build must never stall on ``1000d10000kh500``.
    Rolling such an expression still works; only its exact distribution is refused.
    """


class ScriptExhaustedError(DiceError):
    """A :class:`~rules.dice.rolling.ScriptedSource` was asked for more faces than it was given."""


class ScriptFaceError(DiceError, ValueError):
    """A scripted face cannot occur on the die being rolled (e.g. a 7 scripted for a d6)."""


#: Work units of one Python-level step (a loop iteration with a small multiply-add).  A unit is
#: about a nanosecond of one core of an unloaded machine; ``rules.dice.cost`` prices every step.
PY_STEP = 50

#: The budget of one exact computation, in work units: about half a second of CPU time (the units are
#: calibrated by ``bench/dice_calibrate.py``), so that with the model's error (within 3x family to
#: family, ``bench/dice_calibrate.py --check``) every expression answers within about a second.
MAX_WORK = 600_000_000

#: How much slower the in-page calculator's Pyodide runs the engine than CPython: measured about 3x
#: (Pyodide 314.0.7 in V8 against CPython 3.11, median over the calibration expressions), rounded up.
BROWSER_SLOWDOWN = 4

#: The in-page calculator's budget: the same time in the browser as :data:`MAX_WORK` here.
BROWSER_WORK = MAX_WORK // BROWSER_SLOWDOWN


def use_browser_budget() -> int:
    """Lower the budget to :data:`BROWSER_WORK` for the rest of the process: the calculator's worker
    calls it once after loading the engine.  Returns the budget now in force."""
    global MAX_WORK
    MAX_WORK = BROWSER_WORK
    return MAX_WORK


#: True while a whole expression already priced and accepted (``DiceExpr.dist``) computes: its steps
#: then skip pricing themselves again (the work model is priced once per question).
_PRICED: ContextVar[bool] = ContextVar("rules_dice_priced", default=False)


def priced() -> bool:
    """Whether the running computation was priced as a whole before it started."""
    return _PRICED.get()


def run_priced(fn: Callable[[], T]) -> T:
    """Run ``fn`` (a computation whose whole work was just checked) without pricing each step again."""
    if _PRICED.get():
        return fn()
    token = _PRICED.set(True)
    try:
        return fn()
    finally:
        _PRICED.reset(token)


def check_work(units: int, what: str | Callable[[], str]) -> None:
    """Raise :class:`ComputationTooLargeError` when ``units`` (an operation estimate) is too many.

    ``what`` names the computation; a function giving the name is called only to refuse (writing out
    an expression costs more than pricing a small one)."""
    if units > MAX_WORK:
        if callable(what):
            what = what()
        raise ComputationTooLargeError(
            f"{what}: the exact distribution needs about {units:,} steps, more than the limit of "
            f"{MAX_WORK:,}; roll it instead, or use fewer dice or sides"
        )
