"""A system's notation is registered once on its registry and found the same way by every tool."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from rules.systems import SystemLoadError, _installed, installed_systems, load_registry, registry_path
from sphinx_rpg.binding import bind


@pytest.mark.parametrize("spec, path", [
    ("nemron", "rules.nemron:REGISTRY"),
    ("rules.heimr", "rules.heimr:REGISTRY"),
    ("mygame.rules:BOOK", "mygame.rules:BOOK"),
])
def test_a_system_is_an_installed_name_an_import_path_or_a_module(spec, path):
    assert registry_path(spec) == path


@pytest.mark.parametrize("spec, reason", [
    ("my game", "neither an installed game system"),
    ("rules.heimr:", "neither an installed game system"),
    ("rules.nosuchgame", "cannot import"),
    ("rules.tables:Table", "not a rules.nodes.Registry"),
])
def test_a_bad_system_is_refused_with_the_reason(spec, reason):
    with pytest.raises(SystemLoadError, match=reason):
        load_registry(spec)


def test_every_bundled_system_loads_and_those_with_dice_notation_register_it():
    with_notation = {name for name in installed_systems() if load_registry(name).notation is not None}
    assert with_notation == {"nemron", "heimr", "nugget"}
    for name in with_notation:
        notation = load_registry(name).notation
        assert notation.parse(notation.example).mean() > 0


def test_the_book_finds_a_registry_by_system_name_or_by_its_configured_import_path():
    binding = bind(("rules.heimr:REGISTRY",))
    assert binding.registry("heimr") is binding.registry("rules.heimr:REGISTRY") is load_registry("heimr")
    assert binding.registry("rules.nemron:REGISTRY") is None  # only configured registries, never an import


@pytest.fixture
def fresh_entry_points():
    """The installed systems are read once per process: read them again around the test."""
    _installed.cache_clear()
    yield
    _installed.cache_clear()


def test_a_full_import_path_is_resolved_without_reading_the_installed_metadata(fresh_entry_points, monkeypatch):
    """What ``rpg new`` writes in conf.py: every build resolves it, and the metadata scan cost 9 ms of each."""
    def scan(**_: object) -> list[object]:
        raise AssertionError("the installed distributions' metadata was read")

    monkeypatch.setattr("rules.systems.entry_points", scan)
    assert registry_path(" mygame.rules:REGISTRY ") == "mygame.rules:REGISTRY"
    with pytest.raises(AssertionError):  # a name, or a module without its attribute, is looked up
        registry_path("mygame.rules")


def test_every_game_package_of_the_engine_is_an_entry_point_of_the_group():
    """The bundled games are found as a third-party game is: no list of games besides the metadata."""
    packages = {path.parent.name for path in (Path(rules.__file__).parent).glob("*/registry.py")}
    bundled = {name: path for name, path in installed_systems().items() if path.startswith("rules.")}
    assert bundled == {name: f"rules.{name}:REGISTRY" for name in packages}


def test_a_third_party_game_is_found_through_the_entry_point_group(tmp_path, monkeypatch, fresh_entry_points):
    (tmp_path / "coinflip").mkdir()
    (tmp_path / "coinflip" / "__init__.py").write_text("from rules.nodes import Registry\nREGISTRY = Registry('coinflip')\n")
    metadata = tmp_path / "coinflip-1.0.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text("Metadata-Version: 2.1\nName: coinflip\nVersion: 1.0\n")
    (metadata / "entry_points.txt").write_text("[sphinx_rpg.systems]\ncoinflip = coinflip:REGISTRY\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert installed_systems()["coinflip"] == "coinflip:REGISTRY"
    assert load_registry("coinflip").system == "coinflip"
    assert bind(("coinflip",)).registry("coinflip") is load_registry("coinflip")  # conf.py may name it so
