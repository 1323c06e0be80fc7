"""Words for the screen and words for paper: ``node:screen`` and ``node:paper``, as roles and directives.

A web page can say "pick a rank" or "point at a bar"; paper cannot.  The author writes both forms,
and each medium keeps its own:

* HTML keeps both, marked ``rpg-screen-only`` / ``rpg-print-only``: the style sheet shows the first on
  a screen and the second when the page is printed (``@media print``).
* Every other builder (LaTeX and its PDF, text, man...) drops the screen words and keeps the paper ones.

``:node:screen:`text``` and ``:node:paper:`text``` mark a phrase; ``.. node:screen::`` and
``.. node:paper::`` mark whole paragraphs (any body elements).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, SphinxRole

from sphinx_rpg.output_format import writes_html

SCREEN, PAPER = "rpg-screen-only", "rpg-print-only"


class MediumRole(SphinxRole):
    """``:node:screen:`...``` / ``:node:paper:`...```: the phrase, parsed as inline markup, marked."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker = marker

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        # the inliner holds the memo of the text being parsed (document, reporter, language)
        memo: Any = self.inliner
        children, messages = self.inliner.parse(self.text, self.lineno, memo, self.inliner.parent)
        return [nodes.inline(self.rawtext, "", *children, classes=[self.marker])], messages


class MediumDirective(SphinxDirective):
    """``.. node:screen::`` / ``.. node:paper::`` with body elements: a container, marked."""

    has_content = True
    marker = SCREEN

    def run(self) -> list[nodes.Node]:
        box = nodes.container(classes=[self.marker])
        self.set_source_info(box)
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


class ScreenDirective(MediumDirective):
    marker = SCREEN


class PaperDirective(MediumDirective):
    marker = PAPER


class DropScreenWords(SphinxPostTransform):
    """Builders other than HTML: no words addressed to a screen (paper words stay, as ordinary text)."""

    default_priority = 4

    def run(self, **kwargs: Any) -> None:
        if writes_html(self.document):
            return
        for element in list(self.document.findall(nodes.Element)):
            if SCREEN in element.get("classes", ()) and element.parent is not None:
                _close_gap(element)
                element.parent.remove(element)


def _close_gap(phrase: nodes.Element) -> None:
    """Before a screen phrase leaves a sentence ("counts it :node:screen:`as you type`."), drop the space
    it leaves in front of the punctuation or space that follows it: "counts it.", not "counts it ."."""
    parent = phrase.parent
    position = parent.index(phrase)
    before = parent[position - 1] if position > 0 else None
    after = parent[position + 1] if position + 1 < len(parent) else None
    if not isinstance(before, nodes.Text) or not str(before)[-1:].isspace():
        return
    following = str(after) if isinstance(after, nodes.Text) else ""
    if after is None or following[:1].isspace() or following[:1] in tuple(".,;:!?)]"):
        parent.replace(before, nodes.Text(str(before).rstrip()))


def setup(app: Sphinx) -> None:
    app.add_role_to_domain("node", "screen", MediumRole(SCREEN))
    app.add_role_to_domain("node", "paper", MediumRole(PAPER))
    app.add_directive_to_domain("node", "screen", ScreenDirective)
    app.add_directive_to_domain("node", "paper", PaperDirective)
    app.add_post_transform(DropScreenWords)
