"""Two editions of one rulebook: ``rpg_edition = "designer"`` (everything) or ``"player"``.

The player edition is decided while pages are read (``rpg_edition`` rebuilds the environment when it
changes): worked-example code (``>>>`` blocks and their tracebacks) is dropped, facts lose their
``Rule:`` engine path, ``node:designer`` blocks vanish and the pages named in ``rpg_designer_pages``
(engine reference pages) are excluded.  Sybil reads the sources, not the output, so every example
still runs whatever edition is built.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from sphinx_rpg.engine_words import ENGINE_WORD, IDENTIFIER
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


#: A sentence ends inside a paragraph: ". " (or "!", "?", with a closing quote or bracket) before a capital.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?][\"')\]]*\s+[A-Z(\"]")


def lead_in(block: nodes.Node) -> nodes.paragraph | None:
    """The words that introduce ``block``: the paragraph right before it, if it is one sentence ending in ":".

    A lead-in of more than one sentence is not taken: the sentences before it are rules, and the
    player-text check asks for the lead-in to be put in a paragraph of its own.
    """
    parent = block.parent
    if parent is None:
        return None
    position = parent.index(block)
    if position == 0:
        return None
    previous = parent[position - 1]
    if not isinstance(previous, nodes.paragraph):
        return None
    text = " ".join(previous.astext().split())
    if not text.endswith(":") or _SENTENCE_END.search(text):
        return None
    return previous


def drop_with_lead_in(block: nodes.Node) -> None:
    """Remove ``block`` and the words that introduce it: one unit, kept or dropped whole."""
    words = lead_in(block)
    if words is not None:
        words.parent.remove(words)
    block.parent.remove(block)


#: The words a parenthesis of engine switches may hold besides the switches: "(options ``a``, ``b``)".
_SWITCH_GLUE = re.compile(r"\s*(?:options?\b)?(?:\s*(?:,|;|\band\b|\bor\b)?\s*)*")


def drop_switches(literal: nodes.literal) -> bool:
    """Remove the parenthesis around ``literal`` when it holds engine switches and nothing else
    ("the cap (``penalty_mode="cap"``)", "(options ``basic_trip``, ``basic_regain``)"), with the space
    before it.  False when the switch stands in running text: that needs rewording."""
    parent = literal.parent
    position = parent.index(literal)
    opening = position - 1
    while opening >= 0 and isinstance(parent[opening], nodes.literal):
        opening -= 1
    if opening < 0 or not isinstance(parent[opening], nodes.Text) or "(" not in str(parent[opening]):
        return False
    head, _, inside = str(parent[opening]).rpartition("(")
    pieces: list[nodes.Node] = []
    closing = opening + 1
    while closing < len(parent) and not (isinstance(parent[closing], nodes.Text) and ")" in str(parent[closing])):
        pieces.append(parent[closing])
        closing += 1
    if closing >= len(parent):
        return False
    last, _, tail = str(parent[closing]).partition(")")
    words = inside + "".join(str(piece) for piece in pieces if isinstance(piece, nodes.Text)) + last
    literals = [piece for piece in pieces if isinstance(piece, nodes.literal)]
    if not literals or any(not isinstance(piece, (nodes.Text, nodes.literal)) for piece in pieces):
        return False
    if not _SWITCH_GLUE.fullmatch(words):
        return False
    if not ("option" in words or any(ENGINE_WORD.search(piece.astext()) or IDENTIFIER.fullmatch(piece.astext())
                                     for piece in literals)):
        return False
    parent.replace(parent[opening], nodes.Text(head.rstrip()))
    parent.replace(parent[closing], nodes.Text(tail))
    for piece in pieces:
        parent.remove(piece)
    return True


class DropExampleCode(SphinxTransform):
    """Player edition: worked-example code leaves the page with the words that introduce it; an example
    box left with only its title goes too (and its own lead-in with it); an engine switch in parentheses
    (``(penalty_mode="cap")``) leaves the sentence."""

    default_priority = 880

    def apply(self, **kwargs: Any) -> None:
        if not is_player(self.config):
            return
        for block in list(self.document.findall(_is_example_code)):
            drop_with_lead_in(block)
        for box in list(self.document.findall(nodes.admonition)):
            if "rpg-example" in box["classes"] and all(isinstance(c, nodes.title) for c in box.children):
                drop_with_lead_in(box)
        for literal in list(self.document.findall(nodes.literal)):
            if literal.parent is not None and any(child is literal for child in literal.parent.children):
                drop_switches(literal)


def setup(app: Sphinx) -> None:
    """The designer and player editions: blocks kept in one, the examples' code dropped in the other."""
    app.add_directive_to_domain("node", "designer", DesignerBlock)
    app.add_directive_to_domain("node", "player", PlayerBlock)
    app.add_transform(DropExampleCode)
    app.connect("config-inited", check_edition)
