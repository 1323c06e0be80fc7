"""The boundary between the book and code it does not own: rule objects, registries, table providers.

Whatever such code raises (an engine bug, a ``sys.exit()`` in a registry module, a hostile
``__str__``) is turned into :class:`EngineFailure` here, so the caller reports it as a located
``node.*`` warning and the rest of the site builds.  Only ``KeyboardInterrupt`` passes: a reader
pressing Ctrl-C must still stop the build.
"""

from __future__ import annotations

import re
import sysconfig
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from sphinx_rpg.timelimit import cpu_time_limit, engine_time_limit

T = TypeVar("T")
P = ParamSpec("P")

MAX_MESSAGE = 300
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """Control characters (newlines included) escaped, long text cut: a message stays one line."""
    escaped = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return escaped if len(escaped) <= limit else escaped[:limit - 3] + "..."


def describe(error: BaseException) -> str:
    """``TypeName: message`` on one line, even when the exception cannot print itself."""
    try:
        message = str(error)
    except BaseException:
        message = "(the exception's message cannot be printed)"
    name = type(error).__name__
    return one_line(f"{name}: {message}" if message else name)


#: sphinx-rpg's own packages: an error raised in them is reported at the designer's line that called them.
_OURS = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "rules")
_STDLIB = tuple(Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "platstdlib"))


def origin(error: BaseException) -> str:
    """``file:line`` where the engine went wrong: a syntax error's own line, else the innermost frame of the
    designer's code (outside sphinx-rpg and the standard library), else the innermost frame of the engine."""
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        return f"{error.filename}:{error.lineno}"
    frames = [(frame.filename, frame.lineno) for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.startswith("<")]

    def inside(filename: str, folders: tuple[Path, ...]) -> bool:
        path = Path(filename).resolve()
        return any(path.is_relative_to(folder) for folder in folders)

    own, stdlib = _OURS[:1], _STDLIB
    for excluded in (own + _OURS[1:] + stdlib, own + stdlib):
        found = [(name, line) for name, line in frames if not inside(name, excluded)]
        if found:
            return f"{found[-1][0]}:{found[-1][1]}"
    return ""


class EngineFailure(Exception):
    """Code outside the extension failed; ``error`` is what it raised, ``where`` the engine's file and line."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        try:
            self.where = origin(error)
        except Exception:  # a traceback that cannot be read costs the location, nothing more
            self.where = ""
        super().__init__(describe(error) + (f" (raised at {self.where})" if self.where else ""))


def call_engine(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Call code the extension does not own; any failure but Ctrl-C becomes :class:`EngineFailure`.

    The call is bounded: past ``rpg_engine_time_limit`` seconds of CPU it is stopped (also an
    :class:`EngineFailure`), so a builder that never returns costs one warning, not the build.
    """
    try:
        with cpu_time_limit(engine_time_limit()):
            return function(*args, **kwargs)
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise EngineFailure(error) from error


def rule_facts(rule: object) -> tuple[object, ...]:
    """A rule object's facts, or none when they cannot be computed (``node:def`` warns, as node.facts)."""
    facts = getattr(rule, "facts", None)
    if facts is None:
        return ()
    try:
        return call_engine(lambda: tuple(facts()))
    except EngineFailure:
        return ()
