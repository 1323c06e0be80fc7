"""Keep every node's main index entry in the search index, also after an incremental build.

Sphinx's search ranks a *main* index entry whose text matches the query highest, which is what puts
a node above API objects and pages that merely mention its name (see ``node:def``).  Sphinx 9 keeps
index entries for the search in the environment but fills them only while writing pages, after the
environment is saved: an incremental build then forgets the entries of every page it did not
rewrite.  Before the search index is written, the nodes' own entries are put back from the domain,
for the pages that were not written in this build (never for one that was: its entries are fresh).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from sphinx_rpg.catalogue import catalogue


def restore_node_entries(app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: runs after every page is written and before the search index is dumped."""
    indexer = getattr(app.builder, "indexer", None)
    entries: dict[str, list[tuple[str, str, str]]] | None = getattr(indexer, "_index_entries", None)
    if not isinstance(entries, dict):
        return []  # no search index, or a Sphinx that stores it differently
    missing: dict[str, list[tuple[str, str, str]]] = {}
    for record, pieces in catalogue(app).all().items():  # the headings, kept between builds
        if record.docname in entries:
            continue
        missing.setdefault(record.docname, []).append((pieces.heading, record.anchor, "main"))
    for docname, restored in missing.items():
        entries[docname] = sorted(restored)
    return []
