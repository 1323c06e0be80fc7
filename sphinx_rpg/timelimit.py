"""A CPU-time limit for one call into code the extension does not own (a stat block or table builder).

A builder that never returns would otherwise hang the whole build.  Python cannot stop a running
function from outside, so the limit is a profiling timer (``SIGPROF``, counted in CPU time of the
process) whose handler raises :class:`EngineTimeLimit` inside the call.  The timer runs only for the
length of the call, and the handler is installed for the call alone or, for a loop of many calls, once
around the loop (:func:`engine_calls`): the previous handler and timer are put back on every exit
path, so the host process is left as it was found.  The timer fires again every
:data:`REPEAT` seconds after the limit, so a builder that swallows the first exception meets the next.

Where a timer cannot be had (a thread other than the main one, a platform without ``setitimer``),
the call runs unbounded; the manual says so.  ``-j`` builds read in forked processes, each in its
own main thread, so the limit holds there too.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

#: The configuration value (seconds of CPU per call; 0 turns the limit off).
SETTING = "rpg_engine_time_limit"
DEFAULT_SECONDS = 10.0
#: After the limit, the timer fires again this often until the call has returned.
REPEAT = 0.05
#: The limit of the build under way (set from the configuration at config-inited).
LIMIT: ContextVar[float] = ContextVar(SETTING, default=DEFAULT_SECONDS)
#: What ``signal.signal`` takes and returns.
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


class EngineTimeLimit(Exception):
    """The call ran past its CPU-time limit."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"still running after {seconds:g} s of CPU time, the limit set by {SETTING}; "
                         "it was stopped")


def can_limit() -> bool:
    """A profiling timer is available here: a POSIX platform, and this is the main thread."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


class _Session(threading.local):
    """This thread's open :func:`engine_calls` block: the handler is ours until it ends."""

    open = False
    #: The limit of the call under way (0: no call is being timed, so a signal is not ours).
    running = 0.0


_SESSION = _Session()


def _expired(signum: int, frame: FrameType | None) -> None:
    """The one handler: it stops a timed call; a signal arriving between calls is dropped."""
    seconds = _SESSION.running
    if seconds:
        raise EngineTimeLimit(seconds)


class cpu_time_limit:  # a context manager, named as the function it replaced
    """Raise :class:`EngineTimeLimit` in the body once it has used ``seconds`` of CPU; 0 or less: no limit.

    A class, not a generator: the build makes one per call into engine code.  Inside
    :func:`engine_calls` only the timer is set; outside, the handler is installed for the call alone.
    """

    __slots__ = ("outer", "previous_handler", "previous_timer", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.previous_handler: Handler = None
        self.previous_timer: tuple[float, float] | None = None
        self.outer = 0.0

    def __enter__(self) -> None:
        if self.seconds <= 0 or not can_limit():
            return
        self.outer = _SESSION.running
        if not _SESSION.open:
            self.previous_handler = signal.signal(signal.SIGPROF, _expired)
        _SESSION.running = self.seconds
        self.previous_timer = signal.setitimer(signal.ITIMER_PROF, self.seconds, REPEAT)

    def __exit__(self, *exc: object) -> None:
        if self.previous_timer is None:
            return
        while True:  # a signal landing while the timer is put away is caught and the work done again
            try:
                _SESSION.running = 0.0
                signal.setitimer(signal.ITIMER_PROF, 0)
                if not _SESSION.open:
                    signal.signal(signal.SIGPROF, self.previous_handler)
                _SESSION.running = self.outer
                if self.previous_timer != (0.0, 0.0):  # an outer call's time left, or the host's timer
                    signal.setitimer(signal.ITIMER_PROF, *self.previous_timer)
                break
            except EngineTimeLimit:
                continue


@contextlib.contextmanager
def engine_calls() -> Iterator[None]:
    """Many bounded calls in a row: the handler is installed once for all of them, and the previous
    handler and timer put back when the block ends, however it ends.  Each call is still bounded by
    its own :class:`cpu_time_limit`; between calls no timer of ours runs."""
    if _SESSION.open or not can_limit():
        yield
        return
    outer = _SESSION.running  # a call under way around the loop: its limit holds again afterwards
    previous_handler = signal.signal(signal.SIGPROF, _expired)
    previous_timer = signal.setitimer(signal.ITIMER_PROF, 0)
    _SESSION.running = 0.0
    _SESSION.open = True
    try:
        yield
    finally:
        _SESSION.open = False
        _restore(previous_handler, previous_timer, outer)


def _restore(handler: Handler, timer: tuple[float, float], running: float = 0.0) -> None:
    """The timer stopped before the handler goes, so no signal of ours meets the previous handler;
    ``running``: the limit of the call under way when the timer was taken, in force again with it."""
    _SESSION.running = 0.0
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.signal(signal.SIGPROF, handler)
    _SESSION.running = running
    if timer != (0.0, 0.0):
        signal.setitimer(signal.ITIMER_PROF, *timer)


def engine_time_limit() -> float:
    """Seconds of CPU one call into engine code may take in the build under way."""
    return LIMIT.get()


def _take_setting(app: Sphinx, config: Config) -> None:
    value = config[SETTING]
    LIMIT.set(float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else DEFAULT_SECONDS)


def setup(app: Sphinx) -> None:
    """The setting, read at the start of every build."""
    app.add_config_value(SETTING, DEFAULT_SECONDS, "env", (int, float),
                         description="seconds of CPU one stat block, table or value builder may take "
                                     "before it is stopped with a node.* warning (0: no limit)")
    app.connect("config-inited", _take_setting)
