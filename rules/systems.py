"""How a game system plugs its own dice into every tool: one registration, found one way.

A system with a notation of its own (Nemron's ``Agility 2 › Athletics 1``, Heimr's ``C+3 P-1``,
NUGGET's ``5 dice lid-off``) sets ``REGISTRY.notation`` to a :class:`SystemNotation` in the topic
module that implements it.  The book's ``node:odds :system:`` option, the ``rpg`` command line and
any later tool read that attribute and nothing else, so a user's own game works the same way as the
bundled ones: :func:`load_registry` takes a bundled short name (``nemron``), an import path
(``mygame.rules:REGISTRY``) or a module whose ``REGISTRY`` it uses (``mygame.rules``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.dice import DiceSource, Dist, RollResult
from rules.nodes import Registry

__all__ = ["BUNDLED", "SideRoll", "SystemLoadError", "SystemNotation", "load_registry", "registry_path"]

#: The game systems that ship with sphinx-rpg, by short name: each is ``rules.<name>:REGISTRY``.
BUNDLED = ("nemron", "heimr", "nugget", "spurg", "dndalike")

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class SystemLoadError(ValueError):
    """A system name or import path that does not lead to a ``rules.nodes.Registry``."""


@dataclass(frozen=True)
class SideRoll:
    """A die a system may roll beside a check without joining it (Nemron's d20 drama die).

    ``name`` becomes the command line's ``--<name>`` flag; ``read`` turns the face into the words the
    table says ("bad drama").
    """

    name: str
    sides: int
    help: str
    read: Callable[[int], str]


@dataclass(frozen=True)
class SystemNotation:
    """A system's own dice notation: text to an exact distribution, and (optionally) to a roll.

    ``parse`` answers ``node:odds`` and ``rpg odds``; ``roll`` answers ``rpg roll`` with every die
    shown; ``side_rolls`` are the extra dice ``rpg roll`` offers for the system; ``example`` is a
    text ``parse`` accepts, for help messages.
    """

    parse: Callable[[str], Dist]
    example: str
    roll: Callable[[str, DiceSource], RollResult] | None = None
    side_rolls: tuple[SideRoll, ...] = ()


def registry_path(spec: str) -> str:
    """The ``module:ATTRIBUTE`` path a ``--system`` value names.

    A bundled short name gives ``rules.<name>:REGISTRY``; ``pkg.mod:NAME`` is kept; a bare module
    path ``pkg.mod`` means its ``REGISTRY``.
    """
    if not isinstance(spec, str):
        raise SystemLoadError(f"a game system is named by text, not {spec!r}")
    spec = spec.strip()
    if spec in BUNDLED:
        return f"rules.{spec}:REGISTRY"
    module, sep, attribute = spec.partition(":")
    if not _MODULE.fullmatch(module) or (sep and not attribute.isidentifier()):
        raise SystemLoadError(f"{spec!r} is neither a bundled game system ({', '.join(BUNDLED)}) "
                              "nor an import path such as mygame.rules:REGISTRY")
    return f"{module}:{attribute or 'REGISTRY'}"


def load_registry(spec: str) -> Registry:
    """Import the registry a short name or import path names (see :func:`registry_path`)."""
    path = registry_path(spec)
    module_name, _, attribute = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # a user's package may fail in any way: say which and why
        raise SystemLoadError(f"unknown game system {spec!r}: cannot import {module_name!r} "
                              f"({type(error).__name__}: {error})") from None
    registry = getattr(module, attribute, None)
    if not isinstance(registry, Registry):
        found = "nothing" if registry is None else type(registry).__name__
        raise SystemLoadError(f"unknown game system {spec!r}: {path} is {found}, not a rules.nodes.Registry")
    return registry
