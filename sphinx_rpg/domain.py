"""The ``node`` domain: where every node definition and reference of the book is recorded.

The environment keeps only plain tuples (never docutils nodes), so pickling stays cheap.  Every uid
maps to the place that defines it first, and a uid defined more than once also to its other places:
duplicates are reported once per build, in the main process, naming both places; that is
deterministic whatever order parallel readers finish in, and an incremental build that removes one of
two definitions heals without stale state.  A uid holds no list of its own places (a book has one
per node): each would be one more object the garbage collector walks in every full collection.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from docutils import nodes
from docutils.nodes import Element
from docutils.utils import get_source_line
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util.logging import get_node_location
from sphinx.util.nodes import make_refnode
from sphinx.util.typing import RoleFunction

from sphinx_rpg.config import render_title
from sphinx_rpg.editions import is_player
from sphinx_rpg.filters import FilterError, Predicate, parse_filter
from sphinx_rpg.index_entries import index_content
from sphinx_rpg.lines import LocatedRole
from sphinx_rpg.player_index import designer_text
from sphinx_rpg.spelling import did_you_mean
from sphinx_rpg.warnings import warn

DATA_VERSION = 14
#: Walks of the references ``look_up_referrers`` makes in a build before it makes the whole map.
_REFERRER_WALKS = 8


#: How a resolved link to a node shows it: its index is the kind ``NodeDomain.note_link`` counts.
#: ``:node:ref:`` links with the node's title or another text, the same without the link (``!``), and
#: links by any other role (``:any:``, MyST), whose markup is not ours.
LINK_KINDS = ("titled link", "link", "title", "text", "other")
OTHER_LINK = LINK_KINDS.index("other")


def ref_classes(record: NodeRecord) -> list[str]:
    """The classes a node's link text gets besides the role's own.

    ``no-search``: a page's search entry does not hold the titles of the nodes it links (the node's
    own page and entry do), so renaming a node changes nothing in the entries of the pages linking it.
    """
    return list(_type_classes(record.types))


@lru_cache(maxsize=256)
def _type_classes(types: tuple[str, ...]) -> tuple[str, ...]:
    """``ref_classes`` once per type list: a book links 50,000 times to nodes of a few type lists."""
    return ("rpg-node-ref", *(f"rpg-type-{code}" for code in types), "no-search")


def _places(definitions: dict[str, NodeRecord], duplicates: dict[str, list[NodeRecord]], uid: str) -> list[NodeRecord]:
    """Every definition of ``uid`` in a domain's data (this process's or a parallel reader's), the winner first."""
    winner = definitions.get(uid)
    return [] if winner is None else [winner, *duplicates.get(uid, ())]


class NodeRecord(NamedTuple):
    """One ``node:def`` as the environment remembers it."""

    uid: str
    name: str
    types: tuple[str, ...]
    type_names: tuple[str, ...]
    docname: str
    anchor: str
    lineno: int
    summary: str
    bound: bool
    #: A second id on the node's section: lowercase, for search and inventories (see ``search_anchor``).
    alias: str = ""
    #: A short hash of the definition's own text (its body as written), to tell releases apart.
    digest: str = ""
    #: The core book (intersphinx name) whose node of the same uid this definition replaces, if any.
    overrides: str = ""
    #: Where the node's first paragraph, formatted for its preview (``inline.first_paragraph_runs``,
    #: as JSON), and the first sentence of its own prose (previews and search) are kept: a key of the texts
    #: file beside the doctrees (``texts.lead_of``), like the body as written, which a later release's
    #: change marks quote (by ``digest``); "" when the node has no prose.  Kept in each record, they
    #: were the largest part of the environment (2.8 MB of a 10,000-node book's).
    lead_key: str = ""
    #: The included file (relative to the source directory) that holds the definition; "" for the page.
    source: str = ""
    #: The uids the first paragraph links and the dotted names of the first sentence (or of the
    #: summary shown instead): the preview shows the titles of those nodes, the search line their names.
    mentions: tuple[str, ...] = ()

    @property
    def search_anchor(self) -> str:
        """The anchor published to objects.inv and the search index.

        Sphinx's search stores an anchor equal to the object's name as "same as the name" and later
        rebuilds it from the *display* name ("Energy (E,R)"), which breaks the link; the lowercase
        alias never equals the uid, so it is stored and followed as it is.
        """
        return self.alias or self.anchor

    @property
    def namespace(self) -> str:
        return self.uid.rpartition(".")[0]

    def place(self) -> tuple[str, int]:
        return (self.docname, self.lineno)

    def location(self, env: BuildEnvironment) -> tuple[str, int] | str:
        """Where a warning about the node points: the included file and its line when it came from one."""
        if self.source:
            return f"{Path(env.srcdir) / self.source}:{self.lineno}"
        return self.place()

    def shown(self) -> NodeRecord:
        """What other pages can show of this node: all but its line, the hash of its text, its first
        paragraph and sentence.

        Inserting text above a definition moves it down its page, and editing its body changes only
        its own page: neither may count as a change of the node for other pages (see
        ``changed_since_last_build``; changelog pages follow the text too, ``changes_docs``).
        """
        return self._replace(lineno=0, digest="", lead_key="", source="", mentions=())

    def fields(self) -> dict[str, object]:
        """The record as the listing filter language sees it (``sphinx_rpg.filters``)."""
        return {"uid": self.uid, "name": self.name, "type": self.types, "type_name": self.type_names,
                "namespace": self.namespace, "docname": self.docname, "summary": self.summary,
                "bound": "yes" if self.bound else "no"}


@lru_cache(maxsize=1024)
def _compiled_filter(text: str) -> Predicate:
    return parse_filter(text)


def _sort_key(record: NodeRecord) -> tuple[str, bool, str, int]:
    """The page's own definitions first, then those of included files (lines of two files don't compare)."""
    return (record.docname, bool(record.source), record.source, record.lineno)


class NodeRefRole(LocatedRole, XRefRole):
    """``:node:ref:`uid```, ``:node:ref:`text <uid>```; ``!uid`` renders the title without a link."""

    def __init__(self) -> None:
        super().__init__(warn_dangling=True, innernodeclass=nodes.inline)

    def process_link(self, env: BuildEnvironment, refnode: Element, has_explicit_title: bool,
                     title: str, target: str) -> tuple[str, str]:
        target = sys.intern(target.strip())  # pickled once however many pages refer to it
        node_domain(env).note_reference(env.docname, target)
        return title, target

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        if not self.disabled:
            return super().run()
        # keep the lookup (so the title renders and a dangling uid still warns), drop only the link
        self.disabled = False
        self.target = self.target[1:] if self.target.startswith("!") else self.target
        self.title = self.title[1:] if self.title.startswith("!") else self.title
        result, messages = super().run()
        for node in result:
            if isinstance(node, pending_xref):
                node["rpg_no_link"] = True
        return result, messages


class _NodeIndex(Index):
    """Shared shape of the two node indices: entries grouped by a key of the record."""

    def group_of(self, record: NodeRecord) -> Iterable[str]:
        raise NotImplementedError

    @staticmethod
    def _order(entry: IndexEntry) -> tuple[str, str]:
        """Where an entry stands in its group: by name, regardless of case, then by uid."""
        return entry.name.lower(), entry.extra

    @staticmethod
    def _entry(domain: NodeDomain, record: NodeRecord) -> IndexEntry:
        return IndexEntry(domain.display_title(record), 0, record.docname, record.anchor, record.uid, "",
                          ", ".join(record.type_names))

    @staticmethod
    def _entries(domain: NodeDomain) -> list[tuple[NodeRecord, IndexEntry]]:
        """One entry per node, shared by both indices (built once per build)."""
        return [(record, _NodeIndex._entry(domain, record)) for record in domain.records()]

    def generate(self, docnames: Iterable[str] | None = None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        domain = node_domain(self.domain.env)
        if docnames is None:  # the whole index: last build's when no node changed (``index_entries``)
            return index_content(domain.env, self.name, domain.nodes_unchanged, lambda: self._content(None),
                                 lambda previous: self._updated(domain, previous)), False
        return self._content(docnames), False

    def _updated(self, domain: NodeDomain, previous: list[tuple[str, list[IndexEntry]]]
                 ) -> list[tuple[str, list[IndexEntry]]] | None:
        """Last build's entries with those of the nodes this build cleared or added made again: every
        other node's record is as it was (a build that changes one removes the kept entries)."""
        touched = domain.touched_uids()
        if touched is None:
            return None
        groups: dict[str, list[IndexEntry]] = {}
        for group, entries in previous:
            left = [entry for entry in entries if entry.extra not in touched]
            if left:
                groups[group] = left
        grown: set[str] = set()
        for uid in touched:
            record = domain.record(uid)
            if record is not None:
                entry = self._entry(domain, record)
                for group in self.group_of(record):
                    groups.setdefault(group, []).append(entry)
                    grown.add(group)
        for group in grown:  # the others are in order already
            groups[group].sort(key=self._order)
        return sorted(groups.items())

    def _content(self, docnames: Iterable[str] | None) -> list[tuple[str, list[IndexEntry]]]:
        domain = node_domain(self.domain.env)
        wanted = set(docnames) if docnames is not None else None
        groups: dict[str, list[IndexEntry]] = {}
        for record, entry in domain.memo("index entries", lambda: self._entries(domain)):
            if wanted is not None and record.docname not in wanted:
                continue
            for group in self.group_of(record):
                groups.setdefault(group, []).append(entry)
        return [(key, sorted(entries, key=self._order))
                for key, entries in sorted(groups.items())]


class NodeTypeIndex(_NodeIndex):
    name = "types"
    localname = "Nodes by type"
    shortname = "by type"

    def group_of(self, record: NodeRecord) -> Iterable[str]:
        return record.type_names


class NodeNamespaceIndex(_NodeIndex):
    name = "namespaces"
    localname = "Nodes by namespace"
    shortname = "by namespace"

    def group_of(self, record: NodeRecord) -> Iterable[str]:
        return [record.namespace or "(top level)"]


class NodeDomain(Domain):
    """Game objects: ``node:def`` declares one, ``node:ref`` links to it."""

    name = "node"
    label = "Rulebook"
    object_types: ClassVar[dict[str, ObjType]] = {"node": ObjType("node", "ref")}
    roles: ClassVar[dict[str, RoleFunction | XRefRole]] = {"ref": NodeRefRole()}
    indices: ClassVar[list[type[Index]]] = [NodeTypeIndex, NodeNamespaceIndex]
    initial_data: ClassVar[dict[str, Any]] = {
        "version": DATA_VERSION,
        "definitions": {},  # uid -> NodeRecord: the winning place (the first by _sort_key)
        "duplicates": {},  # uid -> list[NodeRecord]: its other places, for a uid defined more than once
        "docs": {},  # docname -> uids defined there (clear_doc and merges touch only that page's)
        "references": {},  # docname -> uids, sorted tuple (a set while read) (pages to rewrite when a target changes)
        "listings": {},  # docname -> the filter text of each listing on that page
        "sheets": {},  # docname -> each node:sheet's (caption, data as JSON text), for nodes.json
        "changelogs": set(),  # docnames with a node:changes page (rewritten when any node's text changes)
        "backlink_titles": {},  # docname -> title, of each page that refers to a node, as of the last build
        "conditional": {},  # docname -> {"only", "ifconfig"}: blocks around node:defs (see tracking)
        "external": {},  # uid -> intersphinx entry as of the last build (pages linking it follow it)
        "texts": {},  # digest -> body as written, of the definitions read in this build (see ``texts``)
        "texts_stamp": None,  # (stamp, size, mtime) of the texts file when it holds every body (see ``texts``)
    }
    data_version = DATA_VERSION
    #: Derived from ``definitions`` and dropped whenever they change (per process, never pickled):
    #: the sorted winning records, display titles, and whatever ``memo`` is asked to keep (listings).
    _sorted_records: list[NodeRecord] | None = None
    _titles: dict[NodeRecord, str] | None = None
    _memo: dict[Any, Any] | None = None
    _referrers: dict[str, tuple[str, ...]] | None = None
    #: The referrers of the uids asked for before the whole map was made (``look_up_referrers``),
    #: and how many walks of the references found them.
    _referrers_of: dict[str, tuple[str, ...]] | None = None
    _referrer_walks = 0
    #: uid -> its winning record before this build first touched its definitions (None: it had none),
    #: for every uid whose definitions this build cleared or added: what ``changed_since_last_build``
    #: compares, instead of a copy of every record kept in the environment.
    _before: dict[str, NodeRecord | None] | None = None
    #: The uids ``_before`` held, once ``changed_since_last_build`` has compared them.
    _touched: set[str] | None = None
    #: Every uid ``changed_since_last_build`` compared in this build (``_touched`` is consumed by the
    #: backlinks): the node index entries made again (``_NodeIndex._updated``).
    _compared: set[str] | None = None
    #: docname -> the uids it referred to before this build cleared it (for its backlinks' changes).
    _cleared: dict[str, set[str]] | None = None
    #: True once ``pages_to_rewrite`` found that no node changed in this build but for its line.
    nodes_unchanged = False
    #: True once ``changed_since_last_build`` found every record as it was, its line included.
    records_identical = False
    #: The environment's ``records_stamp`` before this build read any page: it changes with every build
    #: that clears or adds a definition, so what a builder kept per uid (``catalogue``) is reused only
    #: when that builder was the last to see the records (another builder may have read pages since).
    stamp_before: str | None = None
    #: The page whose links are being resolved, and its file (``note_link``).
    _page_file: tuple[str, str] = ("", "")
    #: docname -> uid -> how many links of each kind (``LINK_KINDS``) this build resolved there.
    _links: dict[str, dict[str, list[int]]] | None = None
    #: docname -> uid -> where each of those links is (``Places``), for the warning a link gives
    #: once its node is gone (``relink`` patches such a page instead of writing it again).
    _link_places: dict[str, dict[str, Places]] | None = None

    def _touch(self, uid: str) -> None:
        if self._before is None:
            self._before = {}
        if uid not in self._before:
            self._before[uid] = self.record(uid)

    def _definitions_changed(self) -> None:
        self._sorted_records = self._memo = None
        self._referrers = self._referrers_of = None

    # -- recording --------------------------------------------------------------------------------
    @property
    def definitions(self) -> dict[str, NodeRecord]:
        """uid -> its winning record."""
        definitions: dict[str, NodeRecord] = self.data.setdefault("definitions", {})
        return definitions

    @property
    def _duplicates(self) -> dict[str, list[NodeRecord]]:
        duplicates: dict[str, list[NodeRecord]] = self.data.setdefault("duplicates", {})
        return duplicates

    def places(self, uid: str) -> list[NodeRecord]:
        """Every definition of ``uid``, the winner first (by ``_sort_key``)."""
        return _places(self.definitions, self._duplicates, uid)

    def _set_places(self, uid: str, places: list[NodeRecord]) -> None:
        """Record ``places`` (sorted) as every definition of ``uid``; none forgets the uid."""
        if not places:
            self.definitions.pop(uid, None)
            self._duplicates.pop(uid, None)
            return
        self.definitions[uid] = places[0]
        if len(places) > 1:
            self._duplicates[uid] = places[1:]
        else:
            self._duplicates.pop(uid, None)

    @property
    def _uids_by_doc(self) -> dict[str, list[str]]:
        # always there: an environment pickled before this index has an older DATA_VERSION, and Sphinx
        # reads such an environment afresh
        by_doc: dict[str, list[str]] = self.data["docs"]
        return by_doc

    def note_node(self, record: NodeRecord) -> None:
        self._touch(record.uid)
        places = self.places(record.uid)
        places.append(record)
        places.sort(key=_sort_key)
        self._set_places(record.uid, places)
        self._uids_by_doc.setdefault(record.docname, []).append(record.uid)
        self._definitions_changed()

    def note_reference(self, docname: str, uid: str) -> None:
        references = self.data.setdefault("references", {})
        found = references.get(docname)
        if not isinstance(found, set):  # a page read again: its references grow as a set until settled
            found = references[docname] = set(found or ())
        found.add(uid)
        self._referrers = self._referrers_of = None

    def settle_references(self) -> None:
        """Each page's references as a sorted tuple once the pages are read: a set of 100 uids takes
        about five times the memory of a tuple (4.7 MB against under 1 MB for 50,000 references), and
        the tuples are not walked by the collector; the environment is loaded with every build."""
        references = self.data.setdefault("references", {})
        for docname, targets in references.items():
            if isinstance(targets, set):
                references[docname] = tuple(sorted(targets))

    def note_text(self, digest: str, text: str) -> None:
        """A definition's body as written, by its digest, until ``take_texts`` (this build's only)."""
        self.data.setdefault("texts", {})[digest] = text

    def take_texts(self) -> dict[str, str]:
        """The bodies noted since the last call, which are then dropped from the environment."""
        texts: dict[str, str] = self.data.get("texts") or {}
        self.data["texts"] = {}
        return texts

    def note_conditional(self, docname: str, kind: str) -> None:
        self.data.setdefault("conditional", {}).setdefault(docname, set()).add(kind)

    def forget(self, docname: str, anchor: str) -> None:
        """Drop one definition of ``docname`` (one an ``only``/``ifconfig`` block excludes)."""
        for uid in dict.fromkeys(self._uids_by_doc.get(docname, ())):
            places = self.places(uid)
            remaining = [p for p in places if not (p.docname == docname and p.anchor == anchor)]
            if len(remaining) == len(places):
                continue
            self._touch(uid)
            self._set_places(uid, remaining)
            self._uids_by_doc[docname] = [u for u in self._uids_by_doc[docname] if u != uid or
                                          any(p.docname == docname for p in remaining)]
            self._definitions_changed()

    def note_changelog(self, docname: str) -> None:
        self.data.setdefault("changelogs", set()).add(docname)

    def changelog_docs(self) -> set[str]:
        return set(self.data.setdefault("changelogs", set()))

    def note_listing(self, docname: str, filter_text: str) -> None:
        self.data.setdefault("listings", {}).setdefault(docname, []).append(filter_text)

    def note_sheet(self, docname: str, caption: str, data: str) -> None:
        self.data.setdefault("sheets", {}).setdefault(docname, []).append((caption, data))

    def sheets(self) -> list[tuple[str, str, str]]:
        """(docname, caption, data) of every node:sheet, by page."""
        by_doc: dict[str, list[tuple[str, str]]] = self.data.setdefault("sheets", {})
        return [(docname, caption, data) for docname in sorted(by_doc) for caption, data in by_doc[docname]]

    def clear_doc(self, docname: str) -> None:
        self._definitions_changed()
        for uid in dict.fromkeys(self._uids_by_doc.pop(docname, ())):
            if uid not in self.definitions:
                continue
            self._touch(uid)
            self._set_places(uid, [p for p in self.places(uid) if p.docname != docname])
        referred = self.data.setdefault("references", {}).pop(docname, None)
        if self._cleared is None:
            self._cleared = {}
        self._cleared.setdefault(docname, set(referred or ()))
        self.data.setdefault("listings", {}).pop(docname, None)
        self.data.setdefault("conditional", {}).pop(docname, None)
        self.data.setdefault("sheets", {}).pop(docname, None)
        self.data.setdefault("changelogs", set()).discard(docname)

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        # O(the chunk's pages): a worker's data also holds everything it inherited from the main process
        definitions, docs = otherdata.get("definitions", {}), otherdata.get("docs", {})
        duplicates = otherdata.get("duplicates", {})
        references, listings = otherdata.get("references", {}), otherdata.get("listings", {})
        # the bodies a reader noted (it inherited none: the main process hands them over at each env-updated)
        self.data.setdefault("texts", {}).update(otherdata.get("texts", {}))
        for docname in dict.fromkeys(docnames):
            for uid in dict.fromkeys(docs.get(docname, ())):
                for record in _places(definitions, duplicates, uid):
                    if record.docname == docname:
                        self.note_node(record)
            if docname in references:
                mine = self.data.setdefault("references", {})
                mine[docname] = {*mine.get(docname, ()), *references[docname]}
                self._referrers = self._referrers_of = None
            if docname in listings:
                self.data.setdefault("listings", {})[docname] = list(listings[docname])
            if docname in otherdata.get("sheets", {}):
                self.data.setdefault("sheets", {})[docname] = list(otherdata["sheets"][docname])
            if docname in otherdata.get("changelogs", ()):
                self.data.setdefault("changelogs", set()).add(docname)
            if docname in otherdata.get("conditional", {}):
                self.data.setdefault("conditional", {})[docname] = set(otherdata["conditional"][docname])

    # -- lookup -----------------------------------------------------------------------------------
    def record(self, uid: str) -> NodeRecord | None:
        """The definition that wins: the first by (docname, line), the same in serial and parallel."""
        return self.definitions.get(uid)

    def records(self) -> Iterator[NodeRecord]:
        """The winning record of every uid, by uid; sorted once until the definitions change.

        Sorted by key, not as (uid, record) pairs: 10,000 pairs alive while they sort outlived the
        collector's young generations and counted towards its next full collection."""
        if self._sorted_records is None:
            definitions = self.definitions
            self._sorted_records = [definitions[uid] for uid in sorted(definitions)]
        return iter(self._sorted_records)

    def records_on(self, docname: str) -> list[NodeRecord]:
        """The winning records defined on ``docname``: per page, without a walk of every record."""
        found = []
        for uid in dict.fromkeys(self._uids_by_doc.get(docname, ())):
            record = self.record(uid)
            if record is not None and record.docname == docname:
                found.append(record)
        return found

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """A value derived from the records, computed once until the definitions change."""
        if self._memo is None:
            self._memo = {}
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def near_uid(self, target: str) -> str:
        """The "did you mean" hint for a uid no node has, worked out once per uid and build: the nearest
        uid of its own namespace, else of the whole book.

        A deleted or renamed node leaves a dangling reference on every page that linked it; each one
        warns, and comparing the uid with every uid of a big book took 50 ms at 10,000 nodes (its
        namespace's: a twentieth of that in the benchmark's book).
        """
        def nearest() -> str:
            namespace = target.rpartition(".")[0]
            siblings = [record.uid for record in self.records() if record.uid.rpartition(".")[0] == namespace]
            return ((did_you_mean(target, siblings) if namespace and siblings else "")
                    or did_you_mean(target, (record.uid for record in self.records())))

        hint: str = self.memo(("near uid", target), nearest)
        return hint

    def duplicates(self) -> Iterator[tuple[NodeRecord, NodeRecord]]:
        """(winner, duplicate) pairs, in a stable order."""
        for uid in sorted(self._duplicates):
            first, *others = self.places(uid)
            for other in others:
                yield first, other

    def display_title(self, record: NodeRecord) -> str:
        if self._titles is None:
            self._titles = {}
        title = self._titles.get(record)
        if title is None:
            title = self._titles[record] = render_title(
                self.env.config.rpg_ref_format, name=record.name, types=record.types, uid=record.uid,
                type_names=dict(zip(record.types, record.type_names)))
        return title

    def listing_docs(self) -> set[str]:
        return set(self.data.setdefault("listings", {}))

    def listing_docs_showing(self, records: Iterable[NodeRecord]) -> set[str]:
        """Pages with a listing whose filter matches one of ``records`` (before or after a change)."""
        fields = [record.fields() for record in records]
        docs = set()
        for docname, filters in self.data.setdefault("listings", {}).items():
            for text in filters:
                try:
                    predicate = _compiled_filter(text)
                except FilterError:
                    docs.add(docname)  # the page warned already; rewriting it costs one page
                    break
                if any(predicate(values) for values in fields):
                    docs.add(docname)
                    break
        return docs

    def changed_since_last_build(self) -> dict[str, tuple[NodeRecord | None, NodeRecord | None]]:
        """uid -> (before, after), both at line 0, for each node added, removed or changed, its line aside.

        Only the uids whose definitions this build cleared or added can have changed (an unread page
        keeps its records), so only they are compared; the next build starts from none.  A record that
        only moved to another line of its page is unchanged; ``NodeRecord.shown`` tells which changes
        other pages can see.
        """
        touched, self._before = self._before or {}, None
        self._touched = set(touched)
        self._compared = (self._compared or set()) | self._touched
        self.stamp_before = self.data.get("records_stamp")
        if touched:  # what a builder kept of the records is now older than the environment's
            self.data["records_stamp"] = os.urandom(8).hex()
        changed: dict[str, tuple[NodeRecord | None, NodeRecord | None]] = {}
        self.records_identical = True
        for uid, before in touched.items():
            after = self.record(uid)
            if after != before:
                self.records_identical = False
            pair = (before and before._replace(lineno=0), after and after._replace(lineno=0))
            if pair[0] != pair[1]:
                changed[uid] = pair
        return changed

    def touched_uids(self) -> set[str] | None:
        """The uids whose definitions this build cleared or added, once compared (None before)."""
        return self._compared

    def external_changes(self) -> set[str]:
        """uids whose intersphinx entry changed since the last build; remembers the current entries."""
        external, known = external_nodes(self.env), self.data.get("external", {})
        self.data["external"] = external
        return {uid for uid in external.keys() | known.keys() if external.get(uid) != known.get(uid)}

    def referrers(self, uid: str) -> tuple[str, ...]:
        """The pages whose ``:node:ref:`` points at ``uid``, sorted (its "Referenced by" backlinks):
        looked up with its batch (``look_up_referrers``), else from the map of every node's.

        Kept as tuples of strings, which the garbage collector stops tracking, not as lists it walks
        in every full collection for the rest of the build (one per node).  They are grown as tuples
        too: a list per node, alive while the map is made, outlived the collector's young generations
        and counted towards its next full collection (half a second at 10,000 nodes)."""
        if self._referrers is None and self._referrers_of is not None and uid in self._referrers_of:
            return self._referrers_of[uid]
        return self._every_referrer().get(uid, ())

    def look_up_referrers(self, uids: Iterable[str]) -> None:
        """Find the referrers of ``uids`` in one walk of the references, for ``referrers`` to give: a
        rebuild asks about the nodes of a few pages, and the map of every node's cost 25 ms of it at
        10,000 nodes, against 2.5 ms for a walk.  After ``_REFERRER_WALKS`` walks in a build (a fresh
        one asks about every node) the whole map is made instead."""
        if self._referrers is not None:
            return
        if self._referrers_of is None:  # none asked since the references last changed
            self._referrers_of, self._referrer_walks = {}, 0
        known = self._referrers_of
        wanted = {uid for uid in uids if uid not in known}
        if not wanted:
            return
        if self._referrer_walks >= _REFERRER_WALKS:
            self._every_referrer()
            return
        self._referrer_walks += 1
        known.update(dict.fromkeys(wanted, ()))
        known.update(self._walk_referrers(wanted))

    def _every_referrer(self) -> dict[str, tuple[str, ...]]:
        if self._referrers is None:
            self._referrers, self._referrers_of = self._walk_referrers(None), None
        return self._referrers

    def _walk_referrers(self, wanted: set[str] | None) -> dict[str, tuple[str, ...]]:
        """uid -> the pages referring to it, in one walk of the references: of the ``wanted`` uids,
        or of every uid (None)."""
        inverse: dict[str, tuple[str, ...]] = {}
        for doc, targets in sorted(self.data.setdefault("references", {}).items()):
            if self.backlinked(doc):
                for target in targets if wanted is None else wanted.intersection(targets):
                    inverse[target] = (*inverse.get(target, ()), doc)
        return inverse

    def backlinked(self, docname: str) -> bool:
        """Whether ``docname`` is named in "Referenced by" lines: every referring page is, except, in the
        player edition, a page written for designers (:confval:`rpg_designer_text`, the extension's
        manual): a player looking a rule up has no use for the markup pages that show it as an example.
        Its links still follow the node (it stays in ``references``)."""
        config = self.env.config
        return not (is_player(config) and designer_text(docname, config.rpg_designer_text))

    def backlinks_changed_since_last_build(self, title_of: Callable[[str], str]) -> set[str]:
        """Pages defining a node whose backlinks (referring pages or their titles) may have changed."""
        return set(self.backlink_changes(title_of))

    def backlink_changes(self, title_of: Callable[[str], str]) -> dict[str, dict[str, list[str] | None]]:
        """docname -> uid -> the pages that referred to the node as of the last build, for each node of
        the page whose "Referenced by" line may have changed; None where that line cannot be told from
        here (a page it named has a new title, or the node's definition changed hands).

        Only the pages this build cleared can have changed what they refer to or their title, so only
        the uids they referred to before or refer to now are looked at (all of them when the page's
        title changed), besides the uids whose definitions changed hands (``changed_since_last_build``,
        called first).  Remembers each referring page's title for the next build.
        """
        cleared, self._cleared = self._cleared or {}, None
        touched, self._touched = self._touched or set(), None
        candidates, unknown = set(touched), set(touched)
        references: dict[str, Collection[str]] = self.data.setdefault("references", {})
        titles: dict[str, str] = self.data.setdefault("backlink_titles", {})
        for doc, before in cleared.items():
            now = set(references.get(doc, ()))
            title = title_of(doc) if doc in references else None
            old_title = titles.get(doc)
            if title != old_title:
                candidates |= before | now
                if old_title is not None:
                    unknown |= before
                if title is None:
                    titles.pop(doc, None)
                else:
                    titles[doc] = title
            else:
                candidates |= before ^ now
        changes: dict[str, dict[str, list[str] | None]] = {}
        self.look_up_referrers(candidates - unknown)
        for uid in candidates:
            record = self.record(uid)
            if record is None:
                continue
            old = None if uid in unknown else sorted(
                {doc for doc in self.referrers(uid) if doc not in cleared}
                | {doc for doc, before in cleared.items() if uid in before and self.backlinked(doc)})
            changes.setdefault(record.docname, {})[uid] = old
        return changes

    def references_of(self, docname: str) -> set[str]:
        """The uids ``docname`` links (by every role ``tracking`` follows)."""
        return set(self.data.setdefault("references", {}).get(docname, ()))

    def docs_referring_to(self, uids: set[str]) -> set[str]:
        return {doc for doc, targets in self.data.setdefault("references", {}).items() if not uids.isdisjoint(targets)}

    # -- resolution -------------------------------------------------------------------------------
    def _reference(self, builder: Builder, fromdocname: str, record: NodeRecord, node: pending_xref,
                   contnode: Element) -> Element:
        title = self.display_title(record)
        explicit, no_link = bool(node.get("refexplicit")), bool(node.get("rpg_no_link"))
        classes = [*contnode.get("classes", ()), *_type_classes(record.types)]
        if explicit:
            contnode["classes"] = classes
        else:
            contnode = contnode.__class__(title, nodes.Text(title), classes=classes)
        own_role = node.get("refdomain") == "node" and node.get("reftype") == "ref"
        self.note_link(fromdocname, record.uid, 2 * no_link + explicit if own_role else OTHER_LINK, node)
        if no_link:
            return contnode
        return make_refnode(builder, fromdocname, record.docname, record.anchor, contnode, title)

    def note_link(self, fromdocname: str, uid: str, kind: int, node: Element | None = None) -> None:
        """Count a link this build resolved on ``fromdocname`` (``LINK_KINDS``; ``relink`` keeps the
        counts), and note where it is: its line, or "file:line" when it is not the page's own file."""
        if self._links is None:
            self._links = {}
            self._link_places = {}
        counts = self._links.setdefault(fromdocname, {}).setdefault(uid, [0] * len(LINK_KINDS))
        counts[kind] += 1
        assert self._link_places is not None
        place: int | str = ""
        if node is not None:
            source, line = get_source_line(node)
            if self._page_file[0] != fromdocname:  # a page's links are resolved one after another
                self._page_file = (fromdocname, str(self.env.doc2path(fromdocname)))
            place = line if line and source == self._page_file[1] else get_node_location(node) or ""
        self._link_places.setdefault(fromdocname, {}).setdefault(uid, []).append(place)

    def take_links(self, docname: str) -> tuple[dict[str, list[int]], dict[str, Places]]:
        """The links resolved on ``docname`` since the last call for it: uid -> count per kind, and
        uid -> where each is."""
        return (self._links or {}).pop(docname, {}), (self._link_places or {}).pop(docname, {})

    # Sphinx types these as returning a ``reference``; a ``!`` (no-link) ref resolves to its title alone.
    def resolve_xref(  # type: ignore[override]
            self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
            target: str, node: pending_xref, contnode: Element) -> Element | None:
        record = self.record(target)
        if record is None:
            # intersphinx may still resolve it; else warn_missing_reference warns and ``contnode`` is
            # shown: a dangling link's text (its uid) is no search term, like a link's (``ref_classes``)
            if "no-search" not in contnode["classes"]:
                contnode["classes"].append("no-search")
            return None
        return self._reference(builder, fromdocname, record, node, contnode)

    def resolve_any_xref(  # type: ignore[override]
            self, env: BuildEnvironment, fromdocname: str, builder: Builder,
            target: str, node: pending_xref, contnode: Element) -> list[tuple[str, Element]]:
        record = self.record(target)
        if record is None:
            return []
        return [("node:ref", self._reference(builder, fromdocname, record, node, contnode))]

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for record in self.records():
            # priority 0 ("important"): a search for a node's name shows the node before API objects
            yield record.uid, self.display_title(record), "node", record.docname, record.search_anchor, 0

    def get_full_qualified_name(self, node: Element) -> str | None:
        target = node.get("reftarget")
        return target if isinstance(target, str) else None


def warn_missing_node(app: Sphinx, domain: Domain | None, node: pending_xref) -> bool | None:
    """Report a dangling ``:node:ref:`` as ``node.ref``, always (not only in nitpicky mode)."""
    if domain is None or domain.name != "node":
        return None
    warn("ref", missing_node_message(domain, str(node["reftarget"])), location=node)
    return True


def missing_node_message(domain: Domain, target: str) -> str:
    """What a ``:node:ref:`` to a uid no page defines says (``relink`` says it too, for a page it patches)."""
    hint = domain.near_uid(target) if isinstance(domain, NodeDomain) else ""
    return f"node reference target not found: {target!r}{hint}"


def external_nodes(env: BuildEnvironment) -> dict[str, str]:
    """uid -> a description of the node as the intersphinx inventories publish it."""
    inventory = getattr(env, "intersphinx_inventory", None) or {}
    try:
        entries = inventory.get("node:node", {})
        return {str(uid): repr(item) for uid, item in entries.items()}
    except AttributeError:
        return {}


def node_domain(env: BuildEnvironment) -> NodeDomain:
    """The build's node domain, typed: Sphinx types ``get_domain`` for its own domains only."""
    domain = env.get_domain("node")
    if not isinstance(domain, NodeDomain):  # only if another extension registered a "node" domain
        raise TypeError(f"the 'node' domain is {type(domain).__name__}, not sphinx_rpg's NodeDomain")
    return domain


def check_consistency(app: Sphinx, env: BuildEnvironment) -> None:
    domain = node_domain(env)
    for first, other in domain.duplicates():
        warn("duplicate",
             f"duplicate node uid {other.uid!r}: already defined in {_where(env, first)}",
             location=other.location(env))
    # uids that differ only in case share an anchor, a search entry and an intersphinx lookup
    by_folded: dict[str, NodeRecord] = {}
    for record in domain.records():
        first = by_folded.setdefault(record.uid.casefold(), record)
        if first is not record:
            warn("duplicate", f"node uid {record.uid!r} differs only in case from {first.uid!r} "
                              f"({_where(env, first)}): their anchors and search entries collide",
                 location=record.location(env))


def _where(env: BuildEnvironment, record: NodeRecord) -> str:
    if record.source:
        return f"{Path(env.srcdir) / record.source}:{record.lineno}"
    return f"{env.doc2path(record.docname)}:{record.lineno}"


#: Where each link to a node is on a page: its line in the page's own file, else "file:line" (or "").
Places = list[int | str]
#: uid -> (before, after) of each node changed in what other pages show of it.
Shown = dict[str, tuple[NodeRecord | None, NodeRecord | None]]
#: docname -> uid -> the node's referring pages as of the last build (``backlink_changes``).
Backlinks = dict[str, dict[str, list[str] | None]]
#: Given pages whose only changes may be their links to changed nodes and their nodes' "Referenced
#: by" lines, the pages it brought up to date without writing them (``relink.patch_links``).
InPlace = Callable[[set[str], Shown, Backlinks], set[str]]


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment, in_place: InPlace | None = None) -> list[str]:
    """Listings and references on unchanged pages must follow nodes changed on other pages, and a
    node's "Referenced by" line must follow pages that start or stop referring to it.

    A page that changes only in its links to changed nodes and its "Referenced by" lines is left to
    ``in_place`` when given."""
    domain = node_domain(env)
    changed = domain.changed_since_last_build()
    domain.nodes_unchanged = not changed
    external = domain.external_changes()  # another book's nodes, linked through intersphinx
    backlinks = domain.backlink_changes(lambda doc: env.titles[doc].astext() if doc in env.titles else doc)
    backlinked = set(backlinks)
    if not changed and not external:
        if in_place is not None and backlinked:
            backlinked -= in_place(backlinked, {}, backlinks)
        return sorted(backlinked)
    shown = {uid: pair for uid, pair in changed.items()
             if (pair[0] and pair[0].shown()) != (pair[1] and pair[1].shown())}
    touched = [record for pair in shown.values() for record in pair if record is not None]
    listed = domain.listing_docs_showing(touched)
    changelogs = domain.changelog_docs() if changed else set()
    linked_outside = domain.docs_referring_to(external) if external else set()
    linking = domain.docs_referring_to(set(shown))
    if in_place is not None and (linking or backlinked):
        done = in_place((linking | backlinked) - listed - changelogs - linked_outside, shown, backlinks)
        linking, backlinked = linking - done, backlinked - done
    return sorted(listed | linking | linked_outside | changelogs | backlinked)


def settle_references(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: the pages are read (and merged); their references settle before the environment is saved."""
    node_domain(env).settle_references()
    return []


def setup(app: Sphinx) -> None:
    """The ``node`` domain, which pages must be rewritten, and what a missing node reference says."""
    app.add_domain(NodeDomain)
    app.connect("env-updated", settle_references)
    app.connect("env-check-consistency", check_consistency)
    app.connect("warn-missing-reference", warn_missing_node)
