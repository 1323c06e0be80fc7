"""Each node's share of the whole-catalogue outputs, kept between builds.

``nodes.json``, ``rpg-previews.json`` and the search index's node entries list every node of the book,
so every HTML build remade all of them, whatever it read: in a book of 10,000 nodes that was about
0.3 s of each one-page rebuild (the rule facts, the titles and the JSON text of 10,000 entries).  Here
each node's pieces (its ``nodes.json`` entry, its preview and its search line, as JSON text) are
kept in a file beside the doctrees, keyed by the node's record (and the titles of the nodes its
preview shows): a build remakes only the pieces of records that changed and joins the rest.
Anything else the pieces are made from is in the file's key: the extension's version, the builder,
Sphinx's hash of the HTML configuration and the settings pieces show (``PIECE_SETTINGS``), the bound
registries and the modules they come from (name, size and modification time of each file of the registries'
packages and of the engine), so editing a rule's code remakes every piece.  The file is read and
written by the main process only (``write-started``, before any page is written); an unreadable or
foreign file counts as empty.

A node's line is not part of its pieces: its ``nodes.json`` entry is kept as the text before and after
the line number, which the join puts in, so inserting a paragraph above a definition remakes nothing.
The file (``frames``) holds, for each piece, a 16-byte digest of what it is made from and the piece as
marshal bytes: opening it reads where each piece lies, a piece is read and decoded only when this
build uses it, and the pieces kept go to the next file as they lie.

A rebuild does not digest every record either: ``rpg-piece-keys-<builder>.marshal`` keeps each uid's
digest as the builder's last build left it, and a record whose page was not read again (and whose
mentioned nodes were not touched) keeps its digest, as long as no other builder read pages since
(``NodeDomain.stamp_before``).  The pieces a rebuild makes are added to the file in place
(``frames.append_frames``) until dead pieces outweigh the live ones.

Beside it, a small file (``rpg-outputs-<builder>.marshal``) records the key and the files' size and
time as this build left them.  A build that changes no node record at all (no line either: an edit
of prose) finds it and leaves ``nodes.json`` and the previews as they are without reading the pieces;
every build whose records change removes it (for every builder, since they share the environment)
before the environment is saved, so a build that stops half-way never leaves it behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from sphinx.application import Sphinx

from sphinx_rpg.domain import NodeRecord
from sphinx_rpg.entries import page_title
from sphinx_rpg.files import remove_matching, write_atomically
from sphinx_rpg.frames import Frames, append_frames, write_frames
from sphinx_rpg.inline import compact_json
from sphinx_rpg.spliced import Layout, layouts_path, load_layouts, save_layouts, write_items
from sphinx_rpg.texts import lead_of
from sphinx_rpg.timelimit import engine_calls

CACHE_VERSION = 10
OUTPUTS_VERSION = 1
#: Settings a piece is made from besides the HTML ones: titles, source file names, the book's name
#: (the search line of a node no registry binds).
PIECE_SETTINGS = ("rpg_ref_format", "source_suffix", "project")
#: Where a node's line goes in its ``nodes.json`` entry, made with this line (the one "line" member
#: of an entry; inside a JSON string a quote is escaped, so the text cannot occur there).
_LINE_MARK = -1
_LINE_TEXT = f'"line":{_LINE_MARK}}}'
#: A record's position of ``lineno``, which the pieces are not keyed by.
_LINENO = NodeRecord._fields.index("lineno")
#: A piece key's width (``piece_key``).
_DIGEST = 16


class Pieces(NamedTuple):
    """One node's share of the catalogue outputs."""

    #: its entry in nodes.json, as JSON text before and after its line number
    entry_head: str
    entry_tail: str
    #: its key (URL#anchor) and value in rpg-previews.json, as JSON text
    preview_key: str
    preview: str
    #: its member of the search page's data (``"uid":[..., anchors]``), as JSON text
    search: str
    #: the page it is on, as the builder links it (the pieces hold it)
    uri: str

    def entry(self, lineno: int) -> str:
        """Its entry in nodes.json for a node on line ``lineno``."""
        return f"{self.entry_head}{lineno}{self.entry_tail}"


def engine_files(packages: set[str]) -> list[tuple[str, str, int, int]]:
    """(module, file, size, mtime_ns) of every loaded module of ``packages``: what rule facts are made from."""
    found = []
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] not in packages:
            continue
        path = getattr(module, "__file__", None)
        if not path:
            continue
        try:
            stat = os.stat(path)
        except OSError:
            found.append((name, str(path), -1, -1))
            continue
        found.append((name, str(path), stat.st_size, stat.st_mtime_ns))
    return sorted(found)


def cache_key(app: Sphinx) -> str:
    """Everything besides a node's record that its pieces are made from."""
    from sphinx_rpg.binding import binding_for, configured_paths
    from sphinx_rpg.version import __version__

    builder = app.builder
    binding = binding_for(app.config)
    packages = {"rules", *binding.packages(), *(r.module.partition(".")[0] for r in binding.registries if r.module)}
    build_info = getattr(builder, "build_info", None)
    # Sphinx's configuration hash covers the HTML settings (links); the rest a piece shows is named here
    settings = [repr(getattr(app.config, name, None)) for name in PIECE_SETTINGS]
    described = (CACHE_VERSION, __version__, builder.name, type(builder).__name__, settings,
                 getattr(build_info, "config_hash", None), getattr(build_info, "tags_hash", None),
                 repr(configured_paths(app.config)), binding.errors, engine_files(packages))
    return hashlib.sha256(repr(described).encode("utf-8")).hexdigest()


class Matched(NamedTuple):
    """The winning record of every uid, in uid order, and beside it the digest of its pieces.

    Two lists rather than a list of (record, digest) pairs: 10,000 pairs, alive for the whole write
    phase, were as many more objects for every full collection of the garbage collector to walk."""

    records: list[NodeRecord]
    digests: list[bytes]


class Catalogue:
    """The pieces of every node of this build; matched on first use, saved once the files made of
    them are written (``write-started``)."""

    def __init__(self, app: Sphinx) -> None:
        self._app = weakref.ref(app)  # the table below holds catalogues weakly by builder: no cycle back
        self.path = Path(app.env.doctreedir) / f"rpg-catalogue-{app.builder.name}.marshal"
        #: each uid's digest as this build left them, beside the pieces (``_earlier_keys``)
        self.keys_path = Path(app.env.doctreedir) / f"rpg-piece-keys-{app.builder.name}.marshal"
        self._stamp: str | None = None
        self._keys_saved = False  # True when the file holds this build's digests already
        self.outputs_path = outputs_path(app.env.doctreedir, app.builder.name)
        self.key = cache_key(app)
        #: last build's file, opened when this build first needs the pieces (``release`` closes it),
        #: its pieces by the digest of what each is made from (``piece_key``)
        self.kept: Frames | None = None
        #: the pieces this build made, as marshal bytes, by digest
        self.fresh: dict[bytes, bytes] = {}
        #: the winning record of every uid and its digest, in uid order (None: not matched yet)
        self.keys: Matched | None = None
        self.made = 0
        self._page_files: dict[str, str] = {}  # each page's file name, for its nodes' entries
        self._page_titles: dict[str, str] = {}  # each page's title, flattened, for its nodes' search lines
        #: file name -> (size, mtime_ns, text outside its nodes) as last build left it, when no build
        #: changed a record since; and the same of this build's files, saved at its end
        self._outputs: dict[str, tuple[int, int, str]] | None = self._load_outputs()
        self.written: dict[str, tuple[Path, str]] = {}
        #: the joined files' layouts as last build left them (``spliced``), read when first needed
        self.layouts_path = layouts_path(app.env.doctreedir, app.builder.name)
        self._layouts: dict[str, Layout] | None = None
        self._layouts_changed = False

    @property
    def app(self) -> Any:
        app = self._app()
        if app is None:
            raise ReferenceError("the catalogue's Sphinx application is gone")
        return app

    def release(self) -> None:
        """Close last build's file and drop the pieces made: they are saved, or no longer needed (a
        later ``all`` matches the records again against the file as saved)."""
        kept, self.kept, self.fresh, self.keys = self.kept, None, {}, None
        if kept is not None:
            kept.close()

    def _load_outputs(self) -> dict[str, tuple[int, int, str]] | None:
        try:
            version, key, files = marshal.loads(self.outputs_path.read_bytes())
        except Exception:  # none: a record changed since, or the files were never written
            return None
        return files if version == OUTPUTS_VERSION and key == self.key and isinstance(files, dict) else None

    def write_joined(self, path: Path, head: str, tail: str, item: Callable[[NodeRecord, Pieces], str],
                     identity: Callable[[NodeRecord, bytes], bytes] | None = None, *,
                     records_only: bool = True) -> None:
        """Write ``path`` as ``head``, an item per node in uid order (``item(record, pieces)``) joined by
        commas, and ``tail``; unless it is still the file last build wrote and nothing it is made from
        changed (``_kept_file``; only for a file made from the records alone, ``records_only``: a page
        title, say, may change while every record stays), and then without making an item.  An item
        whose ``identity`` (the piece's key, by default; whatever else the item is made from is added to
        it) is in last build's file is copied from there (``spliced``): only the items of changed nodes
        are made."""
        outside = head + tail
        if not (records_only and self._kept_file(path, outside)):
            keys = self._matched()
            identities = keys.digests if identity is None else [*map(identity, keys.records, keys.digests)]
            layouts = self._joined_layouts()

            def make(index: int) -> str:
                record, key = keys.records[index], keys.digests[index]
                return item(record, self.pieces(record, key))

            layout = write_items(path, head, tail, self.key, identities, make, layouts.get(path.name))
            if layout is None:
                layouts.pop(path.name, None)
            else:
                layouts[path.name] = layout
            self._layouts_changed = True
        self.written[path.name] = (path, outside)

    def _joined_layouts(self) -> dict[str, Layout]:
        if self._layouts is None:
            self._layouts = load_layouts(self.layouts_path)
        return self._layouts

    def _kept_file(self, path: Path, outside: str) -> bool:
        """True when ``path`` is still the file last build wrote and nothing it is made from changed:
        no record (the outputs file would be gone), no setting or engine file (``key``), and not the
        text outside its nodes (``outside``, recorded with the file)."""
        recorded = (self._outputs or {}).get(path.name)
        try:
            stat = path.stat()
        except OSError:
            return False
        return recorded == (stat.st_size, stat.st_mtime_ns, outside)

    def all(self) -> Iterator[tuple[NodeRecord, Pieces]]:
        """(record, pieces) for the winning record of every uid, in uid order.

        The pieces are decoded one at a time as the caller goes: a whole book's pieces are never held
        as text (at 10,000 nodes that was about 10 MB more at the end of every build that changed a
        record)."""
        keys = self._matched()
        for record, key in zip(keys.records, keys.digests):
            yield record, self.pieces(record, key)

    def pieces(self, record: NodeRecord, key: bytes) -> Pieces:
        """The pieces of ``record`` (its digest ``key``): made by this build, or read from the file."""
        fresh = self.fresh.get(key)
        try:
            blob = fresh if fresh is not None else self._kept().value(key)
            return Pieces._make(marshal.loads(blob))
        except (OSError, EOFError, ValueError, TypeError):  # a damaged piece: made again
            return self._make(record, key)

    def _kept(self) -> Frames:
        """Last build's pieces (none when its file is missing, foreign or damaged), opened once."""
        if self.kept is None:
            self.kept = Frames(self.path, _MAGIC, self.key)
        return self.kept

    def _matched(self) -> Matched:
        """Each record's digest, the pieces of records that changed made (once per build).

        A record this build neither cleared nor added, and whose mentioned nodes it did not touch
        either, has last build's digest (``_earlier_keys``): only the others are digested again."""
        if self.keys is None:
            from sphinx_rpg.domain import node_domain

            env = self.app.env
            domain = node_domain(env)
            page_uri: Callable[[str], str] = self.app.builder.get_target_uri
            kept = self._kept().spans
            touched = domain.touched_uids()
            earlier = self._earlier_keys(domain.stamp_before) if touched is not None else {}
            uris: dict[str, str] = {}
            keys = Matched(list(domain.records()), [])
            with engine_calls():  # each changed node's facts are one bounded call
                for record in keys.records:
                    key = earlier.get(record.uid)
                    if (key is not None and touched is not None and record.uid not in touched and key in kept
                            and (not record.mentions or touched.isdisjoint(record.mentions))):
                        keys.digests.append(key)
                        continue
                    uri = uris.get(record.docname)
                    if uri is None:
                        uri = uris[record.docname] = page_uri(record.docname)
                    key = piece_key(domain, record, uri, page_title(env, record.docname, self._page_titles))
                    keys.digests.append(key)
                    if key not in kept:
                        self._make(record, key)
            self.keys = keys
            self._stamp = domain.data.get("records_stamp")
            self._keys_saved = (self._stamp == domain.stamp_before and len(earlier) == len(keys.digests)
                                and all(earlier.get(record.uid) == key
                                        for record, key in zip(keys.records, keys.digests)))
        return self.keys

    def _earlier_keys(self, stamp: str | None) -> dict[str, bytes]:
        """uid -> last build's digest of its record, when this builder's last build saw the records as
        the environment had them before this build (``NodeDomain.stamp_before``); else none."""
        try:
            key, kept_stamp, uids, digests = marshal.loads(self.keys_path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if (key != self.key or stamp is None or kept_stamp != stamp or not isinstance(uids, tuple)
                or not isinstance(digests, bytes) or len(digests) != _DIGEST * len(uids)):
            return {}
        return {uid: digests[index * _DIGEST:(index + 1) * _DIGEST] for index, uid in enumerate(uids)}

    def _save_keys(self, keys: Matched) -> None:
        """Each uid's digest for the next build (``_earlier_keys``); an unwritten file: all digested then."""
        record = (self.key, self._stamp, tuple(r.uid for r in keys.records), b"".join(keys.digests))
        with contextlib.suppress(OSError, ValueError):
            write_atomically(self.keys_path, marshal.dumps(record))

    def _make(self, record: NodeRecord, key: bytes) -> Pieces:
        from sphinx_rpg.binding import binding_for
        from sphinx_rpg.domain import node_domain

        env = self.app.env
        with engine_calls():  # the node's facts are one bounded call (already so inside ``_matched``)
            pieces = make_pieces(env, node_domain(env), binding_for(env.config), record,
                                 self.app.builder.get_target_uri(record.docname), self._page_files,
                                 self._page_titles)
        # every piece is text: as exact ``str`` (a subclass, such as markup, is what marshal cannot write)
        self.fresh[key] = marshal.dumps(tuple(map(str.__str__, pieces)), 0)
        self.made += 1
        return pieces

    def save(self) -> None:
        """Keep this build's pieces for the next one (only when some were made or dropped), then the
        stamps of the files written from them; last build's file is closed either way.  Kept pieces
        go from last build's file to the new one as they lie (``frames.write_frames``), neither
        decoded nor held; a rebuild that made a few pieces adds them to the file in place
        (``frames.append_frames``)."""
        keys = self.keys
        if keys is not None and (self.made or len(keys.digests) != len(self._kept())):
            kept = self._kept()
            with contextlib.suppress(OSError):  # the file is left to the next build, which makes the pieces again
                if not append_frames(self.path, kept, keys.digests, self.fresh.items()):
                    write_frames(self.path, _MAGIC, self.key,
                                 ((key, self.fresh.get(key)) for key in keys.digests), kept)
        if keys is not None and not self._keys_saved:
            self._save_keys(keys)
        self.release()
        self._save_outputs()
        if self._layouts_changed and self._layouts is not None:
            save_layouts(self.layouts_path, self._layouts)
            self._layouts_changed = False

    def _save_outputs(self) -> None:
        files = {}
        for name, (path, text) in self.written.items():
            try:
                stat = path.stat()
            except OSError:
                continue
            files[name] = (stat.st_size, stat.st_mtime_ns, text)
        if files == (self._outputs or {}):
            return
        with contextlib.suppress(OSError, ValueError):
            write_atomically(self.outputs_path, marshal.dumps((OUTPUTS_VERSION, self.key, files)))


#: How a catalogue file starts (a ``frames`` file whose header is the catalogue's key).
_MAGIC = b"sphinx-rpg pieces\n"


def piece_key(domain: Any, record: NodeRecord, uri: str, page_title: str) -> bytes:
    """What a node's pieces are kept by: a digest of its record but its line (its first paragraph and
    sentence by their ``lead_key``), of the address and the title of its page (``uri``, ``page_title``:
    the pieces hold them), and of the titles of the nodes it mentions, when it mentions any (its
    preview shows those titles and its search line their names, so renaming one of them remakes it).
    marshal version 0 writes equal values as equal bytes (no references, no mark for interned strings)."""
    titles = []
    for uid in record.mentions:
        target = domain.record(uid)
        titles.append(domain.display_title(target) if target is not None else "")
    plain = (*record[:_LINENO], *record[_LINENO + 1:], uri, page_title, tuple(titles))
    return hashlib.blake2b(marshal.dumps(plain, 0), digest_size=_DIGEST).digest()


def make_pieces(env: Any, domain: Any, binding: Any, record: NodeRecord, uri: str,
                page_files: dict[str, str] | None = None, page_titles: dict[str, str] | None = None) -> Pieces:
    from sphinx_rpg.entries import node_entry, preview_entry, search_entry

    lead = lead_of(env, record)  # the preview and the search line both show its first sentence
    key, preview = preview_entry(env, domain, record, uri, lead)
    search = search_entry(env, domain, binding, record, page_titles, lead[1])
    entry = node_entry(env, domain, binding, record._replace(lineno=_LINE_MARK), uri, page_files)
    head, mark, tail = compact_json(entry).rpartition(_LINE_TEXT)
    if not mark:  # not an entry this module knows the shape of
        raise ValueError(f"node {record.uid!r}: its nodes.json entry has no line member")
    return Pieces(head + '"line":', "}" + tail, compact_json(key), compact_json(preview), search, uri)


#: builder -> this build's catalogue, kept here rather than on the builder (Sphinx's object).
_CATALOGUES: weakref.WeakKeyDictionary[Any, Catalogue] = weakref.WeakKeyDictionary()


def catalogue(app: Sphinx) -> Catalogue:
    """This build's catalogue (one per builder object, so per build)."""
    found = _CATALOGUES.get(app.builder)
    if found is None:
        found = _CATALOGUES[app.builder] = Catalogue(app)
    return found


def save_catalogue(app: Sphinx, builder: Any) -> None:
    """``write-started`` (after the files that use it): keep the pieces for the next build, and let go
    of last build's file and of the pieces before the pages are written (a book of 10,000 nodes: about
    11 MB)."""
    found = _CATALOGUES.get(builder)
    if found is not None:
        found.save()


def release_catalogue(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: last build's file is closed, however the build ended (a build that
    stopped before ``save_catalogue`` left it open)."""
    found = _CATALOGUES.get(app.builder)
    if found is not None:
        found.release()


def reset_catalogue(app: Sphinx, *_: Any) -> None:
    """``env-before-read-docs``: a second build by the same application starts from the file again."""
    from sphinx_rpg.domain import node_domain

    _CATALOGUES.pop(app.builder, None)
    node_domain(app.env).records_identical = False  # until ``changed_since_last_build`` says otherwise


def outputs_path(doctreedir: str | os.PathLike[str], builder: str) -> Path:
    return Path(doctreedir) / f"rpg-outputs-{builder}.marshal"


def forget_outputs(app: Sphinx, env: Any) -> list[str]:
    """``env-get-updated``: a build whose records changed (a line included) drops every builder's
    outputs file before the environment is saved: those files describe the records as they were."""
    from sphinx_rpg.domain import node_domain

    if not node_domain(env).records_identical:
        remove_matching(env.doctreedir, outputs_path("", "*").name)
    return []


def setup(app: Sphinx) -> None:
    """Keep the pieces between builds, and forget the outputs' stamps when a record changes."""
    app.connect("env-before-read-docs", reset_catalogue)
    # after ``relink``'s handler, which compares the records (``changed_since_last_build``)
    app.connect("env-get-updated", forget_outputs, priority=900)
    app.connect("write-started", save_catalogue, priority=900)  # after everything that uses it
    app.connect("build-finished", release_catalogue)
