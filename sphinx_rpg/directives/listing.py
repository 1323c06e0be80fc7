"""``node:list`` and ``node:cards``: listings filled in from the domain when a page is written.

The directive leaves a placeholder; :class:`ListingResolver` builds the table or cards at resolve time
from the whole domain.  The domain remembers each listing's filter, and a page is rewritten when a
node its filters match (before or after the change) was added, removed or changed (see
``domain.pages_to_rewrite``), so a listing is never stale after an incremental build and no other
listing page is written again.  Filters are served from a field index, not by scanning every node.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from sphinx_rpg.directives.cells import fit_column_widths
from sphinx_rpg.domain import NodeDomain, NodeRecord, node_domain
from sphinx_rpg.filters import FieldIndex, filter_is_valid, parse_filter, select
from sphinx_rpg.inline import inline_nodes
from sphinx_rpg.output_format import writes_html
from sphinx_rpg.pagescan import holds
from sphinx_rpg.warnings import warn

COLUMNS = {"name": "Node", "types": "Type", "uid": "uid", "summary": "Summary", "namespace": "Namespace"}
SORT_KEYS = ("name", "uid", "type")
#: The extension whose components (and style sheet) make the cards.
CARDS_EXTENSION = "sphinx_design"


class node_listing(nodes.General, nodes.Element):
    """Placeholder replaced at resolve time; carries only plain options (picklable)."""


def _columns(text: str) -> list[str]:
    columns = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown or not columns:
        raise ValueError(f"unknown column(s) {', '.join(unknown) or '(none given)'}; use {', '.join(COLUMNS)}")
    return columns


class NodeListing(SphinxDirective):
    """``.. node:list::`` (a table) with ``:filter:``, ``:columns:``, ``:sort:``, ``:caption:``."""

    style = "table"
    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        "filter": directives.unchanged,
        "columns": directives.unchanged,
        "sort": lambda value: directives.choice(value, SORT_KEYS),
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        text = self.options.get("filter", "")
        if not filter_is_valid(text, location):
            return []
        try:
            columns = _columns(self.options.get("columns", "name, summary"))
        except ValueError as error:
            warn("option", f"{self.name}: {error}", location)
            return []
        placeholder = node_listing(style=self.style, filter=text, columns=columns,
                                   sort=self.options.get("sort", "name"),
                                   caption=self.options.get("caption", ""),
                                   grid=self.options.get("grid", 3))
        self.set_source_info(placeholder)
        node_domain(self.env).note_listing(self.env.docname, text)
        return [placeholder]


class NodeCards(NodeListing):
    """``.. node:cards::``: a sphinx-design card grid (a plain table in LaTeX and other formats).

    ``:grid:`` sets the cards per row on wide screens; ``:caption:`` titles the table fallback.
    The cards are sphinx-design's components, so they need ``sphinx_design`` in the project's
    ``extensions``; without it the listing is the table (and says so once, here): the extension does
    not load sphinx-design itself, whose transforms would then run on every page of every book.
    """

    style = "cards"
    option_spec: ClassVar[OptionSpec] = {**NodeListing.option_spec, "grid": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        result = super().run()
        placeholder = result[0] if result else None
        if isinstance(placeholder, node_listing) and CARDS_EXTENSION not in self.config.extensions:
            warn("markup", f"{self.name}: cards need {CARDS_EXTENSION!r} in extensions; shown as a table",
                 self.get_location())
            placeholder["style"] = "table"
        return result


def _indexed_records(domain: NodeDomain) -> tuple[list[NodeRecord], list[dict[str, object]], FieldIndex]:
    records = list(domain.records())
    fields = [record.fields() for record in records]
    return records, fields, FieldIndex(fields)


def _matching(domain: NodeDomain, text: str, sort: str) -> list[NodeRecord]:
    predicate = parse_filter(text)
    all_records, fields, index = domain.memo(("listing-index",), lambda: _indexed_records(domain))
    records = [all_records[position] for position in select(predicate, fields, index)]
    records.sort(key=lambda r: {"name": (r.name.lower(), r.uid), "uid": (r.uid,),
                                "type": (r.type_names, r.name.lower())}[sort])
    return records


class ListingResolver(SphinxPostTransform):
    default_priority = 5  # before ReferencesResolver (10), which then resolves the links we emit

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_listing):
            return
        domain = node_domain(self.env)
        html = writes_html(self.document)
        for placeholder in list(self.document.findall(node_listing)):
            # the same filter on another page (or another parallel chunk) reuses this, until a node changes
            query, order = placeholder["filter"], placeholder["sort"]
            records = domain.memo(("listing", query, order), partial(_matching, domain, query, order))
            if placeholder["style"] == "cards" and html:
                replacement = self.cards(domain, records, placeholder)
            else:
                replacement = self.table(domain, records, placeholder)
            placeholder.replace_self(replacement)

    def link(self, domain: NodeDomain, record: NodeRecord, text: str | None = None) -> nodes.Node:
        """A ``pending_xref``: Sphinx's own resolver (which runs after us) turns it into a link."""
        title = text or domain.display_title(record)
        ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=record.uid,
                                    refexplicit=True, refwarn=True, refdoc=self.env.docname)
        ref += nodes.inline(title, title)
        return ref

    def cell(self, domain: NodeDomain, record: NodeRecord, column: str) -> nodes.Node:
        if column == "name":
            return nodes.paragraph("", "", self.link(domain, record))
        if column == "summary":  # docstring markup (``None``, :class:`X`) shown as a reader reads it
            return nodes.paragraph("", "", *inline_nodes(record.summary))
        value = {"types": ", ".join(record.type_names), "uid": record.uid, "summary": record.summary,
                 "namespace": record.namespace}[column]
        return nodes.paragraph(value, value)

    def table(self, domain: NodeDomain, records: list[NodeRecord], placeholder: node_listing) -> nodes.Node:
        columns: list[str] = placeholder["columns"]
        table = nodes.table(classes=["rpg-listing"])
        if placeholder["caption"]:
            table += nodes.title(placeholder["caption"], placeholder["caption"])
            self.document.set_id(table)  # built after Sphinx numbers tables: a captioned one needs an id
        group = nodes.tgroup(cols=len(columns))
        table += group
        for column in columns:
            group += nodes.colspec(colwidth=3 if column == "summary" else 1)
        head = nodes.thead()
        head += nodes.row("", *(nodes.entry("", nodes.paragraph(COLUMNS[c], COLUMNS[c])) for c in columns))
        body = nodes.tbody()
        for record in records:
            body += nodes.row("", *(nodes.entry("", self.cell(domain, record, c)) for c in columns))
        if not records:
            body += nodes.row("", nodes.entry("", nodes.paragraph("No nodes match.", "No nodes match."),
                                              morecols=len(columns) - 1))
        group += head
        group += body
        fit_column_widths(group)
        return table

    def cards(self, domain: NodeDomain, records: list[NodeRecord], placeholder: node_listing) -> nodes.Node:
        from sphinx_design.shared import create_component  # only a book listing sphinx_design gets here

        per_row = placeholder["grid"]
        grid = create_component("grid-container", ["sd-container-fluid", "sd-sphinx-override", "sd-mb-4",
                                                   "rpg-cards"])
        row = create_component("grid-row", ["sd-row", "sd-row-cols-1", f"sd-row-cols-sm-{min(per_row, 2)}",
                                            f"sd-row-cols-md-{per_row}", "sd-g-2"])
        grid += row
        for record in records:
            body = create_component("card-body", ["sd-card-body"])
            title = nodes.paragraph("", "", self.link(domain, record, record.name),
                                    classes=["sd-card-title", "sd-font-weight-bold"])
            body += title
            badges = nodes.paragraph("", "", classes=["sd-card-text"])
            for code, label in zip(record.types, record.type_names):
                badges += nodes.inline(label, label, classes=["sd-badge", "sd-bg-secondary",
                                                             "sd-bg-text-secondary", f"rpg-type-{code}"])
                badges += nodes.Text(" ")
            body += badges
            if record.summary:
                body += nodes.paragraph("", "", *inline_nodes(record.summary), classes=["sd-card-text"])
            card = create_component("card", ["sd-card", "sd-sphinx-override", "sd-mb-3", "sd-shadow-sm",
                                             "sd-w-100", "rpg-card"], children=[body])
            row += create_component("grid-item", ["sd-col", "sd-d-flex-row"], children=[card])
        if not records:
            return nodes.paragraph("No nodes match.", "No nodes match.")
        return grid
