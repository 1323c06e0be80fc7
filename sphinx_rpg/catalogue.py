"""Each node's share of the whole-catalogue outputs, kept between builds.

``nodes.json``, ``rpg-previews.json`` and the search index's node entries list every node of the book,
so every HTML build remade all of them, whatever it read: in a book of 10,000 nodes that was about
0.3 s of each one-page rebuild (the rule facts, the titles and the JSON text of 10,000 entries).  Here
each node's pieces (its ``nodes.json`` entry and its preview as JSON text, its search heading) are
kept in a file beside the doctrees, keyed by the node's record (and the titles of the nodes its
preview shows): a build remakes only the pieces of records that changed and joins the rest.
Anything else the pieces are made from is in the file's key: the extension's version, the builder,
Sphinx's hash of the HTML configuration and the settings pieces show (``PIECE_SETTINGS``), the bound
registries and the modules they come from (name, size and modification time of each file of the registries'
packages and of the engine), so editing a rule's code remakes every piece.  The file is read and
written by the main process only (``build-finished``, ``html-collect-pages``); an unreadable or
foreign file counts as empty.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from sphinx.application import Sphinx

from sphinx_rpg.domain import NodeRecord

CACHE_VERSION = 5
#: Settings a piece is made from besides the HTML ones: titles, headings, source file names.
PIECE_SETTINGS = ("rpg_ref_format", "rpg_heading_format", "source_suffix")


class Pieces(NamedTuple):
    """One node's share of the catalogue outputs."""

    #: its entry in nodes.json, as JSON text
    entry: str
    #: its key (URL#anchor) and value in rpg-previews.json, as JSON text
    preview_key: str
    preview: str
    #: its heading in the search index (``rpg_heading_format``)
    heading: str
    #: the page it is on, as the builder links it (the pieces hold it)
    uri: str


def _dumps(value: Any) -> str:
    # compact separators keep json on its C encoder (indent= falls back to pure Python: ~5x slower)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


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


class Catalogue:
    """The pieces of every node of this build; made on first use, saved at the end of the build."""

    def __init__(self, app: Sphinx) -> None:
        self._app = weakref.ref(app)  # the table below holds catalogues weakly by builder: no cycle back
        self.path = Path(app.env.doctreedir) / f"rpg-catalogue-{app.builder.name}.marshal"
        self.key = cache_key(app)
        #: last build's pieces by record, as plain tuples (marshal writes only those; a NodeRecord
        #: finds its plain tuple: equal tuples hash alike)
        self.kept: dict[tuple[Any, ...], tuple[str, ...]] = self._load()
        #: how many pieces the file held (``kept`` is dropped once this build's pieces are made from it)
        self.kept_count = len(self.kept)
        self.pieces: dict[NodeRecord, Pieces] | None = None
        #: the key of each record whose pieces show other nodes (``piece_key``); the others are their own
        self.keys: dict[NodeRecord, tuple[Any, ...]] = {}
        self.made = 0

    @property
    def app(self) -> Any:
        app = self._app()
        if app is None:
            raise ReferenceError("the catalogue's Sphinx application is gone")
        return app

    def _load(self) -> dict[tuple[Any, ...], tuple[str, ...]]:
        try:
            data = self.path.read_bytes()
            # from bytes: marshal.load on a file reads it in small pieces, 4x slower for 10 MB
            key, kept = marshal.loads(data)
        except Exception:  # none yet, or from another version: every piece is made again
            return {}
        return kept if key == self.key and isinstance(kept, dict) else {}

    def all(self) -> dict[NodeRecord, Pieces]:
        """record -> pieces for the winning record of every uid, in uid order."""
        if self.pieces is None:
            from sphinx_rpg.binding import binding_for
            from sphinx_rpg.domain import node_domain

            env = self.app.env
            domain, binding = node_domain(env), binding_for(env.config)
            page_uri: Callable[[str], str] = self.app.builder.get_target_uri
            self.pieces = self._made(env, domain, binding, page_uri)
            # last build's records are copies of this build's (their own strings, read from the file):
            # once the pieces are matched to this build's records they are only memory, until the end
            self.kept = {}
        return self.pieces

    def _made(self, env: Any, domain: Any, binding: Any, page_uri: Callable[[str], str]) -> dict[NodeRecord, Pieces]:
        pieces: dict[NodeRecord, Pieces] = {}
        uris: dict[str, str] = {}
        for record in domain.records():
            uri = uris.get(record.docname)
            if uri is None:
                uri = uris[record.docname] = page_uri(record.docname)
            key = piece_key(domain, record)
            if key is not record:
                self.keys[record] = key
            kept = self.kept.get(key)
            found = Pieces._make(kept) if kept is not None else None
            if found is None or found.uri != uri:
                found = make_pieces(env, domain, binding, record, uri)
                self.made += 1
            pieces[record] = found
        return pieces

    def save(self) -> None:
        """Keep this build's pieces for the next one (only when some were made or dropped)."""
        if self.pieces is None or (self.made == 0 and len(self.pieces) == self.kept_count):
            return
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            plain = {tuple(self.keys.get(record, record)): tuple(pieces) for record, pieces in self.pieces.items()}
            data = marshal.dumps((self.key, plain))
            temporary.write_bytes(data)
            os.replace(temporary, self.path)
        except (OSError, ValueError):  # ValueError: a value marshal cannot write (a str subclass...)
            with contextlib.suppress(OSError):
                temporary.unlink()  # the next build makes them again


def piece_key(domain: Any, record: NodeRecord) -> tuple[Any, ...]:
    """What a node's pieces are kept by: its record, and the titles of the nodes its first paragraph
    links, when it links any (its preview shows those titles, so renaming one of them remakes it)."""
    if '["ref",' not in record.lead:
        return record
    titles = []
    for run in json.loads(record.lead):
        if run[0] == "ref":
            target = domain.record(run[1])
            titles.append(domain.display_title(target) if target is not None else "")
    return (*record, tuple(titles))


def make_pieces(env: Any, domain: Any, binding: Any, record: NodeRecord, uri: str) -> Pieces:
    from sphinx_rpg.config import render_title
    from sphinx_rpg.entries import node_entry, preview_entry

    key, preview = preview_entry(domain, record, uri)
    heading = render_title(env.config.rpg_heading_format, name=record.name, types=record.types,
                           uid=record.uid, type_names=dict(zip(record.types, record.type_names)))
    return Pieces(_dumps(node_entry(env, domain, binding, record, uri)), _dumps(key), _dumps(preview), heading, uri)


#: builder -> this build's catalogue, kept here rather than on the builder (Sphinx's object).
_CATALOGUES: weakref.WeakKeyDictionary[Any, Catalogue] = weakref.WeakKeyDictionary()


def catalogue(app: Sphinx) -> Catalogue:
    """This build's catalogue (one per builder object, so per build)."""
    found = _CATALOGUES.get(app.builder)
    if found is None:
        found = _CATALOGUES[app.builder] = Catalogue(app)
    return found


def save_catalogue(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished`` (after the files that use it): keep the pieces for the next build."""
    found = _CATALOGUES.get(app.builder)
    if exception is None and found is not None:
        found.save()


def reset_catalogue(app: Sphinx, *_: Any) -> None:
    """``env-before-read-docs``: a second build by the same application starts from the file again."""
    _CATALOGUES.pop(app.builder, None)
