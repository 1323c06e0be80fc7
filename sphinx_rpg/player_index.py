"""The player edition's general index lists the game's terms, not the manual's settings and engine API.

Pages matched by :confval:`rpg_designer_text` (a manual written for designers) stay in the player
edition, but their index entries (``rpg_*`` settings, the engine's classes and methods) would fill the
index a player opens to look up a rule.  In the player edition those pages' entries are dropped before
Sphinx collects them; the designer edition keeps them all.
"""

from __future__ import annotations

from fnmatch import fnmatch
from typing import Any

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from sphinx_rpg.editions import is_player


def designer_text(docname: str, patterns: Any) -> bool:
    """Whether ``docname`` is a page written for designers in every edition."""
    if not isinstance(patterns, (list, tuple)):
        return False
    return any(isinstance(p, str) and (fnmatch(docname, p) or fnmatch(docname + ".rst", p)) for p in patterns)


class DropDesignerIndexEntries(SphinxTransform):
    """In the player edition, a designer page's index entries are left out (its text is kept)."""

    default_priority = 500  # after parsing made the entries, before the index collects them

    def apply(self, **kwargs: Any) -> None:
        if not is_player(self.config) or not designer_text(self.env.docname, self.config.rpg_designer_text):
            return
        for entry in list(self.document.findall(addnodes.index)):
            if entry.parent is not None:
                entry.parent.remove(entry)


def setup(app: Sphinx) -> None:
    app.add_transform(DropDesignerIndexEntries)
