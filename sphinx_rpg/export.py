"""``nodes.json``: every node of the book with its page, anchor, rule object and computed facts.

Written next to the HTML on every HTML build, and alone by the ``nodes_json`` builder
(``sphinx-build -b nodes_json docs out``).  The format is versioned and described by
``sphinx_rpg/schema/nodes.schema.json``.  A book with character sheets (``node:sheet``) also lists
them, each with its fields, bounds and formulas (as parsed trees), so a tool can build the same sheet.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Set
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from sphinx_rpg.binding import binding_for
from sphinx_rpg.catalogue import catalogue
from sphinx_rpg.domain import node_domain
from sphinx_rpg.entries import node_entry
from sphinx_rpg.files import write_atomically

SCHEMA_VERSION = 2
SCHEMA_PATH = Path(__file__).parent / "schema" / "nodes.schema.json"


def catalogue_version(env: BuildEnvironment) -> str:
    """The book's version label as conf.py gives it (``release``, else ``version``)."""
    return str(env.config.release or env.config.version or "")


def nodes_document(env: BuildEnvironment, page_uri: Any) -> dict[str, Any]:
    """The JSON document; ``page_uri(docname)`` gives the page's URL relative to the site root."""
    domain = node_domain(env)
    binding = binding_for(env.config)
    uris: dict[str, str] = {}  # a page holds many nodes
    files: dict[str, str] = {}
    entries = []
    for record in domain.records():
        uri = uris.get(record.docname)
        if uri is None:
            uri = uris[record.docname] = page_uri(record.docname)
        entries.append(node_entry(env, domain, binding, record, uri, files))
    return {**document_head(env), "nodes": entries, **document_tail(env, page_uri)}


def document_head(env: BuildEnvironment) -> dict[str, Any]:
    """The members of the document before ``nodes``."""
    return {"schema_version": SCHEMA_VERSION, "project": env.config.project, "version": catalogue_version(env)}


def document_tail(env: BuildEnvironment, page_uri: Any) -> dict[str, Any]:
    """The members of the document after ``nodes``: the character sheets, when the book has any."""
    sheets = [{"url": page_uri(docname), "docname": docname, "caption": caption, **json.loads(data)}
              for docname, caption, data in node_domain(env).sheets()]
    return {"sheets": sheets} if sheets else {}


def is_previous_export(path: Path) -> bool:
    """True when ``path`` holds a nodes.json this extension wrote (so replacing it loses nothing)."""
    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.read(64)
    except (OSError, UnicodeDecodeError):
        return False
    return head.startswith('{"schema_version":')


def write_nodes_json(env: BuildEnvironment, outdir: Path, page_uri: Any) -> Path:
    path = Path(outdir) / "nodes.json"
    # compact separators keep json on its C encoder (indent= falls back to pure Python: ~5x slower)
    text = json.dumps(nodes_document(env, page_uri), separators=(",", ":"), ensure_ascii=False)
    write_atomically(path, text + "\n")
    return path


def document_ends(env: BuildEnvironment, page_uri: Any) -> tuple[str, str]:
    """The document's text before and after its nodes' entries: what ``json.dumps`` makes of the rest."""
    head = json.dumps(document_head(env), separators=(",", ":"), ensure_ascii=False)
    tail = json.dumps(document_tail(env, page_uri), separators=(",", ":"), ensure_ascii=False)
    return f'{head[:-1]},"nodes":[', f']{"," + tail[1:] if tail != "{}" else "}"}\n'


def write_catalogue(app: Sphinx, builder: Builder) -> None:
    """``write-started``: nodes.json beside the HTML, from the nodes' pieces kept between builds (or
    last build's file, when no record changed since and the rest of the document is the same).

    Written once the environment is final and before any page: what it holds is made from the records
    alone, and its work then falls while the build holds least (at ``build-finished``, after every page,
    the same work added about 4 MiB to a 10,000-node rebuild's peak memory)."""
    if builder.format == "html" and app.config.rpg_nodes_json:
        head, tail = document_ends(builder.env, builder.get_target_uri)
        kept = catalogue(app)
        kept.write_joined(Path(builder.outdir) / "nodes.json", head, tail,
                          lambda record, pieces: pieces.entry(record.lineno),
                          lambda record, key: key + record.lineno.to_bytes(8, "big", signed=True))


class NodesJsonBuilder(Builder):
    """Writes only nodes.json (for tools that want the catalogue without the site)."""

    name = "nodes_json"
    format = "json"
    epilog = "The node catalogue is in %(outdir)s/nodes.json."
    allow_parallel = True

    def get_outdated_docs(self) -> Iterable[str]:
        return self.env.found_docs

    def get_target_uri(self, docname: str, typ: str | None = None) -> str:
        return f"{docname}.html"

    def prepare_writing(self, docnames: Set[str]) -> None:
        pass

    def write_doc(self, docname: str, doctree: Any) -> None:
        pass

    def finish(self) -> None:
        write_nodes_json(self.env, Path(self.outdir), self.get_target_uri)


def setup(app: Sphinx) -> None:
    """nodes.json beside every HTML build, and the ``nodes_json`` builder that writes only it."""
    app.add_builder(NodesJsonBuilder)
    app.connect("write-started", write_catalogue)
