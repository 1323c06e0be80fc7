"""A game package that cannot be imported, or a designer's own ``rules`` hiding the engine: one clear,
located warning naming the cause and the fix, never a Sphinx crash report."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_rpg.binding import RegistryLoadError, load_registry
from sphinx_rpg.sybil import rulebook_sybil

CONF = """\
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
extensions = ["sphinx_rpg"]
rpg_registries = ["rules.mygame:REGISTRY"]
"""


def shadowing_project(tmp_path: Path) -> Path:
    """The trap of the old manual: the designer's own rules/mygame/ next to docs/."""
    (tmp_path / "rules" / "mygame").mkdir(parents=True)
    (tmp_path / "rules" / "__init__.py").write_text("")
    (tmp_path / "rules" / "mygame" / "__init__.py").write_text("from rules.nodes import Registry\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text(CONF)
    (tmp_path / "docs" / "index.rst").write_text("Game\n====\n\nText.\n")
    return tmp_path


def test_a_package_of_your_own_named_rules_is_a_located_warning_not_a_crash(tmp_path):
    project = shadowing_project(tmp_path)
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "docs", "out"], cwd=project,
                            capture_output=True, text=True, timeout=300, env=environment)
    errors = re.sub(r"\x1b\[[0-9;]*m", "", result.stderr)
    assert result.returncode == 1  # warnings as errors, not 2 (a crash)
    assert "Traceback" not in errors and "report" not in errors
    assert (f"docs{os.sep}conf.py:5: WARNING: the package 'rules' that Python imports is {project / 'rules'}, "
            "not sphinx-rpg's engine") in errors
    assert "rename your package" in errors and "[node.registry]" in errors


def test_a_game_inside_the_engine_package_is_refused_with_the_fix():
    with pytest.raises(RegistryLoadError, match="a game never goes inside it: put your game in a package of its own"):
        load_registry("rules.mygame:REGISTRY")


def test_a_game_package_not_on_the_path_says_how_to_put_it_there():
    with pytest.raises(RegistryLoadError, match=r"'no_such_game'.*sys.path.insert"):
        load_registry("no_such_game:REGISTRY")


def test_the_sybil_of_a_book_whose_registry_cannot_be_imported_fails_in_one_line(tmp_path):
    with pytest.raises(RegistryLoadError, match="cannot import 'no_such_game'"):
        rulebook_sybil(["no_such_game:REGISTRY"], path=tmp_path)
