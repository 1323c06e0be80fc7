"""``rpg-previews.json``: what a node's preview shows (title, type names, first sentence, first paragraph).

Written beside the HTML pages by every HTML build, before its pages, from the domain's records (so it is whole
on incremental and parallel builds); ``static/sphinx_rpg_previews.js`` reads it.  One short entry per
node keyed by the node's URL relative to the site root, the same URL its links point at.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from sphinx_rpg.catalogue import catalogue
from sphinx_rpg.domain import node_domain
from sphinx_rpg.entries import preview_entry

PREVIEWS_FILE = "rpg-previews.json"
PREVIEWS_VERSION = 1


def previews_document(env: BuildEnvironment, page_uri: Callable[[str], str]) -> dict[str, Any]:
    domain = node_domain(env)
    entries: dict[str, dict[str, str]] = {}
    uris: dict[str, str] = {}
    for record in domain.records():
        uri = uris.get(record.docname)
        if uri is None:
            uri = uris[record.docname] = page_uri(record.docname)
        key, entry = preview_entry(env, domain, record, uri)
        entries[key] = entry
    return {"version": PREVIEWS_VERSION, "nodes": entries}


def write_previews(app: Sphinx, builder: Builder) -> None:
    """``write-started``: the previews of every node, for HTML builders, from the pieces kept between
    builds (or last build's file, when no record changed since); before any page, as ``nodes.json``
    (``export.write_catalogue``)."""
    if builder.format != "html":
        return
    kept = catalogue(app)
    # one entry per node: its key is the node's address, and a page's anchors are its ids (unique)
    kept.write_joined(Path(builder.outdir) / PREVIEWS_FILE, f'{{"version":{PREVIEWS_VERSION},"nodes":{{', "}}\n",
                      lambda record, pieces: f"{pieces.preview_key}:{pieces.preview}")


def setup(app: Sphinx) -> None:
    app.connect("write-started", write_previews)
