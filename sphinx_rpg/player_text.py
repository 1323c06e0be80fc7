"""The player-text check: what an edition prints for players must read as a book, not as a cut-up one.

Two faults a player edition can carry, each a located ``node.edition`` warning (so ``-W`` fails):

* a *dangling lead-in*: a paragraph ending in ":" with nothing after it (the example it introduced
  was left out, but the words announcing it were not), in either edition;
* an *engine word* in the player edition: an option setting (``penalty_mode="cap"``), a call
  (``CombatSettings(`` / ``attack_hits(``) or a module path (``rules.``), which name the engine's
  switches rather than the game's rules.

The player edition removes most of both by itself (see :mod:`sphinx_rpg.editions`); what the check
still finds needs the page's words changed.  Pages matched by :confval:`rpg_designer_text` (a manual
written for designers) are not checked.
"""

from __future__ import annotations

from fnmatch import fnmatch
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from sphinx_rpg.editions import is_player
from sphinx_rpg.engine_words import ENGINE_WORD
from sphinx_rpg.warnings import warn

#: Elements that show nothing: a lead-in followed only by these still has nothing after it.
_INVISIBLE = (nodes.target, nodes.comment, nodes.substitution_definition, addnodes.index, nodes.system_message)
#: What may follow a lead-in without leaving it dangling: anything that is not more running text.
_NOT_AN_ANSWER = (nodes.paragraph, nodes.section, nodes.title, nodes.rubric, nodes.transition)
#: Text inside these is not checked for engine words: it is not text a reader reads on the page.
_UNREAD = (nodes.comment, nodes.raw, nodes.system_message, nodes.substitution_definition, nodes.target)


def next_visible(node: nodes.Node) -> nodes.Node | None:
    """The element after ``node`` in its parent that prints something, or None."""
    parent = node.parent
    if parent is None:
        return None
    for sibling in parent.children[parent.index(node) + 1:]:
        if not isinstance(sibling, _INVISIBLE):
            return sibling
    return None


def ends_in_colon(paragraph: nodes.Element) -> bool:
    """Whether the paragraph's text, trailing spaces aside, ends in ":".

    Checked on every paragraph of every page written: the paragraph's text is its children's joined
    with nothing between them, so only the last child with visible text is read, not the whole text.
    """
    if paragraph.child_text_separator:  # not a text element: join as astext() does
        return paragraph.astext().rstrip().endswith(":")
    for child in reversed(paragraph.children):
        text = child.astext().rstrip()
        if text:
            return text.endswith(":")
    return False


def is_dangling(paragraph: nodes.paragraph) -> bool:
    """A paragraph ending in ":" that nothing answers: the last of its block, or followed by more prose."""
    if not ends_in_colon(paragraph):
        return False
    after = next_visible(paragraph)
    if isinstance(after, nodes.section) and "rpg-node" in after["classes"]:
        return False  # "each class fixes its health:" and the class nodes follow
    return after is None or isinstance(after, _NOT_AN_ANSWER)


def engine_words(text: str) -> list[str]:
    return [match.group(0) for match in ENGINE_WORD.finditer(text)]


def _checked(docname: str, patterns: Any) -> bool:
    if not isinstance(patterns, (list, tuple)):
        return True
    return not any(isinstance(p, str) and (fnmatch(docname, p) or fnmatch(docname + ".rst", p)) for p in patterns)


def _unread(node: nodes.Node) -> bool:
    parent: nodes.Node | None = node
    while parent is not None:
        if isinstance(parent, _UNREAD):
            return True
        parent = parent.parent
    return False


def _located(node: nodes.Node) -> nodes.Node:
    """The nearest element that knows its source line (a Text node does not)."""
    current: nodes.Node | None = node
    while current is not None and not (isinstance(current, nodes.Element) and current.line):
        current = current.parent
    return current if current is not None else node


class PlayerTextCheck(SphinxPostTransform):
    """Warn about dangling lead-ins (both editions) and engine words (player edition) on the page as written."""

    default_priority = 990  # last: after every resolver has put its text on the page

    def run(self, **kwargs: Any) -> None:
        docname = self.env.docname
        if not _checked(docname, self.config.rpg_designer_text):
            return
        for paragraph in self.document.findall(nodes.paragraph):
            if is_dangling(paragraph):
                text = " ".join(paragraph.astext().split())
                warn("edition", f"a paragraph ends in ':' with nothing after it: {_shorten(text)!r} "
                                "(the example it introduced is not in this edition: keep the lead-in with "
                                "the example, in a paragraph of its own, or reword it)", _located(paragraph))
        if not is_player(self.config):
            return
        for text_node in self.document.findall(nodes.Text):
            if _unread(text_node):
                continue
            found = engine_words(str(text_node))
            if found:
                words = ", ".join(dict.fromkeys(found))
                warn("edition", f"the player edition names the engine ({words}) in: "
                                f"{_shorten(' '.join(str(text_node).split()))!r} (say the rule in words, and "
                                "put the switch in parentheses or a node:designer block)", _located(text_node))


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else "..." + text[-limit:]


def setup(app: Sphinx) -> None:
    app.add_config_value("rpg_designer_text", [], "env", (list, tuple),
                         description="glob patterns of pages written for designers in every edition (a manual): "
                                     "the player-text check does not read them")
    app.add_post_transform(PlayerTextCheck)
