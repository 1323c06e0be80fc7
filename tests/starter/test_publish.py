"""What ``rpg new`` writes besides the book: the publishing files, the install, and names that never
break a file (issue #31 item 2, issue #34 item 6)."""

from __future__ import annotations

import ast
import re
import runpy
import tomllib
from pathlib import Path

import pytest
import yaml

from sphinx_rpg.cli import main
from sphinx_rpg.new import create

ROOT = Path(__file__).resolve().parents[2]


# -- names: whatever the game is called, every file the starter writes still parses ---------------------
CONTROL = [chr(code) for code in (*range(0x00, 0x20), 0x7F, 0x85, 0x9F)] + ["\u2028", "\u2029", "\u202e",
                                                                            "\u200b", "\ufeff"]


@pytest.mark.parametrize("character", CONTROL, ids=lambda c: f"U+{ord(c):04X}")
def test_a_game_name_holding_a_control_character_is_refused_and_nothing_is_written(character, tmp_path, capsys):
    assert main(["new", str(tmp_path / "g"), "--name", f"Game{character}Two"]) == 2
    assert f"U+{ord(character):04X}" in capsys.readouterr().err
    assert not (tmp_path / "g").exists()


def parse_every_file(project: Path) -> int:
    parsed = 0
    for path in sorted(project.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            ast.parse(text, str(path))
        elif path.suffix == ".toml":
            tomllib.loads(text)
        elif path.suffix in (".yml", ".yaml"):
            yaml.safe_load(text)
        else:
            continue
        parsed += 1
    return parsed


@pytest.mark.parametrize("game", ["Zwölf Türme — ½ & 'Ash' #1", "Ten: 100% <dice>", "龍の塔", "a'b'''c", "x\u00a0y"])
def test_every_file_the_starter_writes_parses_whatever_printable_name_the_game_has(game, tmp_path):
    create(tmp_path / "g", game)
    assert parse_every_file(tmp_path / "g") == 10  # ci.py, conf.py, conftest.py, four modules, TOML, two YAML
    assert game in (tmp_path / "g" / "docs" / "index.rst").read_text()
    assert tomllib.loads((tmp_path / "g" / "pyproject.toml").read_text())["project"]["description"].startswith(game)


# -- publishing: the workflow and Read the Docs run the starter's own checks ------------------------------
def run_lines(steps: list[dict[str, str]]) -> list[str]:
    return [line.strip() for step in steps if "run" in step for line in step["run"].splitlines() if line.strip()]


def test_the_workflow_runs_the_starters_checks_and_deploys_to_github_pages(tmp_path):
    create(tmp_path / "g", "Gale")
    workflow = yaml.safe_load((tmp_path / "g" / ".github" / "workflows" / "rulebook.yml").read_text())
    book, deploy = workflow["jobs"]["book"], workflow["jobs"]["deploy"]
    runs = run_lines(book["steps"])
    assert "python ci.py" in runs  # the checks are the starter's own script, nothing else
    assert not any("sphinx-build" in line or "pytest" in line for line in runs)
    assert "cp -r docs/_build/player/. _site/" in runs and "cp -r docs/_build/html _site/designer" in runs
    upload = next(step for step in book["steps"] if step.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_site"
    assert deploy["needs"] == "book" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert "push" in deploy["if"] and "default_branch" in deploy["if"]


def test_read_the_docs_runs_the_same_checks_and_publishes_the_player_edition(tmp_path):
    create(tmp_path / "g", "Gale")
    config = yaml.safe_load((tmp_path / "g" / ".readthedocs.yaml").read_text())
    assert config["version"] == 2 and config["build"]["tools"]["python"]
    commands = config["build"]["commands"]
    assert commands[0] == "python -m pip install --find-links wheels -r requirements.txt"
    assert "python ci.py" in commands
    assert commands[-1] == "cp -r docs/_build/player $READTHEDOCS_OUTPUT/html"


def test_ci_py_builds_both_editions_with_warnings_as_errors_then_runs_pytest(tmp_path):
    create(tmp_path / "g", "Gale")
    steps = runpy.run_path(str(tmp_path / "g" / "ci.py"))["STEPS"]
    assert [step[1:4] for step in steps] == [["-m", "sphinx", "-W"], ["-m", "sphinx", "-W"], ["-m", "pytest"]]
    assert steps[0][-2:] == ["docs", "docs/_build/html"] and steps[1][-2:] == ["docs", "docs/_build/player"]
    assert "rpg_edition=player" in steps[1] and "rpg_edition=player" not in steps[0]


def test_the_starter_installs_the_designer_extra_and_ignores_the_pyodide_cache(tmp_path):
    create(tmp_path / "g", "Gale")
    requirements = [line for line in (tmp_path / "g" / "requirements.txt").read_text().splitlines()
                    if line and not line.startswith("#")]
    assert requirements == ["sphinx-rpg[designer]>=0.1"]
    assert ".cache/" in (tmp_path / "g" / ".gitignore").read_text().splitlines()


def test_the_designer_extra_holds_what_the_manual_uses_and_none_of_the_projects_toolchain():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[ ]", text)[0] for text in extras["designer"]}
    assert names == {"myst-parser", "sybil", "pytest", "sphinx-autobuild"}
    assert not names & {"playwright", "mypy", "ruff", "sphinx-needs", "furo", "hypothesis", "icepool", "setuptools"}
