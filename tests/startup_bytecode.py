"""Bytecode kept for what pytest imports while it starts: ``-p tests.startup_bytecode`` (``dev.py test``).

The test command forbids bytecode (``PYTHONDONTWRITEBYTECODE``, see ``dev.run``), so every pytest process
(the xdist controller and each worker) rewrote the asserts of the installed plugins from their source:
pytest rewrites a plugin's whole distribution, Hypothesis' seventy modules among them, and xdist's, and
the conftest files.  That was about a second and a half of CPU per process, every run.  Named with ``-p``,
this module is imported before the installed plugins and lets pytest and Python keep the bytecode of
what the process imports until its session has started (xdist's controller imports its own modules
then); from there on the environment's choice holds again (the test modules' bytecode is kept while
they are collected, one worker at a time: tests/conftest.py).  No test has run by then, so no module a
test writes or edits is ever compiled into a stale file.
"""

from __future__ import annotations

import sys

import pytest

#: What the environment asked for (PYTHONDONTWRITEBYTECODE or ``-B``), given back at ``pytest_sessionstart``.
FORBIDDEN = sys.dont_write_bytecode
sys.dont_write_bytecode = False


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    sys.dont_write_bytecode = FORBIDDEN
