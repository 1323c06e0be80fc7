"""The generic node model: every game object a rulebook names, and the registry that binds uids to it.

A *node* is anything a rulebook defines with ``.. node:def::``: an attribute, a skill, an effect, a
resource.  The engine describes each one with a :class:`Node` (uid, name, type codes, rank range,
formula, dice, the Python object that implements it) and collects them in a :class:`Registry` that a
game system exports.  The Sphinx extension reads registries; nothing here imports Sphinx.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from rules.formula import Formula
from rules.matchup import Fights
from rules.notation import SystemNotation
from rules.providers import F, Parameter, Providers
from rules.source_lines import first_line
from rules.statblocks import B, StatBlocks
from rules.uids import UID_PATTERN as UID_PATTERN  # re-exported: the node model's public names
from rules.uids import NodeError, check_uid
from rules.uids import is_valid_uid as is_valid_uid
from rules.values import is_whole

Value = int | Fraction | str
T = TypeVar("T", bound=Callable[..., Any])  # a rule implementation: a function or a class

TYPE_CODE_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")

#: The six node types of the published node markup (Nemron's), used when a project configures none.
CORE_NODE_TYPES: Mapping[str, str] = {
    "A": "Attribute",
    "S": "Skill",
    "AB": "Ability",
    "E": "Effect",
    "T": "Trait",
    "R": "Resource",
}

#: The codes every game system shares: a concept two systems both have is coded the same in both.
#: The six core types, plus rules, rolls, actions and gear.  A system adds codes of its own only
#: for what is its own (Heimr's positions, SPURG's outcomes, NUGGET's threats...).
SHARED_NODE_TYPES: Mapping[str, str] = {
    **CORE_NODE_TYPES,
    "RU": "Rule",
    "RL": "Roll",
    "AC": "Action",
    "G": "Gear",
}


def shared_types(*codes: str) -> dict[str, str]:
    """The shared codes a system uses, with their shared names: ``{**shared_types("A", "RU"), **own}``."""
    return {code: SHARED_NODE_TYPES[code] for code in codes}


class InvalidTypeError(NodeError):
    def __init__(self, text: object, reason: str) -> None:
        self.text = text
        super().__init__(f"{text!r} is not a valid node type list: {reason}")


def unknown_type_error(uid: str, code: str, known: Iterable[str]) -> NodeError:
    known = list(known)
    import difflib  # only for a mistyped type: the in-page calculator's start never pays for it

    near = difflib.get_close_matches(code, known, n=1, cutoff=0.5)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return NodeError(f"node {uid!r}: unknown type code {code!r}{hint} (known: {', '.join(known)})")


def duplicate_node_error(uid: str, registry: str) -> NodeError:
    return NodeError(f"node {uid!r} is already registered in {registry!r}")


class UnknownNodeError(NodeError, KeyError):
    def __init__(self, uid: str, registry: str) -> None:
        self.uid = uid
        super().__init__(f"no node {uid!r} in registry {registry!r}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def parse_types(text: str | Iterable[str]) -> tuple[str, ...]:
    """Normalise a type list: ``"E,R"``, ``"E, R"`` and ``("E", "R")`` are all ``("E", "R")``."""
    if isinstance(text, str):
        return _parse_codes(text)
    if type(text) is tuple:  # a node's types as its registry normalised them: one cached lookup
        try:
            return _parse_codes(text)
        except (AttributeError, TypeError):  # a code that is no text: said below
            pass
    try:
        parts = tuple(text)
    except TypeError:
        raise InvalidTypeError(text, "expected text such as 'E,R' or a list of codes") from None
    for part in parts:
        if not isinstance(part, str):
            raise InvalidTypeError(parts, f"{part!r} is not a type code (a type code is text)")
    return _parse_codes(parts)


@lru_cache(maxsize=1024)
def _parse_codes(text: str | tuple[str, ...]) -> tuple[str, ...]:
    """Cached: a registry of thousands of nodes repeats a handful of type lists."""
    codes = tuple(part.strip() for part in (text.split(",") if isinstance(text, str) else text))
    if not codes or any(not code for code in codes):
        raise InvalidTypeError(text, "an empty type code")
    for code in codes:
        if not TYPE_CODE_PATTERN.fullmatch(code):
            raise InvalidTypeError(text, f"{code!r} is not a type code (letters, digits, '_' or '-')")
    if len(set(codes)) != len(codes):
        raise InvalidTypeError(text, "a type code is repeated")
    return codes


def format_types(codes: Iterable[str]) -> str:
    return ",".join(codes)


@dataclass(frozen=True)
class Ranks:
    """The ranks a node can hold. ``floor`` is the rank it never decays below (traits: 1)."""

    minimum: int = 0
    maximum: int | None = None
    floor: int | None = None

    def check(self, rank: int, uid: str = "node") -> int:
        if not is_whole(rank):
            raise NodeError(f"{uid}: rank must be a whole number, not {rank!r}")
        if rank < self.minimum or (self.maximum is not None and rank > self.maximum):
            raise NodeError(f"{uid}: rank {rank} is outside {self}")
        return rank

    def __str__(self) -> str:
        if self.maximum is None:
            return f"{self.minimum} or more"
        return f"{self.minimum}\N{EN DASH}{self.maximum}"


@dataclass(frozen=True)
class Fact:
    """One line the rulebook shows under a node's heading, computed from the engine."""

    label: str
    text: str
    latex: str | None = None
    #: The formula itself when the fact is one, so a renderer can typeset it without TeX.
    formula: Formula | None = None


def _source_module(obj: object) -> str | None:
    module = getattr(obj, "__module__", None)
    if module is None and inspect.ismodule(obj):
        module = obj.__name__
    return module


#: The values of a node that quotes none: one read-only mapping all such nodes share (a registry of
#: 10,000 nodes held 10,000 empty dictionaries).
NO_VALUES: Mapping[str, Value] = MappingProxyType({})


@dataclass(frozen=True, eq=False, slots=True)
class Node:
    """A game object as the engine knows it.

    ``implementation`` is the function or class that carries the rule (linked from the book, and its
    module is a build dependency of every page that defines the node).  ``values`` are named numbers
    the book may quote inline, so prose never hard-codes a number the engine owns.
    """

    uid: str
    name: str
    types: tuple[str, ...]
    summary: str = ""
    ranks: Ranks | None = None
    formula: Formula | None = None
    dice: str | None = None
    values: Mapping[str, Value] = field(default_factory=lambda: NO_VALUES)
    extra_facts: tuple[Fact, ...] = ()
    implementation: Any = None
    module: str | None = None
    #: The line of ``module`` where the node is defined (for coverage reports).
    line: int | None = None

    def __post_init__(self) -> None:
        check_uid(self.uid)
        if not isinstance(self.name, str) or not self.name.strip():
            raise NodeError(f"node {self.uid!r}: a node needs a name")
        object.__setattr__(self, "types", parse_types(self.types))
        if isinstance(self.formula, str):
            object.__setattr__(self, "formula", Formula(self.formula))
        if self.module is None:
            object.__setattr__(self, "module", _source_module(self.implementation))

    @property
    def namespace(self) -> str:
        return self.uid.rpartition(".")[0]

    @property
    def title(self) -> str:
        """The conventional rendering, ``Energy (E,R)``."""
        return f"{self.name} ({format_types(self.types)})"

    @property
    def implementation_path(self) -> str | None:
        obj = self.implementation
        if obj is None:
            return None
        if inspect.ismodule(obj):
            return obj.__name__
        qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
        return f"{_source_module(obj) or type(obj).__module__}.{qualname}"

    @property
    def source_file(self) -> Path | None:
        """The file whose edits change this node: the implementation's module, else the defining one."""
        module = sys.modules.get(self.module or "")
        path = getattr(module, "__file__", None)
        return Path(path) if path else None

    def facts(self) -> tuple[Fact, ...]:
        facts: list[Fact] = []
        if self.formula is not None:
            facts.append(Fact("Formula", str(self.formula), self.formula.latex(), self.formula))
        if self.dice:
            facts.append(Fact("Dice", self.dice))
        if self.ranks is not None:
            facts.append(Fact("Ranks", str(self.ranks)))
        return (*facts, *self.extra_facts)

    def value(self, key: str) -> Value:
        """A quotable value: ``name``, ``title``, ``types``, ``formula``, ``dice``, ``ranks`` or a custom one."""
        builtin: dict[str, Callable[[], Value | None]] = {
            "name": lambda: self.name,
            "title": lambda: self.title,
            "types": lambda: format_types(self.types),
            "summary": lambda: self.summary,
            "formula": lambda: None if self.formula is None else str(self.formula),
            "dice": lambda: self.dice,
            "ranks": lambda: None if self.ranks is None else str(self.ranks),
        }
        if key in self.values:
            return self.values[key]
        found = builtin[key]() if key in builtin else None
        if found is not None:
            return found
        known = sorted({*self.values, *(k for k, f in builtin.items() if f() is not None)})
        raise KeyError(f"node {self.uid!r} has no value {key!r} (it has: {', '.join(known)})")

    def __repr__(self) -> str:
        return f"<Node {self.uid} {self.title!r}>"


class Registry:
    """uid -> :class:`Node` for one game system; what conf.py names as ``"rules.nemron:REGISTRY"``."""

    def __init__(self, system: str, *, title: str | None = None,
                 node_types: Mapping[str, str] | None = None,
                 notation: SystemNotation | None = None, target_name: str = "DC",
                 rolls_under: bool = False) -> None:
        self.system = system
        #: What the game calls the number a roll must reach (or stay under): "DC" for most, SPURG's "TN".
        #: Odds tables and the dice calculator head their target column with it.
        self.target_name = target_name
        #: Whether the game's rolls succeed low (roll under the target, as SPURG's do): its tables of
        #: every result then give the chance of a result or under, not of a result or more.
        self.rolls_under = rolls_under
        self.title = title or system
        self.node_types: dict[str, str] = dict(node_types or CORE_NODE_TYPES)
        #: The system's own dice notation (``rules.systems.SystemNotation``), which the book's
        #: ``node:odds :system:`` and the ``rpg`` command read; None for plain dice notation only.
        self.notation = notation
        #: The tables pages may show (``.. node:table:: system:name``): published, never discovered.
        self.tables = Providers(system)
        #: The stat blocks pages may show (``.. node:statblock:: system:name``), built by the engine.
        self.statblocks = StatBlocks(system)
        #: The fight builder ``rpg matchup`` and ``node:matchup`` use (``rules.matchup``), if the system has one.
        self.matchups = Fights(system)
        #: The module that created the registry (its type labels live there): a build dependency.
        caller = inspect.currentframe().f_back  # type: ignore[union-attr]
        self.module: str | None = caller.f_globals.get("__name__") if caller is not None else None
        self._nodes: dict[str, Node] = {}

    def add(self, node: Node) -> Node:
        if node.uid in self._nodes:
            raise duplicate_node_error(node.uid, self.system)
        for code in node.types:
            if code not in self.node_types:
                raise unknown_type_error(node.uid, code, self.node_types)
        self._nodes[node.uid] = node
        return node

    def define(self, uid: str, name: str, types: str | Iterable[str], **details: Any) -> Node:
        """Create a node and register it; its module is the caller's unless an implementation says otherwise."""
        # the caller's frame only: a local naming this call's own frame would make that frame refer to
        # itself, garbage that only the cycle collector frees (one per node of a registry module)
        caller = sys._getframe(1)
        if details.get("implementation") is None:
            details.setdefault("module", caller.f_globals.get("__name__"))
        details.setdefault("line", caller.f_lineno)
        del caller
        return self.add(Node(uid=uid, name=name, types=parse_types(types), **details))

    def rule(self, uid: str, name: str, types: str | Iterable[str], **details: Any) -> Callable[[T], T]:
        """Decorator: register the decorated function or class as the node's implementation."""

        def register(implementation: T) -> T:
            summary = details.pop("summary", None) or (inspect.getdoc(implementation) or "").split("\n\n")[0]
            line = first_line(implementation)
            self.add(Node(uid=uid, name=name, types=tuple(parse_types(types)), summary=summary,
                          implementation=implementation, line=line, **details))
            return implementation

        return register

    def table(self, name: str | None = None, **parameters: Parameter) -> Callable[[F], F]:
        """Decorator: publish a table function for pages, with its typed, bounded parameters.

        See :mod:`rules.providers`; a page calls it as ``.. node:table:: <system>:<name>``.
        """
        return self.tables.table(name, **parameters)

    def statblock(self, name: str | None = None) -> Callable[[B], B]:
        """Decorator: publish a zero-argument function that builds a :class:`rules.statblocks.StatBlock`.

        A page shows it as ``.. node:statblock:: <system>:<name>``.
        """
        return self.statblocks.publish(name)

    @property
    def source_file(self) -> Path | None:
        """The file that created the registry (where its type labels are declared)."""
        path = getattr(sys.modules.get(self.module or ""), "__file__", None)
        return Path(path) if path else None

    def include(self, other: Registry) -> Registry:
        """Take every node of a topic's registry into this system's registry."""
        for code, label in other.node_types.items():
            self.node_types.setdefault(code, label)
        self.notation = self.notation or other.notation
        for provider in other.tables:
            self.tables.add(provider)
        for name, builder in other.statblocks.items():
            self.statblocks.add(name, builder)
        for node in other:
            self.add(node)
        return self

    def __getitem__(self, uid: str) -> Node:
        try:
            return self._nodes[uid]
        except KeyError:
            raise UnknownNodeError(uid, self.system) from None

    def get(self, uid: str, default: Node | None = None) -> Node | None:
        return self._nodes.get(uid, default)

    def __contains__(self, uid: object) -> bool:
        return uid in self._nodes

    def __iter__(self) -> Iterator[Node]:
        return iter(self._nodes.values())

    def __len__(self) -> int:
        return len(self._nodes)

    def uids(self) -> list[str]:
        return list(self._nodes)

    def __repr__(self) -> str:
        return f"<Registry {self.system!r}: {len(self)} nodes>"
