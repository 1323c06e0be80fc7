"""``node:example``: a worked example box; the ``>>>`` lines in it run in the test suite (Sybil)."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles
from sphinx.util.typing import OptionSpec


class NodeExample(SphinxDirective):
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[OptionSpec] = {"name": directives.unchanged, "class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        title = "Example" + (f": {self.arguments[0]}" if self.arguments else "")
        box = nodes.admonition(classes=["rpg-example", *self.options.get("class", [])])
        self.set_source_info(box)
        box += nodes.title(title, title)
        nested_parse_with_titles(self.state, self.content, box, self.content_offset)
        self.add_name(box)
        return [box]
