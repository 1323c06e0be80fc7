"""The generic node model and the registry every game system exports."""

import pytest

from rules.formula import Formula
from rules.nodes import (
    CORE_NODE_TYPES,
    NodeError,
    InvalidTypeError,
    Node,
    Ranks,
    Registry,
    UnknownNodeError,
    parse_types,
)


def test_type_lists_ignore_spaces():
    assert parse_types("E,R") == parse_types("E, R") == parse_types([" E", "R "]) == ("E", "R")


@pytest.mark.parametrize("text", ["", "E,,R", "E, E", "E R", "E;R"])
def test_malformed_type_lists_are_refused(text):
    with pytest.raises(InvalidTypeError):
        parse_types(text)


@pytest.mark.parametrize("uid", ["Generic.Trait.Energy", "Heimr.Ability.Knife-fighting", "Solo", "A.b_c.D9"])
def test_uids_are_dotted_identifiers(uid):
    assert Node(uid=uid, name="x", types=("E",)).uid == uid


@pytest.mark.parametrize("uid", ["", "3d6", "Generic..Energy", "Generic.Trait.", ".Energy", "Gen eric", None])
def test_ill_formed_uids_are_refused(uid):
    with pytest.raises(NodeError):
        Node(uid=uid, name="x", types=("E",))


def test_a_node_title_is_name_and_types():
    assert Node("Generic.Trait.Energy", "Energy", ("E", "R")).title == "Energy (E,R)"


def test_a_formula_given_as_text_is_parsed_and_shown_as_a_fact():
    node = Node("Generic.Trait.Energy", "Energy", ("E", "R"), formula="Control + Sense + Focus + 5")
    assert node.formula == Formula("Control + Sense + Focus + 5")
    assert node.facts()[0].label == "Formula" and node.facts()[0].latex.startswith(r"\mathrm{Control}")


def test_values_are_quotable_and_unknown_keys_name_what_exists():
    node = Node("Generic.Trait.Energy", "Energy", ("E",), values={"base": 5})
    assert node.value("base") == 5 and node.value("title") == "Energy (E)"
    with pytest.raises(KeyError, match="has no value 'nope'.*base"):
        node.value("nope")


def test_ranks_bound_what_a_node_can_hold():
    ranks = Ranks(0, 4)
    assert ranks.check(4) == 4 and str(ranks) == "0\N{EN DASH}4"
    with pytest.raises(NodeError, match="rank 5 is outside 0"):
        ranks.check(5)
    with pytest.raises(NodeError, match="whole number"):
        ranks.check(True)
    assert str(Ranks(1)) == "1 or more"


def test_registry_binds_uids_to_nodes_and_refuses_duplicates():
    registry = Registry("test")
    node = registry.define("Generic.Trait.Energy", "Energy", "E, R")
    assert registry["Generic.Trait.Energy"] is node and "Generic.Trait.Energy" in registry and len(registry) == 1
    with pytest.raises(NodeError):
        registry.define("Generic.Trait.Energy", "Energy", "E")
    with pytest.raises(UnknownNodeError, match="no node 'Generic.Nope' in registry 'test'"):
        registry["Generic.Nope"]


def test_registry_refuses_type_codes_it_does_not_know():
    registry = Registry("heimr", node_types={"AT": "Attribute"})
    with pytest.raises(NodeError, match="unknown type code 'E'"):
        registry.define("Heimr.Attribute.Strength", "Strength", "E")


def test_the_default_node_types_are_the_core_six():
    assert Registry("x").node_types == dict(CORE_NODE_TYPES) and list(CORE_NODE_TYPES) == ["A", "S", "AB", "E", "T", "R"]


def test_rule_decorator_registers_the_implementation_and_its_location():
    registry = Registry("test")

    @registry.rule("Generic.Attribute.Power", "Power", "A", ranks=Ranks(0, 4))
    def power_die(rank: int) -> int:
        """The die a rank rolls."""
        return 4 + 2 * rank

    node = registry["Generic.Attribute.Power"]
    assert node.implementation is power_die and power_die(2) == 8
    assert node.summary == "The die a rank rolls."
    assert node.implementation_path.endswith("power_die") and node.source_file.name == "test_nodes.py"
    assert node.line is not None


def test_define_records_the_defining_module_for_rebuilds():
    registry = Registry("test")
    node = registry.define("Generic.Trait.Energy", "Energy", "E")
    assert node.source_file is not None and node.source_file.name == "test_nodes.py"


def test_include_merges_a_topic_registry_into_a_system_registry():
    system, topic = Registry("sys"), Registry("topic", node_types={"X": "Extra"})
    topic.define("Sys.Topic.Thing", "Thing", "X")
    system.include(topic)
    assert "Sys.Topic.Thing" in system and system.node_types["X"] == "Extra"


@pytest.mark.parametrize("codes", [("E", 3), [["E"]], None, 42])
def test_a_type_list_that_is_not_text_is_rejected_by_name(codes):
    with pytest.raises(InvalidTypeError) as raised:
        parse_types(codes)
    assert "not a valid node type list" in str(raised.value)


def test_a_repeated_type_list_parses_the_same_every_time():
    """Parsing is cached per text; a cached answer must equal a fresh one and never be shared mutable state."""
    assert parse_types("T, E") is parse_types("T, E") == ("T", "E")
    assert parse_types(["T", "E"]) == parse_types("T,E")
