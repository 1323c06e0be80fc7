"""How a game system plugs into every tool: one registration, found one way.

Every game system, bundled or a user's own, is an entry point of the group ``sphinx_rpg.systems`` in
its distribution's metadata, naming its registry (``nemron = "rules.nemron:REGISTRY"``).  The book's
``rpg_registries``, ``node:odds :system:``, the calculator and the ``rpg`` command line all resolve a
system with :func:`registry_path` and load it with :func:`load_registry`: a system's name, an import
path (``mygame.rules:REGISTRY``) or a module whose ``REGISTRY`` it uses (``mygame.rules``).

A system with a notation of its own (Nemron's ``Agility 2 › Athletics 1``, Heimr's ``C+3 P-1``,
NUGGET's ``5 dice lid-off``) sets ``REGISTRY.notation`` to a :class:`~rules.notation.SystemNotation`.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from importlib.metadata import entry_points

from rules.nodes import Registry
from rules.notation import SideRoll, SystemNotation

__all__ = ["GROUP", "SideRoll", "SystemLoadError", "SystemNotation", "installed_systems", "load_registry",
           "registry_path"]

#: The entry point group that names every installed game system's registry.
GROUP = "sphinx_rpg.systems"

_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class SystemLoadError(ValueError):
    """A system name or import path that does not lead to a ``rules.nodes.Registry``."""


def installed_systems() -> dict[str, str]:
    """Every installed game system, by name: the import path of its registry (the first one wins)."""
    return dict(_installed())


@lru_cache(maxsize=1)
def _installed() -> tuple[tuple[str, str], ...]:
    """Read once per process: the metadata of every installed distribution is scanned."""
    found: dict[str, str] = {}
    for entry in entry_points(group=GROUP):
        found.setdefault(entry.name, entry.value)
    return tuple(found.items())


def registry_path(spec: str) -> str:
    """The ``module:ATTRIBUTE`` path a system name or import path names.

    An installed system's name gives its entry point's path; ``pkg.mod:NAME`` is kept (without reading
    the installed distributions' metadata, 9 ms of every build: an entry point's name is a system's
    name, never an import path); a bare module path ``pkg.mod`` means its ``REGISTRY``.
    """
    if not isinstance(spec, str):
        raise SystemLoadError(f"a game system is named by text, not {spec!r}")
    spec = spec.strip()
    module, sep, attribute = spec.partition(":")
    if sep and _MODULE.fullmatch(module) and attribute.isidentifier():
        return spec  # an import path in full (what ``rpg new`` writes): no system is named so, no metadata read
    systems = installed_systems()
    if spec in systems:
        return systems[spec]
    if not _MODULE.fullmatch(module) or (sep and not attribute.isidentifier()):
        raise SystemLoadError(f"{spec!r} is neither an installed game system ({', '.join(systems) or 'none'}) "
                              "nor an import path such as mygame.rules:REGISTRY")
    return f"{module}:{attribute or 'REGISTRY'}"


def load_registry(spec: str) -> Registry:
    """Import the registry a system name or import path names (see :func:`registry_path`).

    Whatever importing the module raises becomes a :class:`SystemLoadError` naming the module and
    what to do; a ``SystemExit`` or ``KeyboardInterrupt`` passes, for the caller's boundary to handle.
    """
    path = registry_path(spec)
    module_name, _, attribute = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # a user's package may fail in any way: say which and why
        missing = isinstance(error, ModuleNotFoundError) and error.name == module_name.split(".")[0]
        raise SystemLoadError(f"{'unknown ' if missing else ''}game system {spec!r}: cannot import {module_name!r}: "
                              f"{type(error).__name__}: {error}{_import_hint(module_name, error)}") from error
    registry = getattr(module, attribute, None)
    if not isinstance(registry, Registry):
        found = "nothing" if registry is None else type(registry).__name__
        elsewhere = (f" (a Registry of another copy of the engine, from module {type(registry).__module__})"
                     if type(registry).__name__ == "Registry" else "")
        raise SystemLoadError(f"{path!r} is {found}{elsewhere}, not a rules.nodes.Registry")
    return registry


def _import_hint(module_name: str, error: BaseException) -> str:
    """What to do about a registry module that cannot be imported."""
    package = module_name.split(".")[0]
    if package == "rules" and module_name.count(".") >= 1 and isinstance(error, ModuleNotFoundError):
        return ("; 'rules' is sphinx-rpg's own engine package, and a game never goes inside it: put your game "
                "in a package of its own (rpg new names it after the game) and name it as 'yourgame:REGISTRY'")
    if isinstance(error, ModuleNotFoundError) and error.name == package:
        return (f"; is the folder that holds the package {package!r} on sys.path? conf.py can add it: "
                "sys.path.insert(0, str(Path(__file__).resolve().parent.parent))")
    return ""
