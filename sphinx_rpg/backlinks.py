""""Referenced by": under each node, the pages whose ``:node:ref:`` points at it.

The references live in the domain (``docname -> uids``, merged from parallel readers and cleared with
their page), so the links are computed when a page is written, never stored as docutils nodes; a page
is rewritten when its nodes' referrers change (``domain.pages_to_rewrite``).

The links are made resolved, at ``doctree-resolved`` (when the builder is at hand): a book has about
as many backlinks as references, and resolving each as a ``:doc:`` cross-reference copied and
flattened the referring page's title once per link.  The line is navigation, like the sidebar, so it
is kept out of the search index (``no-search``): a page does not match the titles of the pages that
refer to its nodes.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import NoUri
from sphinx.util.nodes import clean_astext, make_refnode

from sphinx_rpg.domain import NodeDomain, node_domain
from sphinx_rpg.pagescan import contents


def _is_node(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Element) and "rpg_uid" in node.attributes and "rpg-node" in node["classes"]


def _node_containers(doctree: nodes.document) -> list[nodes.Element]:
    """The page's node:def containers: from the scan its post-transforms began with, when a later
    transform did not replace any of them (LaTeX's do), else by a walk of its own."""
    scanned = contents(doctree)
    if scanned is not None and all(_attached(node, doctree) for node in scanned.rpg_nodes):
        return list(scanned.rpg_nodes)
    return [node for node in doctree.findall(_is_node) if isinstance(node, nodes.Element)]


def _attached(node: nodes.Node, doctree: nodes.document) -> bool:
    while node.parent is not None:
        node = node.parent
    return node is doctree


def _page_title(app: Sphinx, domain: NodeDomain, docname: str) -> str:
    """The link text of a page, as a ``:doc:`` link shows it; flattened once per page and build."""
    return str(domain.memo(("page title", docname), lambda: clean_astext(app.env.titles[docname])
                           if docname in app.env.titles else docname))


def add_backlinks(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: a "Referenced by" line under every node other pages refer to."""
    if not app.config.rpg_backlinks:
        return
    env, domain = app.env, node_domain(app.env)
    own_source = str(env.doc2path(docname))
    links: dict[str, str] = {}  # page -> its link from this page: most pages are named by several lines
    containers = _node_containers(doctree)
    domain.look_up_referrers(container["rpg_uid"] for container in containers)
    for container in containers:
        uid = container["rpg_uid"]
        record = domain.record(uid)
        # the node's own page: LaTeX and singlehtml resolve one doctree assembled from every page
        source = container.source or ""
        page = docname if source == own_source else (env.path2doc(source) or docname)
        if record is None or record.docname != page:
            continue  # a duplicate definition: the winning one carries the backlinks
        pages = [doc for doc in domain.referrers(uid) if doc != page]
        if pages:
            _insert(container, _line(app, domain, docname, pages, links))


def _line(app: Sphinx, domain: NodeDomain, fromdocname: str, pages: list[str],
          links: dict[str, str] | None = None) -> nodes.paragraph:
    line = nodes.paragraph("", "", classes=["rpg-backlinks", "no-search"])
    if app.builder.format == "html":  # the label too: two nodes per line for the translator, not four
        line += nodes.raw("", _HTML_LABEL + html_links(app, domain, fromdocname, pages, links), format="html")
        return line
    line += nodes.strong("Referenced by:", "Referenced by:")
    for number, page in enumerate(pages):
        line += nodes.Text(" " if number == 0 else ", ")
        title = _page_title(app, domain, page)
        text = nodes.inline(title, title, classes=["doc"])
        try:
            line += make_refnode(app.builder, fromdocname, page, None, text)
        except NoUri:  # a page this output leaves out (a LaTeX document's other chapters): its title alone
            line += text
    return line


#: The line's label as the HTML writer writes a ``strong`` node holding it.
_HTML_LABEL = "<strong>Referenced by:</strong>"
#: What docutils' HTML writer escapes in text and attribute values (``HTMLTranslator.encode``).
_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord('"'): "&quot;", ord(">"): "&gt;", ord("@"): "&#64;"}
#: ...and what ``HTMLTranslator.attval`` turns into a space in an attribute value first.
_ATTRIBUTE_ESCAPES = {**_ESCAPES, **{ord(space): " " for space in "\n\r\t\v\f"}}


def _html_title(app: Sphinx, domain: NodeDomain, docname: str) -> str:
    return str(domain.memo(("page title html", docname), lambda: _page_title(app, domain, docname).translate(_ESCAPES)))


def html_links(app: Sphinx, domain: NodeDomain, fromdocname: str, pages: list[str],
               links: dict[str, str] | None = None) -> str:
    """The links as the HTML writer would write them from reference nodes, written directly.

    A book has about as many backlinks as references: one string per line instead of four docutils
    nodes per link, made, resolved and then visited by the translator, takes most of their cost away.
    ``links`` keeps each page's link from ``fromdocname`` for the next line of the same page.
    """
    if links is None:
        links = {}
    parts = []
    for page in pages:
        link = links.get(page)
        if link is None:
            link = links[page] = _html_link(app, domain, fromdocname, page)
        parts.append(link)
    return " " + ", ".join(parts)


def _html_link(app: Sphinx, domain: NodeDomain, fromdocname: str, page: str) -> str:
    title = _html_title(app, domain, page)
    try:
        uri = app.builder.get_relative_uri(fromdocname, page)
    except NoUri:  # a page this output leaves out: its title alone
        return title
    href = uri.translate(_ATTRIBUTE_ESCAPES) or "#"
    return f'<a class="reference internal" href="{href}"><span class="doc">{title}</span></a>'


def _insert(container: nodes.Element, line: nodes.paragraph) -> None:
    """After the node's own text, before any sub-section (a nested node:def or heading)."""
    for index, child in enumerate(container.children):
        if isinstance(child, nodes.section):
            container.insert(index, line)
            return
    container += line


def setup(app: Sphinx) -> None:
    app.connect("doctree-resolved", add_backlinks)
