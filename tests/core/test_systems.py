"""A system's notation is registered once on its registry and found the same way by every tool."""

from __future__ import annotations

import pytest

from rules.systems import BUNDLED, SystemLoadError, load_registry, registry_path
from sphinx_rpg.binding import bind


@pytest.mark.parametrize("spec, path", [
    ("nemron", "rules.nemron:REGISTRY"),
    ("rules.heimr", "rules.heimr:REGISTRY"),
    ("mygame.rules:BOOK", "mygame.rules:BOOK"),
])
def test_a_system_is_a_bundled_name_an_import_path_or_a_module(spec, path):
    assert registry_path(spec) == path


@pytest.mark.parametrize("spec, reason", [
    ("my game", "neither a bundled game system"),
    ("rules.heimr:", "neither a bundled game system"),
    ("rules.nosuchgame", "cannot import"),
    ("rules.tables:Table", "not a rules.nodes.Registry"),
])
def test_a_bad_system_is_refused_with_the_reason(spec, reason):
    with pytest.raises(SystemLoadError, match=reason):
        load_registry(spec)


def test_every_bundled_system_loads_and_those_with_dice_notation_register_it():
    with_notation = {name for name in BUNDLED if load_registry(name).notation is not None}
    assert with_notation == {"nemron", "heimr", "nugget"}
    for name in with_notation:
        notation = load_registry(name).notation
        assert notation.parse(notation.example).mean() > 0


def test_the_book_finds_a_registry_by_system_name_or_by_its_configured_import_path():
    binding = bind(("rules.heimr:REGISTRY",))
    assert binding.registry("heimr") is binding.registry("rules.heimr:REGISTRY") is load_registry("heimr")
    assert binding.registry("rules.nemron:REGISTRY") is None  # only configured registries, never an import
