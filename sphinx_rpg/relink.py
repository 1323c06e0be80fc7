"""A page whose only change is its links to a renamed or moved node, or the "Referenced by" lines of
its own nodes: those replaced in last build's copy, the page not written again.

Renaming a node changes the text and ``title`` of every ``:node:ref:`` to it, and moving it changes
their address; moving or deleting a node that links others changes those others' "Referenced by"
lines.  Nothing else changes on those pages, yet writing one again (resolving, translating,
templating it, indexing it for search) costs as much as writing an edited page, and a node linked
from fifty pages made a rename cost fifty page writes.

Instead, every link this build resolves is counted per page and uid, by kind (``domain.LINK_KINDS``),
and the counts of each written page are kept in a file beside the doctrees with the size and
modification time of the page as it was written.  When a later build finds that a page's only
changes are those (``domain.pages_to_rewrite`` leaves out the pages with a listing or a changelog
that changed and the pages read again), the old markup, which is ours (the HTML writer's rendering
of the reference nodes ``domain`` makes, and the raw line ``backlinks`` writes), is found in last
build's page and replaced with the new one, and the page is not handed to the writer.  Anything
unexpected writes the page as usual: a link kind whose markup is not ours (``:any:``, MyST), a page
the file does not describe or that changed since it was written, a count in the page that differs
from the expected one (two links or lines that look alike, a link's text written by hand that
equals the title), a "Referenced by" line that appears or goes, a referring page with a new title, a
builder other than ``html`` or ``dirhtml``.  A node added is never handled here for the pages linking
it: its links appear where the writer puts them.

A node deleted is: each link to it becomes the text a dangling ``:node:ref:`` shows (its uid, or the
text written for it, classed as the role does and kept out of search), and the ``node.ref`` warning the
writer would give is given for each, at the place kept with the counts.  A page is written instead
when the uid is in an intersphinx inventory (the link may resolve there), in nitpicky mode (whose
ignore lists decide whether it warns), or when a link to the node is a text without a link.  Writing
the few pages that linked a deleted node, with everything they hold, cost more than the rest of a
one-page rebuild, and brought on one more full pass of the garbage collector.

The pages' search entries do not change: link texts are ``no-search`` (``domain.ref_classes``), and
so are "Referenced by" lines.

The file holds each page's counts as marshal bytes of their own, one frame per page (``frames``):
only the pages a build patches or writes are read, decoded or encoded, and the others go to the
next file as they lie, never held in memory (read whole, a big book's file stayed with the process
for the rest of the build).  A build that has nothing to patch does not open it until the end, when
it keeps the counts of the pages it wrote.  A page's frame holds its file's size and time and its
links as marshal bytes within: the links of each page written are encoded when it is resolved and
kept as bytes until the build ends.
"""

from __future__ import annotations

import marshal
import os
import re
import time
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sphinx_rpg.backlinks import html_links
from sphinx_rpg.domain import (
    LINK_KINDS,
    OTHER_LINK,
    Backlinks,
    NodeDomain,
    NodeRecord,
    Places,
    Shown,
    external_nodes,
    missing_node_message,
    node_domain,
    pages_to_rewrite,
    ref_classes,
)
from sphinx_rpg.files import write_atomically
from sphinx_rpg.frames import Frames, write_frames
from sphinx_rpg.warnings import warn

MANIFEST_VERSION = 5
#: How the file starts (a ``frames`` file whose header is the version and the output folder).
_MAGIC = b"sphinx-rpg links\n"
#: The builders whose pages are one file per document, written by the HTML translator.
BUILDERS = ("html", "dirhtml")
#: The classes ``XRefRole`` gives the text of a ``:node:ref:`` (before ``ref_classes``).
ROLE_CLASSES = ("xref", "node", "node-ref")
#: The classes of a dangling ``:node:ref:``'s text (the role's, and ``domain.resolve_xref``'s no-search).
DANGLING_CLASSES = (*ROLE_CLASSES, "no-search")
#: How the HTML writer starts a node's "Referenced by" line (``backlinks``).
BACKLINKS_START = '<p class="rpg-backlinks no-search"><strong>Referenced by:</strong>'
#: What docutils' HTML writer escapes in text (``HTMLTranslator.encode``) and in attribute values.
_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord('"'): "&quot;", ord(">"): "&gt;", ord("@"): "&#64;"}
_ATTRIBUTE_ESCAPES = {**_ESCAPES, **{ord(space): " " for space in "\n\r\t\v\f"}}

logger = logging.getLogger(__name__)

#: page -> (size, mtime_ns of its file as written, uid -> count of each link kind, uid -> where each is)
Entry = tuple[int, int, dict[str, list[int]], dict[str, Places]]


class _Build:
    """What this build learnt about the pages' links (one per builder object, so per build)."""

    def __init__(self) -> None:
        self.started = time.time_ns()
        self.read: set[str] = set()
        #: each page's links as resolved (``take_links``), as marshal bytes: a fresh build of 10,000
        #: nodes holds 100,000 lists of them until it ends, which the collector would walk in every
        #: full collection of the pages' writing
        self.resolved: dict[str, bytes] = {}
        #: last build's file, opened when first needed
        self.kept: Frames | None = None
        #: the entries this build made (pages patched, then pages written), as marshal bytes
        self.made: dict[str, bytes] = {}
        self.changed = False


_BUILDS: weakref.WeakKeyDictionary[Any, _Build] = weakref.WeakKeyDictionary()


def _build(app: Sphinx) -> _Build:
    found = _BUILDS.get(app.builder)
    if found is None:
        found = _BUILDS[app.builder] = _Build()
    return found


def _supported(app: Sphinx) -> bool:
    return (isinstance(app.builder, StandaloneHTMLBuilder) and app.builder.name in BUILDERS
            and app.config.html_output_encoding.lower().replace("_", "-") in ("utf-8", "utf8"))


def _manifest_path(app: Sphinx) -> Path:
    return Path(app.doctreedir) / f"rpg-links-{app.builder.name}.marshal"


def _key(page: str) -> bytes:
    return page.encode("utf-8", "surrogateescape")


def _kept(app: Sphinx, build: _Build) -> Frames:
    """Last build's counts, opened once per build; a missing, foreign or damaged file holds none."""
    if build.kept is None:
        build.kept = Frames(_manifest_path(app), _MAGIC, (MANIFEST_VERSION, str(app.outdir)))
    return build.kept


def _entry(app: Sphinx, build: _Build, page: str) -> Entry | None:
    """One page's kept counts, decoded; None when the file has none (or a damaged one) for it."""
    try:
        size, written, links = marshal.loads(_kept(app, build).value(_key(page)))
        counts, places = marshal.loads(links)
    except (KeyError, OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(size, int) and isinstance(written, int) and isinstance(counts, dict)
            and isinstance(places, dict)):
        return None
    return size, written, counts, places


def _entry_bytes(stat: os.stat_result, links: bytes) -> bytes:
    """A page's frame (``_entry`` reads it): its file's size and time as written, and its links
    (counts and places) as marshal bytes of their own."""
    return marshal.dumps((stat.st_size, stat.st_mtime_ns, links))


def note_read(app: Sphinx, env: BuildEnvironment, docnames: Iterable[str]) -> None:
    """``env-before-read-docs``: the pages read again are written whole, never patched."""
    _BUILDS.pop(app.builder, None)  # a second build by the same application starts afresh
    _build(app).read = set(docnames)


def note_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: the links of a page about to be written (in the main process, under -j too)."""
    links = node_domain(app.env).take_links(docname)
    if _supported(app):
        _build(app).resolved[docname] = marshal.dumps(links)


def _href(app: Sphinx, fromdocname: str, record: NodeRecord) -> str:
    """The address ``make_refnode`` gives a link, as the HTML writer prints it."""
    if fromdocname == record.docname:
        uri = f"#{record.anchor}"
    else:
        uri = f"{app.builder.get_relative_uri(fromdocname, record.docname)}#{record.anchor}"
    return uri.translate(_ATTRIBUTE_ESCAPES)


def _markup(app: Sphinx, domain: NodeDomain, page: str, record: NodeRecord,
            kinds: list[int]) -> list[tuple[str, int]]:
    """(markup, count) of each kind of link to ``record`` on ``page`` (the three kinds whose markup is
    found whole: a titled link, a link's start before its own text, a title without a link)."""
    title = domain.display_title(record)
    classes = " ".join((*ROLE_CLASSES, *ref_classes(record))).translate(_ATTRIBUTE_ESCAPES)
    start = (f'<a class="reference internal" href="{_href(app, page, record)}" '
             f'title="{title.translate(_ATTRIBUTE_ESCAPES)}"><span class="{classes}">')
    text = title.translate(_ESCAPES)
    titled_link, link, titled, _text, _other = kinds
    return [(f"{start}{text}</span></a>", titled_link), (start, link),
            (f'<span class="{classes}">{text}</span>', titled)]


def _dangling_markup(uid: str) -> str:
    """What the writer makes of a ``:node:ref:`` to ``uid`` that no page defines (its text is the uid)."""
    return f'<span class="{" ".join(DANGLING_CLASSES)}">{uid.translate(_ESCAPES)}</span>'


def _may_dangle(app: Sphinx, uid: str, kinds: list[int] | None, external: dict[str, str]) -> bool:
    """Whether the links to ``uid``, a node deleted, may be replaced by what a dangling link shows
    (``external``: the nodes of the intersphinx inventories, where the links may resolve)."""
    return (kinds is not None and len(kinds) == len(LINK_KINDS) and not app.config.nitpicky
            and not kinds[LINK_KINDS.index("text")] and not kinds[OTHER_LINK] and uid not in external)


def _patched(app: Sphinx, domain: NodeDomain, page: str, text: str, counts: dict[str, list[int]],
             changes: dict[str, tuple[NodeRecord, NodeRecord | None]], lines: dict[str, list[str]]) -> str | None:
    """``text`` with every link to a changed or deleted node and every changed "Referenced by" line
    replaced, or None when the page must be written."""
    replacement: dict[str, str] = {}
    expected: dict[str, int] = {}
    #: the start of each link with its own text to a deleted node, and how many there are
    dangling_starts: dict[str, int] = {}
    backlinked = lines if app.config.rpg_backlinks else {}
    domain.look_up_referrers(backlinked)
    for uid, old_referrers in backlinked.items():
        old_docs = [doc for doc in old_referrers if doc != page]
        new_docs = [doc for doc in domain.referrers(uid) if doc != page]
        if old_docs == new_docs:
            continue
        if not old_docs or not new_docs:
            return None  # a line to add or take away: where it goes is the writer's business
        old_line = f"{BACKLINKS_START}{html_links(app, domain, page, old_docs)}</p>"
        new_line = f"{BACKLINKS_START}{html_links(app, domain, page, new_docs)}</p>"
        if replacement.setdefault(old_line, new_line) != new_line:
            return None
        expected[old_line] = expected.get(old_line, 0) + 1
    for uid, (before, after) in changes.items():
        kinds = counts.get(uid)
        if kinds is None or len(kinds) != len(LINK_KINDS) or kinds[OTHER_LINK]:
            return None
        old = _markup(app, domain, page, before, kinds)
        if after is None:  # deleted: a whole link or title becomes the uid; a link's start, below
            (whole_link, links), (start, own_texts), (title, titles) = old
            for old_markup, count in ((whole_link, links), (title, titles)):
                if count:
                    if old_markup in replacement:
                        return None
                    replacement[old_markup], expected[old_markup] = _dangling_markup(uid), count
            if own_texts:
                dangling_starts[start] = own_texts
            continue
        if kinds[LINK_KINDS.index("text")] and before.types != after.types:
            return None  # a hand-written text without a link: only its classes would change
        new = _markup(app, domain, page, after, kinds)
        for (old_markup, count), (new_markup, _) in zip(old, new):
            if not count or old_markup == new_markup:
                continue
            if old_markup in replacement:
                return None  # two links that look alike: which is which cannot be told
            replacement[old_markup], expected[old_markup] = new_markup, count
    if not replacement and not dangling_starts:
        return text
    patched = text
    if replacement:
        found = dict.fromkeys(replacement, 0)

        def replace(match: re.Match[str]) -> str:
            found[match[0]] += 1
            return replacement[match[0]]

        # longest first: a titled link before the start of the same link
        pattern = re.compile("|".join(re.escape(markup) for markup in sorted(replacement, key=len, reverse=True)))
        patched = pattern.sub(replace, text)
        if found != expected:
            return None
    dangling_start = f'<span class="{" ".join(DANGLING_CLASSES)}">'
    for start, count in dangling_starts.items():  # the text written for the link stays (tags: none)
        patched, made = re.subn(f"{re.escape(start)}([^<]*)</span></a>", rf"{dangling_start}\1</span>", patched)
        if made != count:
            return None
    return patched


def patch_links(app: Sphinx, env: BuildEnvironment, pages: set[str], shown: Shown, backlinks: Backlinks) -> set[str]:
    """Replace the links to changed nodes and the changed "Referenced by" lines in last build's copy of
    ``pages``; the pages done that way."""
    build = _build(app)
    candidates = pages - build.read  # a page read again is written whole
    if not candidates or not _supported(app):
        return set()
    assert isinstance(app.builder, StandaloneHTMLBuilder)
    domain = node_domain(env)
    external = external_nodes(env) if any(after is None for _, after in shown.values()) else {}
    done = set()
    for page in sorted(candidates):
        entry = _entry(app, build, page)
        if entry is None or page not in env.all_docs:
            continue
        size, written, counts, places = entry
        lines = backlinks.get(page, {})
        if any(old is None for old in lines.values()):
            continue
        changes: dict[str, tuple[NodeRecord, NodeRecord | None]] = {}
        for uid in domain.references_of(page) & shown.keys():
            before, after = shown[uid]
            if before is None or (after is None and not _may_dangle(app, uid, counts.get(uid), external)):
                break  # a link appears, or dangles where only the writer can tell: the page is written
            changes[uid] = (before, after)
        else:
            path = Path(app.builder.get_outfilename(page))
            try:
                stat = path.stat()
                if (stat.st_size, stat.st_mtime_ns) != (size, written):
                    continue
                text = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            patched = _patched(app, domain, page, text, counts, changes,
                               {uid: old for uid, old in lines.items() if old is not None})
            if patched is None:
                continue
            gone = [uid for uid, (_, after) in changes.items() if after is None]
            if patched != text:
                write_atomically(path, patched.encode("utf-8"))
                stat = path.stat()
                kept_counts = {uid: kinds for uid, kinds in counts.items() if uid not in gone}
                kept_places = {uid: where for uid, where in places.items() if uid not in gone}
                build.made[page] = _entry_bytes(stat, marshal.dumps((kept_counts, kept_places)))
                build.changed = True
            _warn_dangling(env, domain, page, {uid: places.get(uid, []) for uid in gone})
            done.add(page)
    if done:
        logger.verbose("[sphinx_rpg] links replaced without writing: %s", ", ".join(sorted(done)))
    return done


def _warn_dangling(env: BuildEnvironment, domain: NodeDomain, page: str, gone: dict[str, Places]) -> None:
    """The ``node.ref`` warning of each link to a deleted node, where the writer would give it, in the
    page's order."""
    own = os.path.abspath(env.doc2path(page))  # as Sphinx prints a node's place
    found = [(place, uid) for uid, where in gone.items() for place in where]
    for place, uid in sorted(found, key=lambda item: (isinstance(item[0], str), item[0], item[1])):
        location = f"{own}:{place}" if isinstance(place, int) else place or None
        warn("ref", missing_node_message(domain, uid), location=location)


def rewrite_or_patch(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: the pages to write again, less those whose links alone could be replaced."""
    return pages_to_rewrite(app, env, lambda pages, shown, lines: patch_links(app, env, pages, shown, lines))


def save_links(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: keep the link counts of every page this build wrote, with its file's stamp."""
    build = _BUILDS.get(app.builder)
    if build is None:
        return
    try:
        if exception is None and _supported(app) and (build.resolved or build.changed):
            _save(app, build)
    finally:  # on every way out, last build's file is closed
        if build.kept is not None:
            build.kept.close()


def _save(app: Sphinx, build: _Build) -> None:
    """The new file: the counts of the pages this build wrote or patched, the others' as last build
    left them, none of a page that is gone."""
    assert isinstance(app.builder, StandaloneHTMLBuilder)
    made, dropped = build.made, set()
    for page, links in build.resolved.items():
        try:
            stat = os.stat(app.builder.get_outfilename(page))
        except OSError:
            dropped.add(page)
            continue
        if stat.st_mtime_ns < build.started:  # resolved but not written by this build: not described
            dropped.add(page)
            continue
        made[page] = _entry_bytes(stat, links)
    kept = _kept(app, build)
    pages = ({key.decode("utf-8", "surrogateescape") for key in kept.spans} | made.keys()) - dropped
    path = _manifest_path(app)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_frames(path, _MAGIC, (MANIFEST_VERSION, str(app.outdir)),
                 ((_key(page), made.get(page)) for page in sorted(pages & app.env.all_docs.keys())), kept)


def setup(app: Sphinx) -> None:
    """Decide which pages linking changed nodes are written again, and keep what the decision needs."""
    app.connect("env-before-read-docs", note_read)
    app.connect("env-get-updated", rewrite_or_patch)
    app.connect("doctree-resolved", note_resolved)
    app.connect("build-finished", save_links)
