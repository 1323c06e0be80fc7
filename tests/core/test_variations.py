"""The :vary: spec of an odds table: parameters, defaults, combinations, and substitution that evaluates nothing."""

from __future__ import annotations

import pytest

from rules.variations import (
    MAX_VALUES,
    Parameter,
    VaryError,
    combination_count,
    combinations,
    default_values,
    parse_vary,
    placeholders,
    substitute,
)


def test_ranges_choices_and_defaults_are_read() -> None:
    assert parse_vary("attribute=0-4 (2), skill=0..4; lid=on|off (off)\nmod=-3--1") == (
        Parameter("attribute", (0, 1, 2, 3, 4), 2), Parameter("skill", (0, 1, 2, 3, 4), 0),
        Parameter("lid", ("on", "off"), "off"), Parameter("mod", (-3, -2, -1), -3))


def test_parameters_may_be_separated_by_spaces_alone() -> None:
    assert [p.name for p in parse_vary("rank=0-4 skill=0-4 dc=5-15")] == ["rank", "skill", "dc"]


def test_choices_may_be_several_words_and_numbers() -> None:
    (modifier,) = parse_vary("modifier=none | lesser  boon | greater boon (lesser boon)")
    assert modifier.values == ("none", "lesser boon", "greater boon") and modifier.default == "lesser boon"
    assert parse_vary("n=1|2|10")[0].numeric and not modifier.numeric
    assert modifier.label == "Modifier" and Parameter("skill_rank", (1,), 1).label == "Skill rank"


@pytest.mark.parametrize(("spec", "reason"), [
    ("", "at least one parameter"),
    ("n=4-1", "runs backwards"),
    ("n=1-3 (5)", "is not one of its values"),
    ("n=1-3, n=1-2", "declared twice"),
    ("n=on|on", "given twice"),
    ("n=on||off", "expected a range"),
    ("n=a{b}|c", "is not a whole number or words"),
    ("3n=1-2", "cannot read"),
    (f"n=1-{MAX_VALUES + 1}", f"more than the {MAX_VALUES}"),
    ("a=1|2 b=1|2 c=1|2 d=1|2 e=1|2 f=1|2 g=1|2", "more than 6"),
])
def test_bad_specs_say_why(spec: str, reason: str) -> None:
    with pytest.raises(VaryError, match=reason):
        parse_vary(spec)


def test_combinations_run_last_parameter_fastest_and_count_them_all() -> None:
    parameters = parse_vary("a=1-2, b=x|y|z")
    assert list(combinations(parameters)) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"},
        {"a": 2, "b": "x"}, {"a": 2, "b": "y"}, {"a": 2, "b": "z"}]
    assert combination_count(parameters) == 6 and default_values(parameters) == {"a": 1, "b": "x"}


def test_substitution_fills_names_sums_and_signed_numbers() -> None:
    values = {"c": 2, "p": -1, "skill": 13, "modifier": -2, "lid": "off"}
    assert substitute("C{c:+} P{p:+}", values) == "C+2 P-1"
    assert substitute("tn={skill + modifier}, lowest={ -skill + 3 }", values) == "tn=11, lowest=-10"
    assert substitute("{c}d6 lid-{lid}", values) == "2d6 lid-off"
    assert substitute("no placeholder", values) == "no placeholder"
    assert placeholders("C{c:+} tn={skill+modifier-1}") == {"c", "skill", "modifier"}


@pytest.mark.parametrize(("template", "reason"), [
    ("{x}", "'x' is not a declared parameter"),
    ("{c.__class__}", "expected parameter names and whole numbers"),
    ("{c c}", "expected parameter names and whole numbers"),
    ("{c*2}", "expected parameter names and whole numbers"),
    ("{lid+1}", "is words, not a number"),
    ("{lid:+}", "words cannot be printed signed"),
    ("{c:>5}", "the only format is :+"),
    ("{}", "an empty placeholder"),
    ("{c", "an unmatched brace"),
    ("c}", "an unmatched brace"),
    ("x" * 501, "longer than 500"),
])
def test_anything_but_declared_names_and_sums_is_refused(template: str, reason: str) -> None:
    with pytest.raises(VaryError, match=reason):
        substitute(template, {"c": 1, "lid": "on"})
