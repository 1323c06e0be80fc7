"""A formula shown to a reader: the book's typeset form (one renderer), each name read as its node."""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes

from rules.formula import Formula
from rules.nodes import Registry
from sphinx_rpg.formula import Name, formula_names, formula_node, spoken


def registry() -> Registry:
    found = Registry("reading", node_types={"A": "Attribute", "RU": "Rule"})
    found.define("Reading.Attribute.Agility", "Agility", "A")
    found.define("Reading.Rule.BasePotential", "Base potential", "RU")
    found.define("Reading.Rule.Potential", "Ability potential", "RU", formula="base_potential + trained_potential")
    found.define("Reading.Rule.Dodge", "Dodge", "RU", formula="Agility * 2")
    return found


def test_an_engine_operator_is_shown_as_the_book_sets_it():
    node = formula_node(Formula("Agility * 2 - floor(n / 3)"))
    assert node.astext() == "Agility \N{MULTIPLICATION SIGN} 2 \N{MINUS SIGN} \N{LEFT FLOOR}n/3\N{RIGHT FLOOR}"
    assert node["latex"] == r"\text{Agility} \times 2 - \left\lfloor \frac{n}{3} \right\rfloor"


def test_a_formula_name_reads_as_the_name_of_the_node_it_means():
    rules = registry()
    potential = rules["Reading.Rule.Potential"]
    names = formula_names(potential, rules)
    assert names == {"base_potential": Name("Base potential", "Reading.Rule.BasePotential")}
    node = formula_node(potential.formula, names, docname="abilities")
    assert node.astext() == "Base potential + trained potential"  # a parameter that is no node: in words
    link = next(node.findall(addnodes.pending_xref))
    assert (link["refdomain"], link["reftype"], link["reftarget"]) == ("node", "ref", "Reading.Rule.BasePotential")
    assert node["latex"] == r"\text{Base potential} + \text{trained potential}"


def test_without_a_page_to_link_from_the_names_are_plain_text():
    rules = registry()
    dodge = rules["Reading.Rule.Dodge"]
    node = formula_node(dodge.formula, formula_names(dodge, rules))
    assert not list(node.findall(addnodes.pending_xref)) and node.astext() == "Agility \N{MULTIPLICATION SIGN} 2"
    assert [n.astext() for n in node.findall(nodes.inline) if "rpg-word" in n["classes"]] == ["Agility"]


def test_a_name_s_latex_is_escaped():
    node = formula_node(Formula("a_b + c"), {"c": Name("Ranks & 50%")})
    assert node["latex"] == r"\text{a b} + \text{Ranks \& 50\%}"


def test_a_parameter_that_is_no_node_reads_as_words():
    assert [spoken(name) for name in ("trained_potential", "ClassHealth", "ArmourAC", "DungeonLevel", "d6", "BD")] == [
        "trained potential", "Class health", "Armour AC", "Dungeon level", "d6", "BD"]
