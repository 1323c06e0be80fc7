"""Released catalogues inside a build: "new/changed since" marks and the ``node:changes`` changelog.

``conf.py`` names each release's ``nodes.json`` (kept in the repository) in ``rpg_releases``, oldest
first; the last one is what the marks beside node headings compare with.  The comparison itself is
``sphinx_rpg.changes`` (the same code as ``rpg diff``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.nodes import Node
from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line, rule_facts
from sphinx_rpg.changes import (
    Catalogue,
    CatalogueError,
    LinkWords,
    NodeChange,
    catalogue_from_document,
    catalogue_links,
    compare_nodes,
    diff_catalogues,
    fact_labels,
    load_catalogue,
    type_labels,
)
from sphinx_rpg.domain import node_domain
from sphinx_rpg.export import nodes_document
from sphinx_rpg.filters import filter_is_valid, parse_filter
from sphinx_rpg.pagescan import holds
from sphinx_rpg.roles import format_value
from sphinx_rpg.warnings import warn

#: path -> (modification time, size, catalogue): each release file is read once per process.
_CACHE: dict[str, tuple[float, int, Catalogue]] = {}


def release_path(env: BuildEnvironment, relative: str) -> Path:
    """Where a release's catalogue lives: relative paths are taken from the source directory."""
    return Path(env.srcdir) / relative


def load_release(env: BuildEnvironment, label: str, location: Any = None) -> Catalogue | None:
    """The catalogue of one release of ``rpg_releases``; a located ``node.release`` warning if unreadable."""
    releases: Mapping[str, Any] = env.config.rpg_releases
    relative = releases.get(label)
    if not isinstance(relative, str) or not relative.strip():
        known = ", ".join(map(repr, releases)) or "none: set rpg_releases in conf.py"
        warn("release", f"no release {label!r} in rpg_releases (known: {known})", location)
        return None
    path = release_path(env, relative)
    env.note_dependency(str(path))
    try:
        stat = path.stat()
        cached = _CACHE.get(str(path))
        if cached and cached[:2] == (stat.st_mtime, stat.st_size):
            return cached[2]
        catalogue = load_catalogue(path)
    except OSError as error:
        warn("release", f"release {label!r}: cannot read {relative} ({error.strerror or error})", location)
        return None
    except CatalogueError as error:
        warn("release", f"release {label!r}: {error}", location)
        return None
    _CACHE[str(path)] = (stat.st_mtime, stat.st_size, catalogue)
    return catalogue


def latest_release(env: BuildEnvironment) -> str | None:
    releases = env.config.rpg_releases
    return list(releases)[-1] if isinstance(releases, dict) and releases else None


def current_entry(name: str, types: tuple[str, ...], type_names: Sequence[str], docname: str, digest: str,
                  rule: Node | None, text: str = "") -> dict[str, Any]:
    """The fields ``compare_nodes`` reads, for a node as this build defines it."""
    return {"name": name, "types": list(types), "type_names": list(type_names), "docname": docname, "digest": digest,
            "text": text,
            "summary": rule.summary if rule else "",
            "facts": [{"label": f.label, "text": f.text} for f in rule_facts(rule)]}  # type: ignore[attr-defined]


def _versionmodified(kind: str, label: str, text: str) -> nodes.Node:
    """The same markup as Sphinx's ``versionadded``/``versionchanged`` (every theme styles it)."""
    box = addnodes.versionmodified(type=kind, version=label)
    words = "New since" if kind == "versionadded" else "Changed since"
    paragraph = nodes.paragraph("", "", nodes.inline("", f"{words} {label}" + (": " if text else "."),
                                                     classes=["versionmodified", kind.replace("version", "")]),
                                classes=["rpg-change-mark"])
    if text:
        paragraph += nodes.Text(text)
    box += paragraph
    return box


Labels = frozenset[tuple[str, str]]
#: id(catalogue) -> (catalogue, its fact labels, its type labels): worked out once per release, not
#: per node; a few releases at a time, so the oldest go once there are more (a long ``rpg serve``
#: loads a new catalogue on every build).
_LABELS: dict[int, tuple[Catalogue, Labels, Labels]] = {}
_MOST_CATALOGUES = 16


def _known_labels(catalogue: Catalogue) -> tuple[Labels, Labels]:
    """The fact labels and the type labels ``catalogue`` records."""
    kept = _LABELS.get(id(catalogue))
    if kept is None or kept[0] is not catalogue:
        if len(_LABELS) >= _MOST_CATALOGUES:
            del _LABELS[next(iter(_LABELS))]
        kept = _LABELS[id(catalogue)] = (catalogue, fact_labels(catalogue), type_labels(catalogue))
    return kept[1], kept[2]


def _page_links(env: BuildEnvironment) -> LinkWords:
    """What a link prints on this build's pages: a node's name, a value as ``:node:value:`` shows it."""
    binding = binding_for(env.config)

    def words(role: str, target: str) -> str | None:
        uid, _, key = target.partition(":")
        node = binding.lookup(uid)
        if node is None:
            return None
        if role != "node:value":
            return node.name
        try:
            return one_line(call_engine(lambda: format_value(node.value(key))))
        except EngineFailure:
            return None  # the role's own warning says why

    return words


def change_mark(env: BuildEnvironment, uid: str, entry: Callable[[], Mapping[str, Any]],
                location: Any) -> nodes.Node | None:
    """"New since 0.1" or "Changed since 0.1: ..." for a node, against the last release; else None.

    ``entry`` makes the node's fields as this build defines them (``current_entry``): only when a
    release holds the node, since it runs the rule object's facts (engine code, under its time limit)."""
    label = latest_release(env)
    if label is None or not env.config.rpg_change_marks:
        return None
    catalogue = load_release(env, label, location)
    if catalogue is None:
        return None
    released = catalogue.nodes.get(uid)
    if released is None:
        return _versionmodified("versionadded", label, "")
    now = _page_links(env)
    kinds, details = compare_nodes(released, entry(), *_known_labels(catalogue),
                                   old_links=catalogue_links(catalogue, now), new_links=now)
    if not kinds:
        return None
    return _versionmodified("versionchanged", label, "; ".join(details) + ".")


# -- node:changes --------------------------------------------------------------------------------------
class node_changes(nodes.General, nodes.Element):
    """Placeholder for a changelog, filled in when the page is written (plain options only)."""


class NodeChanges(SphinxDirective):
    """``.. node:changes::`` with ``:since: LABEL`` (default: the last release) and ``:filter:``."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {"since": directives.unchanged, "filter": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        label = (self.options.get("since") or "").strip() or latest_release(self.env)
        if label is None:
            warn("release", "node:changes: no release to compare with (set rpg_releases in conf.py)", location)
            return []
        text = self.options.get("filter", "")
        if not filter_is_valid(text, location):
            return []
        if load_release(self.env, label, location) is None:
            return []
        placeholder = node_changes(since=label, filter=text)
        self.set_source_info(placeholder)
        node_domain(self.env).note_changelog(self.env.docname)
        return [placeholder]


def _filter_fields(change: NodeChange) -> dict[str, object]:
    entry = change.new or change.old or {}
    return {"uid": change.uid, "name": entry.get("name", ""), "type": tuple(entry.get("types") or ()),
            "type_name": tuple(entry.get("type_names") or ()), "namespace": change.uid.rpartition(".")[0],
            "docname": entry.get("docname", ""), "summary": entry.get("summary", ""),
            "bound": "yes" if entry.get("rule") else "no"}


class ChangesResolver(SphinxPostTransform):
    """Fills ``node:changes`` from the release and this build's nodes (the code ``rpg diff`` runs)."""

    default_priority = 5  # before ReferencesResolver, which resolves the links emitted here

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_changes):
            return
        placeholders = list(self.document.findall(node_changes))
        if not placeholders:
            return

        domain = node_domain(self.env)
        current = domain.memo(("changes-current",),
                              lambda: catalogue_from_document(nodes_document(self.env, lambda doc: doc)))
        for placeholder in placeholders:
            released = load_release(self.env, placeholder["since"], placeholder)
            if released is None:
                placeholder.replace_self([])
                continue
            predicate = parse_filter(placeholder["filter"])
            changes = [c for c in diff_catalogues(released, current, _page_links(self.env))
                       if predicate(_filter_fields(c))]
            placeholder.replace_self(self.render(changes, placeholder["since"]))

    def link(self, change: NodeChange) -> nodes.Node:
        ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=change.uid,
                                    refexplicit=False, refwarn=True, refdoc=self.env.docname)
        ref += nodes.inline(change.title, change.title)
        return ref

    def render(self, changes: list[NodeChange], label: str) -> list[nodes.Node]:
        if not changes:
            return [nodes.paragraph("", f"No node has changed since {label}.")]
        groups = (("New", [c for c in changes if c.kinds == ("added",)]),
                  ("Changed", [c for c in changes if c.kinds[0] not in ("added", "removed")]),
                  ("Removed", [c for c in changes if c.kinds == ("removed",)]))
        result: list[nodes.Node] = []
        for heading, members in groups:
            if not members:
                continue
            result.append(nodes.rubric("", f"{heading} since {label} ({len(members)})",
                                       classes=["rpg-changes-heading"]))
            items = nodes.bullet_list(classes=["rpg-changes"])
            for change in members:
                title: nodes.Node = (nodes.inline("", f"{change.title} ({change.uid})") if heading == "Removed"
                                     else self.link(change))
                paragraph = nodes.paragraph("", "", title)
                if heading == "Changed":
                    paragraph += nodes.Text(": " + "; ".join(change.details) + ".")
                items += nodes.list_item("", paragraph)
            result.append(items)
        return result


def setup(app: Sphinx) -> None:
    """``node:changes``: what changed since a released version of the book."""
    app.add_directive_to_domain("node", "changes", NodeChanges)
    app.add_node(node_changes)
    app.add_post_transform(ChangesResolver)
