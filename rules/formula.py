"""Safe arithmetic formulas such as ``Control + Sense + Focus + 5``.

Rules publish their formulas as text so the rulebook can show them (as maths) and evaluate them (to
print derived numbers) without anybody calling ``eval`` on document text.  The grammar is small on
purpose: integers and decimals, names (``Power``, ``AGI``, ``base_fatigue``), ``+ - * / //``, unary
minus, parentheses, and the functions ``floor``, ``ceil``, ``min``, ``max`` and ``abs``.  Arithmetic is
exact (``Fraction``), so ``floor((AGI + VIT) / 2)`` rounds the way the rulebook says.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

Number = int | Fraction

MAX_FORMULA_LENGTH = 500
FUNCTIONS: dict[str, Callable[..., Number]] = {
    "floor": lambda x: math.floor(x),
    "ceil": lambda x: math.ceil(x),
    "abs": lambda x: abs(x),
    "min": lambda *xs: min(xs),
    "max": lambda *xs: max(xs),
}
_ARITY = {"floor": (1, 1), "ceil": (1, 1), "abs": (1, 1), "min": (2, 16), "max": (2, 16)}
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>//|[-+*/(),]))")


class FormulaError(ValueError):
    """A formula that cannot be parsed or evaluated; names the offending text and column."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text, self.position, self.reason = text, position, reason
        super().__init__(f"{text!r}: at column {position + 1}: {reason}")


@dataclass(frozen=True)
class _Num:
    value: Fraction


@dataclass(frozen=True)
class _Name:
    name: str


@dataclass(frozen=True)
class _Neg:
    operand: _Expr


@dataclass(frozen=True)
class _Bin:
    op: str
    left: _Expr
    right: _Expr


@dataclass(frozen=True)
class _Call:
    func: str
    args: tuple[_Expr, ...]


_Expr = _Num | _Name | _Neg | _Bin | _Call
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            match = _TOKEN.match(text, pos)
            if not match:
                start = pos + len(text[pos:]) - len(text[pos:].lstrip())
                raise FormulaError(text, start, f"unexpected character {text[start]!r}")
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind), match.start(kind)))
            pos = match.end()
        self.index = 0

    def peek(self) -> tuple[str, str, int]:
        if self.index < len(self.tokens):
            return self.tokens[self.index]
        return ("end", "", len(self.text))

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        self.index += 1
        return token

    def expect(self, value: str) -> None:
        kind, text, pos = self.take()
        if text != value:
            found = "the end" if kind == "end" else repr(text)
            raise FormulaError(self.text, pos, f"expected {value!r}, found {found}")

    def parse(self) -> _Expr:
        if not self.tokens:
            raise FormulaError(self.text, 0, "the formula is empty")
        expr = self.expression(0)
        kind, text, pos = self.peek()
        if kind != "end":
            raise FormulaError(self.text, pos, f"unexpected {text!r} after a complete formula")
        return expr

    def expression(self, min_precedence: int) -> _Expr:
        left = self.unary()
        while True:
            kind, op, _ = self.peek()
            precedence = _PRECEDENCE.get(op) if kind == "op" else None
            if precedence is None or precedence < min_precedence:
                return left
            self.take()
            left = _Bin(op, left, self.expression(precedence + 1))

    def unary(self) -> _Expr:
        _kind, text, _pos = self.peek()
        if text == "-":
            self.take()
            return _Neg(self.unary())
        if text == "+":
            self.take()
            return self.unary()
        return self.atom()

    def atom(self) -> _Expr:
        kind, text, pos = self.take()
        if kind == "num":
            return _Num(Fraction(text))
        if kind == "name":
            if self.peek()[1] == "(":
                return self.call(text, pos)
            return _Name(text)
        if text == "(":
            inner = self.expression(0)
            self.expect(")")
            return inner
        found = "the end" if kind == "end" else repr(text)
        raise FormulaError(self.text, pos, f"expected a number, a name or '(', found {found}")

    def call(self, func: str, pos: int) -> _Expr:
        if func not in FUNCTIONS:
            raise FormulaError(self.text, pos, f"unknown function {func!r} (known: {', '.join(FUNCTIONS)})")
        self.expect("(")
        args = [self.expression(0)]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.expression(0))
        self.expect(")")
        low, high = _ARITY[func]
        if not low <= len(args) <= high:
            raise FormulaError(self.text, pos, f"{func}() takes {low}..{high} arguments, got {len(args)}")
        return _Call(func, tuple(args))


def _evaluate(expr: _Expr, values: Mapping[str, Number], text: str) -> Number:
    if isinstance(expr, _Num):
        return expr.value
    if isinstance(expr, _Name):
        if expr.name not in values:
            raise FormulaError(text, text.find(expr.name), f"no value given for {expr.name!r}")
        return Fraction(values[expr.name])
    if isinstance(expr, _Neg):
        return -_evaluate(expr.operand, values, text)
    if isinstance(expr, _Call):
        return Fraction(FUNCTIONS[expr.func](*(_evaluate(a, values, text) for a in expr.args)))
    left, right = _evaluate(expr.left, values, text), _evaluate(expr.right, values, text)
    if expr.op in ("/", "//") and right == 0:
        raise FormulaError(text, 0, "division by zero")
    if expr.op == "+":
        return left + right
    if expr.op == "-":
        return left - right
    if expr.op == "*":
        return left * right
    if expr.op == "/":
        return Fraction(left) / right
    if expr.op == "//":
        return Fraction(left // right)
    raise FormulaError(text, 0, f"unknown operator {expr.op!r}")  # the parser makes none other


def _names(expr: _Expr) -> list[str]:
    if isinstance(expr, _Name):
        return [expr.name]
    if isinstance(expr, _Neg):
        return _names(expr.operand)
    if isinstance(expr, _Bin):
        return _names(expr.left) + _names(expr.right)
    if isinstance(expr, _Call):
        return [n for a in expr.args for n in _names(a)]
    return []


Tree = list[object]


def _tree(expr: _Expr) -> Tree:
    if isinstance(expr, _Num):
        value = expr.value
        return ["num", str(value.numerator), str(value.denominator)]
    if isinstance(expr, _Name):
        return ["name", expr.name]
    if isinstance(expr, _Neg):
        return ["neg", _tree(expr.operand)]
    if isinstance(expr, _Call):
        return ["call", expr.func, *(_tree(a) for a in expr.args)]
    return ["bin", expr.op, _tree(expr.left), _tree(expr.right)]


def _latex_name(name: str) -> str:
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


def _latex(expr: _Expr, parent: int = 0) -> str:
    if isinstance(expr, _Num):
        value = expr.value
        return str(value.numerator) if value.denominator == 1 else str(float(value))
    if isinstance(expr, _Name):
        return _latex_name(expr.name)
    if isinstance(expr, _Neg):
        return "-" + _latex(expr.operand, 3)
    if isinstance(expr, _Call):
        inner = ", ".join(_latex(a) for a in expr.args)
        if expr.func == "floor":
            return r"\left\lfloor " + inner + r" \right\rfloor"
        if expr.func == "ceil":
            return r"\left\lceil " + inner + r" \right\rceil"
        if expr.func == "abs":
            return r"\left| " + inner + r" \right|"
        return rf"\{expr.func}\left({inner}\right)"
    if expr.op == "/":
        return r"\frac{" + _latex(expr.left) + "}{" + _latex(expr.right) + "}"
    precedence = _PRECEDENCE[expr.op]
    op = {"+": " + ", "-": " - ", "*": r" \times ", "//": r" \mathbin{/\!/} "}[expr.op]
    body = _latex(expr.left, precedence) + op + _latex(expr.right, precedence + 1)
    return rf"\left({body}\right)" if precedence < parent else body


@dataclass(frozen=True)
class Symbol:
    """One typeset symbol: a variable (``var``), a number, a binary operator, a sign, a function name or a comma."""

    kind: Literal["var", "num", "op", "sign", "func", "punct"]
    text: str


@dataclass(frozen=True)
class Over:
    """A fraction: the numerator set over the denominator."""

    numerator: tuple[Box, ...]
    denominator: tuple[Box, ...]


@dataclass(frozen=True)
class Fenced:
    """A group between two delimiters: parentheses, floor or ceiling brackets, bars."""

    open: str
    body: tuple[Box, ...]
    close: str


Box: TypeAlias = "Symbol | Over | Fenced"
_SYMBOL = {"+": "+", "-": "\N{MINUS SIGN}", "*": "\N{MULTIPLICATION SIGN}", "//": "//"}
_FENCES = {"floor": ("\N{LEFT FLOOR}", "\N{RIGHT FLOOR}"), "ceil": ("\N{LEFT CEILING}", "\N{RIGHT CEILING}"),
           "abs": ("|", "|")}


def _boxes(expr: _Expr, parent: int = 0) -> tuple[Box, ...]:
    """The same layout as :func:`_latex`, as boxes a renderer without TeX can set (HTML, text)."""
    if isinstance(expr, _Num):
        return (Symbol("num", _latex(expr)),)
    if isinstance(expr, _Name):
        return (Symbol("var", expr.name),)
    if isinstance(expr, _Neg):
        return (Symbol("sign", _SYMBOL["-"]), *_boxes(expr.operand, 3))
    if isinstance(expr, _Call):
        inner: tuple[Box, ...] = ()
        for index, arg in enumerate(expr.args):
            inner += ((Symbol("punct", ", "),) if index else ()) + _boxes(arg)
        if expr.func in _FENCES:
            opening, closing = _FENCES[expr.func]
            return (Fenced(opening, inner, closing),)
        return (Symbol("func", expr.func), Fenced("(", inner, ")"))
    if expr.op == "/":
        return (Over(_boxes(expr.left), _boxes(expr.right)),)
    precedence = _PRECEDENCE[expr.op]
    body = (*_boxes(expr.left, precedence), Symbol("op", _SYMBOL[expr.op]), *_boxes(expr.right, precedence + 1))
    return (Fenced("(", body, ")"),) if precedence < parent else body


def _text(expr: _Expr, parent: int = 0) -> str:
    if isinstance(expr, _Num):
        value = expr.value
        return str(value.numerator) if value.denominator == 1 else str(float(value))
    if isinstance(expr, _Name):
        return expr.name
    if isinstance(expr, _Neg):
        return "-" + _text(expr.operand, 3)
    if isinstance(expr, _Call):
        return f"{expr.func}({', '.join(_text(a) for a in expr.args)})"
    precedence = _PRECEDENCE[expr.op]
    body = f"{_text(expr.left, precedence)} {expr.op} {_text(expr.right, precedence + 1)}"
    return f"({body})" if precedence < parent else body


class Formula:
    """A parsed formula: evaluate it exactly, list its inputs, or render it as text or LaTeX.

    >>> energy = Formula("Control + Sense + Focus + 5")
    >>> energy(Control=2, Sense=1, Focus=3)
    11
    >>> energy.names
    ('Control', 'Sense', 'Focus')
    """

    __slots__ = ("_tree", "text")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"a formula is text, not {type(text).__name__}")
        if len(text) > MAX_FORMULA_LENGTH:
            raise FormulaError(text[:40] + "...", MAX_FORMULA_LENGTH, "the formula is too long")
        self.text = text.strip()
        self._tree = _Parser(self.text).parse()

    @property
    def names(self) -> tuple[str, ...]:
        """The inputs the formula needs, in order of first appearance."""
        return tuple(dict.fromkeys(_names(self._tree)))

    def evaluate(self, values: Mapping[str, Number] | None = None, /, **kwargs: Number) -> Number:
        """The exact value; whole numbers come back as ``int``."""
        merged = {**(values or {}), **kwargs}
        result = _evaluate(self._tree, merged, self.text)
        fraction = Fraction(result)
        return fraction.numerator if fraction.denominator == 1 else fraction

    __call__ = evaluate

    def whole(self, values: Mapping[str, Number] | None = None, /, **kwargs: Number) -> int:
        """The value of a formula that must come out whole (ranks added up); ``FormulaError`` if not."""
        result = self.evaluate(values, **kwargs)
        if not isinstance(result, int):
            raise FormulaError(self.text, 0, f"the value {result} is not a whole number")
        return result

    def latex(self) -> str:
        return _latex(self._tree)

    def boxes(self) -> tuple[Box, ...]:
        """The formula typeset as boxes (symbols, fractions, fenced groups) for renderers without TeX.

        >>> Formula("floor((AGI + VIT) / 2)").boxes()  # doctest: +NORMALIZE_WHITESPACE
        (Fenced(open='⌊', body=(Over(numerator=(Symbol(kind='var', text='AGI'), Symbol(kind='op', text='+'),
        Symbol(kind='var', text='VIT')), denominator=(Symbol(kind='num', text='2'),)),), close='⌋'),)
        """
        return _boxes(self._tree)

    def tree(self) -> Tree:
        """The parsed formula as plain JSON data, for evaluators outside Python (a sheet in the page).

        ``["num", numerator, denominator]`` (as text: exact at any size), ``["name", name]``,
        ``["neg", x]``, ``["bin", op, left, right]`` and ``["call", function, *arguments]``.

        >>> Formula("floor((AGI + VIT) / 2)").tree()
        ['call', 'floor', ['bin', '/', ['bin', '+', ['name', 'AGI'], ['name', 'VIT']], ['num', '2', '1']]]
        """
        return _tree(self._tree)

    def __str__(self) -> str:
        return _text(self._tree)

    def __repr__(self) -> str:
        return f"Formula({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Formula) and self._tree == other._tree

    def __hash__(self) -> int:
        return hash(self._tree)
