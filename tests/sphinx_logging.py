"""Sphinx's debug messages dropped where they are made, not by every handler, in the test processes.

Sphinx sets its logger to DEBUG and leaves the choice to its handlers, so every app a test makes
builds a log record for each of the few hundred debug messages its set-up writes ("adding directive",
"connecting event"...), and each handler then drops it: about a twentieth of a small test build's CPU.
After Sphinx has set up its handlers, the logger is set to the lowest level any of them shows, so a
message no handler would show is never made; what the handlers show is the same.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def debug_dropped_at_the_logger() -> Iterator[None]:
    """While open, each Sphinx app's logger starts at the lowest level of its own handlers."""
    from sphinx.util import logging as sphinx_logging

    original: Callable[..., None] = sphinx_logging.setup

    def setup(*args: Any, **kwargs: Any) -> None:
        original(*args, **kwargs)
        logger = logging.getLogger(sphinx_logging.NAMESPACE)
        logger.setLevel(min((handler.level for handler in logger.handlers), default=logging.DEBUG))

    sphinx_logging.setup = setup
    try:
        yield
    finally:
        sphinx_logging.setup = original
