"""Tables a rule package publishes for its book: the only engine functions a page can call.

A page never names Python code.  ``.. node:table:: heimr:success_table`` names a *published* table:
the package registered it, with every parameter a page may set declared, typed and bounded::

    @REGISTRY.table(lowest=Int(-10, 10), highest=Int(-10, 10))
    def success_table(lowest: int = -3, highest: int = 5) -> Table: ...

Page text (``:args: lowest=-2, highest=4``) is read as text, checked against the declaration and
converted before the call: an undeclared name, a value out of bounds or of the wrong kind is refused
with a message that names it, and the function is never reached.  Nothing here imports Sphinx.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from rules.tables import Table

F = TypeVar("F", bound=Callable[..., Table])

NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: No argument text is longer than this, whatever a parameter allows (one line of a page).
MAX_ARGUMENT_LENGTH = 200
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")


class ProviderError(ValueError):
    """A published table that does not exist, or arguments a page may not pass to it."""


@dataclass(frozen=True)
class Int:
    """A whole number from ``minimum`` to ``maximum`` (both included): the bound keeps the work bounded."""

    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if self.maximum < self.minimum:
            raise ValueError(f"Int({self.minimum}, {self.maximum}): the bounds run backwards")

    def read(self, name: str, text: str) -> int:
        if not re.fullmatch(r"[+-]?\d{1,12}", text):
            raise ProviderError(f"{name}={text!r}: expected a whole number from {self.minimum} to {self.maximum}")
        value = int(text)
        if not self.minimum <= value <= self.maximum:
            raise ProviderError(f"{name}={value}: outside {self.minimum} to {self.maximum}")
        return value

    def describe(self) -> str:
        return f"whole number {self.minimum} to {self.maximum}"


@dataclass(frozen=True)
class Bool:
    """Yes or no: ``true``/``yes``/``on`` or ``false``/``no``/``off``."""

    def read(self, name: str, text: str) -> bool:
        lowered = text.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ProviderError(f"{name}={text!r}: expected true or false")

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of words, passed on as the text itself."""

    options: tuple[str, ...]

    def __init__(self, *options: str) -> None:
        if not options or not all(isinstance(o, str) and o for o in options):
            raise ValueError("Choice needs at least one non-empty text option")
        object.__setattr__(self, "options", tuple(options))

    def read(self, name: str, text: str) -> str:
        if text not in self.options:
            raise ProviderError(f"{name}={text!r}: expected one of {', '.join(self.options)}")
        return text

    def describe(self) -> str:
        return "one of " + ", ".join(self.options)


@dataclass(frozen=True)
class Text:
    """Short text matching ``pattern`` (dice notation, say); the function still validates its meaning."""

    pattern: str = r"[^\x00-\x1f\x7f]*"
    max_length: int = 40

    def read(self, name: str, text: str) -> str:
        if len(text) > self.max_length:
            raise ProviderError(f"{name}: longer than {self.max_length} characters")
        if not re.fullmatch(self.pattern, text):
            raise ProviderError(f"{name}={text!r}: not an accepted value")
        return text

    def describe(self) -> str:
        return f"text of at most {self.max_length} characters"


Parameter = Int | Bool | Choice | Text


@dataclass(frozen=True)
class TableProvider:
    """One published table: its name on pages, the function, and what a page may pass to it."""

    name: str
    function: Callable[..., Table]
    parameters: Mapping[str, Parameter] = field(default_factory=dict)

    @property
    def module(self) -> str | None:
        return getattr(self.function, "__module__", None)

    def arguments(self, given: Mapping[str, str]) -> dict[str, object]:
        """Check and convert page text (``name -> raw text``) into keyword arguments."""
        converted: dict[str, object] = {}
        for name, text in given.items():
            parameter = self.parameters.get(name)
            if parameter is None:
                accepted = ", ".join(sorted(self.parameters)) or "none"
                raise ProviderError(f"table {self.name!r} takes no argument {name!r} (it takes: {accepted})")
            converted[name] = parameter.read(name, text)
        return converted

    def __call__(self, given: Mapping[str, str]) -> Table:
        return self.function(**self.arguments(given))


def parse_argument_text(text: str) -> dict[str, str]:
    """``lowest=-2, lid=on`` -> ``{"lowest": "-2", "lid": "on"}``; text only, nothing evaluated."""
    if len(text) > MAX_ARGUMENT_LENGTH:
        raise ProviderError(f"the arguments are longer than {MAX_ARGUMENT_LENGTH} characters")
    arguments: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip().strip("\"'")
        if not sep or not NAME_PATTERN.fullmatch(name):
            raise ProviderError(f"cannot read {part!r} (expected name=value, name=value)")
        if name in arguments:
            raise ProviderError(f"argument {name!r} is given twice")
        arguments[name] = value
    return arguments


class Providers:
    """The tables one package publishes, under a namespace (a registry's system name)."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._tables: dict[str, TableProvider] = {}

    def table(self, name: str | None = None, **parameters: Parameter) -> Callable[[F], F]:
        """Decorator: publish the function as a table pages may show, with these parameters only."""
        for key, parameter in parameters.items():
            if not isinstance(parameter, (Int, Bool, Choice, Text)):
                raise TypeError(f"parameter {key!r}: {parameter!r} is not Int, Bool, Choice or Text")

        def publish(function: F) -> F:
            self.add(TableProvider(name or function.__name__, function, dict(parameters)))
            return function

        return publish

    def add(self, provider: TableProvider) -> TableProvider:
        if not NAME_PATTERN.fullmatch(provider.name):
            raise ValueError(f"{provider.name!r} is not a table name (letters, digits and '_')")
        if provider.name in self._tables and self._tables[provider.name].function is not provider.function:
            raise ValueError(f"{self.namespace}: a table {provider.name!r} is already published")
        self._tables[provider.name] = provider
        return provider

    def get(self, name: str) -> TableProvider | None:
        return self._tables.get(name)

    def __iter__(self) -> Iterator[TableProvider]:
        return iter(self._tables.values())

    def __len__(self) -> int:
        return len(self._tables)
