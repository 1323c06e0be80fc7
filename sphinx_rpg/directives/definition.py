"""``node:def``: declare a game object, as a real section (so it is in the page's contents)."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_id, nested_parse_with_titles
from sphinx.util.typing import OptionSpec

from rules.nodes import InvalidTypeError, Node, Registry, format_types, is_valid_uid, parse_types
from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line
from sphinx_rpg.config import render_title
from sphinx_rpg.directives.facts import facts_block
from sphinx_rpg.domain import NodeDomain, NodeRecord, node_domain
from sphinx_rpg.editions import is_player
from sphinx_rpg.graphs import connection_fields, registry_dependencies
from sphinx_rpg.inline import compact_json, dotted_words, first_paragraph_runs, first_sentence, shown_sentence
from sphinx_rpg.releases import change_mark, current_entry
from sphinx_rpg.supplements import core_item, provenance
from sphinx_rpg.warnings import warn

if TYPE_CHECKING:
    from sphinx.writers.html5 import HTML5Translator


class node_heading(nodes.rubric):
    """A node heading kept out of the table of contents (``:no-contents-entry:``).

    HTML gives it a permalink; every other writer renders it as the rubric it derives from.
    """


def visit_node_heading_html(self: HTML5Translator, node: node_heading) -> None:
    self.body.append(self.starttag(node, "p", "", CLASS="rubric rpg-node-heading"))


def depart_node_heading_html(self: HTML5Translator, node: node_heading) -> None:
    self.add_permalink_ref(node, "Link to this node")
    self.body.append("</p>\n")


#: The longest body kept whole in nodes.json (``text``), for the change marks of a later release.
MAX_BODY_TEXT = 20_000


def body_text(lines: Iterable[str]) -> str:
    """A definition's body as written (trailing blanks ignored): what its digest hashes."""
    return "\n".join(line.rstrip() for line in lines).strip()


def body_digest(text: str) -> str:
    """A short, stable hash of a definition's body as written (``body_text``: trailing blanks ignored)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# Sphinx's ApplySourceWorkaround gives a source to a title, a rubric or a field name that lacks one,
# and first builds a debug message holding the node's XML, shown or not: the two functions below set
# what it would set, so it leaves a node:def's heading and fields alone.
def _place_heading(container: nodes.Element, heading: nodes.Element) -> None:
    """A title: its section's source and line; a rubric (``:no-contents-entry:``): its page, line 0."""
    if isinstance(heading, nodes.title):
        heading.source, heading.line = container.source, container.line
    elif container.source:
        heading.source, heading.line = container.source, 0


def _place_fields(container: nodes.Element, block: list[nodes.Node]) -> None:
    """The facts' field names: the page (the nearest ancestor with a source), line 0."""
    if not container.source:
        return
    for node in block:
        for name in node.findall(nodes.field_name):
            if name.source is None:
                name.source, name.line = container.source, 0


class NodeDefinition(SphinxDirective):
    """``.. node:def:: Name`` with ``:uid:`` and ``:type:``; the body is ordinary reST."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[OptionSpec] = {
        "uid": directives.unchanged,
        "type": directives.unchanged,
        "no-index": directives.flag,
        "no-contents-entry": directives.flag,
        "no-facts": directives.flag,
        "overrides": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        name = self._name(self.arguments[0].strip())
        # interned: the environment then pickles each uid once, however many pages refer to it
        uid = sys.intern((self.options.get("uid") or "").strip())
        location = self.get_location()
        source, line = self.get_source_info()
        valid_uid = is_valid_uid(uid)
        if not uid:
            warn("uid", f"node:def {name!r} has no :uid: option", location)
        elif not valid_uid:
            warn("uid", f"node:def {name!r}: {uid!r} is not a valid uid (use dotted identifiers "
                        "such as Generic.Trait.Energy)", location)
        binding = binding_for(self.config)
        rule = binding.lookup(uid) if valid_uid else None
        types = self._types(name, uid, rule, location)
        type_names = self._type_names(uid, types, location)
        heading = render_title(self.config.rpg_heading_format, name=name, types=types, uid=uid,
                               type_names=type_names) if types else name

        anchor = sys.intern(make_id(self.env, self.state.document, "", uid) if valid_uid else
                            make_id(self.env, self.state.document, "node", name))
        # MyST's mock state has no ``parent``: there a node:def always sits in a section's body
        try:
            parent = self.state.parent
        except Exception:  # myst_parser.mocking.MockingError (not an AttributeError)
            parent = None
        in_section = parent is None or isinstance(parent, (nodes.section, nodes.document))
        alias = nodes.make_id(uid) if valid_uid else ""
        if alias in (anchor, "") or alias in self.state.document.ids:
            alias = ""
        if "no-contents-entry" in self.options or not in_section:
            container: nodes.Element = nodes.container(classes=["rpg-node"])
            title_node: nodes.Element = node_heading(heading, heading, ids=[anchor, *filter(None, [alias])])
        else:
            container = nodes.section(ids=[anchor, *filter(None, [alias])], classes=["rpg-node"])
            title_node = nodes.title(heading, heading)
        container["classes"] += [f"rpg-type-{code}" for code in types]
        container["rpg_uid"] = uid
        container["rpg_anchor"] = anchor  # found again if an only/ifconfig block excludes it
        self.set_source_info(container)
        _place_heading(container, title_node)
        container += title_node
        self.state.document.note_explicit_target(container if isinstance(container, nodes.section) else title_node)

        result: list[nodes.Node] = [container]
        index: addnodes.index | None = None
        text = body_text(self.content)
        digest = body_digest(text)
        # kept so that a later release can say what changed in words; a huge body is left out
        text = text if len(text) <= MAX_BODY_TEXT else ""
        overrides = ""
        if "overrides" in self.options and valid_uid:
            book = (self.options["overrides"] or "").strip() or self.config.rpg_supplement_of
            core = core_item(self.env, book, uid, location)
            if core is not None:
                overrides = book
                container += provenance(self.config.project, core[1], core[0])
        if valid_uid and types and "no-index" not in self.options:
            mark = change_mark(self.env, uid, lambda: current_entry(
                name, types, [type_names[code] for code in types], self.env.docname, digest, rule, text), location)
            if mark is not None:
                container += mark
            # one general-index entry per node; the node-types index groups nodes by type
            # a *main* entry: the definition itself (bold in the general index, and search ranks the
            # node above pages and API objects that merely mention the name)
            index = addnodes.index(entries=[("single", heading, anchor, "main", None)])
            result.insert(0, index)
        if rule is not None:
            for name_of_file in self._source_files(rule, binding.registry_of(uid)):
                self._note_dependency(name_of_file)  # the rule's module and its registry's (type labels)
            if self.config.rpg_render_facts and "no-facts" not in self.options:
                registry = binding.registry_of(uid)
                try:  # a broken rule costs its facts, not the build; one bounded call for both answers
                    block, users = call_engine(lambda: (
                        facts_block(rule, connection_fields(rule, registry, self.env.docname),
                                    engine_paths=not is_player(self.config), registry=registry,
                                    docname=self.env.docname),
                        [registry[user].source_file for user in registry_dependencies(registry).used_by(uid)]
                        if registry else []))
                    _place_fields(container, block)
                    container += block
                except EngineFailure as failure:
                    warn("facts", f"node {uid!r}: the facts of its rule object cannot be computed: {failure}",
                         location)
                    users = []
                for path in users:  # "Used by" follows the formulas of other modules
                    if path is not None:
                        self._note_dependency(path)
        nested_parse_with_titles(self.state, self.content, container, self.content_offset)
        if index is not None:
            domain = node_domain(self.env)
            summary = rule.summary if rule else ""
            lead_key, mentions = _note_lead(domain, container, summary)
            names = tuple(type_names[c] for c in types)
            domain.note_node(NodeRecord(uid, name, types, _SHARED_NAMES.setdefault(names, names),
                                        self.env.docname, anchor, line or self.lineno, summary,
                                        rule is not None, alias, digest, overrides, lead_key,
                                        self._included_from(source), mentions))
            domain.note_text(digest, text)
        return result

    def _name(self, text: str) -> str:
        """A node's name is one line (it reaches objects.inv and the search index): say so, then fold it."""
        folded = one_line(" ".join(text.split()))
        if folded != text:
            warn("name", f"node:def {folded!r}: a node name is one line of text without control "
                         "characters; it is shown folded", self.get_location())
        return folded

    def _note_dependency(self, path: str | os.PathLike[str]) -> None:
        """Once per page and file: a page of many nodes bound to one registry names its module once."""
        noted = self.env.temp_data.get("rpg_noted_dependencies")
        if not isinstance(noted, set):
            noted = self.env.temp_data["rpg_noted_dependencies"] = set()
        key = os.fspath(path)
        if key not in noted:
            noted.add(key)
            self.env.note_dependency(key)

    def _source_files(self, rule: Node, registry: Registry | None) -> set[str]:
        """The files of the rule's module and of its registry's.  rules.nodes' own ``source_file`` reads
        the module alone, and a page's nodes mostly share one: for such an object it is asked once per
        page and module (a path made and printed per node cost as much as the node's facts)."""
        memo = self.env.temp_data.get("rpg_source_files")
        if not isinstance(memo, dict):
            memo = self.env.temp_data["rpg_source_files"] = {}
        found: set[str] = set()
        for owner, base in ((rule, Node), (registry, Registry)):
            if owner is None:
                continue
            key = (base.__name__, owner.module) if type(owner).source_file is base.source_file else None
            path = memo.get(key) if key is not None else None
            if path is None:
                file = owner.source_file
                path = str(file) if file is not None else ""
                if key is not None:
                    memo[key] = path
            if path:
                found.add(path)
        return found

    def _own_source(self) -> str:
        """The page's own file as docutils names it, worked out once per page."""
        own = self.env.temp_data.get("rpg_own_source")
        if not isinstance(own, str):
            own = self.env.temp_data["rpg_own_source"] = str(self.env.doc2path(self.env.docname))
        return own

    def _included_from(self, source: str | None) -> str:
        """The file (relative to the source directory) when it is not the page's own: an include."""
        if not source or source == self._own_source():
            return ""  # the page's own file: the usual case, without touching the file system
        try:
            path = Path(source).resolve()
            if path == Path(self.env.doc2path(self.env.docname)).resolve():
                return ""
            return Path(os.path.relpath(path, Path(self.env.srcdir).resolve())).as_posix()
        except (OSError, ValueError):
            return ""

    def _types(self, name: str, uid: str, rule: Node | None, location: object) -> tuple[str, ...]:
        declared: tuple[str, ...] = ()
        if self.options.get("type", "").strip():
            try:
                declared = parse_types(self.options["type"])
            except InvalidTypeError as error:
                warn("type", f"node:def {name!r}: {error}", location)
        if rule is None:
            if not declared and not self.options.get("type", "").strip():
                warn("type", f"node:def {name!r} has no :type: and no rule object supplies one", location)
            return declared
        if declared and set(declared) != set(rule.types):
            warn("type_mismatch", f"node:def {name!r} declares type {format_types(declared)!r} but "
                                  f"its rule object {uid!r} has {format_types(rule.types)!r}; "
                                  "the rule object's type is used", location)
        return rule.types

    def _type_names(self, uid: str, types: tuple[str, ...], location: object) -> dict[str, str]:
        binding = binding_for(self.config)
        registry = binding.registry_of(uid)
        if registry is None:  # labels from every registry: the page shows whichever the build finds
            for path in binding.source_files():
                self._note_dependency(path)
        known = dict(binding.node_types(registry)) if registry else binding.type_names(self.config.rpg_node_types)
        names: dict[str, str] = {}
        for code in types:
            if code not in known:
                from sphinx_rpg.spelling import did_you_mean

                warn("type", f"node {uid!r}: unknown type code {code!r}{did_you_mean(code, known)} (known: "
                             f"{', '.join(sorted(known))}); add it to rpg_node_types", location)
            names[code] = known.get(code, code)
        return names


#: One tuple of type names for all the nodes of those types: a book's thousands of records then hold a
#: handful of tuples, and the environment pickles each once (10,000 tuples were 0.7 MB of a book's).
_SHARED_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _note_lead(domain: NodeDomain, container: nodes.Element, summary: str) -> tuple[str, tuple[str, ...]]:
    """Note the node's first paragraph (formatted) and first sentence with the domain's texts, which
    go beside the doctrees (``texts``), under a digest of them; that key (the record's ``lead_key``)
    and the nodes they mention (its ``mentions``)."""
    runs = first_paragraph_runs(container)
    sentence = first_sentence(container)
    shown = shown_sentence(sentence, summary)
    mentions = tuple(dict.fromkeys([*(text for tag, text in runs or () if tag == "ref"), *dotted_words(shown)]))
    if runs is None and not sentence:
        return "", mentions
    kept = compact_json([compact_json(runs) if runs is not None else "", sentence])
    key = "p" + hashlib.blake2b(kept.encode("utf-8"), digest_size=8).hexdigest()
    domain.note_text(key, kept)
    return key, mentions
