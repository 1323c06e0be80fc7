"""``rpg new``: a starter project that is complete, named after the game, and never overwrites a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sphinx_rpg.cli import main
from sphinx_rpg.new import NewProjectError, check_package, create, package_name

#: Every file a designer gets, with the game's package in place of ``{pkg}``.
STARTER_FILES = {"README.md", ".gitignore", "requirements.txt", "pyproject.toml", "wheels/README.txt",
                 ".github/workflows/rulebook.yml", ".readthedocs.yaml", "ci.py", "docs/conf.py", "docs/conftest.py", "docs/index.rst",
                 "docs/characters.rst", "docs/checks.rst", "docs/play.rst", "{pkg}/__init__.py",
                 "{pkg}/registry.py", "{pkg}/characters.py", "{pkg}/checks.py"}
DIRECTIVES = ("node:def::", ":node:ref:", ":node:value:", "node:table::", "node:odds::", "node:list::",
              "node:cards::", "node:example::")


def files_of(directory: Path) -> set[str]:
    return {path.relative_to(directory).as_posix() for path in directory.rglob("*") if path.is_file()}


def test_the_starter_has_every_file_with_the_game_package_named_after_the_game(tmp_path):
    create(tmp_path / "climb", "Tower Climbers")
    assert files_of(tmp_path / "climb") == {name.format(pkg="tower_climbers") for name in STARTER_FILES}
    conf = (tmp_path / "climb" / "docs" / "conf.py").read_text()
    assert 'rpg_registries = ["tower_climbers:REGISTRY"]' in conf and "{{" not in conf


def test_the_three_pages_use_every_directive_and_role(tmp_path):
    create(tmp_path / "g", "G")
    names = ("index.rst", "characters.rst", "checks.rst", "play.rst")
    pages = "".join((tmp_path / "g" / "docs" / name).read_text() for name in names)
    assert [d for d in DIRECTIVES if d not in pages] == []


def test_a_long_game_name_gets_heading_underlines_as_long_as_the_title(tmp_path):
    create(tmp_path / "g", "The Very Long Name of a Game")
    lines = (tmp_path / "g" / "docs" / "index.rst").read_text().splitlines()
    assert lines[:2] == ["The Very Long Name of a Game", "=" * len("The Very Long Name of a Game")]


@pytest.mark.parametrize(("game", "package"), [("My Game", "my_game"), ("Rules", "rules_game"),
                                               ("2 Fast", "game_2_fast"), ("json", "json_game"),
                                               ("Sphinx RPG", "sphinx_rpg_game"), ("class", "class_game")])
def test_the_package_is_a_valid_identifier_and_never_the_engine(game, package):
    assert package_name(game) == package


@pytest.mark.parametrize("name", ["rules", "sphinx_rpg", "My-Game", "os", "def"])
def test_an_explicit_package_name_that_would_shadow_something_is_refused(name):
    with pytest.raises(NewProjectError, match=repr(name)):
        check_package(name)


def test_a_directory_that_holds_anything_is_refused_and_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(NewProjectError, match="not empty"):
        create(tmp_path, "Game")
    assert files_of(tmp_path) == {"notes.txt"} and (tmp_path / "notes.txt").read_text() == "mine"


def test_an_empty_directory_is_filled(tmp_path):
    create(tmp_path, "Game")
    assert "docs/conf.py" in files_of(tmp_path)


def test_rpg_new_lists_what_it_wrote_and_refuses_a_second_time(capsys, tmp_path):
    assert main(["new", str(tmp_path / "g"), "--name", "Gale", "--json"]) == 0
    written = json.loads(capsys.readouterr().out)["files"]
    assert set(written) == {name.format(pkg="gale") for name in STARTER_FILES}
    assert main(["new", str(tmp_path / "g")]) == 2
    assert "is not empty" in capsys.readouterr().err


def test_rpg_new_refuses_a_file_in_place_of_the_directory(capsys, tmp_path):
    (tmp_path / "g").write_text("a file")
    assert main(["new", str(tmp_path / "g")]) == 2
    assert "is not a directory" in capsys.readouterr().err and (tmp_path / "g").read_text() == "a file"


def test_the_manual_chapter_walks_through_every_template_file():
    import re

    from sphinx_rpg.new import templates

    chapter = (Path(__file__).resolve().parents[2] / "docs" / "manual" / "own-game.rst").read_text()
    included = set(re.findall(r"literalinclude:: \.\./\.\./sphinx_rpg/starter/(\S+)", chapter))
    assert included == {template.as_posix() for template in templates()}


def test_the_game_error_class_is_named_after_the_game(tmp_path):
    create(tmp_path / "g", "Tower Climbers")
    registry = (tmp_path / "g" / "tower_climbers" / "registry.py").read_text()
    assert "class TowerClimbersError(ValueError):" in registry and "GameError" not in registry
