"""The listing filter language: parsed, never evaluated."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sphinx_rpg.filters import FieldIndex, FilterError, parse_filter, select

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


def test_filters_nest_at_most_a_bounded_depth():
    deep = "(" * 400 + 'type == "E"' + ")" * 400
    with pytest.raises(FilterError, match="nest more than"):
        parse_filter(deep)
    with pytest.raises(FilterError, match="nest more than"):
        parse_filter("not " * 100 + 'type == "E"')
    assert parse_filter("(" * 10 + 'type == "E"' + ")" * 10)(ENERGY)


BOOK = [
    {"uid": f"Book.{space}.{name}{n}", "name": f"{name} {n}", "type": types, "type_name": types,
     "namespace": f"Book.{space}", "docname": f"page{n % 4}", "summary": "", "bound": "yes" if n % 2 else "no"}
    for n in range(12)
    for space, name, types in (("Trait", "Grit", ("A",)), ("Damage", "Cut", ("E", "R")))
]
FILTER_PARTS = st.sampled_from([
    'type == "A"', 'type == "R"', 'docname == "page1"', 'docname ^= "page"', 'uid ^= "Book.Trait."',
    'namespace == "Book.Damage"', 'name ~= "grit 1"', 'bound == "yes"', 'type in ("A", "E")', 'name $= "3"',
    'uid != "Book.Trait.Grit1"', 'name ^= "Cut 1"'])
FILTERS = st.recursive(FILTER_PARTS, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from([" and ", " or "]), inner).map("".join),
    inner.map(lambda text: f"not ({text})"), inner.map(lambda text: f"({text})")), max_leaves=6)


@given(FILTERS)
def test_an_indexed_selection_equals_testing_every_node(text):
    predicate = parse_filter(text)
    index = FieldIndex(BOOK)
    assert select(predicate, BOOK, index) == [n for n, record in enumerate(BOOK) if predicate(record)]


def test_an_equality_filter_tests_only_the_nodes_its_index_names():
    index = FieldIndex(BOOK)
    assert parse_filter('docname == "page1" and type == "A"').candidates(index) == {2, 10, 18}
    assert parse_filter('uid ^= "Book.Damage.Cut1"').candidates(index) == {3, 21, 23}
    assert parse_filter('name ~= "grit"').candidates(index) is None  # no index answers "contains"
