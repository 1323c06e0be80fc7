"""``nodes.json``: every node of the book with its page, anchor, rule object and computed facts.

Written next to the HTML on every HTML build, and alone by the ``nodes_json`` builder
(``sphinx-build -b nodes_json docs out``).  The format is versioned and described by
``sphinx_rpg/schema/nodes.schema.json``.  A book with character sheets (``node:sheet``) also lists
them, each with its fields, bounds and formulas (as parsed trees), so a tool can build the same sheet.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Set
from pathlib import Path
from typing import Any

from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from sphinx_rpg.binding import Binding, binding_for
from sphinx_rpg.boundary import rule_facts
from sphinx_rpg.bulk import collector_paused, pausing
from sphinx_rpg.domain import NodeRecord, node_domain

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
    entries = []
    for record in domain.records():
        uri = uris.get(record.docname)
        if uri is None:
            uri = uris[record.docname] = page_uri(record.docname)
        entries.append(node_entry(env, domain, binding, record, uri))
    return {**document_head(env), "nodes": entries, **document_tail(env, page_uri)}


def document_head(env: BuildEnvironment) -> dict[str, Any]:
    """The members of the document before ``nodes``."""
    return {"schema_version": SCHEMA_VERSION, "project": env.config.project, "version": catalogue_version(env)}


def document_tail(env: BuildEnvironment, page_uri: Any) -> dict[str, Any]:
    """The members of the document after ``nodes``: the character sheets, when the book has any."""
    sheets = [{"url": page_uri(docname), "docname": docname, "caption": caption, **json.loads(data)}
              for docname, caption, data in node_domain(env).sheets()]
    return {"sheets": sheets} if sheets else {}


def node_entry(env: BuildEnvironment, domain: Any, binding: Binding, record: NodeRecord, uri: str) -> dict[str, Any]:
    """One node of the document; ``uri`` is its page's URL relative to the site root."""
    rule = binding.lookup(record.uid)
    registry = binding.registry_of(record.uid)
    return {
        "uid": record.uid,
        "name": record.name,
        "title": domain.display_title(record),
        "types": list(record.types),
        "type_names": list(record.type_names),
        "namespace": record.namespace,
        "summary": record.summary,
        "docname": record.docname,
        "url": f"{uri}#{record.anchor}",
        "anchor": record.anchor,
        "source": {"file": record.source or str(env.doc2path(record.docname, False)), "line": record.lineno},
        "system": registry.system if registry else None,
        "rule": (rule.implementation_path or rule.module) if rule else None,
        "facts": [{"label": f.label, "text": f.text, **({"latex": f.latex} if f.latex else {})}
                  for f in _facts(rule)],
        "digest": record.digest,
        **({"overrides": record.overrides} if record.overrides else {}),
    }


def _facts(rule: Any) -> tuple[Any, ...]:
    """The rule's facts; none when they cannot be computed (node:def already warned, as node.facts)."""
    return rule_facts(rule)


def is_previous_export(path: Path) -> bool:
    """True when ``path`` holds a nodes.json this extension wrote (so replacing it loses nothing)."""
    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.read(64)
    except (OSError, UnicodeDecodeError):
        return False
    return head.startswith('{"schema_version":')


def write_atomically(path: Path, text: str) -> None:
    """Write a temporary file beside ``path``, then rename it over: a crash never leaves half a file."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would make the export private
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_nodes_json(env: BuildEnvironment, outdir: Path, page_uri: Any) -> Path:
    path = Path(outdir) / "nodes.json"
    with collector_paused(pausing(env.config)):
        # compact separators keep json on its C encoder (indent= falls back to pure Python: ~5x slower)
        text = json.dumps(nodes_document(env, page_uri), separators=(",", ":"), ensure_ascii=False)
    write_atomically(path, text + "\n")
    return path


def joined_document(env: BuildEnvironment, page_uri: Any, entries: Iterable[str]) -> str:
    """The document's text from its nodes' entries as JSON text: what ``json.dumps`` makes of the whole."""
    head = json.dumps(document_head(env), separators=(",", ":"), ensure_ascii=False)
    tail = json.dumps(document_tail(env, page_uri), separators=(",", ":"), ensure_ascii=False)
    return f'{head[:-1]},"nodes":[{",".join(entries)}]{"," + tail[1:] if tail != "{}" else "}"}'


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` unless the file already holds it (an unchanged catalogue keeps its file); True if written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text)
    return True


def on_build_finished(app: Any, exception: Exception | None) -> None:
    """``build-finished``: nodes.json beside the HTML, from the nodes' pieces kept between builds."""
    from sphinx_rpg.catalogue import catalogue

    builder = app.builder
    if exception is None and builder.format == "html" and app.config.rpg_nodes_json:
        with collector_paused(pausing(app.config)):
            entries = [pieces.entry for pieces in catalogue(app).all().values()]
            text = joined_document(builder.env, builder.get_target_uri, entries)
        write_if_changed(Path(builder.outdir) / "nodes.json", text + "\n")


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


def setup(app: Any) -> dict[str, Any]:
    """Entry point for ``sphinx.builders`` so ``-b nodes_json`` works even before the extension loads."""
    app.setup_extension("sphinx_rpg")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
