"""The sphinx-rpg site: the extension's manual plus one rulebook per game system."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the engine (rules/) and the extension, also without an install

project = "sphinx-rpg"
author = "the sphinx-rpg authors"
copyright = "2026, the sphinx-rpg authors"
#: The books were released as 0.1 (docs/_releases/v0.1); what is here now is the next edition in the making.
release = "0.2.dev0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx_design",
    "myst_parser",
    "sphinx_rpg",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["colon_fence"]

#: Every game system bundled with sphinx-rpg (those whose registry lives in its ``rules`` package), by
#: the name its ``sphinx_rpg.systems`` entry point gives it: names, never callables, so the environment
#: pickle stays valid for incremental builds.
from rules.systems import installed_systems  # noqa: E402  (after the sys.path line above)

rpg_registries = [name for name, path in installed_systems().items() if path.startswith("rules.")]

#: Two editions from one source (``-D rpg_edition=player``): the player edition leaves out each book's
#: engine reference page (and every worked-example block; see the manual's "Editions").
rpg_designer_pages = ["*/reference.rst"]
#: The manual is written for designers in both editions: the player-text check (a lead-in left
#: dangling, an engine word in player text) reads the rulebooks, not the manual.
rpg_designer_text = ["manual/*"]
#: The editions show the same encounter odds: a simulated matchup is played once for both editions.
rpg_matchup_cache = "_build/matchup-cache"

#: Each released edition of the books, oldest first: its node catalogue, kept in the repository.  Every
#: node new or changed since the last one is marked; changes.rst lists what changed, book by book.
rpg_releases = {"0.1": "_releases/v0.1/nodes.json"}

#: The dice calculator's Pyodide, vendored from the npm registry by ``python3 dev.py site|test``
#: (``rpg pyodide .cache/pyodide``), so the site loads nothing from a CDN.  Without that copy (a bare
#: ``sphinx-build``) the calculator falls back to the default ``rpg_pyodide_url`` (the official CDN).
from sphinx_rpg.vendor import PYODIDE_VERSION  # noqa: E402  (after the sys.path line above)

_PYODIDE = ROOT / ".cache" / "pyodide" / PYODIDE_VERSION
rpg_pyodide_vendor = str(_PYODIDE) if _PYODIDE.is_dir() else ""

exclude_patterns = ["_build", "**/_*.rst"]
templates_path: list[str] = []
#: Furo: light and dark modes, a phone layout with the content first, each book's chapters in the
#: sidebar and previous/next links.  The extension itself works on any theme (alabaster, PyData,
#: Book...: tests/extension/test_themes.py).  No page loads anything from another host: formulas are
#: typeset as HTML by the extension, without MathJax.
html_theme = "furo"
html_title = "sphinx-rpg"
html_static_path: list[str] = []
html_theme_options = {"navigation_with_keys": True}
#: The sidebar lists every book by its title and opens the reader's own book: a player reading Nemron
#: sees Nemron's chapters, not the other books' hundred.  Each page is about a quarter smaller, and
#: the build makes (and Furo reads) one book's tree per page instead of the whole site's.
rpg_navigation_collapse = True

#: One PDF per rulebook and one for the manual (``make latexpdf`` in docs/_build/latex): each
#: book's index is its root, so its chapters are the PDF's chapters and its table of contents.
BOOKS = {
    "manual/index": ("sphinx-rpg-manual", "The sphinx-rpg manual"),
    "nemron/index": ("nemron", "Nemron RPG"),
    "heimr/index": ("heimr", "Heimr Tabletop RPG Core"),
    "nugget/index": ("nugget", "NUGGET"),
    "spurg/index": ("spurg", "SPURG"),
    "dndalike/index": ("dndalike", "The DnDalike (rules v0.1)"),
}
latex_documents = [(start, f"{name}.tex", title, author, "manual") for start, (name, title) in BOOKS.items()
                   if (ROOT / "docs" / f"{start}.rst").exists()]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
#: The node indices list every book's nodes: they belong to the site, not to one book's PDF (each
#: book prints its own nodes in its reference chapter).
latex_domain_indices = False
#: Chapters start on the next page, not the next right-hand one: no blank page before a short chapter.
#: The pages before the first chapter are headed by nothing, not "CONTENTS"; the index lists the
#: book's nodes in the text face, not in code type.
latex_elements = {"extraclassoptions": "openany,oneside",
                  "tableofcontents": "\\sphinxtableofcontents\n\\markboth{}{}",
                  "preamble": "\\renewcommand{\\sphinxstyleindexentry}[1]{#1}"}
