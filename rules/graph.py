"""How the rules connect: which nodes a node's formula derives from, read off the registry.

A formula names its inputs (``Control + Sense + Focus + 5``).  A name is taken to mean a node of the
same registry when it matches that node's name, the last part of its uid, or its ``code`` value
(``AGI`` for SPURG's Agility), ignoring case, spaces and underscores, and exactly one node matches.
Every other name is a *parameter* of the rule (``rank``, ``metres``): something the table supplies.
So "what breaks if I change Agility?" is answered by :meth:`Dependencies.used_by`, with no second
list of relationships to keep in step with the formulas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.nodes import Node

__all__ = ["Dependencies", "dependencies", "layers", "name_index", "resolve_name"]


_NOT_KEY = re.compile(r"[^a-z0-9]")


def _key(text: str) -> str:
    return _NOT_KEY.sub("", text.lower())


@dataclass(frozen=True)
class Dependencies:
    """uid -> the uids its formula derives from, and the formula names that are no node."""

    inputs: Mapping[str, tuple[str, ...]]
    parameters: Mapping[str, tuple[str, ...]]
    _users: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def depends_on(self, uid: str) -> tuple[str, ...]:
        return self.inputs.get(uid, ())

    def used_by(self, uid: str) -> tuple[str, ...]:
        """The nodes whose formulas name ``uid``, by uid."""
        return self._users.get(uid, ())

    def edges(self) -> list[tuple[str, str]]:
        """(input, derived) pairs, sorted."""
        return sorted((source, target) for target, sources in self.inputs.items() for source in sources)

    def connected(self) -> list[str]:
        """Every uid that takes part in at least one edge, sorted."""
        return sorted({uid for edge in self.edges() for uid in edge})


def name_index(nodes: Iterable[Node]) -> dict[str, frozenset[str]]:
    """Every alias a formula may use for a node (name, last uid part, ``code``), normalised -> uids."""
    by_key: dict[str, set[str]] = {}
    for node in nodes:
        code = node.values.get("code") if isinstance(node.values, Mapping) else None
        for alias in (node.name, node.uid.rpartition(".")[2], code if isinstance(code, str) else ""):
            if alias:
                by_key.setdefault(_key(alias), set()).add(node.uid)
    return {key: frozenset(uids) for key, uids in by_key.items()}


def resolve_name(index: Mapping[str, frozenset[str]], name: str, own_uid: str = "") -> str | None:
    """The uid a formula name means (exactly one node other than the formula's own), else None."""
    matches = index.get(_key(name), frozenset()) - {own_uid}
    return next(iter(matches)) if len(matches) == 1 else None


def dependencies(nodes: Iterable[Node]) -> Dependencies:
    """Read the dependencies of a registry's (or any collection's) nodes off their formulas."""
    members = list(nodes)
    # the alias index only when some formula names something: a registry without formulas skips it
    index = name_index(members) if any(node.formula is not None for node in members) else {}
    inputs: dict[str, tuple[str, ...]] = {}
    parameters: dict[str, tuple[str, ...]] = {}
    users: dict[str, list[str]] = {}
    for node in members:
        if node.formula is None:
            continue
        found: list[str] = []
        loose: list[str] = []
        for name in node.formula.names:
            uid = resolve_name(index, name, node.uid)
            if uid is not None:
                found.append(uid)
            else:
                loose.append(name)
        if found:
            inputs[node.uid] = tuple(dict.fromkeys(found))
            for source in inputs[node.uid]:
                users.setdefault(source, []).append(node.uid)
        if loose:
            parameters[node.uid] = tuple(dict.fromkeys(loose))
    return Dependencies(inputs, parameters, {uid: tuple(sorted(found)) for uid, found in users.items()})


def layers(graph: Dependencies) -> list[list[str]]:
    """The connected nodes in columns: inputs first, each derived node right of all it derives from.

    A node's column is the length of the longest chain of inputs leading to it (computed without
    recursion, so a registry of any size is safe).  Nodes on a cycle (a formula naming, through others,
    its own node) go one column right of what leads into the cycle.
    """
    followers: dict[str, list[str]] = {}
    waiting: dict[str, int] = {uid: 0 for uid in graph.connected()}
    for source, target in graph.edges():
        followers.setdefault(source, []).append(target)
        waiting[target] += 1
    depth = {uid: 0 for uid, count in waiting.items() if count == 0}
    ready = sorted(depth)
    while ready:
        uid = ready.pop()
        for target in followers.get(uid, ()):
            depth[target] = max(depth.get(target, 0), depth[uid] + 1)
            waiting[target] -= 1
            if waiting[target] == 0:
                ready.append(target)
    for uid in sorted(waiting):  # on a cycle: never ready
        if waiting[uid] and uid not in depth:
            depth[uid] = 1 + max((depth.get(s, 0) for s in graph.depends_on(uid)), default=-1)
    result: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for uid in sorted(depth):
        result[depth[uid]].append(uid)
    return result
