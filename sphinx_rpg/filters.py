"""A small, safe filter language for node listings (parsed, never evaluated as Python).

    type == "E" and uid ^= "Generic.Damage."
    (type in ("A", "S") or namespace == "Heimr.Ability") and not name ~= "test"

Fields: ``uid``, ``name``, ``type`` (true if any of the node's type codes matches), ``type_name``,
``namespace``, ``docname``, ``summary``, ``bound`` (``"yes"``/``"no"``).  Operators: ``==``, ``!=``,
``^=`` (starts with), ``$=`` (ends with), ``~=`` (contains, ignoring case), ``in (..)``; combine with
``and``, ``or``, ``not`` and parentheses.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

Record = Mapping[str, object]
Predicate = Callable[[Record], bool]

FIELDS = ("uid", "name", "type", "type_name", "namespace", "docname", "summary", "bound")
MAX_FILTER_LENGTH = 1000
#: Parentheses and ``not`` nest at most this deep: deeper filters are refused, never a RecursionError.
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


def _values(record: Record, field: str) -> Iterable[str]:
    value = record.get(field, "")
    if isinstance(value, (list, tuple, set, frozenset)):
        return [str(v) for v in value]
    return [str(value)]


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
            return lambda record: True
        predicate = self.disjunction()
        if self.peek()[0] != "end":
            raise self.fail(self.peek(), "'and', 'or' or the end")
        return predicate

    def disjunction(self) -> Predicate:
        parts = [self.conjunction()]
        while self.peek()[:2] == ("word", "or"):
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else (lambda r: any(p(r) for p in parts))

    def conjunction(self) -> Predicate:
        parts = [self.negation()]
        while self.peek()[:2] == ("word", "and"):
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else (lambda r: all(p(r) for p in parts))

    def negation(self) -> Predicate:
        nests = self.peek()[:2] == ("word", "not") or self.peek()[:2] == ("op", "(")
        if not nests:
            return self.comparison()
        if self.depth >= MAX_FILTER_DEPTH:
            raise FilterError(self.text, self.peek()[2], f"nested more than {MAX_FILTER_DEPTH} deep")
        self.depth += 1
        try:
            if self.take()[1] == "not":
                inner = self.negation()
                return lambda r: not inner(r)
            inner = self.disjunction()
            token = self.take()
            if token[1] != ")":
                raise self.fail(token, "')'")
            return inner
        finally:
            self.depth -= 1

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
            return lambda r: any(v in options for v in _values(r, field))
        if op[0] != "op" or op[1] not in _COMPARE:
            raise self.fail(op, "an operator (==, !=, ^=, $=, ~=, in)")
        compare, expected = _COMPARE[op[1]], self.string()
        if op[1] == "!=":  # "type != 'E'": none of the node's values is E
            return lambda r: all(compare(v, expected) for v in _values(r, field))
        return lambda r: any(compare(v, expected) for v in _values(r, field))


def parse_filter(text: str) -> Predicate:
    """Compile a filter; raises :class:`FilterError` with the column of the problem."""
    return _Parser(text).parse()
