"""What every ``rpg`` command shares: exit statuses, the one-line error, and finding a game system.

A leaf, so the commands in modules of their own (``rpg matchup``, ``rpg serve``) need not import the
command line that imports them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rules.nodes import Registry
from rules.systems import SystemLoadError, installed_systems, load_registry
from sphinx_rpg.spelling import did_you_mean

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3


class CliError(Exception):
    """A problem with what the user asked for; printed as one line."""


def registry(system: str) -> Registry:
    """The registry ``--system`` names: a bundled short name or an import path (``mygame.rules:REGISTRY``).

    A game package in the current folder is found as ``python -m`` would find it (the ``rpg`` script
    alone does not put the current folder on ``sys.path``)."""
    _find_game_here(system)
    try:
        return load_registry(system)
    except SystemLoadError as error:
        raise CliError(f"{error}{_system_hint(system)}") from None


def _find_game_here(system: str) -> None:
    """Put the current folder on ``sys.path`` when it holds the package ``--system`` names."""
    top = system.strip().partition(":")[0].partition(".")[0]
    here = Path.cwd()
    if top.isidentifier() and (here / top / "__init__.py").is_file() and str(here) not in sys.path:
        sys.path.insert(0, str(here))


def _system_hint(system: str) -> str:
    """`` (did you mean 'nemron'?)`` among the installed systems and the game packages of the current folder."""

    games = [path.parent.name for path in Path.cwd().glob("*/__init__.py") if path.parent.name.isidentifier()]
    return did_you_mean(system.strip().partition(":")[0].partition(".")[0], [*installed_systems(), *games])
