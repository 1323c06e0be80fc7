""""Referenced by": under each node, the pages whose ``:node:ref:`` points at it.

The references live in the domain (``docname -> uids``, merged from parallel readers and cleared with
their page), so the links are computed when a page is written, never stored as docutils nodes; a page
is rewritten when its nodes' referrers change (``domain.pages_to_rewrite``).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from sphinx_rpg.domain import node_domain


def _is_node(node: nodes.Element) -> bool:
    return "rpg_uid" in node.attributes and "rpg-node" in node["classes"]


class BacklinksResolver(SphinxPostTransform):
    """Adds a "Referenced by" line to every node that other pages refer to."""

    default_priority = 5  # before ReferencesResolver (10), which resolves the page links made here

    def run(self, **kwargs: Any) -> None:
        if not self.config.rpg_backlinks:
            return
        domain = node_domain(self.env)
        for container in [element for element in self.document.findall(nodes.Element) if _is_node(element)]:
            uid = container["rpg_uid"]
            record = domain.record(uid)
            # the node's own page: LaTeX and singlehtml resolve one doctree assembled from every page
            docname = self.env.path2doc(container.source or "") or self.env.docname
            if record is None or record.docname != docname:
                continue  # a duplicate definition: the winning one carries the backlinks
            pages = [doc for doc in domain.referrers(uid) if doc != docname]
            if pages:
                self.insert(container, self.line(pages))

    def line(self, pages: list[str]) -> nodes.paragraph:
        line = nodes.paragraph("", "", classes=["rpg-backlinks"])
        line += nodes.strong("Referenced by:", "Referenced by:")
        for number, page in enumerate(pages):
            line += nodes.Text(" " if number == 0 else ", ")
            ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget="/" + page,
                                        refexplicit=False, refwarn=True, refdoc=self.env.docname)
            ref += nodes.inline(page, page)
            line += ref
        return line

    @staticmethod
    def insert(container: nodes.Element, line: nodes.paragraph) -> None:
        """After the node's own text, before any sub-section (a nested node:def or heading)."""
        for index, child in enumerate(container.children):
            if isinstance(child, nodes.section):
                container.insert(index, line)
                return
        container += line
