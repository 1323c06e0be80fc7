"""Each definition's body as written, kept beside the doctrees by its digest, not in the environment.

``nodes.json`` quotes every node's body as written, so that a later release can say in words what
changed (``changes``).  Kept in each record, those bodies were the largest part of the environment
(3 MB of a 10,000-node book's), loaded, held and pickled again by every build, although only the
entries of changed nodes are ever made from them.  A ``node:def`` notes its body in the domain by its
digest (``NodeDomain.note_text``; a parallel reader's notes are merged like the rest of its data); at
``env-updated``, before the environment is saved, this module moves them to ``rpg-texts.frames``
(a ``frames`` file: one frame per digest; when it is written, the frames of bodies no definition has
any more are dropped and the others copied as they are, the file read once from start to end; a
build that read no body the file lacks leaves it as it is) and ``text_of`` reads one back when an
entry is made.  The file's header and the environment carry the same stamp (a digest of the
set of digests) when the file holds every body the environment needs, and the environment records the
file's size and time as written.

A build whose environment and file disagree (the file deleted, damaged or left half-written) looks
for the definitions whose body the file lacks and reads their pages again (``env-get-outdated``), so
an entry never silently goes without its text; a build that cannot write the file keeps the bodies
it read in memory until it ends.

Each definition's first paragraph (formatted for its preview) and first sentence are kept the same
way, under the record's ``lead_key`` (a digest of the two): the pieces of a changed node are made from
them (``lead_of``), and the environment no longer carries them (2.8 MB of a 10,000-node book's).
"""

from __future__ import annotations

import hashlib
import json
import os
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from sphinx_rpg.domain import NodeRecord, node_domain
from sphinx_rpg.frames import Frames, filter_frames, header_of

TEXTS_VERSION = 2
_MAGIC = b"sphinx-rpg texts\n"

#: env -> the texts file opened for reading in this build (closed before it is replaced, and at the end).
_OPEN: weakref.WeakKeyDictionary[Any, Frames] = weakref.WeakKeyDictionary()
#: env -> the bodies this build read when the texts file could not be written (until the build ends).
_UNSAVED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def texts_path(doctreedir: str | os.PathLike[str]) -> Path:
    return Path(doctreedir) / "rpg-texts.frames"


def _key(digest: str) -> bytes:
    return digest.encode("utf-8")


def _kept(env: BuildEnvironment) -> Frames:
    """The texts file, opened once until ``_close``: where each body lies is itself a table of every
    definition, so it is held only while entries are made (``text_of``)."""
    found = _OPEN.get(env)
    if found is None:
        path = texts_path(env.doctreedir)
        header = header_of(path, _MAGIC)
        found = _OPEN[env] = Frames(path, _MAGIC, header if _is_texts_header(header) else (TEXTS_VERSION,))
    return found


def _is_texts_header(header: Any) -> bool:
    return isinstance(header, tuple) and len(header) == 2 and header[0] == TEXTS_VERSION


def _close(env: BuildEnvironment) -> None:
    found = _OPEN.pop(env, None)
    if found is not None:
        found.close()


def text_of(env: BuildEnvironment, digest: str) -> str:
    """The body as written of the definition whose digest is ``digest`` ("" when it was too long to
    keep, or is not known)."""
    if not digest:
        return ""
    unsaved = _UNSAVED.get(env)
    if unsaved is not None and digest in unsaved:
        return unsaved[digest]
    try:
        return _kept(env).value(_key(digest)).decode("utf-8")
    except (KeyError, OSError, UnicodeDecodeError):
        return ""


def lead_of(env: BuildEnvironment, record: NodeRecord) -> tuple[str, str]:
    """The node's first paragraph (JSON runs, "" when it has none) and first sentence ("" when unknown)."""
    kept = text_of(env, record.lead_key)
    if not kept:
        return "", ""
    try:
        lead, sentence = json.loads(kept)
    except ValueError:
        return "", ""
    return str(lead), str(sentence)


def _wanted(record: NodeRecord) -> Iterator[bytes]:
    """The texts file's keys a definition needs: its body's and its lead's."""
    if record.digest:
        yield _key(record.digest)
    if record.lead_key:
        yield _key(record.lead_key)


def _every_place(env: BuildEnvironment) -> Iterator[NodeRecord]:
    domain = node_domain(env)
    for uid in domain.definitions:
        yield from domain.places(uid)


def _stamp(keys: Iterable[bytes]) -> str:
    """A digest of a set of digests: what the texts file's header and the environment say it holds."""
    found = hashlib.sha256()
    for key in sorted(keys):
        found.update(key + b"\0")
    return found.hexdigest()[:32]


def keep_texts(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: the bodies this build read go to the texts file, which keeps the body of every
    definition (by digest); the environment keeps none, only the stamp of a file that holds every
    body it needs (``pages_without_texts`` trusts it).

    A rebuild whose bodies are all in the file already (a node moved, renamed or deleted; prose edited
    around the definitions) leaves the file as it is, without walking every record: the file held
    every body the records of the pages not read again need, and it holds those of the pages read.
    A body no longer needed stays in it until the file is next written."""
    domain = node_domain(env)
    new = domain.take_texts()
    path = texts_path(env.doctreedir)
    recorded = domain.data.get("texts_stamp")
    if isinstance(recorded, tuple) and _as_left(path, recorded[0]) == recorded:
        kept = _kept(env)
        if all(_key(digest) in kept for digest in new):
            return
    _close(env)
    wanted = {key for record in _every_place(env) for key in _wanted(record)}
    stamp = _stamp(wanted)
    if recorded is not None and recorded == _as_left(path, stamp):
        return  # the file holds every body wanted, and a body is known by its digest: nothing to add
    domain.data["texts_stamp"] = None
    added = ((_key(digest), text.encode("utf-8")) for digest, text in sorted(new.items()) if _key(digest) in wanted)
    try:
        written = filter_frames(path, _MAGIC, (TEXTS_VERSION, stamp), wanted.__contains__, added)
    except OSError:
        # the file stays as it was: this build's entries take the bodies it read from memory, and
        # the next build reads their pages again (``pages_without_texts``)
        _UNSAVED[env] = new
        return
    if written == wanted:
        domain.data["texts_stamp"] = _as_left(path, stamp)


def _as_left(path: Path, stamp: str) -> tuple[str, int, int] | None:
    """What the environment records of a texts file that holds every body it needs: the stamp of the
    bodies, and the file's size and time as written (a file cut short or replaced since is looked
    through again); None when the file is not there, or its header carries another stamp."""
    try:
        status = path.stat()
    except OSError:
        return None
    if header_of(path, _MAGIC) != (TEXTS_VERSION, stamp):
        return None
    return stamp, status.st_size, status.st_mtime_ns


def pages_without_texts(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                        removed: set[str]) -> list[str]:
    """``env-get-outdated``: the pages of the definitions whose body the texts file lacks; none when
    the file's header carries the stamp the environment was saved with (read alone: no table of
    every body is made)."""
    domain = node_domain(env)
    path = texts_path(env.doctreedir)
    recorded = domain.data.get("texts_stamp")
    if isinstance(recorded, tuple) and _as_left(path, recorded[0]) == recorded:
        return []
    header = header_of(path, _MAGIC)
    kept = Frames(path, _MAGIC, header) if _is_texts_header(header) else None
    missing = {record.docname for record in _every_place(env)
               if any(kept is None or key not in kept for key in _wanted(record))}
    if kept is not None:
        kept.close()
    return sorted(missing - removed - added - changed)


def close_texts(app: Sphinx, builder: Any) -> None:
    """``write-started``, once the entries of changed nodes are made: the texts file is closed (a
    builder that makes entries later, such as ``nodes_json``, opens it again)."""
    _close(app.env)


def finish_texts(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the texts file is closed, and bodies kept in memory are let go."""
    _close(app.env)
    _UNSAVED.pop(app.env, None)


def setup(app: Sphinx) -> None:
    app.connect("env-get-outdated", pages_without_texts)
    app.connect("env-updated", keep_texts)  # every reader's data is merged by then
    app.connect("write-started", close_texts, priority=950)  # after the catalogue saved its pieces (900)
    app.connect("build-finished", finish_texts)
