"""How the rules connect: dependencies read off the formulas of a registry."""

from __future__ import annotations

from rules.formula import Formula
from rules.graph import dependencies, layers
from rules.nodes import Registry


def registry() -> Registry:
    r = Registry("tiny", node_types={"A": "Attribute", "R": "Resource", "S": "Stat"})
    r.define("Tiny.Attribute.Control", "Control", "A")
    r.define("Tiny.Attribute.Sense", "Sense", "A")
    r.define("Tiny.Attribute.Agility", "Agility", "A", values={"code": "AGI"})
    r.define("Tiny.Resource.Energy", "Energy", "R", formula=Formula("Control + Sense + 5"))
    r.define("Tiny.Stat.Speed", "Speed", "S", formula=Formula("floor(AGI / 2) + rank"))
    r.define("Tiny.Stat.Reserve", "Reserve", "S", formula=Formula("Energy * 2"))
    return r


def test_formula_names_that_match_a_node_are_its_dependencies():
    graph = dependencies(registry())
    assert graph.depends_on("Tiny.Resource.Energy") == ("Tiny.Attribute.Control", "Tiny.Attribute.Sense")


def test_a_node_code_value_is_matched_too():
    assert dependencies(registry()).depends_on("Tiny.Stat.Speed") == ("Tiny.Attribute.Agility",)


def test_other_formula_names_are_parameters():
    assert dependencies(registry()).parameters["Tiny.Stat.Speed"] == ("rank",)


def test_used_by_answers_what_changes_with_a_node():
    graph = dependencies(registry())
    assert graph.used_by("Tiny.Attribute.Control") == ("Tiny.Resource.Energy",)
    assert graph.used_by("Tiny.Resource.Energy") == ("Tiny.Stat.Reserve",)
    assert graph.used_by("Tiny.Stat.Reserve") == ()


def test_an_ambiguous_name_is_not_guessed():
    r = registry()
    r.define("Tiny.Stat.Sense", "Sense", "S")  # two nodes called Sense
    graph = dependencies(r)
    assert graph.depends_on("Tiny.Resource.Energy") == ("Tiny.Attribute.Control",)
    assert graph.parameters["Tiny.Resource.Energy"] == ("Sense",)


def test_columns_put_every_node_right_of_its_inputs():
    columns = layers(dependencies(registry()))
    column_of = {uid: index for index, column in enumerate(columns) for uid in column}
    for source, target in dependencies(registry()).edges():
        assert column_of[source] < column_of[target]
    assert column_of["Tiny.Stat.Reserve"] == 2


def test_a_cycle_still_gets_columns_without_recursion():
    r = Registry("loop", node_types={"S": "Stat"})
    r.define("Loop.Stat.A", "A", "S", formula=Formula("B + 1"))
    r.define("Loop.Stat.B", "B", "S", formula=Formula("A + 1"))
    for n in range(3000):  # a long chain: no recursion limit to hit
        r.define(f"Loop.Stat.C{n}", f"C{n}", "S", formula=Formula(f"C{n - 1} + 1" if n else "A"))
    columns = layers(dependencies(r))
    assert sum(len(c) for c in columns) == 3002
