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

from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import rule_facts
from sphinx_rpg.bulk import collector_paused
from sphinx_rpg.domain import node_domain

SCHEMA_VERSION = 2
SCHEMA_PATH = Path(__file__).parent / "schema" / "nodes.schema.json"


def catalogue_version(env: BuildEnvironment) -> str:
    """The book's version label as conf.py gives it (``release``, else ``version``)."""
    return str(env.config.release or env.config.version or "")


def nodes_document(env: BuildEnvironment, page_uri: Any) -> dict[str, Any]:
    """The JSON document; ``page_uri(docname)`` gives the page's URL relative to the site root."""
    domain = node_domain(env)
    binding = binding_for(env.config)
    entries = []
    pages: dict[str, tuple[str, str]] = {}  # docname -> (URL, source file): a page holds many nodes
    for record in domain.records():
        rule = binding.lookup(record.uid)
        registry = binding.registry_of(record.uid)
        page = pages.get(record.docname)
        if page is None:
            page = pages[record.docname] = (page_uri(record.docname), str(env.doc2path(record.docname, False)))
        entries.append({
            "uid": record.uid,
            "name": record.name,
            "title": domain.display_title(record),
            "types": list(record.types),
            "type_names": list(record.type_names),
            "namespace": record.namespace,
            "summary": record.summary,
            "docname": record.docname,
            "url": f"{page[0]}#{record.anchor}",
            "anchor": record.anchor,
            "source": {"file": record.source or page[1], "line": record.lineno},
            "system": registry.system if registry else None,
            "rule": (rule.implementation_path or rule.module) if rule else None,
            "facts": [{"label": f.label, "text": f.text, **({"latex": f.latex} if f.latex else {})}
                      for f in _facts(rule)],
            "digest": record.digest,
            **({"overrides": record.overrides} if record.overrides else {}),
        })
    sheets = [{"url": page_uri(docname), "docname": docname, "caption": caption, **json.loads(data)}
              for docname, caption, data in domain.sheets()]
    return {"schema_version": SCHEMA_VERSION, "project": env.config.project,
            "version": catalogue_version(env), "nodes": entries, **({"sheets": sheets} if sheets else {})}


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
    with collector_paused():
        # compact separators keep json on its C encoder (indent= falls back to pure Python: ~5x slower)
        text = json.dumps(nodes_document(env, page_uri), separators=(",", ":"), ensure_ascii=False)
    write_atomically(path, text + "\n")
    return path


def on_build_finished(app: Any, exception: Exception | None) -> None:
    builder = app.builder
    if exception is None and builder.format == "html" and app.config.rpg_nodes_json:
        write_nodes_json(builder.env, Path(builder.outdir), builder.get_target_uri)


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
