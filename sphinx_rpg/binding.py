"""Binding between the book and the engine: load the registries conf.py names, look uids up.

conf.py names registries by system name (``"nemron"``) or import path (``"mygame.rules:REGISTRY"``),
never by object, so the configuration pickles and incremental builds stay valid.  Names resolve through
the ``sphinx_rpg.systems`` entry points, as everywhere else (:mod:`rules.systems`).  Loaded registries
are cached per process.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules import systems
from rules.nodes import Node, Registry
from rules.providers import TableProvider
from rules.systems import SystemLoadError
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line, origin
from sphinx_rpg.reference import TABLES
from sphinx_rpg.warnings import warn

#: An ``rpg_registries`` entry that cannot be used (the engine's one loader raises it; the message says why).
RegistryLoadError = SystemLoadError


def load_registry(spec: str) -> Registry:
    """The registry a system name or import path names, loaded by :func:`rules.systems.load_registry`.

    Here behind the boundary: a registry module that exits the process or fails in any other way
    becomes a :class:`RegistryLoadError`, never the end of the build.
    """
    try:
        return call_engine(systems.load_registry, spec)
    except EngineFailure as failure:
        if isinstance(failure.error, SystemLoadError):
            cause = failure.error.__cause__  # what importing the registry's module raised, if that failed
            where = origin(cause) if cause is not None else ""
            if where and not where.startswith(systems.__file__ + ":"):  # a designer's file and line: warn there
                raise RegistryLoadError(f"{failure.error} (raised at {where})") from cause
            raise failure.error from None
        module = systems.registry_path(spec).partition(":")[0]  # it parsed, or SystemLoadError came back
        raise RegistryLoadError(f"game system {spec!r}: cannot import {module!r}: {failure}") from failure.error


@dataclass(frozen=True)
class Binding:
    """All configured registries, merged for lookups; ``errors`` lists the ones that failed."""

    registries: tuple[Registry, ...] = ()
    errors: tuple[str, ...] = ()
    #: uid -> node and uid -> its registry, two flat maps rather than one of (node, registry) pairs:
    #: a pair per node is one more object the garbage collector walks for the whole build.
    _index: Mapping[str, Node] = field(default_factory=dict)
    _owners: Mapping[str, Registry] = field(default_factory=dict)
    _paths: Mapping[str, Registry] = field(default_factory=dict)
    #: Each registry's type labels, read (and checked) once when it was bound, by ``id(registry)``.
    _types: Mapping[int, Mapping[str, str]] = field(default_factory=dict)

    def lookup(self, uid: str) -> Node | None:
        return self._index.get(uid)

    def registry_of(self, uid: str) -> Registry | None:
        return self._owners.get(uid)

    def registry(self, system: str) -> Registry | None:
        """A configured registry by its system name (``nemron``) or its configured import path."""
        found = next((r for r in self.registries if r.system == system), None)
        return found if found is not None else self._paths.get(system)  # an empty registry is falsy

    def nodes(self) -> Iterable[Node]:
        return iter(self._index.values())

    def node_types(self, registry: Registry) -> Mapping[str, str]:
        return self._types.get(id(registry), {})

    def type_names(self, base: Mapping[str, str]) -> dict[str, str]:
        merged = dict(base)
        for registry in self.registries:
            for code, name in self.node_types(registry).items():
                merged.setdefault(code, name)
        return merged

    def table(self, namespace: str, name: str) -> TableProvider | None:
        """A table published by the registry of system ``namespace`` (or by the extension's manual)."""
        if namespace == TABLES.namespace:
            return TABLES.get(name)
        registry = self.registry(namespace)
        return registry.tables.get(name) if registry is not None else None

    def namespaces(self) -> list[str]:
        return [*(r.system for r in self.registries), TABLES.namespace]

    def source_files(self) -> list[str]:
        """The files that create the registries (type labels, notation): what listings depend on."""
        return sorted({str(path) for r in self.registries for path in [r.source_file] if path is not None})

    def packages(self) -> tuple[str, ...]:
        return tuple(sorted({node.module.split(".")[0] for node in self.nodes() if node.module}))


@lru_cache(maxsize=8)
def bind(paths: tuple[str, ...]) -> Binding:
    registries: list[Registry] = []
    errors: list[str] = []
    index: dict[str, Node] = {}
    owners: dict[str, Registry] = {}
    by_path: dict[str, Registry] = {}
    types: dict[int, Mapping[str, str]] = {}
    for path in paths:
        if not isinstance(path, str):
            errors.append(f"{one_line(repr(path))} is not an import path such as 'mygame.rules:REGISTRY'")
            continue
        try:
            registry = load_registry(path)
            members = call_engine(list, registry)  # a registry whose iteration fails is left out whole
            labels = _type_labels(path, call_engine(_labels_of, registry), errors)
        except RegistryLoadError as error:
            errors.append(str(error))
            continue
        except EngineFailure as failure:
            errors.append(f"{path}: the registry cannot be read: {failure}")
            continue
        registries.append(registry)
        by_path[path] = registry
        types[id(registry)] = labels
        for node in members:
            if not isinstance(node, Node):
                errors.append(f"{path}: {one_line(repr(node), 80)} is not a rules.nodes.Node; left out")
                continue
            if node.uid in index:
                errors.append(f"{path}: uid {node.uid!r} is also bound by registry "
                              f"{owners[node.uid].system!r}; the first binding wins")
                continue
            index[node.uid] = node
            owners[node.uid] = registry
    return Binding(tuple(registries), tuple(errors), index, owners, by_path, types)


def _labels_of(registry: Registry) -> dict[Any, Any]:
    return dict(registry.node_types)


def _type_labels(path: str, labels: Mapping[Any, Any], errors: list[str]) -> dict[str, str]:
    """Type labels become page text: one line of text each, else the code stands in (and it is said)."""
    checked: dict[str, str] = {}
    for code, label in labels.items():
        if not isinstance(code, str) or not isinstance(label, str):
            errors.append(f"{path}: type label {one_line(repr(code), 40)}: {one_line(repr(label), 60)} "
                          "is not text; left out")
            continue
        if not label.strip() or one_line(label) != label:
            errors.append(f"{path}: the label of type {code!r} ({one_line(repr(label), 60)}) must be one "
                          f"line of text; {code!r} is shown instead")
            label = code
        checked[code] = label
    return checked


def configured_paths(config: object) -> tuple[object, ...]:
    """``rpg_registries`` as a tuple; a single string (a common slip) counts as a list of one."""
    paths = getattr(config, "rpg_registries", ()) or ()
    if isinstance(paths, str):
        return (paths,)
    try:
        return tuple(paths)
    except TypeError:
        return (paths,)


def binding_for(config: object) -> Binding:
    return bind(configured_paths(config))


def registry_option(config: object, directive: str, system: str, location: object) -> Registry | None:
    """The bound registry a directive's ``:system:`` names; a located ``node.option`` warning when none is."""
    binding = binding_for(config)
    registry = binding.registry(system)
    if registry is None:
        known = ", ".join(r.system for r in binding.registries) or "none configured"
        from sphinx_rpg.spelling import did_you_mean

        hint = did_you_mean(system, (r.system for r in binding.registries))
        warn("option", f"{directive}: no bound registry has system {system!r}{hint} (known: {known})", location)
    return registry
