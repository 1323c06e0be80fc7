"""Binding between the book and the engine: load the registries conf.py names, look uids up.

conf.py names registries by import path (``"rules.nemron:REGISTRY"``), never by object, so the
configuration pickles and incremental builds stay valid.  Loaded registries are cached per process.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from rules.nodes import Node, Registry
from sphinx_rpg.bulk import collector_paused


class RegistryLoadError(Exception):
    """An ``rpg_registries`` entry that cannot be used; the message says why."""


def load_registry(path: str) -> Registry:
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise RegistryLoadError(f"{path!r} is not of the form 'package.module:NAME'")
    try:
        with collector_paused():  # a registry of thousands of nodes: see sphinx_rpg.bulk
            module = importlib.import_module(module_name)
    except Exception as error:  # an engine bug must not become a Sphinx traceback
        raise RegistryLoadError(f"cannot import {module_name!r}: {type(error).__name__}: {error}"
                                f"{_import_hint(module_name, error)}") from error
    registry = getattr(module, attribute, None)
    if not isinstance(registry, Registry):
        found = "nothing" if registry is None else type(registry).__name__
        elsewhere = (f" (a Registry of another copy of the engine, {type(registry).__module__} from "
                     f"{getattr(sys.modules.get(type(registry).__module__), '__file__', '?')})"
                     if type(registry).__name__ == "Registry" else "")
        raise RegistryLoadError(f"{path!r} is {found}{elsewhere}, not a rules.nodes.Registry")
    return registry


def _import_hint(module_name: str, error: Exception) -> str:
    """What to do about a registry module that cannot be imported."""
    package = module_name.split(".")[0]
    if package == "rules":
        return ("; 'rules' is sphinx-rpg's own engine package, and a game never goes inside it: put your game "
                "in a package of its own (rpg new names it after the game) and name it here as 'yourgame:REGISTRY'")
    if isinstance(error, ModuleNotFoundError) and error.name == package:
        return (f"; is the folder that holds the package {package!r} on sys.path? conf.py can add it: "
                "sys.path.insert(0, str(Path(__file__).resolve().parent.parent))")
    return ""


@dataclass(frozen=True)
class Binding:
    """All configured registries, merged for lookups; ``errors`` lists the ones that failed."""

    registries: tuple[Registry, ...] = ()
    errors: tuple[str, ...] = ()
    _index: Mapping[str, tuple[Node, Registry]] = field(default_factory=dict)
    _paths: Mapping[str, Registry] = field(default_factory=dict)

    def lookup(self, uid: str) -> Node | None:
        found = self._index.get(uid)
        return found[0] if found else None

    def registry_of(self, uid: str) -> Registry | None:
        found = self._index.get(uid)
        return found[1] if found else None

    def registry(self, system: str) -> Registry | None:
        """A configured registry by its system name (``nemron``) or its configured import path."""
        found = next((r for r in self.registries if r.system == system), None)
        return found or self._paths.get(system)

    def nodes(self) -> Iterable[Node]:
        return (node for node, _ in self._index.values())

    def type_names(self, base: Mapping[str, str]) -> dict[str, str]:
        merged = dict(base)
        for registry in self.registries:
            for code, name in registry.node_types.items():
                merged.setdefault(code, name)
        return merged

    def packages(self) -> tuple[str, ...]:
        return tuple(sorted({node.module.split(".")[0] for node in self.nodes() if node.module}))


@lru_cache(maxsize=8)
def bind(paths: tuple[str, ...]) -> Binding:
    registries: list[Registry] = []
    errors: list[str] = []
    index: dict[str, tuple[Node, Registry]] = {}
    by_path: dict[str, Registry] = {}
    for path in paths:
        try:
            registry = load_registry(path)
        except RegistryLoadError as error:
            errors.append(str(error))
            continue
        registries.append(registry)
        by_path[path] = registry
        for node in registry:
            if node.uid in index:
                errors.append(f"{path}: uid {node.uid!r} is also bound by registry "
                              f"{index[node.uid][1].system!r}; the first binding wins")
                continue
            index[node.uid] = (node, registry)
    return Binding(tuple(registries), tuple(errors), index, by_path)


def binding_for(config: object) -> Binding:
    return bind(tuple(getattr(config, "rpg_registries", ()) or ()))
