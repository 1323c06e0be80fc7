"""A small, safe filter language for node listings (parsed, never evaluated as Python).

    type == "E" and uid ^= "Generic.Damage."
    (type in ("A", "S") or namespace == "Heimr.Ability") and not name ~= "test"

Fields: ``uid``, ``name``, ``type`` (true if any of the node's type codes matches), ``type_name``,
``namespace``, ``docname``, ``summary``, ``bound`` (``"yes"``/``"no"``).  Operators: ``==``, ``!=``,
``^=`` (starts with), ``$=`` (ends with), ``~=`` (contains, ignoring case), ``in (..)``; combine with
``and``, ``or``, ``not`` and parentheses.

A parsed filter is a small tree of :class:`Predicate` objects.  Besides testing one record, each can
name the records it *may* match through a :class:`FieldIndex` (equality and prefix lookups), so a book
with a listing on every page does not scan every node once per listing.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence

from sphinx_rpg.warnings import warn

Record = Mapping[str, object]

FIELDS = ("uid", "name", "type", "type_name", "namespace", "docname", "summary", "bound")
#: Fields answered from an equality index, and those also answered from a prefix index.
EQUALITY_FIELDS = ("uid", "name", "type", "type_name", "namespace", "docname", "bound")
PREFIX_FIELDS = ("uid", "name", "namespace", "docname")
MAX_FILTER_LENGTH = 1000
#: How deeply parentheses and ``not`` may nest: the parser recurses once per level.
MAX_FILTER_DEPTH = 32
_TOKEN = re.compile(r"""\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?P<op>==|!=|\^=|\$=|~=|[(),])"""
                    r"""|(?P<word>[A-Za-z_][A-Za-z0-9_]*))""")
_COMPARE: dict[str, Callable[[str, str], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "^=": lambda a, b: a.startswith(b),
    "$=": lambda a, b: a.endswith(b),
    "~=": lambda a, b: b.lower() in a.lower(),
}


class FilterError(ValueError):
    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text, self.position, self.reason = text, position, reason
        super().__init__(f"filter {text!r}: at column {position + 1}: {reason}")


def _values(record: Record, field: str) -> list[str]:
    value = record.get(field, "")
    if isinstance(value, (list, tuple, set, frozenset)):
        return [str(v) for v in value]
    return [str(value)]


class FieldIndex:
    """Positions of records by field value (and sorted for prefixes), built once per set of records."""

    def __init__(self, records: Sequence[Record]) -> None:
        self.size = len(records)
        self._equal: dict[str, dict[str, set[int]]] = {field: {} for field in EQUALITY_FIELDS}
        by_prefix: dict[str, list[tuple[str, int]]] = {field: [] for field in PREFIX_FIELDS}
        for position, record in enumerate(records):
            for field in EQUALITY_FIELDS:
                for value in _values(record, field):
                    self._equal[field].setdefault(value, set()).add(position)
            for field in PREFIX_FIELDS:
                by_prefix[field].extend((value, position) for value in _values(record, field))
        self._sorted = {field: sorted(pairs) for field, pairs in by_prefix.items()}

    def equal(self, field: str, value: str) -> set[int]:
        return self._equal[field].get(value, set())

    def prefix(self, field: str, prefix: str) -> set[int]:
        pairs = self._sorted[field]
        found: set[int] = set()
        for value, position in pairs[bisect_left(pairs, (prefix, -1)):]:
            if not value.startswith(prefix):
                break
            found.add(position)
        return found


class Predicate:
    """One node of a parsed filter: call it on a record; ``candidates`` narrows by index."""

    def __call__(self, record: Record) -> bool:
        raise NotImplementedError

    def candidates(self, index: FieldIndex) -> set[int] | None:
        """Positions that may match (a superset of the matches), or None for "any record"."""
        return None


class _Everything(Predicate):
    def __call__(self, record: Record) -> bool:
        return True


class _Any(Predicate):
    def __init__(self, parts: list[Predicate]) -> None:
        self.parts = parts

    def __call__(self, record: Record) -> bool:
        return any(part(record) for part in self.parts)

    def candidates(self, index: FieldIndex) -> set[int] | None:
        found: set[int] = set()
        for part in self.parts:
            narrowed = part.candidates(index)
            if narrowed is None:
                return None
            found |= narrowed
        return found


class _All(Predicate):
    def __init__(self, parts: list[Predicate]) -> None:
        self.parts = parts

    def __call__(self, record: Record) -> bool:
        return all(part(record) for part in self.parts)

    def candidates(self, index: FieldIndex) -> set[int] | None:
        found: set[int] | None = None
        for part in self.parts:
            narrowed = part.candidates(index)
            if narrowed is not None:
                found = narrowed if found is None else found & narrowed
        return found


class _Not(Predicate):
    def __init__(self, inner: Predicate) -> None:
        self.inner = inner

    def __call__(self, record: Record) -> bool:
        return not self.inner(record)


class _Compare(Predicate):
    def __init__(self, field: str, op: str, expected: str) -> None:
        self.field, self.op, self.expected = field, op, expected
        self.compare = _COMPARE[op]

    def __call__(self, record: Record) -> bool:
        values = _values(record, self.field)
        if self.op == "!=":  # "type != 'E'": none of the node's values is E
            return all(self.compare(v, self.expected) for v in values)
        return any(self.compare(v, self.expected) for v in values)

    def candidates(self, index: FieldIndex) -> set[int] | None:
        if self.op == "==" and self.field in EQUALITY_FIELDS:
            return index.equal(self.field, self.expected)
        if self.op == "^=" and self.field in PREFIX_FIELDS:
            return index.prefix(self.field, self.expected)
        return None


class _In(Predicate):
    def __init__(self, field: str, options: set[str]) -> None:
        self.field, self.options = field, options

    def __call__(self, record: Record) -> bool:
        return any(v in self.options for v in _values(record, self.field))

    def candidates(self, index: FieldIndex) -> set[int] | None:
        if self.field not in EQUALITY_FIELDS:
            return None
        found: set[int] = set()
        for option in self.options:
            found |= index.equal(self.field, option)
        return found


class _Parser:
    def __init__(self, text: str) -> None:
        if len(text) > MAX_FILTER_LENGTH:
            raise FilterError(text[:40] + "...", MAX_FILTER_LENGTH, "the filter is too long")
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while text[pos:].strip():
            match = _TOKEN.match(text, pos)
            if not match:
                start = len(text) - len(text[pos:].lstrip())
                raise FilterError(text, start, f"unexpected character {text[start]!r}")
            kind = match.lastgroup or ""
            value = match.group(kind)
            if kind == "str":
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            self.tokens.append((kind, value, match.start(kind)))
            pos = match.end()
        self.index = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.index] if self.index < len(self.tokens) else ("end", "", len(self.text))

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        self.index += 1
        return token

    def fail(self, token: tuple[str, str, int], expected: str) -> FilterError:
        found = "the end" if token[0] == "end" else repr(token[1])
        return FilterError(self.text, token[2], f"expected {expected}, found {found}")

    def parse(self) -> Predicate:
        if not self.tokens:
            return _Everything()
        predicate = self.disjunction()
        if self.peek()[0] != "end":
            raise self.fail(self.peek(), "'and', 'or' or the end")
        return predicate

    def disjunction(self) -> Predicate:
        parts = [self.conjunction()]
        while self.peek()[:2] == ("word", "or"):
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else _Any(parts)

    def conjunction(self) -> Predicate:
        parts = [self.negation()]
        while self.peek()[:2] == ("word", "and"):
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else _All(parts)

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_FILTER_DEPTH:
            raise FilterError(self.text, self.peek()[2],
                              f"parentheses and 'not' nest more than {MAX_FILTER_DEPTH} deep")

    def negation(self) -> Predicate:
        if self.peek()[:2] == ("word", "not"):
            self.take()
            self._deeper()
            inner = self.negation()
            self.depth -= 1
            return _Not(inner)
        if self.peek()[1] == "(" and self.peek()[0] == "op":
            self.take()
            self._deeper()
            inner = self.disjunction()
            self.depth -= 1
            token = self.take()
            if token[1] != ")":
                raise self.fail(token, "')'")
            return inner
        return self.comparison()

    def string(self) -> str:
        token = self.take()
        if token[0] != "str":
            raise self.fail(token, "a quoted string")
        return token[1]

    def comparison(self) -> Predicate:
        token = self.take()
        if token[0] != "word" or token[1] not in FIELDS:
            raise self.fail(token, f"a field ({', '.join(FIELDS)})")
        field = token[1]
        op = self.take()
        if op[:2] == ("word", "in"):
            opening = self.take()
            if opening[1] != "(":
                raise self.fail(opening, "'('")
            options = {self.string()}
            while self.peek()[1] == ",":
                self.take()
                options.add(self.string())
            closing = self.take()
            if closing[1] != ")":
                raise self.fail(closing, "')' or ','")
            return _In(field, options)
        if op[0] != "op" or op[1] not in _COMPARE:
            raise self.fail(op, "an operator (==, !=, ^=, $=, ~=, in)")
        return _Compare(field, op[1], self.string())


def parse_filter(text: str) -> Predicate:
    """Compile a filter; raises :class:`FilterError` with the column of the problem."""
    return _Parser(text).parse()


def select(predicate: Predicate, records: Sequence[Record], index: FieldIndex) -> list[int]:
    """Positions of the records that match, in order, testing only the index's candidates."""
    narrowed = predicate.candidates(index)
    positions: Iterable[int] = range(len(records)) if narrowed is None else sorted(narrowed)
    return [position for position in positions if predicate(records[position])]


def filter_is_valid(text: str, location: object) -> bool:
    """Check a directive's filter when the page is read; a located ``node.filter`` warning when it fails."""
    try:
        parse_filter(text)
    except FilterError as error:
        warn("filter", str(error), location)
        return False
    return True
