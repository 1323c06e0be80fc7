"""Parameters a reader may vary in an odds table: the ``:vary:`` spec, its combinations, substitution.

A page writes ``:vary: attribute=0-4 (2), skill=0-4 (1), modifier=none|lesser boon`` and a template
such as ``Agility {attribute} › Athletics {skill}``.  Every combination of the declared values is
substituted into the template and the result is read by the ordinary notation parser, so nothing a
page writes is ever evaluated: a placeholder may only name declared parameters, add or subtract them
(and whole numbers), and print the result signed (``{c:+}`` gives ``+2``, ``-1``, ``+0``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["MAX_TEMPLATE_LENGTH", "MAX_VALUES", "Parameter", "VaryError", "combination_count", "combinations",
           "default_values", "parse_vary", "placeholders", "substitute"]

#: The most values one parameter may take (a control with more would be unusable anyway).
MAX_VALUES = 100
#: The longest text a template may be: substitution is linear in it.
MAX_TEMPLATE_LENGTH = 500
#: The most parameters one table may vary.
MAX_PARAMETERS = 6

Value = int | str

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_ITEM = re.compile(rf"\s*(?P<name>{_NAME})\s*=\s*(?P<values>[^()]*?)\s*(?:\(\s*(?P<default>[^()]*?)\s*\))?\s*")
_RANGE = re.compile(r"(-?\d+)\s*(?:-|\.\.)\s*(-?\d+)")
_INTEGER = re.compile(r"-?\d+")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9 +\-]*")
_NEXT_NAME = re.compile(rf"\s+(?={_NAME}\s*=)")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_TERM = re.compile(rf"\s*([+-]?)\s*({_NAME}|\d+)\s*")


class VaryError(ValueError):
    """A ``:vary:`` spec or template the page cannot use (the message names the bad part)."""


@dataclass(frozen=True)
class Parameter:
    """One thing a reader may vary: its name, every value it takes (in order) and the default."""

    name: str
    values: tuple[Value, ...]
    default: Value

    @property
    def numeric(self) -> bool:
        return all(isinstance(value, int) for value in self.values)

    @property
    def label(self) -> str:
        """The control's label: the name, underscores as spaces, first letter capital."""
        text = self.name.replace("_", " ")
        return text[:1].upper() + text[1:]


def _split_items(text: str) -> list[str]:
    """Parameters are separated by commas, semicolons or new lines, or by spaces before ``name=``."""
    items: list[str] = []
    for chunk in re.split(r"[,;\n]", text):
        items.extend(part for part in _NEXT_NAME.split(chunk) if part.strip())
    return items


def _read_values(name: str, text: str) -> tuple[Value, ...]:
    if match := _RANGE.fullmatch(text):
        low, high = int(match.group(1)), int(match.group(2))
        if high < low:
            raise VaryError(f"{name}={text}: the range runs backwards")
        if high - low + 1 > MAX_VALUES:
            raise VaryError(f"{name}={text}: {high - low + 1} values, more than the {MAX_VALUES} a control may offer")
        return tuple(range(low, high + 1))
    choices = [choice.strip() for choice in text.split("|")]
    if not text or any(not choice for choice in choices):
        raise VaryError(f"{name}={text!r}: expected a range such as 0-4 or choices such as on|off")
    if len(choices) > MAX_VALUES:
        raise VaryError(f"{name}: {len(choices)} choices, more than the {MAX_VALUES} a control may offer")
    values: list[Value] = []
    for choice in choices:
        if _INTEGER.fullmatch(choice):
            values.append(int(choice))
        elif _WORD.fullmatch(choice):
            values.append(" ".join(choice.split()))
        else:
            raise VaryError(f"{name}: the choice {choice!r} is not a whole number or words "
                            "(letters, digits, spaces, + and -)")
    if len(set(values)) != len(values):
        raise VaryError(f"{name}: a choice is given twice")
    return tuple(values)


def parse_vary(text: str) -> tuple[Parameter, ...]:
    """``attribute=0-4 (2), lid=on|off`` -> the parameters, each with its values and default.

    The default (in brackets) is what the page shows without JavaScript and in print; without one it is
    the first value.
    """
    if not isinstance(text, str) or not text.strip():
        raise VaryError("give at least one parameter, such as skill=0-4 (1)")
    if len(text) > MAX_TEMPLATE_LENGTH:
        raise VaryError(f"the spec is longer than {MAX_TEMPLATE_LENGTH} characters")
    parameters: dict[str, Parameter] = {}
    for item in _split_items(text):
        match = _ITEM.fullmatch(item)
        if match is None:
            raise VaryError(f"cannot read {item.strip()!r} (expected name=0-4 (2) or name=a|b|c (b))")
        name = match["name"]
        if name in parameters:
            raise VaryError(f"the parameter {name!r} is declared twice")
        values = _read_values(name, match["values"])
        default: Value = values[0]
        if match["default"] is not None:
            given = match["default"]
            default = int(given) if _INTEGER.fullmatch(given) else " ".join(given.split())
            if default not in values:
                raise VaryError(f"{name}: the default {given!r} is not one of its values")
        parameters[name] = Parameter(name, values, default)
    if len(parameters) > MAX_PARAMETERS:
        raise VaryError(f"{len(parameters)} parameters, more than {MAX_PARAMETERS}")
    return tuple(parameters.values())


def combination_count(parameters: Sequence[Parameter]) -> int:
    count = 1
    for parameter in parameters:
        count *= len(parameter.values)
    return count


def combinations(parameters: Sequence[Parameter]) -> Iterator[dict[str, Value]]:
    """Every combination, the last parameter varying fastest (the order the page's data is written in)."""
    names = [parameter.name for parameter in parameters]
    for values in itertools.product(*(parameter.values for parameter in parameters)):
        yield dict(zip(names, values))


def default_values(parameters: Sequence[Parameter]) -> dict[str, Value]:
    return {parameter.name: parameter.default for parameter in parameters}


def placeholders(template: str) -> set[str]:
    """The parameter names a template's placeholders use (to check that each declared one is used)."""
    names: set[str] = set()
    for body in _PLACEHOLDER.findall(template):
        expression = body.rsplit(":", 1)[0] if ":" in body else body
        names.update(term for _, term in _TERM.findall(expression) if not term.isdigit())
    return names


def _evaluate(body: str, values: Mapping[str, Value]) -> str:
    expression, _, spec = body.partition(":")
    if spec.strip() not in ("", "+"):
        raise VaryError(f"{{{body}}}: the only format is :+ (a signed number)")
    position, total, terms = 0, 0, 0
    text: str | None = None
    while position < len(expression):
        match = _TERM.match(expression, position)
        if match is None or match.end() == position or (terms and not match.group(1)):
            raise VaryError(f"{{{body}}}: expected parameter names and whole numbers joined by + or -")
        sign, term = match.groups()
        position = match.end()
        terms += 1
        if term.isdigit():
            value: Value = int(term)
        elif term in values:
            value = values[term]
        else:
            raise VaryError(f"{{{body}}}: {term!r} is not a declared parameter "
                            f"(declared: {', '.join(sorted(values)) or 'none'})")
        if isinstance(value, str):
            if sign or terms > 1 or position < len(expression.rstrip()):
                raise VaryError(f"{{{body}}}: {term!r} is words, not a number: it cannot be added or signed")
            text = value
            continue
        total += -value if sign == "-" else value
    if terms == 0:
        raise VaryError("an empty placeholder {}")
    if text is not None:
        if spec.strip():
            raise VaryError(f"{{{body}}}: words cannot be printed signed")
        return text
    return f"{total:+d}" if spec.strip() == "+" else str(total)


def substitute(template: str, values: Mapping[str, Value]) -> str:
    """The template with each ``{...}`` replaced by its value; any other brace is an error."""
    if len(template) > MAX_TEMPLATE_LENGTH:
        raise VaryError(f"the text is longer than {MAX_TEMPLATE_LENGTH} characters")
    result = _PLACEHOLDER.sub(lambda match: _evaluate(match.group(1), values), template)
    leftover = _PLACEHOLDER.sub("", template)
    if "{" in leftover or "}" in leftover:
        raise VaryError(f"{template!r}: an unmatched brace")
    return result
