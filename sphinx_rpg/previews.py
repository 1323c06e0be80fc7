"""``rpg-previews.json``: what a hover preview of a node shows (title, type names, first sentence).

Written beside the HTML pages at the end of every HTML build from the domain's records (so it is whole
on incremental and parallel builds); ``static/sphinx_rpg_previews.js`` reads it.  One short entry per
node keyed by the node's URL relative to the site root, the same URL its links point at.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.environment import BuildEnvironment

from sphinx_rpg.domain import node_domain
from sphinx_rpg.inline import plain_text, shorten

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
        sentence = record.sentence or shorten(plain_text(record.summary))
        entries[f"{uri}#{record.anchor}"] = {"title": domain.display_title(record),
                                             "types": ", ".join(record.type_names), "text": sentence}
    return {"version": PREVIEWS_VERSION, "nodes": entries}


def write_previews(app: Any, exception: Exception | None) -> None:
    """``build-finished``: the previews of every node, for HTML builders."""
    builder = app.builder
    if exception is not None or builder.format != "html":
        return
    text = json.dumps(previews_document(builder.env, builder.get_target_uri), separators=(",", ":"),
                      ensure_ascii=False)
    (Path(builder.outdir) / PREVIEWS_FILE).write_text(text + "\n", encoding="utf-8")
