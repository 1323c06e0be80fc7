"""The contributor map in CONTRIBUTING.md names every module of the extension, so a newcomer can find it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def picture() -> str:
    """The code block that draws the extension's modules."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split("The extension, as a picture", 1)[1].split("```", 2)[1]


def named(module: str, drawing: str) -> bool:
    return re.search(rf"(?<![\w/.]){re.escape(module)}(?![\w])", drawing) is not None


def test_every_module_of_the_extension_is_in_the_contributor_map() -> None:
    drawing = picture()
    package = ROOT / "sphinx_rpg"
    modules = [path.relative_to(package).with_suffix("").as_posix() for path in sorted(package.rglob("*.py"))
               if path.name != "__init__.py"]
    missing = [module for module in modules if not named(module.rpartition("/")[2], drawing)]
    assert missing == [], f"CONTRIBUTING.md's picture of the extension does not name: {missing}"


def test_a_module_left_out_of_the_map_is_found() -> None:
    """The check itself: a name inside another word or a path does not count as the module."""
    assert named("charts", "tables -> varied -> cells, charts")
    assert not named("charts", "flowcharts")
    assert not named("tables", "directives/tables.py")
