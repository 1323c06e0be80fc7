"""The sphinx-rpg site: the extension's manual plus one rulebook per game system."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the engine (rules/) and the extension, also without an install

project = "sphinx-rpg"
author = "the sphinx-rpg authors"
copyright = "2026, the sphinx-rpg authors"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx_design",
    "myst_parser",
    "sphinx_rpg",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["colon_fence", "dollarmath"]

#: Every game system that has an engine package contributes its registry (import paths, never
#: callables, so the environment pickle stays valid for incremental builds).
SYSTEMS = ["nemron", "heimr", "nugget", "spurg", "dndalike"]
rpg_registries = [f"rules.{name}:REGISTRY" for name in SYSTEMS if (ROOT / "rules" / name / "__init__.py").exists()]


#: Each released edition of the books, oldest first: its node catalogue, kept in the repository.  Every
#: node new or changed since the last one is marked; changes.rst lists what changed, book by book.
rpg_releases = {"0.1": "_releases/v0.1/nodes.json"}

exclude_patterns = ["_build", "**/_*.rst"]
templates_path: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
#: Each page's own contents (with its node headings) in the sidebar, under the site navigation.
html_sidebars = {"**": ["about.html", "searchfield.html", "navigation.html", "localtoc.html", "relations.html"]}
html_theme_options = {"description": "Executable tabletop-RPG rulebooks", "fixed_sidebar": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
