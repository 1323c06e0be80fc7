"""A supplement to the Nemron book: optional rules that extend and replace some of the core's nodes.

It links the core rulebook through intersphinx.  The core's inventory comes from a build of docs/
(``python3 dev.py site`` builds both, the supplement into the core site's ``supplements/`` folder);
``RPG_CORE_HTML`` names another built core site.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))  # this supplement's engine module
sys.path.insert(0, str(ROOT))  # the core engine (rules/) and the extension, also without an install

project = "Nemron: Energy by line"
author = "the sphinx-rpg authors"
copyright = "2026, the sphinx-rpg authors"
release = "0.1"

extensions = ["sphinx.ext.intersphinx", "sphinx_design", "sphinx_rpg"]
rpg_registries = ["nemron_lines:REGISTRY"]
rpg_supplement_of = "nemron"

#: The supplement is published inside the core site, at supplements/nemron-lines/: links to the core
#: are relative ("../../"), and the inventory is read from the core's build.
CORE_HTML = Path(os.environ.get("RPG_CORE_HTML", ROOT / "docs" / "_build" / "html"))
intersphinx_mapping = {"nemron": ("../..", str(CORE_HTML / "objects.inv"))}
intersphinx_disabled_reftypes: list[str] = []

exclude_patterns = ["_build"]
html_theme = "furo"  # the look of the core site it is published in
