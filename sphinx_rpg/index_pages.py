"""Keep the node index pages and the general index of the last build when nothing they show has changed.

Sphinx rewrites every domain index page and the general index on every HTML build.  The two node
indices list every node (``node-types`` once per type), and every node is an entry of the general
index too, so in a book of 10,000 nodes rendering the three costs about a second of each incremental
build whatever was edited: more than everything else the extension adds together.

Sphinx itself only rewrites the pages whose input changed; this module gives the index pages the
same treatment.  Each rendered index page carries a fingerprint (a ``<meta>`` tag) of what it was made
from: the index entries, the page's template context (theme, options, titles, assets...), the toctree
structure and the versions involved (no paths or times, so the output stays reproducible).  When the
next build computes the same fingerprint and the file on disk carries it, the page is written back as
it was instead of being rendered again.  A fresh read (``-E``), any change of configuration, theme or
catalogue, or a template newer than the page renders it anew; so does a theme that does not print
``metatags`` (the fingerprint is never found there).
"""

from __future__ import annotations

import hashlib
import marshal
import re
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util import logging

from sphinx_rpg import index_entries, index_rows

TEMPLATES = Path(__file__).parent / "templates"
KEPT_PAGE_TEMPLATE = "rpg-kept-page.html"
INDEX_PAGES = ("node-types", "node-namespaces")
#: The general index as one page (``html_split_index`` off): its template and its entries' context key.
GENERAL_INDEX = ("genindex", "genindex.html", "genindexentries")
#: Context keys holding a page's entries: digested whole by marshal, not described value by value.
ENTRY_KEYS = ("content", GENERAL_INDEX[2])
FINGERPRINT_VERSION = "3"
_META = '<meta name="rpg-index-fingerprint" content="{}" />'
_MEMORY_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")

logger = logging.getLogger(__name__)

#: builder -> whether this build reads every page, kept here rather than on the builder (Sphinx's).
_FULL_READ: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
#: builder -> the toctree and page titles a theme's navigation is drawn from (``_navigation``).
_NAVIGATION: weakref.WeakKeyDictionary[Any, tuple[Any, ...]] = weakref.WeakKeyDictionary()
#: builder -> (page, context key) -> group -> (its entries, their digest), for this build only.
_GROUP_DIGESTS: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], dict[str, tuple[tuple[Any, ...], bytes]]]] = \
    weakref.WeakKeyDictionary()
#: builder -> the node index page being written whose rows may be patched: (page name, its context
#: as fingerprinted, last build's page, this build's fingerprint tag).
_TO_PATCH: weakref.WeakKeyDictionary[Any, tuple[str, dict[str, Any], str, str]] = weakref.WeakKeyDictionary()


class _Unstable(Exception):
    """A context value with no stable description: the page cannot be proven unchanged."""


def _describe(value: Any) -> Any:
    """A stable, hashable description of a template-context value (callables are left out)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_describe(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(key), _describe(item)) for key, item in value.items()))
    if hasattr(value, "filename") and hasattr(value, "attributes"):  # Sphinx's CSS/JS asset objects
        return (type(value).__name__, str(value.filename), _describe(dict(value.attributes)))
    text = repr(value)
    if _MEMORY_ADDRESS.search(text):
        raise _Unstable(type(value).__name__)
    return (type(value).__name__, text)


def _stable_context(context: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(key, _describe(value)) for key, value in sorted(context.items())
            if key not in ENTRY_KEYS and not callable(value)]


def _navigation(env: Any) -> tuple[Any, ...]:
    """What a theme's global navigation is drawn from: the toctree and the page titles."""
    includes = tuple(sorted((doc, tuple(children)) for doc, children in env.toctree_includes.items()))
    titles = tuple(sorted((doc, title.astext()) for doc, title in env.titles.items()))
    return includes, titles


def _navigation_of(builder: Any) -> tuple[Any, ...]:
    """``_navigation`` once per build: the index pages are written after every page was read."""
    found = _NAVIGATION.get(builder)
    if found is None:
        found = _NAVIGATION[builder] = _navigation(builder.env)
    return found


def _content_digest(content: Any, known: dict[str, tuple[tuple[Any, ...], bytes]] | None = None) -> str:
    """The index entries' digest: a digest of each group's, of marshal bytes (no references between
    objects below version 3, so equal entries give equal bytes), which is twice as fast as ``repr``
    over the 27,000 entries of a big book, made one group at a time, not the whole index's (a megabyte
    more, at the end of the build, when the process holds most).  Entries are made plain tuples first:
    a domain index's are named tuples, which marshal does not write.  ``known`` keeps each group's
    digest with its entries for this build: the same page's entries digested again (last build's, to
    patch its rows) differ in a group or two, and a group that holds the same entries is not
    digested again."""
    digest = hashlib.sha256()
    try:
        for group, entries in content:
            name, entries = str(group), tuple(entries)
            found = known.get(name) if known is not None else None
            if found is None or found[0] != entries:
                blob = marshal.dumps((name, [tuple(entry) for entry in entries]), 2)
                found = (entries, hashlib.sha256(blob).digest())
                if known is not None:
                    known[name] = found
            digest.update(found[1])
    except (TypeError, ValueError):  # entries of another shape, or something marshal cannot write
        return hashlib.sha256(repr(content).encode("utf-8")).hexdigest()
    return digest.hexdigest()


def fingerprint(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any]) -> str | None:
    """The page's fingerprint, or None when something in its context cannot be described stably."""
    from sphinx import __version__ as sphinx_version

    from sphinx_rpg.version import __version__

    builder = app.builder
    build_info = getattr(builder, "build_info", None)
    try:
        described = (
            FINGERPRINT_VERSION, __version__, sphinx_version, builder.name, pagename, templatename,
            *(_content_digest(context.get(key), _known_groups(builder, pagename, key))
              for key in ENTRY_KEYS if key in context),
            _stable_context(context), _navigation_of(builder),
            (getattr(build_info, "config_hash", ""), getattr(build_info, "tags_hash", "")),
        )
    except _Unstable as unstable:
        logger.debug("[sphinx_rpg] %s is always rendered: %s in its context has no stable form",
                     pagename, unstable)
        return None
    return hashlib.sha256(repr(described).encode("utf-8")).hexdigest()


def _known_groups(builder: Any, pagename: str, key: str) -> dict[str, tuple[tuple[Any, ...], bytes]]:
    """This build's group digests of one page's entries (``_content_digest``)."""
    return _GROUP_DIGESTS.setdefault(builder, {}).setdefault((pagename, key), {})


def note_docs_to_read(app: Sphinx, env: Any, docnames: Iterable[str]) -> None:
    """A build that reads every page (``-E``, a new environment) renders the index pages too; what
    the last build by this builder remembered of the pages is forgotten."""
    _FULL_READ[app.builder] = set(docnames) >= set(env.found_docs)
    _NAVIGATION.pop(app.builder, None)
    _GROUP_DIGESTS.pop(app.builder, None)


def _escaped(content: Any) -> list[tuple[str, Any]]:
    from markupsafe import escape

    return [(str(escape(group)), entries) for group, entries in content]


def escape_index_groups(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                        doctree: Any) -> None:
    """Group names come from registries (type labels): the theme prints them as markup, so escape them."""
    if pagename in INDEX_PAGES and templatename == "domainindex.html" and doctree is None:
        context["content"] = _escaped(context.get("content", []))


def keep_unchanged_index(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                         doctree: Any) -> str | None:
    """``html-page-context``: mark a node index page or the general index, and keep last build's copy
    when it matches (or, for a node index page, patch its changed rows into it: ``index_rows``).

    A page that is not kept is rendered by the theme's own ``domainindex.html`` or ``genindex.html``.
    """
    if doctree is not None:
        return None
    domain_index = pagename in INDEX_PAGES and templatename == "domainindex.html"
    if domain_index or (pagename, templatename) == GENERAL_INDEX[:2]:
        return _kept_page(app, pagename, templatename, context, domain_index)
    return None


def _kept_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
               domain_index: bool) -> str | None:
    if not app.config.rpg_keep_unchanged_indices:
        return None
    stamp = fingerprint(app, pagename, templatename, context)
    if stamp is None:
        return None
    old_context = dict(context)  # as the last build fingerprinted it: before this build's tag
    meta = _META.format(stamp)
    context["metatags"] = f"{context.get('metatags', '')}\n    {meta}"
    if _FULL_READ.get(app.builder, True):
        return None
    if not isinstance(app.builder, StandaloneHTMLBuilder):  # html-page-context comes from HTML builders only
        return None
    path = Path(app.builder.get_output_path(pagename))
    try:
        previous = path.read_text(encoding=context.get("encoding", "utf-8"))
        written = path.stat().st_mtime
    except (OSError, UnicodeDecodeError, LookupError):
        return None
    templates = getattr(app.builder, "templates", None)
    if templates is not None and templates.newest_template_mtime() > written:
        return None
    if meta in previous:
        context["rpg_kept_page"] = previous
        logger.verbose("[sphinx_rpg] %s: unchanged, kept from the last build", pagename)
        return KEPT_PAGE_TEMPLATE
    if domain_index and templates is not None:  # its rows may be patched in, once the context is final
        _TO_PATCH[app.builder] = (pagename, old_context, previous, meta)
    return None


def patch_changed_rows(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                       doctree: Any) -> str | None:
    """``html-page-context``, after the other handlers (a theme's among them) have filled the page's
    context: last build's node index page with this build's rows (``index_rows``), when it was
    rendered from last build's entries in the same context (its fingerprint tag, computed from those
    entries now, is in it).  The rows are rendered with the context the page itself would be."""
    try:
        return _patched(app, pagename, templatename, context, doctree, _TO_PATCH.pop(app.builder, None))
    finally:  # the page's entries are not digested again in this build: their groups' digests go
        for key in ENTRY_KEYS:
            _GROUP_DIGESTS.get(app.builder, {}).pop((pagename, key), None)


def _patched(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any,
             pending: tuple[str, dict[str, Any], str, str] | None) -> str | None:
    if doctree is not None or pending is None or pending[0] != pagename:
        return None
    _, old_context, previous, meta = pending
    del pending
    old = index_entries.previous_content(app.env, pagename.partition("-")[2])
    if old is None:
        return None
    old = _escaped(old)
    old_stamp = fingerprint(app, pagename, templatename, {**old_context, "content": old})
    if old_stamp is None:
        return None
    old_meta = _META.format(old_stamp)
    if previous.count(old_meta) != 1:
        return None
    templates = app.builder.templates

    def render(content: index_rows.Content) -> str:
        return str(templates.render(templatename, {**context, "content": content}))

    # the new tag replaces the old one as one more edit, not as a copy of the page (megabytes for a big book)
    tag = previous.find(old_meta)
    patched = index_rows.patch(previous, old, context.get("content", []), render,
                               also=[(tag, tag + len(old_meta), meta)])
    if patched is None:
        return None
    context["rpg_kept_page"] = patched
    logger.verbose("[sphinx_rpg] %s: changed rows patched into the last build's page", pagename)
    return KEPT_PAGE_TEMPLATE


def start_entries(app: Sphinx) -> None:
    """``builder-inited``: this build's node index entries may be last build's (``index_entries``)."""
    index_entries.start(app.env, app.builder.name)


def forget_entries(app: Sphinx, env: Any) -> list[str]:
    """``env-get-updated``, after ``relink`` compared the records: a changed node drops every builder's
    kept entries before the environment is saved."""
    from sphinx_rpg.domain import node_domain

    if not node_domain(env).nodes_unchanged:
        index_entries.forget(env.doctreedir, env)
    return []


def finish_entries(app: Sphinx, exception: BaseException | None) -> None:
    index_entries.finish(app.env, exception is None)


def add_templates(app: Sphinx, config: Any) -> None:
    """``config-inited``: make the kept-page template findable (without touching the user's list)."""
    config.templates_path = [*config.templates_path, str(TEMPLATES)]


def setup(app: Sphinx) -> None:
    """Keep the index pages, and the node indices' entries, when nothing they show changed; patch a
    node index page's changed rows in when a few did."""
    app.connect("config-inited", add_templates)
    app.connect("env-before-read-docs", note_docs_to_read)
    app.connect("html-page-context", escape_index_groups, priority=400)
    app.connect("html-page-context", keep_unchanged_index)
    app.connect("html-page-context", patch_changed_rows, priority=950)  # once the others filled the context
    app.connect("builder-inited", start_entries)
    app.connect("env-get-updated", forget_entries, priority=900)  # after relink's (``nodes_unchanged``)
    app.connect("build-finished", finish_entries)
