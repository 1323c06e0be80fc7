"""Two editions of one rulebook: ``rpg_edition = "designer"`` (everything) or ``"player"``.

The player edition is decided while pages are read (``rpg_edition`` rebuilds the environment when it
changes): worked-example code (``>>>`` blocks and their tracebacks) is dropped, facts lose their
``Rule:`` engine path, ``node:designer`` blocks vanish and the pages named in ``rpg_designer_pages``
(engine reference pages) are excluded.  Sybil reads the sources, not the output, so every example
still runs whatever edition is built.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from sphinx_rpg.warnings import warn

EDITIONS = ("designer", "player")
DEFAULT_EDITION = "designer"
_CODE_STARTS = (">>>", "Traceback (most recent call last)")


def edition_of(config: Config) -> str:
    """The edition being built (a bad value was reported at start-up and means the default)."""
    value = getattr(config, "rpg_edition", DEFAULT_EDITION)
    return value if value in EDITIONS else DEFAULT_EDITION


def is_player(config: Config) -> bool:
    return edition_of(config) == "player"


def check_edition(app: Sphinx, config: Config) -> None:
    """``config-inited``: validate ``rpg_edition``; the player edition leaves out designer pages."""
    if config.rpg_edition not in EDITIONS:
        warn("option", f"rpg_edition = {config.rpg_edition!r}: not one of {', '.join(map(repr, EDITIONS))}; "
                       f"the {DEFAULT_EDITION!r} edition is built")
        config.rpg_edition = DEFAULT_EDITION
    if is_player(config):
        patterns = [p for p in config.rpg_designer_pages if isinstance(p, str) and p]
        config.exclude_patterns = [*config.exclude_patterns, *patterns]


class EditionBlock(SphinxDirective):
    """Content that only one edition prints; the other edition does not even parse it."""

    has_content = True
    edition = DEFAULT_EDITION

    def run(self) -> list[nodes.Node]:
        if edition_of(self.config) != self.edition:
            return []
        container = nodes.container(classes=[f"rpg-{self.edition}-only"])
        self.set_source_info(container)
        self.state.nested_parse(self.content, self.content_offset, container)
        return [container]


class DesignerBlock(EditionBlock):
    """``.. node:designer::``: notes, engine details and toctrees for the designer edition only."""

    edition = "designer"


class PlayerBlock(EditionBlock):
    """``.. node:player::``: what only the player edition prints (say, where the examples went)."""

    edition = "player"


def _is_example_code(node: nodes.Node) -> bool:
    if isinstance(node, nodes.doctest_block):
        return True
    return isinstance(node, nodes.literal_block) and node.astext().lstrip().startswith(_CODE_STARTS)


class DropExampleCode(SphinxTransform):
    """Player edition: worked-example code leaves the page; an example box left with only its title goes too."""

    default_priority = 880

    def apply(self, **kwargs: Any) -> None:
        if not is_player(self.config):
            return
        for block in list(self.document.findall(_is_example_code)):
            block.parent.remove(block)
        for box in list(self.document.findall(nodes.admonition)):
            if "rpg-example" in box["classes"] and all(isinstance(c, nodes.title) for c in box.children):
                box.parent.remove(box)


def setup(app: Sphinx) -> None:
    """The designer and player editions: blocks kept in one, the examples' code dropped in the other."""
    app.add_directive_to_domain("node", "designer", DesignerBlock)
    app.add_directive_to_domain("node", "player", PlayerBlock)
    app.add_transform(DropExampleCode)
    app.connect("config-inited", check_edition)
