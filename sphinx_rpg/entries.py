"""One node's entry in nodes.json, in the hover previews and in the search page's data: a leaf that the
catalogue (which keeps the entries between builds) and the files' writers share."""

from __future__ import annotations

import json
from typing import Any

from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import clean_astext

from sphinx_rpg.binding import Binding
from sphinx_rpg.boundary import rule_facts
from sphinx_rpg.domain import NodeDomain, NodeRecord
from sphinx_rpg.inline import DOTTED, compact_json, dotted_words, shown_sentence
from sphinx_rpg.texts import lead_of, text_of


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


def preview_entry(env: BuildEnvironment, domain: NodeDomain, record: NodeRecord, uri: str,
                  lead_and_sentence: tuple[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """The node's key (its URL) and what its preview shows (``lead_and_sentence``: ``lead_of``'s
    answer, when the caller has it)."""
    lead, sentence = lead_and_sentence if lead_and_sentence is not None else lead_of(env, record)
    entry: dict[str, Any] = {"title": domain.display_title(record), "types": ", ".join(record.type_names),
                             "text": shown_sentence(sentence, record.summary)}
    if lead:  # the first paragraph with its emphasis and code: what the preview shows when it can
        entry["lead"] = [_resolved(domain, run) for run in json.loads(lead)]
    return f"{uri}#{record.anchor}", entry


def _resolved(domain: NodeDomain, run: list[str]) -> list[str]:
    """A run of a preview's paragraph; a node reference (``["ref", uid]``) as the title its link shows."""
    if run[0] != "ref":
        return run
    target = domain.record(run[1])
    return ["", domain.display_title(target) if target is not None else run[1]]


def type_words(type_names: tuple[str, ...]) -> str:
    """("Effect", "Resource") -> "effect and resource": a node's types as a sentence says them."""
    words = [name.lower() for name in type_names if name]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def search_entry(env: BuildEnvironment, domain: NodeDomain, binding: Binding, record: NodeRecord,
                 page_titles: dict[str, str] | None = None, sentence: str | None = None) -> str:
    """The node's member of the search page's data, as JSON text: ``"uid":[name, book, type words, page
    title, first sentence, anchors]``, where the anchors (``"docname#anchor"``) are every one that
    reaches it.  A dotted name in the sentence that is a node's uid reads as the node's name.
    ``page_titles`` keeps each page's title, flattened, for the next node of the same page;
    ``sentence`` is the node's first sentence (``lead_of``), when the caller has it."""
    book = book_of(env, binding, record)
    title = page_title(env, record.docname, page_titles)
    if sentence is None:
        _, sentence = lead_of(env, record)
    sentence = shown_sentence(sentence, record.summary)
    if dotted_words(sentence):
        sentence = DOTTED.sub(lambda match: _name_of(domain, match.group(0)), sentence)
    anchors = [f"{record.docname}#{anchor}"
               for anchor in sorted({record.anchor, record.search_anchor, record.alias} - {""})]
    member = [record.name, book, type_words(record.type_names), title, sentence, anchors]
    return f"{compact_json(record.uid)}:{compact_json(member)}"


def book_of(env: BuildEnvironment, binding: Binding, record: NodeRecord) -> str:
    """The book a node belongs to: its registry's title, else the project's name."""
    registry = binding.registry_of(record.uid) if record.bound else None
    return registry.title if registry is not None else str(env.config.project)


def page_title(env: BuildEnvironment, docname: str, known: dict[str, str] | None = None) -> str:
    """The page's title as the search page shows it, flattened (remembered in ``known``)."""
    title = known.get(docname) if known is not None else None
    if title is None:
        node = env.titles.get(docname)
        title = clean_astext(node) if node is not None else docname
        if known is not None:
            known[docname] = title
    return title


def _name_of(domain: NodeDomain, word: str) -> str:
    target = domain.record(word)
    return target.name if target is not None else word
