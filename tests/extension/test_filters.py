"""The listing filter language: parsed, never evaluated."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sphinx_rpg.filters import FilterError, parse_filter

ENERGY = {"uid": "Generic.Trait.Energy", "name": "Energy", "type": ("E", "R"), "type_name": ("Effect", "Resource"),
          "namespace": "Generic.Trait", "docname": "nemron/energy", "summary": "Fuel", "bound": "yes"}
KINETIC = {"uid": "Generic.Damage.Kinetic", "name": "Kinetic", "type": ("E",), "type_name": ("Effect",),
           "namespace": "Generic.Damage", "docname": "nemron/combat", "summary": "", "bound": "no"}


@pytest.mark.parametrize("text, energy, kinetic", [
    ('type == "E"', True, True),
    ('type == "R"', True, False),
    ('type != "R"', False, True),
    ('uid ^= "Generic.Damage."', False, True),
    ('name $= "ergy"', True, False),
    ('summary ~= "FUEL"', True, False),
    ('type in ("A", "R")', True, False),
    ('type == "E" and not uid ^= "Generic.Damage."', True, False),
    ('(namespace == "Generic.Trait" or name == "Kinetic") and bound == "no"', False, True),
    ("", True, True),
    ("type == 'E' and name == 'it\\'s'", False, False),
])
def test_filters_select_nodes_by_their_fields(text, energy, kinetic):
    predicate = parse_filter(text)
    assert (predicate(ENERGY), predicate(KINETIC)) == (energy, kinetic)


@pytest.mark.parametrize("text, column", [
    ('colour == "red"', 1),
    ('type = "E"', 6),
    ('type == E', 9),
    ('type == "E" and', 16),
    ('(type == "E"', 13),
    ('type in ("E"', 13),
    ('type == "E" __import__', 13),
    ('type == "E" ; x', 13),
])
def test_malformed_filters_raise_filter_error_with_the_column(text, column):
    with pytest.raises(FilterError) as error:
        parse_filter(text)
    assert error.value.position + 1 == column


@given(st.text(max_size=60))
def test_arbitrary_text_either_parses_or_raises_filter_error(text):
    try:
        parse_filter(text)(ENERGY)
    except FilterError:
        pass
