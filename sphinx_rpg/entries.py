"""One node's entry in nodes.json and in the hover previews: a leaf that the catalogue (which keeps the
entries between builds) and the two files' writers share."""

from __future__ import annotations

import json
from typing import Any

from sphinx.environment import BuildEnvironment

from sphinx_rpg.binding import Binding
from sphinx_rpg.boundary import rule_facts
from sphinx_rpg.domain import NodeDomain, NodeRecord
from sphinx_rpg.inline import plain_text, shorten
from sphinx_rpg.texts import text_of


def node_entry(env: BuildEnvironment, domain: Any, binding: Binding, record: NodeRecord, uri: str,
               page_files: dict[str, str] | None = None) -> dict[str, Any]:
    """One node of the document; ``uri`` is its page's URL relative to the site root.  ``page_files``
    keeps each page's file name for the next node of the same page (a page holds many nodes)."""
    rule = binding.lookup(record.uid)
    facts: tuple[Any, ...] = rule_facts(rule)  # none when they cannot be computed (node:def warned)
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
        "source": {"file": record.source or page_file(env, record.docname, page_files), "line": record.lineno},
        "system": registry.system if registry else None,
        "rule": (rule.implementation_path or rule.module) if rule else None,
        "facts": [{"label": f.label, "text": f.text, **({"latex": f.latex} if f.latex else {})}
                  for f in facts],
        "digest": record.digest,
        **({"text": text} if (text := text_of(env, record.digest)) else {}),
        **({"overrides": record.overrides} if record.overrides else {}),
    }


def page_file(env: BuildEnvironment, docname: str, known: dict[str, str] | None = None) -> str:
    """The page's source file, relative to the source directory (remembered in ``known``)."""
    found = known.get(docname) if known is not None else None
    if found is None:
        found = str(env.doc2path(docname, False))
        if known is not None:
            known[docname] = found
    return found


def preview_entry(domain: NodeDomain, record: NodeRecord, uri: str) -> tuple[str, dict[str, Any]]:
    """The node's key (its URL) and what its preview shows."""
    sentence = record.sentence or shorten(plain_text(record.summary))
    entry: dict[str, Any] = {"title": domain.display_title(record), "types": ", ".join(record.type_names),
                             "text": sentence}
    if record.lead:  # the first paragraph with its emphasis and code: what the preview shows when it can
        entry["lead"] = [_resolved(domain, run) for run in json.loads(record.lead)]
    return f"{uri}#{record.anchor}", entry


def _resolved(domain: NodeDomain, run: list[str]) -> list[str]:
    """A run of a preview's paragraph; a node reference (``["ref", uid]``) as the title its link shows."""
    if run[0] != "ref":
        return run
    target = domain.record(run[1])
    return ["", domain.display_title(target) if target is not None else run[1]]
