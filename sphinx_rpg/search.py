"""Search a player would use: one result per node, naming its book and its type in words.

Sphinx's search finds a node up to three times: as an object of the ``node`` domain (priority 0,
"important"), as the *main* index entry of its heading (kept out of the search index here: an
incremental build would forget those of the pages it does not rewrite), and as the title of its
section; each shows the page's title, never the book.  The search page gets, from the domain, one line per node (its
name, its book, its type names and its page title, and every anchor that reaches it);
``static/sphinx_rpg_search.js`` then shows each node once, where its best-ranked result stood, as
"Dodge — Heimr Tabletop RPG Core, defence, in Defence".  Nothing of Sphinx's own is patched: the
page carries the data (``html-page-context`` adds a data file and a script to that page only) and the script works
on the results as Sphinx's search writes them (``li.kind-object``, ``li.kind-title``...).  The data is
made from every node, so a build in which no node and no page title changed keeps last build's file.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import CONFIG_OK, BuildEnvironment
from sphinx.util.nodes import clean_astext

from sphinx_rpg.binding import binding_for
from sphinx_rpg.catalogue import cache_key, catalogue
from sphinx_rpg.domain import node_domain
from sphinx_rpg.entries import book_of
from sphinx_rpg.files import remove_matching, replacing, write_atomically
from sphinx_rpg.inline import compact_json

SEARCH_SCRIPT = "sphinx_rpg_search.js"
#: The search page's node data, beside the script in ``_static`` (``<SEARCH_DATA>.<digest>.js``).
SEARCH_DATA = "sphinx_rpg_search_data"
#: builder -> the titles, before this build read them, of the pages it reads (the data shows page titles).
_TITLES_BEFORE: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
#: builder -> this build's data file (``write_search_data``), until the search page takes it.
_DATA_FILES: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def search_data(app: Sphinx) -> Path:
    """Write the search page's data beside the doctrees and return its path: ``{"nodes": {uid: [name,
    book, types, page title, first sentence, anchors]}, "pages": {docname: book}}`` (a page's book: that
    of its first node), a node at a time from its pieces (``entries.search_entry``, kept between builds
    by the catalogue), in uid order.  It is a joined file (``spliced``): a rebuild that changes one node
    makes that node's member and copies the others' bytes from last build's file (remaking every
    member cost about 0.15 s of such a rebuild at 10,000 nodes, joining the kept ones 0.06 s)."""
    binding = binding_for(app.config)
    pages: dict[str, str] = {}
    for record in node_domain(app.env).records():
        if record.docname not in pages:
            pages[record.docname] = book_of(app.env, binding, record)
    tail = "},\"pages\":{" + ",".join(f"{compact_json(doc)}:{compact_json(book)}"
                                      for doc, book in sorted(pages.items()))
    path = Path(app.doctreedir) / f"rpg-search-data-{app.builder.name}.js"
    catalogue(app).write_joined(path, 'var RPG_SEARCH = {"nodes":{', tail + "}};\n",
                                lambda record, pieces: pieces.search, records_only=False)
    return path


def write_search_data(app: Sphinx, builder: Builder) -> None:
    """``write-started``: the search page's node data file, before any page is written.

    The file is named after a digest of its text, so a file that exists already holds this text and
    is not written again: inline, a big book's data (3 MB at 10,000 nodes) went through the page's
    template on every build.  The name changes with the text because Sphinx stamps an asset's link
    with a checksum it works out once per process and file name (a second build in the same process
    would link the old text's stamp).  Made here, not when the search page is written, because the
    search page comes last, when the build holds most: the data's making then added to its peak memory.
    """
    if builder.format == "html" and getattr(builder, "search", True):  # EPUB and HTML Help have no search page
        _DATA_FILES[builder] = _data_file(app)


def add_search_script(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                      doctree: Any) -> None:
    """``html-page-context``: the search page, and only it, gets the nodes' data file and the script
    that shows them."""
    if pagename != "search" or app.builder.format != "html":
        return
    name = _DATA_FILES.pop(app.builder, None) or _data_file(app)
    app.add_js_file(name)
    app.add_js_file(SEARCH_SCRIPT, loading_method="defer")


def _data_file(app: Sphinx) -> str:
    """The data file's name in ``_static``: last build's when it still holds the data, else published
    now (a copy of ``search_data``'s file, named after its digest)."""
    static = Path(app.builder.outdir) / "_static"
    key = cache_key(app)
    kept = _kept_data(app, key, static)
    if kept is not None:
        return kept
    data = search_data(app).read_bytes()
    name = f"{SEARCH_DATA}.{hashlib.sha256(data).hexdigest()[:16]}.js"
    static.mkdir(parents=True, exist_ok=True)
    for old in static.glob(f"{SEARCH_DATA}.*.js"):  # an earlier build's: its text is gone from the book
        if old.name != name:
            old.unlink(missing_ok=True)
    if not (static / name).is_file():
        with replacing(static / name, "wb") as stream:
            stream.write(data)
    with contextlib.suppress(OSError, ValueError):
        write_atomically(_kept_path(app), marshal.dumps((key, name)))
    return name


def _kept_path(app: Sphinx) -> Path:
    return Path(app.doctreedir) / f"rpg-search-{app.builder.name}.marshal"


def _kept_data(app: Sphinx, key: str, static: Path) -> str | None:
    """Last build's data file, when nothing it is made from can have changed: no node (its line aside,
    ``NodeDomain.nodes_unchanged``), no title of a page this build read, no setting, no engine or
    registry file (``catalogue.cache_key``).  Making it walks every node: most of it, on a rebuild
    after an edit of a page's prose."""
    env = app.env
    before = _TITLES_BEFORE.get(app.builder)
    if before is None or not node_domain(env).nodes_unchanged or env.config_status != CONFIG_OK:
        return None
    if any(doc not in env.titles or clean_astext(env.titles[doc]) != title for doc, title in before.items()):
        return None
    try:
        kept_key, name = marshal.loads(_kept_path(app).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if kept_key != key or not isinstance(name, str) or not (static / name).is_file():
        return None
    return name


def forget_kept_data(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: when a node or the title of a page read changed, every builder's record of
    its data file goes (builders that share the doctrees share the environment: the next HTML build
    may read nothing, yet show what another builder read)."""
    before = _TITLES_BEFORE.get(app.builder)
    if (not node_domain(env).nodes_unchanged or before is None
            or any(doc not in env.titles or clean_astext(env.titles[doc]) != title for doc, title in before.items())):
        remove_matching(app.doctreedir, "rpg-search-*.marshal")
    return []


def note_titles(app: Sphinx, env: BuildEnvironment, docnames: Iterable[str]) -> None:
    """``env-before-read-docs``: the titles of the pages about to be read, as they were."""
    node_domain(env).nodes_unchanged = False  # until ``pages_to_rewrite`` says otherwise
    _TITLES_BEFORE[app.builder] = {doc: clean_astext(env.titles[doc]) for doc in docnames if doc in env.titles}


def keep_node_entries_out_of_search(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``, HTML: the node's own index entry leaves the page as written (the general
    index, made from what was read, keeps it, in bold).  The search then finds each node as its domain
    object only, the same after an incremental build (which forgets the index entries of the pages it
    does not rewrite) as after a clean one; the search page's script puts it first."""
    if app.builder.format != "html":
        return
    anchors = {record.anchor for record in node_domain(app.env).records_on(docname)}
    for index in list(doctree.findall(addnodes.index)):
        entries = index.get("entries") or []
        if entries and all(entry[3] == "main" and entry[2] in anchors for entry in entries):
            index.parent.remove(index)


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", note_titles)
    app.connect("env-get-updated", forget_kept_data, priority=900)  # after relink's (``nodes_unchanged``)
    app.connect("write-started", write_search_data)
    app.connect("html-page-context", add_search_script)
    app.connect("doctree-resolved", keep_node_entries_out_of_search)
